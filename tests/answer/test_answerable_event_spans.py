"""A when-question is met by a span between two events (``answerability_event_spans``): an
indicator's definition 「…到达医院后至进入诊室前的等待时间」, a statute's 「自进境起到办结海关手续止」.
Each with its negative twin — a line stating no time, or one event and no span — which is still
refused. The lines are real: a gov.cn opinion's attachment of indicators (the eighth fresh set)
and 海关法 第二十三条 of the laws corpus."""

from __future__ import annotations

import pytest

from zhiku.verify.answerable import check, has_quantity
from zhiku.verify.options import CheckOptions

pytestmark = pytest.mark.unit

WAIT = ("三级公立医院绩效考核指标：一级指标 一、医疗质量，二级指标 （四） 服务流程，三级指标 23.门诊患者预约后平均等待时间，"
        "指标性质 定量，指标说明 计算方法：门诊患者按预约时间到达医院后至进入诊室前的等待时间。 指标来源：医院填报。")
BOOKED = ("三级公立医院绩效考核指标：一级指标 一、医疗质量，二级指标 （四） 服务流程，三级指标 22.门诊患者平均预约诊疗率，"
          "指标性质 定量，指标说明 计算方法：预约诊疗人次数/总诊疗人次数×100%（急诊人次数不计入）。 指标来源：医院填报。")
CUSTOMS = ("第二十三条 进口货物自进境起到办结海关手续止，出口货物自向海关申报起到出境止，过境、转运和通运货物自进境起到出境止，"
           "应当接受海关监管。")
ASK_WAIT = "门诊患者预约后平均等待时间是从什么时候算到什么时候？"
ASK_CUSTOMS = "出口货物从什么时候到什么时候要接受海关监管？"


def _verdict(question: str, block: str, **readings: bool):
    return check(question, [(block, block)], opts=CheckOptions(**readings))


def test_a_span_between_two_events_answers_from_when_to_when():
    assert _verdict(ASK_WAIT, WAIT, event_spans=True).ok
    off = _verdict(ASK_WAIT, WAIT, event_spans=False)
    assert not off.ok and [c.text for c in off.missing] == ["when"]


def test_a_statute_span_answers_when_a_duty_holds():
    # the positive twin from another document: a statute's 「自…起到…止」
    assert _verdict(ASK_CUSTOMS, CUSTOMS, event_spans=True).ok
    off = _verdict(ASK_CUSTOMS, CUSTOMS, event_spans=False)
    assert not off.ok and [c.text for c in off.missing] == ["when"]
    assert has_quantity("when", "出口货物自向海关申报起到出境止", spans=True)
    assert not has_quantity("when", "出口货物自向海关申报起到出境止", spans=False)


def test_a_line_stating_no_time_or_one_event_is_still_refused():
    # the negative twins: the neighbouring indicator states a ratio, no time; one event alone,
    # a range of figures or a route between places is no span of time
    on = _verdict(ASK_WAIT, BOOKED, event_spans=True)
    assert not on.ok and [c.text for c in on.missing] == ["when"]
    assert not has_quantity("when", "门诊患者按预约时间到达医院的等待时间", spans=True)
    assert not has_quantity("when", "处五日以上十日以下拘留，并处五百元以上一千元以下罚款", spans=True)
    assert not has_quantity("when", "从北京到上海的高铁票价", spans=True)
