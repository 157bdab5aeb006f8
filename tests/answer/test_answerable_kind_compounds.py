"""A question word holding the asked kind's own word keeps its other part among the words a
figure is asked of (config ``answerability_kind_compounds``): 民法典 婚姻家庭编 of tests/data/laws,
第一千零四十七条 (the ages of marriage) and 第一千一百零二条 (an age difference in adoption)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

ON = CheckOptions(kind_compounds=True)
OFF = CheckOptions(kind_compounds=False)
LAW = Path(__file__).resolve().parent.parent / "data" / "laws" / "民法典" / "婚姻家庭编.md"
TITLE = "中华人民共和国民法典 婚姻家庭编 "


def _article(number: str) -> tuple[str, str]:
    line = next(ln for ln in LAW.read_text(encoding="utf-8").splitlines() if ln.startswith(number + " "))
    return TITLE + line, line.rstrip("。") + "[1]。"


def _about(question: str, opts: CheckOptions) -> str:
    return next(c.about for c in pinned(question, opts) if c.kind is Kind.QUANTITY)


def test_the_age_of_marriage_asked_with_a_qualifier_is_met_by_the_article_stating_it():
    marriage = _article("第一千零四十七条")
    for question in ("法定结婚年龄是多少岁？", "结婚年龄男女各是多少岁？"):
        assert "结婚" in _about(question, ON).split("|")
        assert check(question, [marriage], opts=ON).ok
        assert not check(question, [marriage], opts=OFF).ok  # asked of 法定 / 男女 alone before


def test_an_age_of_something_else_still_misses_it():
    # the negative twins: an age difference in adoption is no age of marriage, and the ages
    # of marriage are no age of retirement
    adoption = _article("第一千一百零二条")
    assert not check("法定结婚年龄是多少岁？", [adoption], opts=ON).ok
    assert not check("法定退休年龄是多少岁？", [_article("第一千零四十七条")], opts=ON).ok


def test_a_clause_of_no_other_word_still_asks_any_figure_of_the_kind():
    # 「结婚年龄是多少岁」: nothing but the compound, so nothing is required beside the age, as before
    assert _about("结婚年龄是多少岁？", ON) == _about("结婚年龄是多少岁？", OFF) == ""
    assert check("结婚年龄是多少岁？", [_article("第一千零四十七条")], opts=ON).ok
    # and the other kinds' words: 营业时间, 门票价格
    assert "营业" in _about("超市周末的营业时间是几点到几点？", ON).split("|")
    assert "门票" in _about("故宫淡季的门票价格是多少钱？", ON).split("|")
