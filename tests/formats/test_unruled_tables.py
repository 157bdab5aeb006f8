"""Tables a PDF prints without ruling lines (LaTeX manuals of tests/data/real, see its
SOURCE.md) are read from their lines' column gaps; ruled tables, listings and prose are not."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from zhiku.chunk.tables import row_sentence
from zhiku.ingest import load_file

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


@functools.cache
def _load(name: str, unruled: bool = True):
    path = REAL / name
    return load_file(path, path.parent, pdf_unruled_tables=unruled)


def _table(doc, *columns: str):
    return next(t for t in doc.tables if t.columns == columns)


def test_directory_table_without_rules_becomes_rows_with_row_sentences():
    doc = _load("IoT-Board-SDK说明.pdf")
    table = _table(doc, "名称", "说明")
    assert ("examples", "示例程序") in table.rows and ("tools", "工具目录") in table.rows
    assert row_sentence(table, ("examples", "示例程序")) == "名称 examples，说明 示例程序。"
    assert "| examples | 示例程序 |" in doc.body


def test_stacked_parameter_and_return_tables_of_an_api_manual_are_told_apart():
    doc = _load("fresh5/RT-Thread-OTA用户手册.pdf")
    returns = [t for t in doc.tables if t.columns == ("返回", "描述")]
    assert (("-2", "下载分区未找到") in returns[0].rows
            and returns[0].rows[0] == (">= 0", "成功"))
    assert not any(("返回", "描述") in t.rows for t in doc.tables)  # the next header starts a table
    params = _table(doc, "参数", "描述")
    assert params.rows == (("part", "指向待擦除分区的指针"), ("new_fw_size", "指定擦除区域为新固件的大小"))
    # a header with a single row under it (「参数 描述」 over 「无 无」) stays text
    assert not any(("无", "无") in t.rows for t in doc.tables)
    errors = _table(doc, "错误类型", "值")
    assert ("RT_OTA_PART_ERASE_ERR", "-9") in errors.rows and len(errors.rows) == 10
    # centred cells of a six-column comparison line up with their headers too
    algos = _table(doc, "名称", "版权", "ROM", "RAM", "压缩级别", "压缩率")
    assert algos.rows[1] == ("fastlz", "MIT", "3096", "9696", "2", "74%")


def test_tables_of_an_api_section_are_captioned_with_the_declared_name():
    # the function stands only in the section's opening declaration 「int rt_ota_init(void);」:
    # its return table's rows carry it, so 「rt_ota_init 返回 -2」 finds the row
    doc = _load("fresh5/RT-Thread-OTA用户手册.pdf")
    init = next(t for t in doc.tables if ("-2", "下载分区未找到") in t.rows)
    assert init.caption == "rt_ota_init"
    assert row_sentence(init, ("-2", "下载分区未找到")) == "rt_ota_init：返回 -2，描述 下载分区未找到。"
    assert [t.caption for t in doc.tables if t.columns == ("参数", "描述")][0] == "rt_ota_erase_fw"
    # the twin: a table under a section opening with prose keeps no caption
    assert _table(doc, "名称", "版权", "ROM", "RAM", "压缩级别", "压缩率").caption == ""
    assert not any(t.caption for t in _load("IoT-Board-SDK说明.pdf").tables)


def test_a_table_running_into_the_page_end_goes_on_under_its_header_overleaf():
    doc = _load("Paho-MQTT用户手册.pdf")
    callbacks = _table(doc, "callback 名称", "描述")
    assert [r[0] for r in callbacks.rows][:2] == ["connect_callback", "online_callback"]
    assert ("callback 名称", "描述") not in callbacks.rows


def test_prose_listings_and_ruled_tables_are_unchanged():
    # the twin: the sentence beside the OTA manual's tables, a listing with comments on the
    # right and a ruled schedule table read as before
    doc = _load("fresh5/RT-Thread-OTA用户手册.pdf")
    assert "未开优化情况下，TinyCrypt 占用 ROM 5244 字节，占用 RAM 8744 字节。" in doc.body
    assert "#define RT_OTA_USING_CRYPT // 启用 Tinycrypt 组件包" in doc.body
    paho = _load("Paho-MQTT用户手册.pdf")
    lines = [" ".join(ln.split()) for ln in paho.body.splitlines()]
    assert "[*] Enable MQTT example #开启 MQTT 功能示例" in lines
    assert not any("Enable" in c for t in paho.tables for c in (*t.columns, *(x for r in t.rows for x in r)))
    ruled = _load("fresh3/OpenHarmony主干开发板选型结果公示v1.2.pdf")
    assert [t.columns for t in ruled.tables] == [("时间", "任务要求")] and len(ruled.tables[0].rows) == 3
    # a row of dates whose header stands on another page is no header: it stays text
    assert not _load("fresh3/OpenHarmony-L1-IPC主干开发板选型结果公示.pdf").tables


def test_setting_off_leaves_unruled_tables_as_lines():
    doc = _load("IoT-Board-SDK说明.pdf", unruled=False)
    assert not doc.tables
    assert "examples 示例程序" in doc.body
    assert not _load("fresh5/RT-Thread-OTA用户手册.pdf", unruled=False).tables
