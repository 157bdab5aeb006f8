"""HTML tables captioned with the title lines printed above them (config ``html_table_titles``),
on the real gov.cn pages of tests/data/real (see its SOURCE.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.ingest.html_loader import table_title

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
BAY = REAL / "tables" / "深圳湾口岸港方口岸区范围批复.html"


def test_word_exported_attachment_tables_take_the_title_lines_above_them():
    # a title broken over two centred bold lines is one caption; a sub-table's own title is
    # its caption, not the attachment's title an empty line above it; the reply's date and
    # signature lines (set right, not as a title) never are
    doc = load_file(BAY, BAY.parent)
    captions = [t.caption for t in doc.tables]
    assert captions == ["深圳湾口岸港方口岸区的查验区界址点坐标", "A匝道桥界址点坐标", "B匝道桥界址点坐标",
                        "C匝道桥界址点坐标", "D匝道桥界址点坐标", "E匝道桥界址点坐标", "大桥界址点坐标"]


def test_row_sentences_name_their_table():
    from zhiku.chunk.tables import table_chunks

    doc = load_file(BAY, BAY.parent)
    rows = [c.text for t in doc.tables for c in table_chunks(doc, t, "s", ("附件",))
            if c.kind == "table_row"]
    assert "深圳湾口岸港方口岸区的查验区界址点坐标：坐标 编号 4，X坐标 13787.489，Y坐标 103635.000。" in rows
    assert any(r.startswith("D匝道桥界址点坐标：坐标 编号 D7，") and "红线角点" in r for r in rows)


def test_pages_whose_tables_have_no_title_above_them_are_unchanged():
    # the positive twin: a Word-exported list under its attachment heading, and the other
    # gov.cn and help pages, read the same with the setting on and off
    pages = [REAL / "第二批支持创新相关改革举措.html", REAL / "2019年部分节假日安排.html",
             REAL / "fresh6" / "消防救援车辆应急救援专用号牌通知.html",
             REAL / "fresh2" / "zTree-API-setting.check.chkStyle.html"]
    for page in pages:
        on, off = (load_file(page, page.parent, html_table_titles=v) for v in (True, False))
        assert on.tables == off.tables and on.body == off.body
    assert [t.caption for t in load_file(pages[0], REAL).tables] == ["", "", "", ""]


def test_a_title_is_short_lines_set_as_a_title_not_prose():
    assert table_title([("附表", True), ("", False), ("各省名额分配表", True), ("单位：人", False)]) \
        == "各省名额分配表（单位：人）"
    # prose leading into the table, or a long line, is no title
    assert table_title([("招生名额分配如下：", False)]) == ""
    assert table_title([("各省名额分配表", True), ("本表所列名额为计划招生人数，各地应当严格执行，不得擅自调整或者突破名额", False)]) == ""
    # a line not set as a title counts only as the last line
    assert table_title([("国务院", False), ("名额分配表", False)]) == "名额分配表"


def test_setting_off_leaves_tables_without_a_title(tmp_path):
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(BAY, docs)
    rows = {}
    for on in (True, False):
        cfg = load_config(home=tmp_path / f"home-{on}").model_copy(update={"html_table_titles": on})
        kb = KnowledgeBase(cfg)
        kb.ingest([docs], dense=False, progress=False)
        rows[on] = [c.text for c in kb.store.all_chunks() if c.kind == "table_row"]
    assert any(r.startswith("A匝道桥界址点坐标：坐标 编号 A3，") for r in rows[True])
    assert any(r.startswith("坐标 编号 A3，") for r in rows[False])
