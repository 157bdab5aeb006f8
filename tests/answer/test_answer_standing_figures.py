"""A question asking a figure gets no standing bonus (``answer_standing_figures``): the share of
wages a deduction may take is stated by 工资支付暂行规定, a rule under 劳动法, not by 劳动法's
article on paying wages; verbatim provisions in a real store in a temporary home."""

from __future__ import annotations

import pytest

from zhiku.answer.extractive import compose
from zhiku.answer.respond import _bonus
from zhiku.answer.standing import asks_figure
from zhiku.ask.search import Mode, retrieve
from zhiku.verify.pins import pinned

from tests.answer.conftest import law_kb, with_config

RULE = ("# 工资支付暂行规定\n\n"
        "第十六条 因劳动者本人原因给用人单位造成经济损失的，用人单位可按照劳动合同的约定要求其赔偿经济损失。"
        "经济损失的赔偿，可从劳动者本人的工资中扣除。但每月扣除的部分不得超过劳动者当月工资的20％。"
        "若扣除后的剩余工资部分低于当地月最低工资标准，则按最低工资标准支付。\n")
LAW = ("# 中华人民共和国劳动法\n\n## 第五章 工资\n\n"
       "第五十条 工资应当以货币形式按月支付给劳动者本人。不得克扣或者无故拖欠劳动者的工资。\n")
FIGURE = "我把公司的设备弄坏了，公司每个月从工资里扣钱赔，最多能扣多少？"
WHETHER = "我把公司的设备弄坏了，公司能从工资里扣钱赔吗？"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return law_kb(tmp_path_factory, (("行政法规", "工资支付暂行规定.md", RULE), ("社会法", "劳动法.md", LAW)))


def _evidence(kb, question):
    """The rule's article first, then the statute's, as the whole corpus with vectors ranks them."""
    hits = retrieve(kb, question, Mode.BM25, route=False).hits
    rule = [h for h in hits if h.chunk.title == "工资支付暂行规定"]
    law = [h for h in hits if h.chunk.title == "中华人民共和国劳动法"]
    assert rule and law
    return [rule[0], law[0]]


def _bonus_with(kb, question, hits, figures: bool):
    # the standing alone: the keyword-only store's blocks are not encoded for their meaning here
    return _bonus(with_config(kb, answer_standing_figures=figures, answer_meaning_encode=False), question, hits,
                  pinned(question))


def _quoted(kb, question, figures: bool) -> str:
    hits = _evidence(kb, question)
    terms = retrieve(kb, question, Mode.BM25, route=False).terms
    _, cites = compose(terms, hits, kb.idf, bonus=_bonus_with(kb, question, hits, figures))
    return cites[0].title


def test_figures_asked():
    assert asks_figure(pinned(FIGURE)) and asks_figure(pinned("驾照快到期了，提前多久可以去换新的？"))
    assert not asks_figure(pinned(WHETHER))
    assert not asks_figure(pinned("小区路边划出来的停车位，这些位子到底归谁？"))  # who, not a figure


@pytest.mark.integration
def test_a_figure_asked_is_quoted_from_the_rule_stating_it(kb):
    hits = _evidence(kb, FIGURE)
    assert _bonus_with(kb, FIGURE, hits, True) == ()
    assert _bonus_with(kb, FIGURE, hits, False) == (0.0, kb.config.answer_standing)
    assert _quoted(kb, FIGURE, False) == "中华人民共和国劳动法"
    assert _quoted(kb, FIGURE, True) == "工资支付暂行规定"


@pytest.mark.integration
def test_a_question_asking_no_figure_keeps_the_standing_bonus(kb):
    """Twin: asking whether, not how much, the statute's provision still scores the bonus."""
    hits = _evidence(kb, WHETHER)
    assert _bonus_with(kb, WHETHER, hits, True) == _bonus_with(kb, WHETHER, hits, False) == (
        0.0, kb.config.answer_standing)
