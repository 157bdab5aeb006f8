"""Answer types in keyword ranking (answer_type_weight): real law files (tests/data), real store."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.answertype import AnswerType, answer_type_boost, answer_types, states
from zhiku.retrieve.terms import keyword_terms

QUESTION = "未成年工几岁才能招用？"


def test_the_asking_phrase_names_the_answer_type():
    assert answer_types("对交警开的罚单不服，多长时间内要提出复议申请？") == (AnswerType.PERIOD,)
    assert answer_types("一审输了，不服的话多少天内可以上诉？") == (AnswerType.PERIOD,)
    assert answer_types("现场最多能当场罚多少钱？") == (AnswerType.SUM,)
    assert answer_types("去申请劳动仲裁要交钱吗？") == (AnswerType.FEE,)
    assert answer_types("孩子几岁可以出来打工？") == (AnswerType.AGE,)
    # a question that does not ask how long or how much names none
    assert answer_types("劳动合同解除后经济补偿怎么算？") == ()
    assert answer_types("公司能不能随便辞退怀孕的员工？") == ()


def test_a_statute_states_a_period_or_a_sum_in_its_own_words():
    assert states(AnswerType.PERIOD, "可以自知道该行政行为之日起六十日内提出行政复议申请")
    assert states(AnswerType.PERIOD, "居住半年以上")
    assert states(AnswerType.SUM, "处以二百元以下罚款")
    assert states(AnswerType.AGE, "禁止用人单位招用未满十六周岁的未成年人")
    assert not states(AnswerType.SUM, "处以罚款")


@pytest.mark.integration
def test_hits_stating_the_asked_type_move_up_and_keep_their_order(labour_kb):
    kb = labour_kb
    terms = keyword_terms(kb.segment, QUESTION, kb.store.doc_frequency)
    hits = kb.store.keyword(terms, 20)
    boosted = answer_type_boost(hits, answer_types(QUESTION), 0.2)
    stating = {h.chunk.id for h in hits if states(AnswerType.AGE, h.chunk.text)}
    assert stating and len(stating) < len(hits)
    assert {h.chunk.id for h in boosted} == {h.chunk.id for h in hits}
    # within each class the keyword order stays; some stating hit overtook one that states nothing
    for keep in (True, False):
        assert ([h.chunk.id for h in boosted if (h.chunk.id in stating) == keep]
                == [h.chunk.id for h in hits if (h.chunk.id in stating) == keep])
    assert [h.chunk.id for h in boosted] != [h.chunk.id for h in hits]
    assert all("bm25" in h.sources and "answer_type" in h.sources for h in boosted)


@pytest.mark.integration
def test_no_type_or_zero_weight_keeps_the_order(labour_kb):
    kb = labour_kb
    hits = kb.store.keyword(["经济补偿", "解除"], 20)
    ids = [h.chunk.id for h in hits]
    assert [h.chunk.id for h in answer_type_boost(hits, answer_types("经济补偿怎么算？"), 0.5)] == ids
    assert [h.chunk.id for h in answer_type_boost(hits, answer_types("经济补偿要付多少钱？"), 0.0)] == ids
    assert answer_type_boost([], answer_types(QUESTION), 0.5) == []


@pytest.mark.integration
def test_answer_type_weight_setting_reaches_the_keyword_search(labour_kb):
    kb = labour_kb
    off = KnowledgeBase(kb.config.model_copy(update={"answer_type_weight": 0.0}))
    on = KnowledgeBase(kb.config.model_copy(update={"answer_type_weight": 0.2}))
    r_off = retrieve(off, QUESTION, Mode.BM25, route=False)
    r_on = retrieve(on, QUESTION, Mode.BM25, route=False)
    assert not any("answer_type" in h.sources for h in r_off.hits)
    assert all("answer_type" in h.sources for h in r_on.hits)
    # the flat baseline (no question focus, no resolution) ranks without it
    flat = retrieve(on, QUESTION, Mode.BM25, structured=False, route=False)
    assert not any("answer_type" in h.sources for h in flat.hits)
