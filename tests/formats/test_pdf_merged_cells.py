"""A PDF table's merged cells (config ``pdf_merged_cells``): a category cell merged down over
several rows is repeated into each, a cell's wrapped lines are joined, a data row under a
header cell merged across columns stays a row; tables without merged cells read as before.
Real PDFs of tests/data/real (see its SOURCE.md)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from zhiku.chunk.tables import row_sentence
from zhiku.ingest import load_file

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
TAX = "fresh10/环境保护税税目税额表.pdf"


@functools.cache
def _load(name: str, merged: bool = True):
    path = REAL / name
    return load_file(path, path.parent, pdf_merged_cells=merged)


def test_a_category_merged_down_is_repeated_into_every_row_it_spans():
    table = _load(TAX).tables[0]
    assert table.columns == ("税目", "", "计税单位", "税额", "备注")
    assert ("噪声", "工业噪声", "超标7-9 分贝", "每月1400元", "") in table.rows
    assert ("固体废物", "尾矿", "每吨", "15元", "") in table.rows
    sentence = row_sentence(table, ("噪声", "工业噪声", "超标7-9 分贝", "每月1400元", ""))
    assert "工业噪声" in sentence and "每月1400元" in sentence


def test_a_long_note_merged_down_stays_once():
    doc = _load(TAX)
    assert doc.body.count("减半计算应纳税额") == 1


def test_a_data_row_under_a_header_merged_across_columns_is_not_folded_into_it():
    table = _load(TAX).tables[0]
    assert ("大气污染物", "", "每污染当量", "1.2元至12元", "") in table.rows


def test_the_setting_off_reads_the_cells_as_extracted():
    table = _load(TAX, merged=False).tables[0]
    assert table.columns[0] == "税目 大气污染物"
    assert ("", "", "超标7-9 分贝", "每月1400元", "") in table.rows


def test_wrapped_lines_inside_a_cell_are_joined_without_a_space_between_chinese():
    doc = _load("fresh3/登录易SIG介绍.pdf")
    assert "广东工业大学粤港网络身份安全实验室wislab" in doc.body
    assert "贡献功能模块" in doc.body and "贡献功 能模块" not in doc.body


@pytest.mark.parametrize("name", ["fresh5/RT-Thread-OTA用户手册.pdf", "Paho-MQTT用户手册.pdf",
                                  "fresh3/OpenHarmony主干开发板选型结果公示v1.2.pdf"])
def test_tables_without_merged_or_wrapped_cells_read_the_same(name):
    on, off = _load(name), _load(name, merged=False)
    assert on.body == off.body and on.tables == off.tables
