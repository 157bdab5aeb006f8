"""The question side of dense search: the asking phrases cut from the encoded text
(``dense_focus``), a narrative's clauses searched apart (``dense_clauses``) and pseudo-relevance
feedback in vector space (``dense_feedback``)."""

import numpy as np
import pytest

from zhiku.errors import ZhikuError
from zhiku.retrieve.dense_query import (ClauseMerge, DenseFocus, clauses, dense_text, dense_texts, merged,
                                        rocchio)
from zhiku.types import Chunk, Hit
from tests.retrieve.conftest import search_lists

# 天天上班，连一天休息都没有: 劳动法 第三十八条 (at least one day of rest a week)
NO_REST_DAY = "我们厂一个月到头天天上班，连一天休息都没有，这合法吗？"
# a layperson's narrative: two facts, then the asking phrase
DEPOSIT = "入职第一天公司就收走我的身份证，还让交五百块押金，这样做行吗？"


@pytest.mark.unit
def test_the_dense_text_cuts_the_asking_phrase_and_its_leftovers():
    assert dense_text(DEPOSIT, True) == "入职第一天公司就收走我的身份证，还让交五百块押金"
    assert dense_text(NO_REST_DAY, True) == "我们厂一个月到头天天上班，连一天休息都没有"  # 这合法吗 → 这: dropped
    assert dense_text("劳动合同期满后单位不续签，要给经济补偿吗", True) == "劳动合同期满后单位不续签，要给经济补偿"
    # focus off, or nothing to cut: the question as written (its case and full-width marks kept)
    assert dense_text(DEPOSIT, False) == DEPOSIT
    assert dense_text("用人单位应当保证劳动者每周至少休息一日。", True) == "用人单位应当保证劳动者每周至少休息一日。"
    assert dense_text("What is GDPR?", True) == "What is GDPR?"
    assert dense_text("怎么办？", True) == "怎么办？"  # nothing but the asking phrase: kept whole


@pytest.mark.unit
def test_whether_focus_keeps_the_phrases_that_say_what_is_asked():
    period = "被老公家暴后去法院申请人身安全保护令，法院多长时间内会给答复？"
    assert dense_text(period, DenseFocus.WHETHER) == period  # 多长时间 asks for a time limit: kept
    assert dense_text(period, DenseFocus.ALL) == "被老公家暴后去法院申请人身安全保护令，法院内会给答复"
    # the phrases that only ask whether go either way
    assert dense_text(DEPOSIT, DenseFocus.WHETHER) == dense_text(DEPOSIT, DenseFocus.ALL) == \
        "入职第一天公司就收走我的身份证，还让交五百块押金"
    assert dense_text("去申请劳动仲裁要交钱吗？", DenseFocus.WHETHER) == "去申请劳动仲裁要交钱"
    assert dense_text(DEPOSIT, DenseFocus.OFF) == DEPOSIT


@pytest.mark.unit
def test_the_focus_setting_reads_a_switch_or_a_name():
    from zhiku.config import load_config

    assert load_config(dense_focus=True).dense_focus == "all"
    assert load_config(dense_focus=False).dense_focus == ""
    assert load_config(dense_focus="Whether").dense_focus == "whether"
    assert load_config().dense_focus == ""  # shipped off
    with pytest.raises(Exception, match="all, whether"):
        load_config(dense_focus="some")


@pytest.mark.unit
def test_a_narrative_has_clauses_and_a_one_clause_question_none():
    assert clauses(dense_text(DEPOSIT, True)) == ["入职第一天公司就收走我的身份证", "还让交五百块押金"]
    assert clauses("我在网上买的东西是假货，商家不给退，能要求赔偿") == \
        ["我在网上买的东西是假货", "商家不给退", "能要求赔偿"]
    assert clauses("试用期被辞退有补偿") == []
    assert clauses("公司拖欠工资三个月了，我该") == []  # 我该: too short to name a point
    # the clauses come from the focused question even when the whole is encoded as written
    assert dense_texts(DEPOSIT, False, ClauseMerge.MAX) == [DEPOSIT, "入职第一天公司就收走我的身份证", "还让交五百块押金"]
    assert dense_texts(DEPOSIT, False, ClauseMerge.OFF) == [DEPOSIT]
    assert dense_texts(DEPOSIT, True, ClauseMerge.OFF) == ["入职第一天公司就收走我的身份证，还让交五百块押金"]
    with pytest.raises(ZhikuError, match="max, rrf, mean"):
        ClauseMerge.from_str("maximum")


