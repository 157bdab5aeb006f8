"""Levers of hybrid search over the test laws with the bundled embedder: how deep the dense
retriever reads (``dense_candidates``) and the fused hits' document evidence
(``hybrid_doc_weight``)."""

from collections import defaultdict

import pytest

from zhiku.kb import KnowledgeBase
from tests.retrieve.conftest import search_lists

pytestmark = pytest.mark.integration

# 天天上班，连一天休息都没有: 劳动法 第三十八条 (one day of rest a week) is the dense list's best
NO_REST_DAY = "我们厂一个月到头天天上班，连一天休息都没有，这合法吗？"


def test_the_dense_retriever_reads_deeper_and_the_search_keeps_its_candidate_count(kb):
    from zhiku.ask.search import Mode, retrieve

    shallow = KnowledgeBase(kb.config.model_copy(update={"candidates": 10}))
    deep = KnowledgeBase(kb.config.model_copy(update={"candidates": 10, "dense_candidates": 30}))
    _, (few,) = search_lists(shallow, NO_REST_DAY, Mode.DENSE)
    _, (many,) = search_lists(deep, NO_REST_DAY, Mode.DENSE)
    assert len(few) == 10 and len(many) == 30
    assert [h.chunk.id for h in many[:10]] == [h.chunk.id for h in few]  # the same ranking, read deeper
    # beside the keyword list the deeper dense list brings more candidates to the fusion
    _, (_, dense_few) = search_lists(shallow, NO_REST_DAY)
    _, (_, dense_many) = search_lists(deep, NO_REST_DAY)
    assert {h.chunk.id for h in dense_few} < {h.chunk.id for h in dense_many}
    hits = retrieve(deep, NO_REST_DAY, Mode.HYBRID, route=False).hits
    assert len(hits) == 10  # the fused list is still cut to `candidates`
    assert hits[0].chunk.article == "第三十八条"
    # no deeper than the candidates: the search is unchanged
    same = KnowledgeBase(kb.config.model_copy(update={"candidates": 10, "dense_candidates": 5}))
    assert [h.chunk.id for h in retrieve(same, NO_REST_DAY, Mode.HYBRID, route=False).hits] == \
        [h.chunk.id for h in retrieve(shallow, NO_REST_DAY, Mode.HYBRID, route=False).hits]


def test_fused_hits_gain_their_documents_evidence_only_beside_a_dense_list(kb):
    from zhiku.retrieve.fusion import fuse_search

    p, lists = search_lists(kb, NO_REST_DAY)
    words = len(p.terms)
    assert kb.config.hybrid_doc_weight == 0.05  # shipped for hybrid
    off = kb.config.model_copy(update={"hybrid_doc_weight": 0.0})
    plain = fuse_search(lists, off, words=words)
    cfg = kb.config.model_copy(update={"hybrid_doc_weight": 0.2})
    boosted = fuse_search(lists, cfg, words=words)
    assert {h.chunk.id for h in boosted} == {h.chunk.id for h in plain}
    # each hit gains 0.2 × its document's best three fused scores over the best document's
    by_doc: dict[str, list[float]] = defaultdict(list)
    for h in plain:
        by_doc[h.chunk.doc_id].append(h.score)
    evidence = {d: sum(sorted(s, reverse=True)[:3]) for d, s in by_doc.items()}
    best, top = max(evidence.values()), plain[0].score
    want = {h.chunk.id: h.score + 0.2 * evidence[h.chunk.doc_id] / best * top for h in plain}
    assert {h.chunk.id: h.score for h in boosted} == pytest.approx(want)
    assert [h.score for h in boosted] == sorted((h.score for h in boosted), reverse=True)
    assert all("document" in h.sources for h in boosted)  # the share read, beside the retrievers' ranks
    # a narrative (fused by rank) and keyword lists alone are left as they were
    narrative = cfg.hybrid_fusion_max_words + 1
    assert [h.score for h in fuse_search(lists, cfg, words=narrative)] == \
        [h.score for h in fuse_search(lists, off, words=narrative)]
    assert [h.score for h in fuse_search(lists[:1], cfg, words=words)] == \
        [h.score for h in fuse_search(lists[:1], off, words=words)]
