"""Table rows as sentences, on a real document of tests/data/real (see its SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.chunk import chunk_document
from zhiku.ingest import load_file
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


def test_a_row_whose_prose_cell_ends_a_sentence_is_still_one_sentence():
    # the list of measures of a gov notice: 主要内容 cells end with 。, the columns after
    # them (指导部门, 推广范围) must stay in the row's sentence
    doc = load_file(REAL / "第二批支持创新相关改革举措.html", REAL)
    rows = [c.text for c in chunk_document(doc, build_tree(doc)) if c.kind == "table_row"]
    row = next(r for r in rows if "商标质押贷款" in r)
    assert row.count("。") == 1 and row.endswith("。")
    assert "拓展中小企业融资途径，指导部门 中国人民银行、中国银保监会、工业和信息化部、国家知识产权局，推广范围 全国。" in row
