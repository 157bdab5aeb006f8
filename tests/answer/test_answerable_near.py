"""A layperson's word read for what it means, with no list of words: a word the tagger calls a
name is met by the cited block's word for the same thing, by the embedder (宝宝 by 婴儿:
``answerability_near_words``); a sum asked of an act is read beside the nouns it is asked of,
the act in the user's own verb a weak mismatch (``answerability_noun_heads``); when asked of a
rule is met weakly by the period or recurrence a provision states (``answerability_rule_times``).
Each with its twin — a company's name, a question pinning an instance, a date asked — still
refused. Real law text, verbatim (tests/data/laws), and the real bundled embedder."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode
from zhiku.verify.answerable import check, decisive, noun_word, user_verb
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned
from tests.asking import ask

# 中华人民共和国劳动法 (2018-12-29) 第六十三条
NURSING_SAID = ("不得安排女职工在哺乳未满一周岁的婴儿期间从事国家规定的第三级体力劳动强度的劳动和哺乳期禁忌从事的"
                "其他劳动，不得安排其延长工作时间和夜班劳动。")
NURSING = "中华人民共和国劳动法 第六十三条 " + NURSING_SAID
# 中华人民共和国劳动合同法 (2012-12-28) 第五十七条 (its lead-in and first item), 第四十条 (its lead-in)
CAPITAL_SAID = "（一）注册资本不得少于人民币二百万元；"
CAPITAL = "中华人民共和国劳动合同法 第五十七条 经营劳务派遣业务应当具备下列条件: " + CAPITAL_SAID
NOTICE_SAID = "有下列情形之一的，用人单位提前三十日以书面形式通知劳动者本人或者额外支付劳动者一个月工资后，可以解除劳动合同:"
NOTICE = "中华人民共和国劳动合同法 第四十条 " + NOTICE_SAID


def _refused(verdict, opts: CheckOptions = CheckOptions()) -> bool:
    """The verdict refuses: something decisive is missing."""
    return not verdict.ok and any(decisive(c, verdict.constraints, opts) for c in verdict.missing)


@pytest.mark.integration
def test_a_word_is_met_by_the_statutes_word_for_the_same_thing(laws_kb):
    """宝宝, which the tagger calls a person's name, is met by 第六十三条's 婴儿 through the bundled
    embedder (cosine ≥ answerability_near_cosine) with ``near_words`` on; off, refused for want of
    宝宝. 腾讯 and 比亚迪, names, have no word that close in the article: refused either way."""
    from zhiku.verify.near import near_reader, nearest

    near = near_reader(laws_kb, laws_kb.config.answerability_near_cosine)
    on, off = CheckOptions(near_words=True), CheckOptions()  # shipped off
    q = "宝宝不满一岁时单位能安排我上夜班吗？"
    assert nearest(laws_kb, "宝宝", NURSING)[0] == "婴儿"
    assert check(q, [(NURSING, NURSING_SAID)], opts=on, near=near).ok
    assert _refused(check(q, [(NURSING, NURSING_SAID)], opts=off, near=near), off)  # off: the word itself
    assert _refused(check(q, [(NURSING, NURSING_SAID)]))  # no reader (a caller without an embedder)
    for twin in ("腾讯不满一岁时单位能安排我上夜班吗？", "比亚迪能安排哺乳期的女职工上夜班吗？"):
        assert _refused(check(twin, [(NURSING, NURSING_SAID)], opts=on, near=near), on)


@pytest.mark.integration
def test_the_ask_meets_the_lay_word_and_refuses_the_name(laws_kb):
    """Over the test laws (keyword only) the ask, ``answerability_near_words`` on, answers the
    宝宝 question from 劳动法 第六十三条 and still refuses its twin naming a company; as shipped
    (off), the 宝宝 question is refused too."""
    from tests.answer.conftest import with_config

    on = with_config(laws_kb, answerability_near_words=True)
    got = ask(on, "宝宝不满一岁时单位能安排我上夜班吗？", Mode.BM25)
    assert not got.refused and got.citations and got.citations[0].article == "第六十三条"
    assert ask(on, "比亚迪能安排哺乳期的女职工上夜班吗？", Mode.BM25).refused
    assert ask(laws_kb, "宝宝不满一岁时单位能安排我上夜班吗？", Mode.BM25).refused


@pytest.mark.unit
def test_a_sum_is_read_beside_its_nouns_and_the_users_verb_is_weak():
    """「注册资本至少要准备多少钱」: 准备 is the user's verb, which 第五十七条 nowhere states; with
    ``noun_heads`` the sum (二百万元) beside 注册资本 is a weak mismatch, answered; off, refused for
    want of 准备. The words a sum is of are its nouns (not 至少, 准备, 一年, 以内). A twin naming a
    company is refused; a verb the block states (罚 of 罚款) is not the user's."""
    assert [w for w in ("注册资本", "至少", "准备", "一年", "以内", "医院", "带薪假") if noun_word(w)] == [
        "注册资本", "医院", "带薪假"]
    on, off = CheckOptions(), CheckOptions(noun_heads=False)  # shipped on
    q = "开劳务派遣公司，注册资本至少要准备多少钱？"
    got = check(q, [(CAPITAL, CAPITAL_SAID)], opts=on)
    assert not got.ok and not _refused(got, on) and all(c.kind is Kind.FOCUS for c in got.missing)
    assert _refused(check(q, [(CAPITAL, CAPITAL_SAID)], opts=off), off)
    assert _refused(check("腾讯开劳务派遣公司注册资本至少要准备多少钱？", [(CAPITAL, CAPITAL_SAID)], opts=on), on)
    fined = next(c for c in pinned("擅自经营劳务派遣会被罚多少钱？") if c.kind is Kind.FOCUS)
    assert not user_verb(fined, "……并处违法所得一倍以上五倍以下的罚款；没有违法所得的，可以处五万元以下的罚款。")


@pytest.mark.unit
def test_when_asked_of_a_rule_is_met_by_the_period_it_states():
    """「应该什么时候通知我」 asks when of a rule: 第四十条's 提前三十日 states it as how long before,
    a weak mismatch with ``rule_times`` (shipped off: refused). A date asked (几号) and a block
    stating no period are still refused."""
    on = CheckOptions(rule_times=True)
    q = "公司要辞退我，应该什么时候通知我？"
    got = check(q, [(NOTICE, NOTICE_SAID)], opts=on)
    assert not got.ok and not _refused(got, on)
    assert _refused(check(q, [(NOTICE, NOTICE_SAID)]))
    assert _refused(check("公司要辞退我，应该几号通知我？", [(NOTICE, NOTICE_SAID)], opts=on), on)
    assert _refused(check(q, [(CAPITAL, CAPITAL_SAID)], opts=on), on)