def _hit(cid: str, score: float) -> Hit:
    c = Chunk(cid, "d", "劳动法.md", "劳动法", "1", ("第四章",), "第三十八条", f"text {cid}", 0, 1)
    return Hit(c, score, "dense", {"dense": (1, score)})


@pytest.mark.unit
def test_clause_lists_join_the_whole_questions_by_best_cosine_or_by_rank():
    whole = [_hit("a", 0.86), _hit("b", 0.85), _hit("c", 0.84)]
    clause = [_hit("d", 0.90), _hit("c", 0.88), _hit("a", 0.80)]
    best = merged([whole, clause], ClauseMerge.MAX, 10)
    assert [h.chunk.id for h in best] == ["d", "c", "a", "b"]
    assert [h.score for h in best] == [0.90, 0.88, 0.86, 0.85]  # each chunk's best cosine
    assert [h.sources["dense"][0] for h in best] == [1, 2, 3, 4] and {h.source for h in best} == {"dense"}
    fused = merged([whole, clause], ClauseMerge.RRF, 3)
    # c and a are in both lists; c at ranks 3 and 2, a at 1 and 3: equal sums, a first (seen first)
    assert [h.chunk.id for h in fused] == ["a", "c", "d"]
    assert [h.score for h in fused] == [0.86, 0.88, 0.90]  # the best cosine is kept as the score
    assert merged([whole], ClauseMerge.MAX, 2) == whole[:2]  # one query vector: its list as it is


@pytest.mark.unit
def test_rocchio_moves_the_question_towards_its_feedback_and_not_without():
    q = np.array([1.0, 0.0, 0.0], dtype=np.float32)
    docs = [np.array([0.0, 2.0, 0.0]), np.array([0.0, 0.0, 3.0])]
    moved = rocchio(q, docs, 0.5)
    mean = np.array([0.0, 0.5, 0.5]) / np.linalg.norm([0.0, 0.5, 0.5])
    want = (q + 0.5 * mean) / np.linalg.norm(q + 0.5 * mean)
    assert moved == pytest.approx(want, abs=1e-6)
    assert float(np.linalg.norm(moved)) == pytest.approx(1.0)
    assert moved @ docs[0] > 0 and q @ docs[0] == 0
    assert rocchio(2 * q, docs, 0.0) == pytest.approx(q)
    assert rocchio(2 * q, [], 0.5) == pytest.approx(q)


def _with(kb, **update):
    from zhiku.kb import KnowledgeBase

    return KnowledgeBase(kb.config.model_copy(update=update))


@pytest.mark.integration
def test_the_focused_dense_search_encodes_the_questions_point(kb):
    focused = _with(kb, dense_focus="all")
    (vec,) = focused.dense_vectors(NO_REST_DAY)
    assert vec == pytest.approx(kb.query_vector("我们厂一个月到头天天上班，连一天休息都没有"))
    (raw,) = kb.dense_vectors(NO_REST_DAY)  # off (shipped): the question as asked
    assert raw == pytest.approx(kb.query_vector(NO_REST_DAY))
    _, (_, dense) = search_lists(focused, NO_REST_DAY)
    found = sorted((h for h in dense if "dense" in h.sources), key=lambda h: h.sources["dense"][0])
    assert [h.chunk.id for h in found[:10]] == [h.chunk.id for h in focused.store.dense(vec, 10)]
    _, (_, plain) = search_lists(kb, NO_REST_DAY)
    assert plain[0].chunk.article == "第三十八条"  # the question as asked finds the rest-day article
    # the keyword candidates' cosines are those of the vector searched
    mine = {h.chunk.id: h.score for h in focused.dense(NO_REST_DAY, 5000)}
    filled = [h for h in dense if "dense_filled" in h.sources]
    assert filled and all(h.score == pytest.approx(mine[h.chunk.id], abs=1e-4) for h in filled)


