"""Answer types in keyword ranking (answer_type_weight): real law files (tests/data), real store."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.answertype import AnswerType, answer_type_boost, answer_types, offence_first, states
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


# real 刑法 text: the general rules a case narrative's procedure words meet (自首, 赔偿经济损失,
# 罚金) and provisions that define an offence and its penalty
SURRENDER = ("第六十七条 犯罪以后自动投案，如实供述自己的罪行的，是自首。对于自首的犯罪分子，可以从轻或者"
             "减轻处罚。其中，犯罪较轻的，可以免除处罚。")
DAMAGES = ("第三十六条 由于犯罪行为而使被害人遭受经济损失的，对犯罪分子除依法给予刑事处罚外，并应根据情况"
           "判处赔偿经济损失。承担民事赔偿责任的犯罪分子，同时被判处罚金，其财产不足以全部支付的，或者被"
           "判处没收财产的，应当先承担对被害人的民事赔偿责任。")
THEFT = ("第二百六十四条 盗窃公私财物，数额较大的，或者多次盗窃、入户盗窃、携带凶器盗窃、扒窃的，处三年以下"
         "有期徒刑、拘役或者管制，并处或者单处罚金")
EMBEZZLEMENT = ("第三百八十二条 国家工作人员利用职务上的便利，侵吞、窃取、骗取或者以其他手段非法占有公共财物的，"
                "是贪污罪。")
ATTEMPT = "第二十三条 已经着手实行犯罪，由于犯罪分子意志以外的原因而未得逞的，是犯罪未遂。"


def test_a_question_asking_which_provision_applies_asks_for_an_offence():
    assert answer_types("公诉机关指控：被告人颜某捡拾到被害人的手机……\n这种行为适用刑法哪一条？") == (
        AnswerType.OFFENCE,)
    assert answer_types("快递员把客户的电话和住址卖给别人，按刑法会判刑吗？") == (AnswerType.OFFENCE,)
    assert answer_types("晚上在马路上飙车，情节恶劣的话会构成犯罪吗？") == (AnswerType.OFFENCE,)
    assert answer_types("挪用公款构成什么罪？") == (AnswerType.OFFENCE,)
    # the setting switches the type off; other types stay
    assert answer_types("这种行为适用刑法哪一条？", offence=False) == ()
    assert answer_types("判几年？", offence=False) == (AnswerType.PERIOD,)
    # questions that ask for something else name no offence
    assert answer_types("劳动合同解除后经济补偿怎么算？") == ()
    assert answer_types("刑法第二百六十四条讲的是什么？") == ()


def test_an_offence_provision_states_the_act_and_its_penalty_a_general_rule_does_not():
    assert states(AnswerType.OFFENCE, THEFT)
    assert states(AnswerType.OFFENCE, EMBEZZLEMENT)  # 「…的，是贪污罪」 names the offence
    assert not states(AnswerType.OFFENCE, SURRENDER)
    assert not states(AnswerType.OFFENCE, DAMAGES)  # 判处罚金 is no penalty set for an act
    assert not states(AnswerType.OFFENCE, ATTEMPT)  # 「…的，是犯罪未遂」 defines no offence


@pytest.mark.integration
def test_a_case_narrative_prefers_offence_provisions_and_the_setting_turns_it_off(criminal_kb):
    from test_long_questions import CASE

    kb = criminal_kb
    # the narrative's words over 刑法 and the labour laws: their general rules (工资, 赔偿) meet
    # its procedure words, and none of them defines an offence
    terms = keyword_terms(kb.segment, CASE, kb.store.doc_frequency)
    hits = kb.store.keyword(terms, 50)
    stating = {h.chunk.id for h in hits if states(AnswerType.OFFENCE, h.chunk.text)}
    assert stating and len(stating) < len(hits)
    boosted = answer_type_boost(hits, answer_types(CASE), 0.2)
    rank = {h.chunk.id: i for i, h in enumerate(boosted)}
    overtaken = [(a.chunk.id, b.chunk.id) for i, a in enumerate(hits) for b in hits[i + 1:]
                 if a.chunk.id not in stating and b.chunk.id in stating]
    assert overtaken and any(rank[b] < rank[a] for a, b in overtaken)
    assert all(h.chunk.doc_path.endswith("刑法.md") for h in boosted if h.chunk.id in stating)
    # the setting reaches the ask: off, no hit carries the answer type
    off = KnowledgeBase(kb.config.model_copy(update={"offence_type": False}))
    assert any("answer_type" in h.sources for h in retrieve(kb, CASE, Mode.BM25, route=False).hits)
    assert not any("answer_type" in h.sources for h in retrieve(off, CASE, Mode.BM25, route=False).hits)
    # the twin: a question asking how long keeps its own type with the setting off
    q = "劳动合同期限三个月以上不满一年的，试用期不得超过多久？"
    assert [h.chunk.id for h in retrieve(kb, q, Mode.BM25, route=False).hits] == [
        h.chunk.id for h in retrieve(off, q, Mode.BM25, route=False).hits]


@pytest.mark.integration
def test_offence_provisions_lead_the_best_fused_candidates_of_a_narrative(criminal_kb):
    from test_long_questions import CASE

    kb = criminal_kb
    hits = kb.store.keyword(keyword_terms(kb.segment, CASE, kb.store.doc_frequency), 30)
    head = [states(AnswerType.OFFENCE, h.chunk.text) for h in hits[:20]]
    assert any(head) and not all(head) and head != sorted(head, reverse=True)
    got = offence_first(hits, answer_types(CASE), 20)
    lead = [states(AnswerType.OFFENCE, h.chunk.text) for h in got[:20]]
    assert lead == sorted(lead, reverse=True)  # the offence provisions first, then the rest
    assert [h.chunk.id for h in got[:20] if states(AnswerType.OFFENCE, h.chunk.text)] == [
        h.chunk.id for h in hits[:20] if states(AnswerType.OFFENCE, h.chunk.text)]  # each in its order
    assert [h.chunk.id for h in got[20:]] == [h.chunk.id for h in hits[20:]]
    # the twins: a question asking something else, or the window 0, keep the order
    ids = [h.chunk.id for h in hits]
    assert [h.chunk.id for h in offence_first(hits, answer_types("试用期最长多久？"), 20)] == ids
    assert [h.chunk.id for h in offence_first(hits, answer_types(CASE), 0)] == ids
