"""Fusion on complete evidence: a candidate only one list holds is scored by both retrievers."""

import numpy as np
import pytest

from zhiku.retrieve.complete import FILLED, cosines, filled
from zhiku.types import Chunk, Hit

# 天天上班，连一天休息都没有: the dense list's best passage (劳动法 第三十八条) stands below
# the keyword list's best ones, and each list holds passages the other does not
NO_REST_DAY = "我们厂一个月到头天天上班，连一天休息都没有，这合法吗？"


def _hit(cid: str, score: float, source: str) -> Hit:
    c = Chunk(cid, "d", "a.md", "t", "1", ("第一章",), "第一条", f"text {cid}", 0, 1)
    return Hit(c, score, source, {source: (1, score)})


@pytest.mark.unit
def test_filled_ranks_the_others_candidates_by_this_retrievers_score():
    mine = [_hit("a", 9.0, "bm25"), _hit("b", 5.0, "bm25")]
    others = [_hit("c", 0.9, "dense"), _hit("b", 0.8, "dense"), _hit("d", 0.7, "dense")]
    out = filled(mine, others, lambda ids: {"c": 7.0} if ids == ["c", "d"] else {}, "bm25")
    # d holds none of the query's words: the keyword search would never return it
    assert [h.chunk.id for h in out] == ["a", "c", "b"]
    assert out[0] is mine[0] and out[2] is mine[1]  # the retrieved hits are kept as they are
    assert out[1].source == "bm25" and out[1].sources == {FILLED["bm25"]: (2, 7.0)}
    assert filled(mine, mine, lambda ids: {}, "bm25") == mine


@pytest.mark.unit
def test_cosines_are_scale_free():
    q = np.array([1.0, 0.0], dtype=np.float32)
    got = cosines(q, {"x": np.array([3.0, 0.0]), "y": np.array([0.0, 2.0]), "z": np.array([1.0, 1.0])})
    assert got == pytest.approx({"x": 1.0, "y": 0.0, "z": 2 ** -0.5})
    assert cosines(q, {}) == {}


def _lists(kb, question: str, complete: bool, mode=None):
    from zhiku.ask.search import Mode, fuzzy, prepare
    from zhiku.index.store import Scope
    from zhiku.kb import KnowledgeBase

    k = KnowledgeBase(kb.config.model_copy(update={"fusion_complete": complete}))
    trace: list = []
    p = prepare(k, question, mode or Mode.HYBRID, Scope(), trace)
    return p, fuzzy(k, p, Scope(), trace), trace


@pytest.mark.integration
def test_a_candidate_only_one_list_holds_is_scored_by_both(kb):
    _, (kw0, de0), _ = _lists(kb, NO_REST_DAY, False)
    p, (kw, de), trace = _lists(kb, NO_REST_DAY, True)
    in_kw, in_de = {h.chunk.id for h in kw0}, {h.chunk.id for h in de0}
    only_kw = [h for h in kw0 if h.chunk.id not in in_de]
    only_de = [h for h in de0 if h.chunk.id not in in_kw]
    assert only_kw and only_de
    # a keyword candidate's dense score is its cosine with the question (its stored vector)
    deep = {h.chunk.id: h.score for h in kb.dense(NO_REST_DAY, 5000)}
    dense = {h.chunk.id: h for h in de}
    for h in only_kw:
        got = dense[h.chunk.id]
        assert got.source == "dense" and got.score == pytest.approx(deep[h.chunk.id], abs=1e-4)
        assert set(got.sources) == {FILLED["dense"]}
    # a dense candidate's keyword score is its BM25 in the index, when it holds a query word
    bm25 = {h.chunk.id: h.score for h in kb.store.keyword(p.kw_terms, 5000)}
    keyword = {h.chunk.id: h for h in kw}
    for h in only_de:
        if h.chunk.id not in bm25:
            assert h.chunk.id not in keyword
            continue
        rank, score = keyword[h.chunk.id].sources[FILLED["bm25"]]
        assert score == pytest.approx(bm25[h.chunk.id], rel=1e-5) and rank > len(kw0) // 2
    assert any(h.chunk.id in bm25 for h in only_de)
    # the retrieved hits keep what their own retriever said
    assert [h.sources["dense"] for h in de if "dense" in h.sources] == [h.sources["dense"] for h in de0]
    step = next(s for s in trace if s.stage == "complete")
    assert step.detail["filled"] == {"bm25": len(kw) - len(kw0), "dense": len(de) - len(de0)}


@pytest.mark.integration
def test_fused_candidates_carry_both_retrievers(kb):
    from zhiku.ask.search import Mode, retrieve

    hits = retrieve(kb, NO_REST_DAY, Mode.HYBRID, route=False).hits
    assert hits and all({"dense", FILLED["dense"]} & set(h.sources) for h in hits)
    lone = [h for h in hits if FILLED["bm25"] in h.sources or FILLED["dense"] in h.sources]
    assert lone  # candidates one list lacked, fused with the other's score
    assert all(({"bm25", FILLED["bm25"]} & set(h.sources)) and ({"dense", FILLED["dense"]} & set(h.sources))
               for h in lone)


@pytest.mark.integration
def test_keyword_only_and_dense_only_searches_are_not_completed(kb):
    from zhiku.ask.search import Mode

    for mode in (Mode.BM25, Mode.DENSE):
        _, plain, _ = _lists(kb, NO_REST_DAY, False, mode)
        _, lists, trace = _lists(kb, NO_REST_DAY, True, mode)
        assert len(lists) == 1 and [h.chunk.id for h in lists[0]] == [h.chunk.id for h in plain[0]]
        assert not any(s.stage == "complete" for s in trace)
