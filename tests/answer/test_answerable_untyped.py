"""A figure the question asks that the answer states nowhere refuses, where a figure a rule may
state otherwise (a weak mismatch) is only answered at a lower confidence (config
``answerability_untyped``); a figure beside other words, or a period stated as how often, stays
weak."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.answer.finish import untyped
from zhiku.verify.answerable import check, decisive

LABOUR = (Path(__file__).resolve().parents[1] / "data" / "laws" / "社会法" / "劳动法(2018-12-29).md").read_text(
    encoding="utf-8")


def _article(label: str) -> str:
    start = LABOUR.index("\n" + label) + 1
    return LABOUR[start:LABOUR.find("\n第", start + 1)]


def _verdict(question: str, article: str):
    text = _article(article)
    return check(question, [(text, text)]), text


@pytest.mark.unit
def test_an_answer_stating_no_period_at_all_is_untyped():
    """第四十四条 states overtime pay as shares of wages, no period: 「多久能调休」 is a weak
    mismatch of a rule (not decisive) that the answer cannot meet in any form."""
    v, text = _verdict("加班以后多久能调休？", "第四十四条")
    assert not v.ok and not any(decisive(c, v.constraints) for c in v.missing)
    assert untyped(v, text)


@pytest.mark.unit
def test_a_period_stated_stays_answered():
    """The twins: 第二十一条 states the probation's longest period (answered, nothing missing);
    a period beside other words (六个月 of 试用期 for 加班费) and 第五十条's 按月支付 for
    「工资多久发一次」 are stated periods: weak at most, never untyped."""
    v, _ = _verdict("试用期最长多久？", "第二十一条")
    assert v.ok
    v, text = _verdict("加班费多久发一次？", "第二十一条")
    assert not v.ok and not untyped(v, text)
    v, text = _verdict("工资多久发一次？", "第五十条")
    assert not untyped(v, text)
