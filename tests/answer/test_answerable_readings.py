"""What a question pins, read as a statute answers it: a sum asked (多少钱) is met by a multiple
or share of another sum (``answerability_units``), the act a sum is asked of is read without
the modal the segmenter glued to it (``answerability_acts``: 该付 → 付), and a word the tagger
calls a person's name that is two common words (初中生, 法律援助) does not decide
(``answerability_compounds``). Each with its twin the documents do not answer, still refused.
Real law text, verbatim (tests/data/laws)."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode
from zhiku.verify.answerable import check, decisive, other_form
from zhiku.verify.holders import sum_verb
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import compound_name, pinned
from tests.asking import ask

# 中华人民共和国劳动法 (2018-12-29) 第四十四条 (its third item) and 第十五条
HOLIDAY_SAID = "法定休假日安排劳动者工作的，支付不低于工资的百分之三百的工资报酬。"
HOLIDAY = ("中华人民共和国劳动法 第四十四条 有下列情形之一的，用人单位应当按照下列标准支付高于劳动者正常工作时间"
           "工资的工资报酬： （三）" + HOLIDAY_SAID)
MINORS_SAID = "禁止用人单位招用未满十六周岁的未成年人。"
MINORS = "中华人民共和国劳动法 第十五条 " + MINORS_SAID

PAY = "法定休假日安排加班，工资该付多少钱？"
OFF = {"answerability_units": False, "answerability_compounds": False, "answerability_acts": False}


def _weak(verdict, opts: CheckOptions = CheckOptions()) -> bool:
    return not verdict.ok and bool(verdict.missing) and not any(decisive(c, verdict.constraints, opts)
                                                                for c in verdict.missing)


@pytest.mark.unit
def test_a_sum_is_stated_as_a_multiple_or_share_of_another():
    """价款的三倍, 百分之三百, 一个月工资 state what is paid; a date or a count of people does not."""
    assert all(other_form("money", t) for t in ("价款的三倍", "支付不低于工资的百分之三百的工资报酬",
                                                "每满一年支付一个月工资的经济补偿"))
    assert not any(other_form("money", t) for t in ("2023年3月1日起施行", "三人以上", "未满十六周岁"))
    assert not other_form("days", "连续工作满12个月以上的")  # a condition, not the days asked


@pytest.mark.unit
def test_the_act_a_sum_is_asked_of_is_its_verb():
    """该付 → 付, 能赔 → 赔, 要交 → 交; a verb with no modal stays whole."""
    assert [sum_verb(a) for a in ("该付", "能赔", "要交", "罚款", "赔")] == ["付", "赔", "交", "罚款", "赔"]


@pytest.mark.unit
def test_the_holiday_rate_answers_what_is_paid_and_each_setting_switches_it_off():
    """劳动法 第四十四条 states the holiday pay as 百分之三百 of the wage in a clause saying 支付:
    met with both readings; either off, the money or the act 该付 is missing and decides."""
    assert check(PAY, [(HOLIDAY, HOLIDAY_SAID)]).ok
    for off in ({"units": False}, {"acts": False}):
        v = check(PAY, [(HOLIDAY, HOLIDAY_SAID)], opts=CheckOptions(**off))
        assert not v.ok and not _weak(v)
    # the twin: a clause that states no sum of any form still misses it
    twin = check(PAY, [(MINORS, MINORS_SAID)])
    assert not twin.ok and not _weak(twin)


@pytest.mark.unit
def test_a_compound_the_tagger_calls_a_name_does_not_decide():
    """初中生 (初中 + 生) and 法律援助 (法律 + 援助) are kinds of things a statute names in its own
    terms (未成年人): missing them is a weak mismatch; a person's or a company's name (张学友,
    比亚迪) still decides, and so does 初中生 with the setting off."""
    assert compound_name("初中生") and compound_name("法律援助")
    assert not any(compound_name(w) for w in ("张学友", "刘德华", "比亚迪", "安倍晋三", "华为"))
    # read apart from ``answerability_lay_words``, which meets 初中生 by 未成年人 (test_answerable_lay.py)
    on = check("用人单位能招用初中生吗？", [(MINORS, MINORS_SAID)], opts=CheckOptions(lay_words=False))
    assert _weak(on, opts=CheckOptions(compounds=True)) and not _weak(on)  # the setting is off by default
    twin = check("比亚迪能招用初中生吗？", [(MINORS, MINORS_SAID)])
    assert not twin.ok and any(decisive(c, twin.constraints, CheckOptions(compounds=True)) for c in twin.missing)
    assert [c.text for c in pinned("比亚迪能招用初中生吗？") if decisive(c, opts=CheckOptions(compounds=True))] == ["比亚迪"]


@pytest.mark.integration
def test_the_ask_answers_the_holiday_rate_and_refuses_its_twin(laws_kb):
    """Over the test laws (keyword only) 「法定休假日安排加班，工资该付多少钱？」 is answered from
    劳动法 第四十四条 (百分之三百); with the three settings off it is refused for want of the sum.
    「公司团建聚餐，每人该付多少钱？」, which no law answers, is refused either way."""
    from tests.answer.conftest import with_config

    on = ask(laws_kb, PAY, Mode.BM25)
    assert not on.refused and "百分之三百" in on.text
    assert on.citations and on.citations[0].article == "第四十四条" and "劳动法" in on.citations[0].doc_path
    assert ask(with_config(laws_kb, **OFF), PAY, Mode.BM25).refused
    twin = "公司团建聚餐，每人该付多少钱？"
    assert ask(laws_kb, twin, Mode.BM25).refused
    assert ask(with_config(laws_kb, **OFF), twin, Mode.BM25).refused
