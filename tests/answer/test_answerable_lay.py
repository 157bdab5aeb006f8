"""A layperson's everyday words, read as a statute states them: a kind of person or family role
the tagger calls a name (初中生, 老公) is met by the statute's word for it
(``answerability_lay_words``), the act a sum is asked of in everyday words (掏, 挣) by the
statute's (支付, 所得: ``answerability_lay_acts``), and a period asked by the period a quoted
numbered provision states (``answerability_article_periods``). Each with its twin naming a
company the documents do not hold, still refused. Real law text, verbatim (tests/data/laws)."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode
from zhiku.verify.answerable import check, decisive
from zhiku.verify.lay import act_words, law_words
from zhiku.verify.options import CheckOptions
from tests.asking import ask

# 中华人民共和国劳动法 (2018-12-29) 第十五条, 第四十四条 (its first item), 第六十二条
MINORS_SAID = "禁止用人单位招用未满十六周岁的未成年人。"
MINORS = "中华人民共和国劳动法 第十五条 " + MINORS_SAID
OVERTIME_SAID = "安排劳动者延长工作时间的，支付不低于工资的百分之一百五十的工资报酬。"
OVERTIME = ("中华人民共和国劳动法 第四十四条 有下列情形之一的，用人单位应当按照下列标准支付高于劳动者正常工作时间"
            "工资的工资报酬： （一）" + OVERTIME_SAID)
LEAVE_SAID = "女职工生育享受不少于九十天的产假。"
LEAVE = "中华人民共和国劳动法 第六十二条 " + LEAVE_SAID
# 中华人民共和国民法典 婚姻家庭编 第一千零八十一条
SOLDIER_SAID = "现役军人的配偶要求离婚，应当征得军人同意，但是军人一方有重大过错的除外。"
SOLDIER = "中华人民共和国民法典 第一千零八十一条 " + SOLDIER_SAID


#: The two lay readings ship off (no development item needs them); these tests switch them on.
ON = CheckOptions(lay_words=True, lay_acts=True)


def _refused(verdict, opts: CheckOptions = CheckOptions()) -> bool:
    """The verdict refuses: something decisive is missing."""
    return not verdict.ok and any(decisive(c, verdict.constraints, opts) for c in verdict.missing)


@pytest.mark.unit
def test_a_kind_of_person_is_met_by_the_statutes_word_and_a_name_is_not():
    """初中生 and 老公, which the tagger calls names, are met by 未成年人 and 配偶; off, the
    evidence must repeat the word and the missing word refuses. 比亚迪 and 华为 have no statute's
    word: still refused."""
    assert "未成年人" in law_words("初中生") and "配偶" in law_words("老公")
    assert not any(law_words(w) for w in ("比亚迪", "华为", "腾讯", "张学友", "北京"))
    pupil = "用人单位能招用初中生吗？"
    assert check(pupil, [(MINORS, MINORS_SAID)], opts=ON).ok
    assert _refused(check(pupil, [(MINORS, MINORS_SAID)]))  # the shipped default: off
    assert _refused(check("比亚迪能招用初中生吗？", [(MINORS, MINORS_SAID)], opts=ON), ON)
    husband = "跟现役军人的老公离婚要经过他同意吗？"
    assert check(husband, [(SOLDIER, SOLDIER_SAID)], opts=ON).ok
    assert not check(husband, [(SOLDIER, SOLDIER_SAID)]).ok
    assert _refused(check("华为的现役军人离婚需要同意吗？", [(SOLDIER, SOLDIER_SAID)], opts=ON), ON)


@pytest.mark.unit
def test_an_everyday_verb_of_money_is_met_by_the_statutes_act():
    """掏 is met by a clause stating 支付 beside the sum (百分之一百五十 of the wage); off, a
    word sharing 掏 is wanted. A clause stating no sum at all still misses it either way."""
    assert "支付" in act_words("掏") and "所得" in act_words("挣") and not act_words("罚")
    q = "延长工作时间要掏多少钱？"
    assert check(q, [(OVERTIME, OVERTIME_SAID)], opts=ON).ok
    plain = CheckOptions(noun_heads=False)
    assert _refused(check(q, [(OVERTIME, OVERTIME_SAID)], opts=plain), plain)  # lay_acts off, noun_heads off
    # shipped (noun_heads on): 掏 is a verb the article nowhere holds, a weak mismatch beside the sum
    weak = check(q, [(OVERTIME, OVERTIME_SAID)])
    assert not weak.ok and not _refused(weak)
    assert _refused(check(q, [(MINORS, MINORS_SAID)], opts=ON), ON)  # no sum stated: refused with it on


@pytest.mark.unit
def test_a_period_asked_is_met_by_the_period_a_provision_states():
    """「生孩子能在家歇多少天」 is answered, at a lower confidence (a weak mismatch), by 劳动法
    第六十二条's 九十天 of 产假, which names none of the question's words, and the composer's
    sentence choice takes it as meeting the question; off, refused. A provision stating no
    period, and a question naming a company, are still refused."""
    from zhiku.verify.answerable import meets_all
    from zhiku.verify.pins import pinned

    q = "生孩子能在家歇多少天？"
    on = check(q, [(LEAVE, LEAVE_SAID)])
    assert not on.ok and not _refused(on) and all(c.unworded for c in on.missing)
    assert meets_all(pinned(q), LEAVE_SAID, LEAVE)
    assert not meets_all(pinned(q), LEAVE_SAID, LEAVE, CheckOptions(article_periods=False))
    off = CheckOptions(article_periods=False)
    assert _refused(check(q, [(LEAVE, LEAVE_SAID)], opts=off), off)
    assert _refused(check(q, [(MINORS, MINORS_SAID)]))  # 十六周岁 is an age, not days
    assert _refused(check("腾讯的员工生孩子能歇多少天？", [(LEAVE, LEAVE_SAID)]))


@pytest.mark.integration
def test_the_ask_answers_the_everyday_question_and_refuses_its_twin(laws_kb):
    """Over the test laws (keyword only) 「网吧能招用初中生吗？」 is answered from 劳动法 第十五条
    (未成年人) with ``answerability_lay_words`` on; off (the default) it is refused for want of 初中生. 「腾讯能招用
    初中生吗？」, which no document answers, is refused either way."""
    from tests.answer.conftest import with_config

    q = "用人单位能招用初中生吗？"
    lay = with_config(laws_kb, answerability_lay_words=True)
    on = ask(lay, q, Mode.BM25)
    assert not on.refused and "未成年人" in on.text
    assert on.citations and on.citations[0].article == "第十五条" and "劳动法" in on.citations[0].doc_path
    assert ask(laws_kb, q, Mode.BM25).refused  # the shipped default: off
    twin = "腾讯能招用初中生吗？"
    assert ask(lay, twin, Mode.BM25).refused
    assert ask(laws_kb, twin, Mode.BM25).refused