@pytest.mark.integration
def test_clauses_searched_apart_give_each_chunk_its_best_cosine(kb):
    split = _with(kb, dense_clauses="max")
    vecs = split.dense_vectors(NO_REST_DAY)
    assert len(vecs) == 3  # the whole question, 我们厂一个月到头天天上班, 连一天休息都没有
    hits = split.dense(NO_REST_DAY, 20)
    each = [{h.chunk.id: h.score for h in split.store.dense(v, 5000)} for v in vecs]
    for h in hits:
        assert h.score == pytest.approx(max(s[h.chunk.id] for s in each), abs=1e-4)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
    mean = _with(kb, dense_clauses="mean")
    (one,) = mean.dense_vectors(NO_REST_DAY)  # one search with the clauses' mean vector
    assert float(np.linalg.norm(one)) == pytest.approx(1.0)
    # a one-clause question searches its own vector alone, whatever the merge
    assert len(split.dense_vectors("试用期被辞退有补偿吗")) == 1


@pytest.mark.integration
def test_feedback_searches_again_from_the_first_fused_hits(kb):
    from zhiku.ask.search import Mode, fuzzy, prepare
    from zhiku.index.store import Scope

    fb = _with(kb, dense_feedback=0.5, dense_feedback_docs=3)
    trace: list = []
    p = prepare(fb, NO_REST_DAY, Mode.HYBRID, Scope(), trace)
    _, dense = fuzzy(fb, p, Scope(), trace)
    step = next(s for s in trace if s.stage == "dense_feedback")
    assert step.detail["feedback"] == 3
    _, (_, plain) = search_lists(kb, NO_REST_DAY)
    assert [h.chunk.id for h in dense] != [h.chunk.id for h in plain]  # another query vector
    # off (shipped) and in dense mode (no keyword list to fuse): no feedback step
    for k, mode in ((kb, Mode.HYBRID), (fb, Mode.DENSE)):
        t: list = []
        fuzzy(k, prepare(k, NO_REST_DAY, mode, Scope(), t), Scope(), t)
        assert not any(s.stage == "dense_feedback" for s in t)


@pytest.mark.unit
def test_a_named_laws_name_is_cut_from_the_dense_query_inside_it():
    from zhiku.ask.search import nameless

    assert nameless("把私家车停在小区消防通道上，按消防法个人会被怎么罚？", ("消防法",)) == \
        "把私家车停在小区消防通道上，个人会被怎么罚？"
    assert nameless("按交强险条例，撞人的司机是醉驾，保险公司还会垫付受害人的抢救费吗？", ("交强险条例",)) == \
        "撞人的司机是醉驾，保险公司还会垫付受害人的抢救费吗？"
    assert nameless("根据《劳动合同法》的规定，试用期最长多久？", ("劳动合同法",)) == "试用期最长多久？"
    # a question naming nothing, or nothing but the name: as asked
    assert nameless("试用期最长多久？", ()) == "试用期最长多久？"
    assert nameless("消防法", ("消防法",)) == "消防法"


@pytest.mark.integration
def test_the_search_inside_a_named_law_encodes_the_question_without_its_name(kb):
    from zhiku.ask.search import Mode, inside, prepare
    from zhiku.index.store import Scope

    question = "按劳动法，用人单位每周至少要让劳动者休息几天？"
    orders = {}
    for on, asked in ((True, "用人单位每周至少要让劳动者休息几天？"), (False, question)):
        k = _with(kb, dense_nameless=on)
        trace: list = []
        p = prepare(k, question, Mode.HYBRID, Scope(), trace)
        assert p.ref.doc_ids and "劳动法" in p.ref.names
        _, dense = inside(k, p, trace)
        assert all(h.chunk.doc_id in p.ref.doc_ids for h in dense)
        found = sorted((h for h in dense if "dense" in h.sources), key=lambda h: h.sources["dense"][0])
        orders[on] = [h.chunk.id for h in found[:10]]
        assert orders[on] == [h.chunk.id for h in k.dense(asked, 10, Scope(doc_ids=p.ref.doc_ids))]
    assert orders[True] != orders[False]  # the name moved the order inside the law
