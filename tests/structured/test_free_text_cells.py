"""Conditions over a real spreadsheet whose cells are sentences: the PMC's agenda log of
tests/data/real/fresh3 (see its SOURCE.md), beside the pump table whose cells are labels."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.structured.test_structured_parts import pump_schema
from zhiku.ingest import load_file
from zhiku.structured.conditions import parse
from zhiku.structured.schema import TableSchema, infer_columns

pytestmark = pytest.mark.unit

FRESH3 = Path(__file__).parents[1] / "data" / "real" / "fresh3"


@pytest.fixture(scope="module")
def agenda() -> TableSchema:
    doc = load_file(FRESH3 / "PMC议题收集.xlsx", FRESH3)
    (t,) = doc.tables
    cols = infer_columns(t.columns, t.rows)
    return TableSchema("pmc", "PMC议题收集", "PMC 议题收集模版", "xlsx", "PMC议题收集.xlsx",
                       cols[0].name, cols, len(t.rows))


def test_a_word_inside_a_sentence_cell_selects_no_rows(agenda):
    # 「OpenHarmony」 opens several topics and 「release」 sits in a decision's URL: neither
    # is a value of those columns, so the question is not a table question
    assert parse("OpenHarmony 4.1-Release分支从什么时候起停止维护？", agenda).label() == ""
    assert parse("OpenHarmony 6.0 Release是哪天发布的？", agenda).label() == ""


def test_a_whole_topic_is_still_a_condition_and_the_tables_own_name_is_not(agenda):
    label = parse("申请新增cicd sig，PMC最后怎么处理的？", agenda).label()
    assert "新增cicd sig" in label and "PMC" not in label


def test_words_of_a_label_cell_still_select_rows():
    # the twin: 不锈钢 is a word of the short cells 不锈钢304 / 不锈钢316L
    assert "不锈钢" in parse("不锈钢的泵有哪些", pump_schema()).label()
