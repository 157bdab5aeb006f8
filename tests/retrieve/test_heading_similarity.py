"""Chapter headings as a soft field of the candidates (heading_similarity) and document
evidence (doc_weight): real law files (tests/data), real store, the bundled embedder."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.docprior import document_boost
from zhiku.retrieve.fields import heading_similarity

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
# everyday words (男朋友, 领证) share little with 第一千零四十七条 (法定婚龄), but its chapter
# 第二章 结婚 says what the question is about; a guide's stray passage outranks it on words alone
MARRIAGE_AGE = "我男朋友今年才二十一岁，我们现在能去民政局领证吗？"


@pytest.fixture(scope="module")
def kbs(tmp_path_factory):
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home"), heading_similarity=0.0))
    assert not kb.ingest([LAWS], dense=False, progress=False).failed
    return kb, KnowledgeBase(kb.config.model_copy(update={"heading_similarity": 0.1}))


def _rank(hits, article: str) -> int:
    return next(i for i, h in enumerate(hits, 1) if h.chunk.article == article)


@pytest.mark.integration
def test_a_candidate_whose_chapter_means_the_question_moves_up(kbs):
    off, on = kbs
    before = retrieve(off, MARRIAGE_AGE, Mode.BM25, route=False).hits
    after = retrieve(on, MARRIAGE_AGE, Mode.BM25, route=False).hits
    assert _rank(before, "第一千零四十七条") > 1 and _rank(after, "第一千零四十七条") == 1
    assert "结婚" in " ".join(after[0].chunk.section_path)
    # the same candidates, their keyword sources kept, the cosine recorded
    assert {h.chunk.id for h in after} == {h.chunk.id for h in before}
    assert all("bm25" in h.sources and "headings" in h.sources for h in after)


@pytest.mark.integration
def test_the_exact_clause_and_the_flat_baseline_are_left_alone(kbs):
    off, on = kbs
    q = "婚姻家庭编第1079条讲的是什么"
    exact = retrieve(on, q, Mode.BM25, route=False).hits
    assert exact[0].chunk.article == "第一千零七十九条" and exact[0].source == "clause"
    assert "headings" not in exact[0].sources
    flat_on = retrieve(on, MARRIAGE_AGE, Mode.BM25, structured=False, route=False).hits
    flat_off = retrieve(off, MARRIAGE_AGE, Mode.BM25, structured=False, route=False).hits
    assert [h.chunk.id for h in flat_on] == [h.chunk.id for h in flat_off]


@pytest.mark.integration
def test_no_share_or_no_spread_of_cosines_keeps_the_order(kbs):
    off, _ = kbs
    hits = retrieve(off, MARRIAGE_AGE, Mode.BM25, route=False).hits[:10]
    ids = [h.chunk.id for h in hits]
    assert [h.chunk.id for h in heading_similarity(hits, [0.1 * i for i in range(10)], 0.0)] == ids
    assert [h.chunk.id for h in heading_similarity(hits, [0.8] * 10, 0.5)] == ids
    assert heading_similarity(hits[:1], [0.9], 0.5) == hits[:1]
    moved = heading_similarity(hits, [0.0] * 9 + [1.0], 0.6)
    assert moved[0].chunk.id == ids[-1] and all(a.score >= b.score for a, b in zip(moved, moved[1:]))
    assert min(h.score for h in moved) >= min(h.score for h in hits)  # scores only gain


@pytest.mark.integration
def test_document_evidence_lifts_the_law_many_hits_point_to(kbs):
    shipped, _ = kbs
    # measured on its own: numbered provisions first (unnumbered_weight) already puts the law first
    assert retrieve(shipped, MARRIAGE_AGE, Mode.BM25, route=False).hits[0].chunk.doc_path == "民法典/婚姻家庭编.md"
    # the search's own order: the learned order (learned_rank) puts numbered provisions first too
    off = KnowledgeBase(shipped.config.model_copy(update={"unnumbered_weight": 1.0, "learned_rank": False}))
    hits = retrieve(off, MARRIAGE_AGE, Mode.BM25, route=False).hits
    assert hits[0].chunk.doc_path.startswith("其他/")  # a guide's stray passage first
    boosted = document_boost(hits, 0.3)
    assert boosted[0].chunk.doc_path == "民法典/婚姻家庭编.md"
    assert {h.chunk.id for h in boosted} == {h.chunk.id for h in hits}
    assert all("document" in h.sources for h in boosted)
    assert [h.chunk.id for h in document_boost(hits, 0.0)] == [h.chunk.id for h in hits]
    on = KnowledgeBase(off.config.model_copy(update={"doc_weight": 0.3}))
    assert "document" in retrieve(on, MARRIAGE_AGE, Mode.BM25, route=False).hits[0].sources


@pytest.mark.integration
def test_ingest_embeds_the_chapter_headings_beforehand(tmp_path):
    from zhiku.embed.base import VectorCache
    from zhiku.retrieve.fields import heading_text

    kb = KnowledgeBase(load_config(home=tmp_path, routing=False))  # heading_similarity as shipped
    assert not kb.ingest([LAWS / "民法典"], dense=False, progress=False).failed
    texts = {heading_text(c) for c in kb.store.find(Scope())}
    cache = VectorCache(kb.config.cache_path)
    try:  # routing off: nothing but the ingest's heading pass embedded anything
        assert len(cache.get_many(kb.embedder.name, [VectorCache.key(t) for t in texts])) == len(texts) > 5
    finally:
        cache.close()


@pytest.mark.integration
def test_a_narrative_skips_the_heading_cosine_a_short_question_keeps_it(kbs):
    """Encoding a case narrative takes the bundled embedder hundreds of milliseconds; past
    ``heading_max_words`` words the candidates keep their retrieval order."""
    _, on = kbs
    story = ("申请人张某某于2019年3月1日在深圳市南山区某某科技园区入职，担任销售专员，其家人李某某、王某某"
             "陪同到场，当日下午十五时许离开，次日上午九时许再次来到该园区东门北侧停车场，与公司人事部门"
             "负责人赵某某协商未果。" + MARRIAGE_AGE)
    assert len(on.words(story)) > on.config.heading_max_words >= len(on.words(MARRIAGE_AGE))
    long = retrieve(on, story, Mode.BM25, route=False)
    fuse = next(t for t in long.trace if t.stage == "fuse")
    assert "headings" not in fuse.detail and not any("headings" in h.sources for h in long.hits)
    short = retrieve(on, MARRIAGE_AGE, Mode.BM25, route=False)  # the twin
    assert all("headings" in h.sources for h in short.hits)
    # no limit: the narrative's candidates are re-ranked by their headings too
    unlimited = KnowledgeBase(on.config.model_copy(update={"heading_max_words": 0}))
    assert all("headings" in h.sources for h in retrieve(unlimited, story, Mode.BM25, route=False).hits)
