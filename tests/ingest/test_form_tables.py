"""A form laid out as a table (the document information box over a gov.cn notice) is read as
label：value lines, not as a table whose first row names the columns; tables of records stay
tables (tests/data/real/第二批支持创新相关改革举措.html, see tests/data/real/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.chunk import chunk_document
from zhiku.config import Config
from zhiku.ingest import load_file
from zhiku.ingest.builder import form_pairs
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
NOTICE = REAL / "第二批支持创新相关改革举措.html"


def test_the_information_box_of_a_notice_is_read_as_label_value_lines():
    doc = load_file(NOTICE, REAL)
    assert "发文机关：国务院办公厅" in doc.body and "索引号：000014349/2018-00228" in doc.body
    assert "发文字号：国办发〔2018〕126号" in doc.body
    assert not any("索 引 号：" in c for t in doc.tables for c in t.columns)
    cfg = Config()
    chunks = chunk_document(doc, build_tree(doc), size=cfg.chunk_size, overlap=cfg.chunk_overlap,
                            parent_size=cfg.parent_size, min_section=cfg.min_section)
    # no chunk reads the box's first row as the names of its columns
    assert not any("索 引 号： 发文机关" in c.text or "索引号： 发文机关" in c.text for c in chunks)
    assert any("成文日期：2018年12月23日" in c.text for c in chunks)


def test_the_tables_of_records_of_the_same_notice_stay_tables():
    # its twin: the list of measures (序号 | 改革举措 | 主要内容 …), rows under named columns
    doc = load_file(NOTICE, REAL)
    assert len(doc.tables) == 4
    assert all(t.columns[0] == "序号" for t in doc.tables)
    assert doc.tables[0].rows[0][1] == "知识产权民事、刑事、行政案件“三合一”审判"


def test_a_table_is_a_form_only_when_every_row_alternates_labels_and_values():
    assert form_pairs([["姓名：", "张三", "部门：", "财务"], ["电话：", "123", None, None]]) == [
        ("姓名：", "张三"), ("部门：", "财务"), ("电话：", "123")]
    assert form_pairs([["型号", "扬程(米)"], ["IS100", "32"]]) == []  # a header over records
    assert form_pairs([["参数：", "取值"], ["u", "DENY"]]) == []  # a data row is no label
    assert form_pairs([["发文机关：", "国务院办公厅"]]) == []  # one row: nothing says it is a form
