"""A 几 right after 这/那 points at a number the question has in mind and asks none (config
``answerability_demonstratives``): the wage-payment rule of tests/data/real/fresh8 and the
family-car warranty rule of tests/data/real/fresh9 (see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

WAGES = "fresh8/工资支付暂行规定.md"
CARS = "fresh9/家用汽车产品三包责任规定.md"
ON = CheckOptions(demonstratives=True)
OFF = CheckOptions(demonstratives=False)


def _chunk(name: str, holding: str):
    return next(c for c in real_chunks(name, whole_path=True) if holding in c.text and c.kind != "parent")


def _asked(question: str, opts: CheckOptions) -> str:
    return next((c.text for c in pinned(question, opts) if c.kind is Kind.QUANTITY), "")


def test_those_days_ask_no_count():
    assert _asked("春节法定假日那几天上班，工资怎么算？", ON) == ""
    assert _asked("春节法定假日那几天上班，工资怎么算？", OFF) == "days"
    # 这几个人: the people are in mind, 谁 is what is asked
    assert _asked("这几个人里谁是负责人？", ON) == "person"
    assert _asked("这几个人里谁是负责人？", OFF) == "people"


def test_a_bare_ji_still_asks_its_count():
    # the positive twin: 几 not after 这/那 asks, with the reading or without
    for opts in (ON, OFF):
        assert _asked("车在包修期内一次修理超过几天要提供备用车？", opts) == "days"
        assert _asked("法定假日上班几天可以调休？", opts) == "days"
        assert _asked("哪几个省份承担扩招任务？", opts) == "number"


def test_the_holiday_wage_article_answers_those_days():
    question = "春节法定假日那几天上班，工资怎么算？"
    article = _chunk(WAGES, "第十三条")
    assert "３００％" in article.text
    assert check(question, [(block_text(article), article.text)], opts=ON).ok
    off = check(question, [(block_text(article), article.text)], opts=OFF)
    assert not off.ok and "天数" in off.reason  # refused for want of a count of days


def test_a_days_question_is_still_checked_for_days():
    # the positive twin from another document: the warranty article states the days asked
    article = _chunk(CARS, "第二十一条")
    for opts in (ON, OFF):
        assert check("车在包修期内一次修理超过几天，修理者要提供备用车？",
                     [(block_text(article), article.text)], opts=opts).ok
