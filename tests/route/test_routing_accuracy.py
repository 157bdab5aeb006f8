"""Routing accuracy scores the chapters the chapter router picked, used or not: a route
that did not decide (or a sure pick that is not put first) still picks chapters, and
``zhiku eval``'s "gold article in chosen chapters" reads them (it read only the chapters
put first, so an undecided route scored 0). Real law files, keyword search."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.eval.dataset import EvalItem, Gold
from zhiku.eval.routing import routing_row
from tests.route.conftest import open_kb

pytestmark = pytest.mark.integration

LABOUR = "社会法/劳动法(2018-12-29).md"
# no law named, no keyword rule: the fallback; 劳动法 第三十八条 「用人单位应当保证劳动者每周至少
# 休息一日。」 lies in 第四章 工作时间和休息休假, whose title holds 休息
UNDECIDED = "劳动者每周至少休息几天"
# names its law: the rules tier decides; no chapter is sure, so the pick is the whole law
LOOKUP = "劳动法第三十八条规定了什么？"


def _row(kb, question: str, article: str):
    r = retrieve(kb, question, Mode.BM25, route=True)
    item = EvalItem("q", question, gold=(Gold(LABOUR, article),))
    return r, routing_row(kb, "set", "bm25+route", [item], {question: r.route})


def test_an_undecided_route_picks_chapters_and_the_metric_reads_them(laws_home):
    kb = open_kb(laws_home)
    r, row = _row(kb, UNDECIDED, "第三十八条")
    assert r.route.tier == "fallback" and r.route.chapters == ()  # nothing put first
    assert "第四章 工作时间和休息休假" in [p.label for p in r.route.chapter_picks]
    step = next(t for t in r.trace if t.stage == "chapters")
    assert step.detail["skipped"] == "the route did not decide"
    assert (row.chapter_acc, row.chapter_strict, row.chapters_used) == (1.0, 1.0, 0.0)
    # the negative twin: 第五十条 (wages paid monthly) lies in 第五章 工资, which was not picked
    _, miss = _row(kb, UNDECIDED, "第五十条")
    assert (miss.chapter_acc, miss.chapter_strict) == (0.0, 0.0)


def test_a_whole_document_pick_counts_as_its_document_not_as_a_chapter(laws_home):
    kb = open_kb(laws_home)
    r, row = _row(kb, LOOKUP, "第三十八条")
    assert r.route.tier == "rules"
    assert [(p.section_id, p.widened) for p in r.route.chapter_picks] == [("", True)]  # 劳动法, whole
    assert (row.chapter_acc, row.chapter_strict, row.chapters_used) == (1.0, 0.0, 0.0)
    # the positive twin of the strict column: the undecided question's pick is a chapter
    assert _row(kb, UNDECIDED, "第三十八条")[1].chapter_strict == 1.0


def test_routing_accuracy_leaves_the_ranking_as_it_was(laws_home):
    kb = open_kb(laws_home)
    on = retrieve(kb, UNDECIDED, Mode.BM25, route=True)
    off = retrieve(kb, UNDECIDED, Mode.BM25, route=False)
    assert on.route.chapter_picks and [h.chunk.id for h in on.hits] == [h.chunk.id for h in off.hits]
    # with chapters_within_documents the same pick is used, and the route says so
    within = retrieve(open_kb(laws_home, chapters_within_documents=True), UNDECIDED, Mode.BM25, route=True)
    assert "第四章 工作时间和休息休假" in [p.label for p in within.route.chapters]
    assert within.route.chapter_picks == on.route.chapter_picks
