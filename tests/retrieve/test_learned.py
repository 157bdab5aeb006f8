"""The learned re-ranker (learned_rank): its bundled model loads, it orders the first candidates
of a search by its features, and it leaves alone what it should. Real law files (tests/data/laws),
a real store, keyword search."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, prepare, retrieve
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.learned import FEATURES, _STATUTE, _ordinal, features, learned_order, load_model, model_scores
from tests.conftest import ingested_kb

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
OVERTIME = "公司安排加班不给加班费，工资应该怎么算？"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return ingested_kb(tmp_path_factory, [LAWS], routing=False)


def _hits(kb, q, on, **more):  # a keyword-only ranking: reordered only with learned_rank_keyword
    kb = KnowledgeBase(kb.config.model_copy(update={"learned_rank": on, "learned_rank_keyword": True, **more}))
    return retrieve(kb, q, Mode.BM25, route=False).hits


def test_the_bundled_model_loads_and_reads_known_features():
    m = load_model()
    assert m["features"] and set(m["features"]) <= set(FEATURES)
    assert len(m["weights"]) == len(m["mean"]) == len(m["scale"]) == len(m["features"])
    assert m["weights"][m["features"].index("rank")] < 0  # a lower place in the search's order counts against


def test_statutes_and_article_numbers_are_told_from_titles():
    for t in ("中华人民共和国劳动合同法", "中华人民共和国民法典 婚姻家庭编", "刑法（2020修正）", "宪法"):
        assert _STATUTE.search(t), t
    for t in ("道路交通安全法实施条例", "全国年节及纪念日放假办法", "劳动仲裁和劳动诉讼的攻略",
              "最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的解释（一）"):
        assert not _STATUTE.search(t), t
    assert (_ordinal("第四十四条"), _ordinal("第二百七十六条之一"), _ordinal(None)) == (44, 276, None)


@pytest.mark.integration
def test_the_first_candidates_are_ordered_by_the_models_scores(kb):
    off, on = _hits(kb, OVERTIME, False), _hits(kb, OVERTIME, True)
    depth = kb.config.learned_rank_depth
    assert {h.chunk.id for h in on[:depth]} == {h.chunk.id for h in off[:depth]}  # the same candidates
    assert [h.chunk.id for h in on[depth:]] == [h.chunk.id for h in off[depth:]]  # the rest as they were
    logits = [h.sources["learned"][1] for h in on[:depth]]
    assert logits == sorted(logits, reverse=True)
    assert [h.score for h in on[:depth]] == sorted((h.score for h in off[:depth]), reverse=True)
    # the scores come from the candidates' features, in the search's order
    p = prepare(kb, OVERTIME, Mode.BM25, Scope(), [])
    rows = features(off[:depth], p.terms, kb.idf, p.asks, p.ref.doc_ids, kb.cited_by()[0])
    want = sorted(model_scores(load_model(), rows), reverse=True)
    assert logits == pytest.approx([round(x, 4) for x in want], abs=1e-4)


@pytest.mark.integration
def test_a_model_weighing_one_feature_orders_by_it(kb):
    off = _hits(kb, OVERTIME, False)
    p = prepare(kb, OVERTIME, Mode.BM25, Scope(), [])

    def model(name, weight):
        return {"features": [name], "weights": [weight], "mean": [0.0], "scale": [1.0], "bias": 0.0}

    backwards = learned_order(kb, p, off, 10, {}, model("rank", 1.0))  # a lower place counts for
    assert [h.chunk.id for h in backwards[:10]] == [h.chunk.id for h in reversed(off[:10])]
    # a numbered provision before the guide (which has no article number)
    assert any(h.chunk.article is None for h in off[:10]), "the guide is among the candidates"
    provisions = learned_order(kb, p, off, 10, {}, model("provision", 5.0))
    numbered = [h.chunk.article is not None for h in provisions[:10]]
    assert numbered == sorted(numbered, reverse=True)


@pytest.mark.integration
def test_off_a_named_article_and_a_narrative_keep_their_order(kb):
    def same(q, **more):
        a, b = _hits(kb, q, False, **more), _hits(kb, q, True, **more)
        return [(h.chunk.id, h.score) for h in a] == [(h.chunk.id, h.score) for h in b]

    assert not same(OVERTIME)  # the positive twin: an everyday question is reordered
    assert same("劳动合同法第四十四条规定了什么？")  # the named article found exactly leads, the rest keep their order
    assert same("劳动合同法第九十九条规定了什么？")  # named but not found: a clause lookup keeps its order too
    narrative = ("二〇二三年三月，原告张某入职被告某科技公司担任销售经理，双方签订了为期三年的劳动合同，"
                 "约定月工资一万元。同年十月，公司以经营困难为由口头通知张某解除劳动合同，未支付任何补偿，"
                 "也未提前三十日书面通知。张某申请劳动仲裁，要求公司支付违法解除劳动合同的赔偿金。")
    assert len(prepare(kb, narrative, Mode.BM25, Scope(), []).terms) > kb.config.heading_max_words
    assert same(narrative)


@pytest.mark.integration
def test_a_keyword_only_ranking_is_reordered_as_shipped(kb):
    """Shipped, the learned order reorders a keyword-only ranking too (learned_rank_keyword);
    off, it keeps the search's order, as a ranking with a dense list never does."""
    from zhiku.ask.search import fuzzy, learned_applies
    from zhiku.retrieve.fusion import has_dense

    assert kb.config.learned_rank and kb.config.learned_rank_keyword
    shipped = retrieve(kb, OVERTIME, Mode.BM25, route=False).hits
    assert [h.chunk.id for h in shipped] == [h.chunk.id for h in _hits(kb, OVERTIME, True)]
    assert all("learned" in h.sources for h in shipped[:kb.config.learned_rank_depth])
    p = prepare(kb, OVERTIME, Mode.BM25, Scope(), [])
    lists = fuzzy(kb, p, Scope(), [])
    assert not has_dense(lists) and learned_applies(kb, p, has_dense(lists))
    off = KnowledgeBase(kb.config.model_copy(update={"learned_rank_keyword": False}))
    kept = retrieve(off, OVERTIME, Mode.BM25, route=False).hits
    assert not any("learned" in h.sources for h in kept)
    assert [h.chunk.id for h in kept] == [h.chunk.id for h in _hits(kb, OVERTIME, False)]
    assert not learned_applies(off, p, False) and learned_applies(off, p, True)  # beside a dense list it still does


