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


def _rows(name: str, gloss: bool) -> list[str]:
    doc = load_file(REAL / name, REAL)
    return [c.text for c in chunk_document(doc, build_tree(doc), gloss=gloss) if c.kind == "table_row"]


def test_english_column_names_are_glossed_in_chinese():
    # the module parameter CSV of esp-at names its columns in code (uart_baudrate, max_tx_power):
    # a question asks 串口波特率, which the row now says beside the name (config table_header_gloss)
    row = next(r for r in _rows("ESP-AT模组出厂参数表.csv", True) if "WROOM-32" in r)
    assert "uart_baudrate（串口波特率） 115200" in row and "module_name（模组名称） WROOM-32" in row
    assert "uart_cts_pin 15" in row  # a name with a word the list lacks (cts) is left as written
    off = next(r for r in _rows("ESP-AT模组出厂参数表.csv", False) if "WROOM-32" in r)
    assert "uart_baudrate 115200" in off and "（" not in off


def test_chinese_column_names_are_the_same_with_the_gloss_on_or_off():
    # the positive twin: RocketMQ's permission table names its columns in Chinese (权限, 含义)
    assert _rows("RocketMQ权限控制.md", True) == _rows("RocketMQ权限控制.md", False)
    assert "权限 PUB，含义 发送权限。" in _rows("RocketMQ权限控制.md", True)
