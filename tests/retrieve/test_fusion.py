"""Fusion keeps provenance and follows the published formulas."""

import pytest

from zhiku.errors import ZhikuError
from zhiku.retrieve.fusion import FusionMode, fuse, rrf, weighted
from zhiku.types import Chunk, Hit
from tests.retrieve.conftest import search_lists

pytestmark = pytest.mark.unit


def _hit(cid: str, score: float, source: str) -> Hit:
    c = Chunk(cid, "d", "a.md", "t", "1", ("第一章",), None, f"text {cid}", 0, 1)
    return Hit(c, score, source)


def test_rrf_scores_and_sources():
    kw = [_hit("a", 9.0, "bm25"), _hit("b", 5.0, "bm25")]
    de = [_hit("b", 0.9, "dense"), _hit("c", 0.8, "dense")]
    out = rrf([kw, de], k=60)
    assert [h.chunk.id for h in out] == ["b", "a", "c"]
    assert out[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert out[0].sources == {"bm25": (2, 5.0), "dense": (1, 0.9)}
    assert out[0].source == "rrf"
    # the input hits are untouched
    assert kw[1].score == 5.0 and kw[1].source == "bm25"


def test_weighted_min_max():
    kw = [_hit("a", 10.0, "bm25"), _hit("b", 0.0, "bm25")]
    de = [_hit("b", 0.9, "dense"), _hit("a", 0.5, "dense")]
    out = weighted([kw, de], [0.3, 0.7])
    assert out[0].chunk.id == "b" and out[0].score == pytest.approx(0.7)
    assert out[1].score == pytest.approx(0.3)


def test_fuse_dispatch_and_limit():
    kw = [_hit(str(i), 10 - i, "bm25") for i in range(5)]
    assert len(fuse([kw, []], FusionMode.RRF, limit=3)) == 3
    assert fuse([kw, kw], FusionMode.WEIGHTED, alpha=0.5)[0].chunk.id == "0"


def test_bad_mode_lists_valid_ones():
    with pytest.raises(ZhikuError, match="rrf, weighted"):
        FusionMode.from_str("borda")


# 天天上班，连一天休息都没有: the dense list's best passage (劳动法 第三十八条, one day of
# rest a week) stands ninth in the keyword list; the keyword and dense lists of 50 share
# many middling passages, which outrank it at RRF's k = 60
NO_REST_DAY = "我们厂一个月到头天天上班，连一天休息都没有，这合法吗？"


def _expected(lists, k: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for hits in lists:
        for rank, h in enumerate(hits, 1):
            out[h.chunk.id] = out.get(h.chunk.id, 0.0) + 1 / (k + rank)
    return out


@pytest.mark.integration
def test_a_keyword_and_a_dense_list_fuse_with_the_hybrid_constant(kb):
    from zhiku.retrieve.fusion import fuse_search

    _, lists = search_lists(kb, NO_REST_DAY)
    assert [h.source for h in lists[0][:1] + lists[1][:1]] == ["bm25", "dense"]
    for k in (10, 60):
        cfg = kb.config.model_copy(update={"hybrid_rrf_k": k, "hybrid_fusion": ""})  # RRF as `fusion` says
        want = _expected(lists, k)
        got = fuse_search(lists, cfg)
        assert {h.chunk.id: h.score for h in got} == pytest.approx(want)
        assert [h.score for h in got] == sorted((h.score for h in got), reverse=True)
    # 0: the shared constant
    shared = fuse_search(lists, kb.config.model_copy(update={"hybrid_rrf_k": 0, "hybrid_fusion": ""}))
    assert {h.chunk.id: h.score for h in shared} == pytest.approx(_expected(lists, kb.config.rrf_k))


@pytest.mark.integration
def test_each_lists_best_passage_comes_through_the_fusion(kb):
    from zhiku.ask.search import Mode, retrieve
    from zhiku.kb import KnowledgeBase

    _, (kw, de) = search_lists(kb, NO_REST_DAY)
    best = de[0].chunk
    assert best.article == "第三十八条" and best.doc_path.startswith("社会法/劳动法")
    assert next(i for i, h in enumerate(kw, 1) if h.chunk.id == best.id) > 5
    assert kb.config.hybrid_rrf_k == 0  # shipped off: the shared constant
    plain = kb.config.model_copy(update={"fusion_complete": False, "hybrid_fusion": "",  # as retrieved, RRF
                                         "learned_rank": False})  # the fusion's own order, not the learned one
    ten = KnowledgeBase(plain.model_copy(update={"hybrid_rrf_k": 10}))
    shipped = retrieve(ten, NO_REST_DAY, Mode.HYBRID, route=False).hits
    old = retrieve(KnowledgeBase(plain), NO_REST_DAY, Mode.HYBRID, route=False).hits
    assert shipped[0].chunk.id == best.id
    assert old[0].chunk.id != best.id  # at k = 60 a passage both lists hold lower down wins
    # the same candidates, only their order differs; both retrievers' ranks are kept
    assert {h.chunk.id for h in shipped} == {h.chunk.id for h in old}
    assert {"bm25", "dense"} <= set(shipped[0].sources)


@pytest.mark.integration
def test_keyword_lists_alone_keep_the_shared_constant(kb):
    """Keyword-only search is unchanged: a named law's own keyword list is fused with the
    whole index's by ``rrf_k`` whatever ``hybrid_rrf_k`` says."""
    from zhiku.ask.search import Mode, fuzzy, narrow
    from zhiku.retrieve.fusion import fuse_search

    p, (kw,) = search_lists(kb, "按劳动法，" + NO_REST_DAY, Mode.BM25)
    assert p.ref.doc_ids
    inside = fuzzy(kb, p, narrow(p.scope, p.ref.doc_ids), [], terms=p.inner_terms)
    assert len(inside) == 1 and inside[0]
    lists = [kw, *inside]
    for k in (1, 10):
        got = fuse_search(lists, kb.config.model_copy(update={"hybrid_rrf_k": k}))
        assert {h.chunk.id: h.score for h in got} == pytest.approx(_expected(lists, kb.config.rrf_k))


def test_weighted_rrf_scales_each_lists_reciprocal_ranks():
    kw = [_hit("a", 9.0, "bm25"), _hit("b", 5.0, "bm25")]
    de = [_hit("b", 0.9, "dense"), _hit("a", 0.8, "dense")]
    even = rrf([kw, de], k=60)
    assert even[0].score == pytest.approx(even[1].score)  # each first once, second once
    out = rrf([kw, de], k=60, weights=[1.0, 0.3])
    assert [h.chunk.id for h in out] == ["a", "b"]
    assert out[0].score == pytest.approx(1 / 61 + 0.3 / 62)
    assert out[1].score == pytest.approx(1 / 62 + 0.3 / 61)
    # weighted fusion multiplies its weights by the factors the same way
    plain = fuse([kw, de], FusionMode.WEIGHTED, alpha=0.5)
    scaled = fuse([kw, de], FusionMode.WEIGHTED, alpha=0.5, factors=[1.0, 0.3])
    assert plain[0].score == pytest.approx(plain[1].score)
    assert [h.chunk.id for h in scaled] == ["a", "b"] and scaled[0].score == pytest.approx(0.5)


def _normalised(hits) -> dict[str, float]:
    lo, hi = min(h.score for h in hits), max(h.score for h in hits)
    return {h.chunk.id: (h.score - lo) / (hi - lo) for h in hits}


@pytest.mark.integration
def test_a_question_beside_a_dense_list_is_fused_by_weight_and_a_narrative_by_rank(kb):
    """``hybrid_fusion`` (weighted, ``hybrid_alpha`` 0.7 of the dense list) fuses a keyword
    and a dense list of an everyday question; a question of more than
    ``hybrid_fusion_max_words`` words (a case narrative) and keyword lists alone keep
    ``fusion`` (RRF)."""
    from zhiku.retrieve.fusion import fuse_search, fusion_of

    p, lists = search_lists(kb, NO_REST_DAY)
    cfg = kb.config.model_copy(update={"hybrid_doc_weight": 0.0})  # the fusion alone (document evidence off)
    assert (cfg.hybrid_fusion, cfg.hybrid_alpha, cfg.fusion) == ("weighted", 0.7, "rrf")
    kw, de = _normalised(lists[0]), _normalised(lists[1])
    want = {c: 0.3 * kw.get(c, 0.0) + 0.7 * de.get(c, 0.0) for c in {*kw, *de}}
    got = fuse_search(lists, cfg, cfg.alpha, words=len(p.terms))
    assert fusion_of(cfg, lists, len(p.terms)) == "weighted"
    assert {h.chunk.id: h.score for h in got} == pytest.approx(want)
    assert got[0].chunk.id == lists[1][0].chunk.id  # the dense list's 第三十八条 leads
    narrative = cfg.hybrid_fusion_max_words + 1
    assert fusion_of(cfg, lists, narrative) == "rrf"
    by_rank = fuse_search(lists, cfg, words=narrative)
    assert {h.chunk.id: h.score for h in by_rank} == pytest.approx(_expected(lists, cfg.rrf_k))
    assert fusion_of(cfg, lists[:1], len(p.terms)) == "rrf"  # a keyword list alone


# a question no test law answers: the keyword list's best passage is one the dense list did not
# retrieve (dense search only scored it, ``dense_filled``), and it leads the hybrid ranking
OFF_TOPIC = "2022年卡塔尔世界杯的冠军是哪支球队？"


@pytest.mark.integration
def test_a_hybrid_ranking_led_by_a_keyword_only_hit_still_has_its_dense_list(kb):
    """Whether a dense list is among the lists is asked of the lists (``has_dense``), not of
    the first hit's sources: the learned order reorders a hybrid ranking whose first hit only the
    keyword list found, as it does one led by a passage dense search found (the positive twin);
    the keyword list alone has none."""
    from zhiku.ask.search import Mode, learned_applies, retrieve
    from zhiku.kb import KnowledgeBase
    from zhiku.retrieve.fusion import has_dense

    depth = kb.config.learned_rank_depth
    off = KnowledgeBase(kb.config.model_copy(update={"learned_rank": False}))
    on = KnowledgeBase(kb.config.model_copy(update={"learned_rank": True}))
    for q in (OFF_TOPIC, NO_REST_DAY):
        p, lists = search_lists(kb, q)
        assert has_dense(lists) and not has_dense(lists[:1]) and learned_applies(on, p, has_dense(lists))
        searched = retrieve(off, q, Mode.HYBRID, route=False).hits
        reordered = retrieve(on, q, Mode.HYBRID, route=False).hits
        assert not any("learned" in h.sources for h in searched)
        assert all("learned" in h.sources for h in reordered[:depth]), q
        assert {h.chunk.id for h in reordered[:depth]} == {h.chunk.id for h in searched[:depth]}
    first = retrieve(off, OFF_TOPIC, Mode.HYBRID, route=False).hits[0]
    assert "dense" not in first.sources and "dense_filled" in first.sources  # keyword-only, led
    assert "dense" in retrieve(off, NO_REST_DAY, Mode.HYBRID, route=False).hits[0].sources  # the twin's


def test_a_dense_list_is_told_by_its_hits_own_merged_or_completed():
    """``has_dense``: a dense list (its own hits, or one completed with a keyword candidate it
    only scored), the dense lists of two sub-indexes merged by RRF (source ``rrf``); never a
    keyword list, even one completed with the dense list's candidates (``bm25_filled``)."""
    from zhiku.retrieve.fusion import has_dense

    kw = [_hit("a", 9.0, "bm25"), Hit(_hit("c", 1.0, "bm25").chunk, 1.0, "bm25", {"bm25_filled": (2, 1.0)})]
    de = [_hit("b", 0.9, "dense"), _hit("c", 0.8, "dense")]
    completed = [Hit(kw[0].chunk, 0.95, "dense", {"dense_filled": (1, 0.95)}), *de]
    assert not has_dense([kw]) and not has_dense([kw, []]) and not has_dense([])
    assert has_dense([kw, de]) and has_dense([kw, completed]) and has_dense([completed[:1]])
    merged = rrf([de, [_hit("d", 0.7, "dense")]])
    assert merged[0].source == "rrf" and has_dense([kw, merged])
    assert has_dense([rrf([kw, de])])  # a routed search's fused order, one list
