"""How often asked (「工资最少多长时间要发一次」, 隔多久) is met by a frequency (每月, 每年度) as
by a period (config ``answerability_frequencies``): the wage-payment rule of
tests/data/real/fresh8 and the network-data regulation of tests/data/real/fresh6 (see
tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, has_quantity
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

WAGES = "fresh8/工资支付暂行规定.md"
DATA = "fresh6/网络数据安全管理条例.md"
ON = CheckOptions(frequencies=True)
OFF = CheckOptions(frequencies=False)


def _chunk(name: str, holding: str):
    return next(c for c in real_chunks(name, whole_path=True) if holding in c.text and c.kind != "parent")


def _asked(question: str, opts: CheckOptions) -> str:
    return next(c.text for c in pinned(question, opts) if c.kind is Kind.QUANTITY)


def test_how_often_asks_a_frequency_and_how_long_a_period():
    for q in ("工资最少多长时间要发一次？", "重要数据的处理者多久要做一次风险评估？", "隔多久要续签合同？"):
        assert _asked(q, ON) == "frequency", q
        assert _asked(q, OFF) == "duration", q
    # the twin: how long, with no 一次, is a period either way
    assert _asked("试用期最长多久？", ON) == "duration"
    assert _asked("工资最少多长时间要发？", ON) == "duration"


def test_a_frequency_states_how_often_and_not_how_long():
    assert has_quantity("frequency", "工资至少每月支付一次")
    assert has_quantity("frequency", "重要数据的处理者应当每年度对其网络数据处理活动开展风险评估")
    assert has_quantity("frequency", "保存两年以上备查")  # a period answers how often too
    assert not has_quantity("duration", "工资至少每月支付一次")  # how long: a figure and its unit
    assert not has_quantity("frequency", "用人单位可委托银行代发工资")


def test_the_monthly_payment_answers_how_often_wages_are_paid():
    # 第七条 「工资至少每月支付一次」 states how often in a period word, no figure: met with the
    # reading; off it was missed and the composer quoted 第六条's 「保存两年以上备查」 instead
    question = "工资最少多长时间要发一次？"
    seventh = _chunk(WAGES, "工资至少每月支付一次")
    assert check(question, [(block_text(seventh), seventh.text)], opts=ON).ok
    off = check(question, [(block_text(seventh), seventh.text)], opts=OFF)
    assert any(c.kind is Kind.QUANTITY and c.text == "duration" for c in off.missing)


def test_a_yearly_risk_assessment_answers_how_often_in_another_rule():
    # the positive twin from another document: 第三十三条 「应当每年度…开展风险评估」
    question = "重要数据的处理者多久要做一次风险评估？"
    article = _chunk(DATA, "每年度对其网络数据处理活动开展风险评估")
    assert check(question, [(block_text(article), article.text)], opts=ON).ok
    assert not has_quantity("duration", article.text.split("。")[0])


def test_a_rule_stating_no_frequency_still_misses_how_often():
    # the negative twin: 第九条 pays wages 「一次付清」 when a contract ends, which says no period
    # and no frequency: refused with the reading as without it, naming what is missing
    question = "工资最少多长时间要发一次？"
    ninth = _chunk(WAGES, "一次付清劳动者工资")
    on = check(question, [(block_text(ninth), ninth.text)], opts=ON)
    assert not on.ok and "频次" in on.reason
    assert not check(question, [(block_text(ninth), ninth.text)], opts=OFF).ok