@pytest.mark.integration
def test_the_search_order_is_kept_beside_the_learned_one(kb):
    """Each reordered candidate keeps its place and score in the search's own order (source
    ``searched``): :func:`searched_order` puts them back exactly. A ranking nothing reordered,
    or one reordered again after the learned order, is left as it is."""
    from dataclasses import replace

    from zhiku.retrieve.learned import SEARCHED, searched_order

    off, on = _hits(kb, OVERTIME, False), _hits(kb, OVERTIME, True)
    depth = kb.config.learned_rank_depth
    assert [h.chunk.id for h in on] != [h.chunk.id for h in off]  # the learned order moved something
    back = searched_order(on)
    assert [(h.chunk.id, h.score) for h in back] == [(h.chunk.id, h.score) for h in off]
    assert [h.sources[SEARCHED][0] for h in back[:depth]] == list(range(1, depth + 1))
    assert searched_order(off) == off  # nothing reordered
    again = list(reversed(on[:depth])) + on[depth:]  # reordered after the learned order (a reranker's)
    assert searched_order(again) == again
    assert searched_order([replace(h, sources={k: v for k, v in h.sources.items() if k != SEARCHED})
                           for h in on]) == [replace(h, sources={k: v for k, v in h.sources.items() if k != SEARCHED})
                                             for h in on]


# the learned order moves the articles on notice up and the guide, which the search had third, down
NOTICE = "辞职要提前多久说？"


@pytest.mark.integration
def test_what_judges_a_reordered_keyword_ranking_reads_the_search_order(kb):
    """The confidence model and the keyword veto (and what the answer shows: does it cite the first
    passage?) read a reordered keyword-only ranking in the search's order, which they were
    fitted on; the ranking shown and the answer take the learned order. Read in the learned
    order (learned_rank_searched off), the model sees other first passages and the confidence
    moves: the positive twin. A ranking with a dense list is read as it is."""
    from dataclasses import replace

    from zhiku.ask import Query, ask
    from zhiku.retrieve.learned import judged_order

    def asked(**more):
        k = KnowledgeBase(kb.config.model_copy(update=more))
        a = ask(k, Query(NOTICE, mode=Mode.BM25, use_cache=False))
        return a, next(t.detail for t in a.trace if t.stage == "confidence")

    kept, kept_conf = asked(learned_rank_keyword=False)
    shipped, conf = asked()
    raw, raw_conf = asked(learned_rank_searched=False)
    depth = kb.config.learned_rank_depth
    assert [h.chunk.id for h in shipped.hits[:depth]] != [h.chunk.id for h in kept.hits[:depth]]
    assert {h.chunk.id for h in shipped.hits[:depth]} == {h.chunk.id for h in kept.hits[:depth]}
    assert conf["features"] == kept_conf["features"] and shipped.confidence == pytest.approx(kept.confidence)
    assert not shipped.refused and shipped.text == kept.text
    assert [h.chunk.id for h in raw.hits] == [h.chunk.id for h in shipped.hits]  # the same ranking shown
    assert raw_conf["features"] != conf["features"] and raw.confidence != pytest.approx(shipped.confidence)
    hits = list(shipped.hits)
    assert [h.chunk.id for h in judged_order(kb.config, hits)] == [h.chunk.id for h in kept.hits]
    dense = [replace(h, sources={**h.sources, "dense": (i, 0.9)}) for i, h in enumerate(hits, 1)]
    assert judged_order(kb.config, dense) == dense  # with a dense list: as it is


@pytest.mark.integration
def test_the_law_a_question_names_still_leads_after_the_learned_order(kb):
    from zhiku.retrieve.clause import NAMED_WINDOW

    q = "按公司法，劳动合同怎么签？"  # the law named is not where most matching words are
    hits = _hits(kb, q, True)
    p = prepare(kb, q, Mode.BM25, Scope(), [])
    named = [h.chunk.doc_id in p.ref.doc_ids for h in hits[:NAMED_WINDOW]]
    assert p.ref.doc_ids and any(named) and not all(named)
    assert named == sorted(named, reverse=True)
