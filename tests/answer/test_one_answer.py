"""One question, one answer: the same question gets the same ranking and the same answer whether it
is the first of a process or comes after others, in whatever mode they were asked (the offline
answer's meaning bonus reads the question's vector only as :func:`zhiku.answer.meaning.question_vector`
decides from the question, never "when one is known"). Real law files (tests/data/laws), a temporary
store with the bundled embedder's vectors, fresh knowledge bases over it."""

from __future__ import annotations

import pytest

from zhiku.answer.meaning import meaning_bonus
from zhiku.ask import Query, ask
from zhiku.ask.search import Mode, retrieve
from zhiku.kb import KnowledgeBase

# a case narrative (more than heading_max_words words) naming no law: a keyword-only ask skips the
# heading cosine for it and, routing off, encoded it nowhere before the answer; asked in hybrid mode
# first, its vector was left behind and the bonus quoted 劳动法 第一百条, where a fresh process quoted
# 第七十二条
NARRATIVE = ("公司让我签了一份协议说自愿放弃缴纳社会保险，每个月多发我三百块钱补贴，现在我干了两年想离职，"
             "听说可以要求公司补缴社保还能要经济补偿，这种情况我签过字了还能主张吗，应该怎么办才能维护自己的权益呢")
WORKING_DAY = "劳动者每日工作时间最长不超过几个小时？"
QUESTIONS = [NARRATIVE, WORKING_DAY, "劳动合同法第三十九条规定了什么", "试用期最长可以约定多久？",
             "用人单位安排劳动者延长工作时间的，应当支付多少工资报酬？"]


def _fresh(kb, **config) -> KnowledgeBase:
    """A new knowledge base over ``kb``'s store (nothing remembered: a new process's), routing off
    (the router by embedding would encode every question first)."""
    return KnowledgeBase(kb.config.model_copy(update={"routing": False, **config}))


def _answers(k: KnowledgeBase, mode: Mode, questions) -> dict[str, tuple]:
    out = {}
    for q in questions:
        a = ask(k, Query(q, mode=mode, use_cache=False))
        out[q] = (a.text, [h.chunk.id for h in a.hits], [(c.chunk_id, c.article) for c in a.citations])
    return out


def _rankings(k: KnowledgeBase, mode: Mode, questions) -> dict[str, list[str]]:
    return {q: [h.chunk.id for h in retrieve(k, q, mode).hits] for q in questions}


@pytest.mark.integration
def test_a_keyword_ask_answers_alike_first_or_after_the_same_questions_in_hybrid(kb):
    first = _answers(_fresh(kb), Mode.BM25, QUESTIONS)
    later = _fresh(kb)
    _answers(later, Mode.HYBRID, QUESTIONS[::-1])  # every question's vector is now remembered
    assert _answers(later, Mode.BM25, QUESTIONS[::-1]) == first
    assert _rankings(later, Mode.BM25, QUESTIONS) == _rankings(_fresh(kb), Mode.BM25, QUESTIONS)


@pytest.mark.integration
def test_hybrid_and_full_rankings_do_not_follow_what_ran_before(kb):
    """Twin on the dense side: hybrid rankings and full answers, asked first or after keyword and
    full asks of the same questions in the other order, are the same."""
    first = _rankings(_fresh(kb), Mode.HYBRID, QUESTIONS)
    full = _answers(_fresh(kb), Mode.FULL, QUESTIONS)
    later = _fresh(kb)
    _answers(later, Mode.BM25, QUESTIONS[::-1])
    assert _answers(later, Mode.FULL, QUESTIONS[::-1]) == full
    assert _rankings(later, Mode.HYBRID, QUESTIONS[::-1]) == first


@pytest.mark.integration
def test_a_narrative_is_encoded_for_its_meaning_in_its_first_ask(kb):
    k = _fresh(kb)
    hits = retrieve(k, NARRATIVE, Mode.BM25).hits[:5]
    assert not any("dense" in h.sources for h in hits)
    bonus = meaning_bonus(k, NARRATIVE, hits, 12.0)  # no step encoded it: encoded here
    assert len(bonus) == 5 and min(bonus) == 0.0 and max(bonus) > 0.0
    assert meaning_bonus(k, NARRATIVE, hits, 0.0) == ()


@pytest.mark.integration
def test_without_answer_meaning_long_a_narrative_gets_none_even_when_its_vector_is_known(kb):
    """Twin: off, a narrative gets no bonus, first ask or after its vector was made."""
    k = _fresh(kb, answer_meaning_long=False)
    hits = retrieve(k, NARRATIVE, Mode.BM25).hits[:5]
    k.query_vector(NARRATIVE)  # as a hybrid ask of it would have left it
    assert meaning_bonus(k, NARRATIVE, hits, 12.0) == ()
    first = _answers(_fresh(kb, answer_meaning_long=False), Mode.BM25, [NARRATIVE])
    assert _answers(k, Mode.BM25, [NARRATIVE]) == first


@pytest.mark.integration
def test_a_short_question_is_encoded_for_its_meaning_in_its_first_ask(kb):
    """A question no earlier step of this knowledge base encoded gets the bonus: its vector is
    made here."""
    k = _fresh(kb)
    hits = retrieve(_fresh(kb), WORKING_DAY, Mode.BM25).hits[:5]  # another knowledge base encoded it
    bonus = meaning_bonus(k, WORKING_DAY, hits, 12.0)
    assert len(bonus) == 5 and min(bonus) == 0.0 and max(bonus) > 0.0
