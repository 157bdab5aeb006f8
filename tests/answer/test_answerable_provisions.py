"""A statute states a value in its own terms: a quantity asked of what the user does
(「一年能休几天」, 「在家歇多少天」, 「一年挣多少钱」) is met by a numbered provision stating a
value of that kind beside another word (年休假5天, 九十天的产假, 减除费用六万元) — a weak mismatch,
answered at a lower confidence, never a refusal (``answerability_provisions``). A quantity of a
thing the question names (「起征点是每月多少钱」), a provision stating no such value and a text
that is no provision are still refused. Real law text, verbatim."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode
from zhiku.verify.answerable import check, decisive, meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned
from zhiku.verify.provisions import of_act
from tests.asking import ask

# 中华人民共和国劳动法 (2018-12-29) 第六十二条, 第六十一条
BIRTH_SAID = "女职工生育享受不少于九十天的产假。"
BIRTH = "中华人民共和国劳动法 第六十二条 " + BIRTH_SAID
PREGNANT_SAID = "不得安排女职工在怀孕期间从事国家规定的第三级体力劳动强度的劳动和孕期禁忌从事的劳动。"
PREGNANT = "中华人民共和国劳动法 第六十一条 " + PREGNANT_SAID
# 职工带薪年休假条例 (2007-12-14) 第三条
LEAVE_SAID = "职工累计工作已满1年不满10年的，年休假5天；已满10年不满20年的，年休假10天；已满20年的，年休假15天。"
LEAVE = "职工带薪年休假条例 第三条 " + LEAVE_SAID
# 中华人民共和国个人所得税法 (2018-08-31) 第六条 (its first item)
INCOME_SAID = "居民个人的综合所得，以每一纳税年度的收入额减除费用六万元以及专项扣除、专项附加扣除和依法确定的其他扣除后的余额，为应纳税所得额。"
INCOME = "中华人民共和国个人所得税法 第六条 应纳税所得额的计算： （一）" + INCOME_SAID
# 个人所得税专项附加扣除暂行办法 第八条 (tests/data/real)
EDUCATION_SAID = "纳税人在中国境内接受学历（学位）继续教育的支出，在学历（学位）教育期间按照每月400元定额扣除。"
EDUCATION = "个人所得税专项附加扣除暂行办法 第八条 " + EDUCATION_SAID

REST = "生孩子能在家歇多少天，国家有统一规定吗？"


# the readings these tests switch on (both ship off): the provision's own terms, its title's word;
# read apart from the period a provision states, the statute's words for an everyday act and a
# sum read beside its nouns (``answerability_article_periods``, ``answerability_lay_acts``:
# test_answerable_lay.py; ``answerability_noun_heads``: test_answerable_near.py)
ALONE = {"article_periods": False, "lay_acts": False, "noun_heads": False}
ON = CheckOptions(provisions=True, titled=True, **ALONE)


def _weak(verdict) -> bool:
    return not verdict.ok and bool(verdict.missing) and not any(decisive(c, verdict.constraints)
                                                                for c in verdict.missing)


@pytest.mark.unit
def test_a_quantity_asked_of_an_act_is_read_so():
    """The verb before the asking words tells an act (休, 歇, 挣); a copula or 有 asks of the
    thing named before it (起征点是, 年假有), and so does a question with no verb there."""
    acts = {q: [c.of_act for c in pinned(q) if c.kind is Kind.QUANTITY] for q in (
        REST, "参加工作刚满两年，一年能休几天带薪假？", "按个人所得税法，现在一年挣多少钱以内不用交个税？",
        "个人所得税的起征点是每月多少钱？", "公司年假有多少天？", "试用期最长多久？", "女职工的哺乳假有多少天？")}
    assert list(acts.values()) == [[True], [True], [True], [False], [False], [False], [False]]
    assert of_act("一年能休") and not of_act("起征点是每月") and not of_act("")


@pytest.mark.unit
def test_a_provision_stating_the_value_in_its_own_terms_is_a_weak_mismatch():
    """劳动法 第六十二条 states the days of 产假, not of 歇 or 孩子: answered (weak), refused with
    the lever off; 第六十一条 states no days and is refused either way."""
    on = check(REST, [(BIRTH, BIRTH_SAID)], opts=ON)
    assert _weak(on) and on.missing[0].unworded and on.missing[0].text == "days"
    off = check(REST, [(BIRTH, BIRTH_SAID)], opts=CheckOptions(provisions=False, **ALONE))
    assert not off.ok and not _weak(off)
    none = check(REST, [(PREGNANT, PREGNANT_SAID)], opts=ON)
    assert not none.ok and not _weak(none)
    # the same sentence, not a numbered provision (no 第…条): refused
    assert not _weak(check(REST, [(BIRTH_SAID, BIRTH_SAID)], opts=ON))


@pytest.mark.unit
def test_the_sum_an_act_earns_follows_its_quantity():
    """「一年挣多少钱以内不用交个税」 pins the sum 挣 moved as well; 个人所得税法 第六条's 六万元 meets
    neither by the question's words, both weak together; a deduction of 每月400元 asked as the
    threshold a named thing is (「起征点是每月多少钱」) is still refused."""
    ask_ = "按个人所得税法，现在一年挣多少钱以内不用交个税？"
    on = check(ask_, [(INCOME, INCOME_SAID)], opts=ON)
    assert _weak(on) and {c.kind for c in on.missing} == {Kind.QUANTITY, Kind.FOCUS}
    assert not _weak(check(ask_, [(INCOME, INCOME_SAID)], opts=CheckOptions(provisions=False, **ALONE)))
    named = check("个人所得税的起征点是每月多少钱？", [(EDUCATION, EDUCATION_SAID)], opts=CheckOptions(provisions=True, **ALONE))
    assert not named.ok and not _weak(named)


@pytest.mark.unit
def test_the_composer_prefers_the_provision_stating_the_value():
    """The answer's sentence choice reads the same: 第三条's 年休假5天 meets 「一年能休几天带薪假」
    (so it is quoted over 劳动法's 「享受带薪年休假」, which states no days); off, it does not."""
    cons = pinned("参加工作刚满两年，一年能休几天带薪假？")
    assert meets_all(cons, LEAVE_SAID, LEAVE, opts=CheckOptions(provisions=True, **ALONE))
    assert not meets_all(cons, LEAVE_SAID, LEAVE, opts=CheckOptions(titled=False, provisions=False, **ALONE))
    assert not meets_all(cons, "劳动者连续工作一年以上的，享受带薪年休假。",
                         "中华人民共和国劳动法 第四十五条 劳动者连续工作一年以上的，享受带薪年休假。",
                         opts=CheckOptions(provisions=True, **ALONE))


@pytest.mark.integration
def test_the_ask_answers_from_the_provision_and_the_setting_switches_it_off(laws_kb):
    """Over the test laws (keyword only) 「女职工生了孩子，在家能歇多少天？」 is answered from 劳动法
    第六十二条 (九十天) with ``answerability_provisions`` on; off (shipped) it is refused for want of
    the days — read apart from ``answerability_article_periods`` (shipped on), which answers it too
    (test_answerable_lay.py)."""
    from tests.answer.conftest import with_config

    q = "女职工生了孩子，在家能歇多少天？"
    alone = with_config(laws_kb, answerability_article_periods=False)
    on = ask(with_config(alone, answerability_provisions=True), q, Mode.BM25)
    assert not on.refused and "九十天" in on.text
    assert on.citations and "劳动法" in on.citations[0].doc_path
    off = ask(alone, q, Mode.BM25)
    assert off.refused and "天数" in off.text
    periods = ask(laws_kb, q, Mode.BM25)
    assert not periods.refused and "九十天" in periods.text
