"""A numbered provision states when at the moment of an event (``answerability_statute_moments``):
「用人单位应在解除或终止劳动合同时一次付清劳动者工资」 says when wages are settled, 在 an event 时 — a weak
mismatch, as the statute's other forms of when are. Each with its negative twin: an hour, real time,
「不能同时」 or a provision stating no time is still a miss. The lines are real: 工资支付暂行规定
第九条 and 第七条 (the eighth fresh set) and 车船税法 第六条 of the laws corpus."""

from __future__ import annotations

import pytest

from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.stated import STATUTE_MOMENT

pytestmark = pytest.mark.unit

WAGES = "工资支付暂行规定 工资支付暂行规定 第九条 劳动关系双方依法解除或终止劳动合同时，用人单位应在解除或终止劳动合同时一次付清劳动者工资。"
MONEY = "工资支付暂行规定 工资支付暂行规定 第五条 工资应当以法定货币支付。不得以实物及有价证券替代货币支付。"
VESSELS = ("车船税法 车船税法 第六条 从事机动车第三者责任强制保险业务的保险机构为机动车车船税的扣缴义务人，"
           "应当在收取保险费时依法代收车船税，并出具代收税款凭证。")
ASK_WAGES = "我辞职的话，公司应该什么时候把工资结清？"
ASK_VESSELS = "车船税什么时候交给保险公司？"


def _missed(question: str, block: str, **readings: bool):
    verdict = check(question, [(block, block)], opts=CheckOptions(**readings))
    assert not verdict.ok
    return [(c.text, c.unworded) for c in verdict.missing]


def test_a_duty_at_the_moment_of_an_event_is_a_weak_mismatch():
    assert _missed(ASK_WAGES, WAGES, statute_moments=True) == [("when", True)]
    assert _missed(ASK_WAGES, WAGES, statute_moments=False) == [("when", False)]


def test_another_statute_s_moment_reads_the_same():
    # the positive twin from another document
    assert _missed(ASK_VESSELS, VESSELS, statute_moments=True) == [("when", True)]
    assert _missed(ASK_VESSELS, VESSELS, statute_moments=False) == [("when", False)]


def test_an_hour_real_time_at_once_or_no_moment_is_still_a_miss():
    # the negative twins: 第五条 states how wages are paid, not when; an hour, real time and
    # 「不能同时」 name no event
    assert _missed(ASK_WAGES, MONEY, statute_moments=True) == [("when", False)]
    assert STATUTE_MOMENT.search("用人单位应在解除或终止劳动合同时一次付清")
    for text in ("应当在拘留后的二十四小时以内进行讯问", "在一个纳税年度内不能同时享受", "在线实时", "在执行职务的同时"):
        assert STATUTE_MOMENT.search(text) is None, text
