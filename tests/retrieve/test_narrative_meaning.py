"""A case narrative's candidates re-ranked by meaning (narrative_meaning): the 刑法 excerpt beside
the test laws, keyword index, real store, the bundled embedder reading the narrative and each
candidate of the law it names whole (through the vector cache)."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.embed.base import VectorCache
from zhiku.kb import KnowledgeBase

ASK = "\n这种行为适用刑法哪一条？"
# a watch left with a neighbour and never given back: 侵占 (第二百七十条, 「将代为保管的他人
# 财物非法占为己有，数额较大，拒不退还的」) in everyday words; keyword search ranks first the
# articles sharing its procedure words (自诉, 证人证言)
WATCH = ("经审理查明：2020年10月，被害人孙某某外出务工前，将一块价值人民币三万元的金表交给邻居被告人"
         "吴某某代为保管。2021年春节孙某某返乡后多次向吴某某索要，吴某某谎称金表已丢失，拒不归还，后将"
         "金表以一万五千元的价格卖给他人。孙某某遂向本院提起自诉。上述事实，有自诉人陈述、证人证言、收条"
         "等证据证实，足以认定。")
# bags snatched from passers-by on a motorbike: 抢夺 (第二百六十七条), a word the narrative never says
SNATCH = ("经审理查明：2018年9月至10月，被告人马某某骑摩托车在某市城区街道尾随行人，趁被害人不备，从背后"
          "伸手拽走被害人挂在肩上的手提包或拿在手中的手机后骑车逃离，先后作案五起，得手财物价值共计人民币"
          "一万一千余元。上述事实，有被害人陈述、监控录像、辨认笔录、价格鉴定意见等证据证实，足以认定。")


@pytest.fixture(scope="module")
def pair(criminal_kb):
    """The keyword-only 刑法 knowledge base with the lever off and on (routing off)."""
    off = KnowledgeBase(criminal_kb.config.model_copy(update={"narrative_meaning": 0.0, "routing": False}))
    on = KnowledgeBase(criminal_kb.config.model_copy(update={"narrative_meaning": 0.4, "routing": False}))
    return off, on


def _rank(hits, article: str) -> int:
    return next((i for i, h in enumerate(hits, 1) if h.chunk.article == article), 999)


@pytest.mark.integration
def test_the_article_the_narrative_means_moves_up(pair):
    off, on = pair
    for narrative, article in ((WATCH, "第二百七十条"), (SNATCH, "第二百六十七条")):
        before = retrieve(off, narrative + ASK, Mode.BM25).hits
        after = retrieve(on, narrative + ASK, Mode.BM25).hits
        assert _rank(after, article) < _rank(before, article)
        assert _rank(after, article) <= on.config.answer_chunks + 1
        # the same candidates, re-ordered, each carrying its cosine; another law's the lowest
        assert {h.chunk.id for h in after} == {h.chunk.id for h in before}
        assert all("meaning" in h.sources for h in after)
        low = min(h.sources["meaning"][1] for h in after if h.chunk.doc_path.startswith("刑法"))
        assert all(h.sources["meaning"][1] == low for h in after if not h.chunk.doc_path.startswith("刑法"))
    assert _rank(retrieve(on, WATCH + ASK, Mode.BM25).hits, "第二百七十条") == 1
    fuse = next(t for t in retrieve(on, WATCH + ASK, Mode.BM25).trace if t.stage == "fuse")
    assert fuse.detail["narrative"] >= 2


@pytest.mark.integration
def test_each_candidate_is_embedded_whole_and_kept_in_the_vector_cache(pair):
    _, on = pair
    hits = retrieve(on, SNATCH + ASK, Mode.BM25).hits
    texts = {h.chunk.text for h in hits if h.chunk.doc_path.startswith("刑法")}
    cache = VectorCache(on.config.cache_path)
    try:
        assert texts and len(cache.get_many(on.embedder.name, [VectorCache.key(t) for t in texts])) == len(texts)
    finally:
        cache.close()


@pytest.mark.integration
def test_a_short_question_and_a_narrative_naming_no_law_keep_their_order(pair):
    off, on = pair
    # a short question is no narrative: the heading cosine's path, not this one
    short = "把别人放在我这里保管的东西卖了，适用刑法哪一条？"
    assert [h.chunk.id for h in retrieve(on, short, Mode.BM25).hits] == \
        [h.chunk.id for h in retrieve(off, short, Mode.BM25).hits]
    assert not any("meaning" in h.sources for h in retrieve(on, short, Mode.BM25).hits)
    # the narrative naming no law: nothing says whose articles to read
    unnamed = WATCH + "\n这种行为构成什么罪？"
    assert [h.chunk.id for h in retrieve(on, unnamed, Mode.BM25).hits] == \
        [h.chunk.id for h in retrieve(off, unnamed, Mode.BM25).hits]


@pytest.mark.integration
def test_beside_a_dense_list_the_narrative_is_left_to_it(criminal_dense):
    kb = criminal_dense("offences")
    on = KnowledgeBase(kb.config.model_copy(update={"narrative_meaning": 0.4, "routing": False}))
    hits = retrieve(on, WATCH + ASK, Mode.HYBRID).hits
    assert hits and not any("meaning" in h.sources for h in hits)
