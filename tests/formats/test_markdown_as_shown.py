"""Markdown read as a viewer shows it: inline HTML, in-page tables of contents and backslash
escapes, on real pages of tests/data/real (see its SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.ingest.markdown_text import markdown_as_shown
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


def _load(name: str):
    doc = load_file(REAL / name, REAL)
    return doc, build_tree(doc)


def test_a_signature_in_an_html_paragraph_is_two_lines_of_text():
    # 「<p align="right">Release SIG<br/>2025年05月30日</p>」 closes a notice: its signer and date
    doc, _ = _load("fresh3/OpenHarmony-4.1-Release分支停止维护公告.md")
    assert doc.body.endswith("Release SIG\n2025年05月30日")
    assert "<p" not in doc.body and "<br" not in doc.body


def test_a_line_break_in_a_table_cell_keeps_the_row_whole():
    # the twin: 「1.在TCB中远程执行任意代码；<br/>2.…」 inside a pipe-table cell is a space, so
    # the amount table keeps its four rows and each level its amount
    doc, _ = _load("fresh3/OpenHarmony安全漏洞奖励计划.md")
    table = next(t for t in doc.tables if t.columns[0] == "漏洞等级")
    assert [r[0] for r in table.rows] == ["严重", "高", "中", "低"]
    assert table.rows[0][2] == "最高1,000,000元"
    assert "；2.通过本地可在特权进程" in "".join(table.rows[0][1].split())
    assert "<br" not in table.rows[0][1]


def test_an_in_page_table_of_contents_is_dropped_and_the_headings_stay():
    # a troubleshooting page opens with a list of links to its own headings (#section…)
    doc, sections = _load("fresh4/Hi3861常见问题.md")
    assert "](#section" not in doc.body
    labels = [s.label for s in sections]
    assert "编译构建过程中，提示找不到“-lgcc”" in labels and len(labels) == 10
    assert "将多余的“/”删除" in doc.body


def test_links_to_other_pages_and_a_single_anchor_link_stay():
    # the twin: list items linking elsewhere, or one anchor link alone, are content
    text = "- [帮助中心](https://gitee.com/help/articles/4142)\n- [FAQ](faq.md)\n\n- [下文](#s1)\n\n正文"
    assert markdown_as_shown(text) == text


def test_backslash_escapes_are_the_characters_they_escape():
    # 「lsb\\_release」 in a heading, 「OS\\(操作系统\\)」 in an FAQ's text
    _, sections = _load("fresh4/Hi3861常见问题.md")
    assert "安装 kconfiglib时，遇到lsb_release错误" in [s.label for s in sections]
    doc, _ = _load("fresh4/OpenHarmony贡献常见问题.md")
    assert "OS(操作系统)开发时" in doc.body and "\\(" not in doc.body


def test_code_and_escaped_pipes_keep_what_they_hold():
    # the twin: inside a code fence or an inline code span nothing is read, and an escaped
    # pipe in a table row stays escaped, keeping its cell whole
    text = ("```\nrm -rf lsb\\_release <br/>\n```\n`a\\_b<br/>` x\\_y\n\n"
            "| 命令 | 说明 |\n| --- | --- |\n| a \\| b | 或<br/>与 |")
    out = markdown_as_shown(text)
    assert out.split("\n")[:4] == ["```", "rm -rf lsb\\_release <br/>", "```", "`a\\_b<br/>` x_y"]
    assert out.endswith("| a \\| b | 或 与 |")


def test_entities_are_the_characters_they_stand_for():
    # 「state\\_name:s1-&gt;s2」 in a logging standard reads 「state_name:s1->s2」
    doc, _ = _load("fresh4/OpenHarmony日志打印规范.md")
    assert "state_name:s1->s2, reason:msg" in doc.body


def test_the_setting_off_keeps_markdown_as_written():
    # markdown_as_shown off (an ablation): the page reads as before
    doc = load_file(REAL / "fresh3/OpenHarmony-4.1-Release分支停止维护公告.md", REAL, markdown_as_shown=False)
    assert doc.body.endswith('<p align="right">Release SIG<br/>2025年05月30日</p>')


def test_the_setting_reaches_the_loader_through_ingest(tmp_path):
    # markdown_as_shown is a parameter of each load (config → ingest → load_file), not a
    # process-wide switch: two knowledge bases with the setting on and off, one process
    import shutil

    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(REAL / "fresh3/OpenHarmony-4.1-Release分支停止维护公告.md", docs)
    texts = {}
    for on in (True, False):
        cfg = load_config(home=tmp_path / f"home-{on}").model_copy(update={"markdown_as_shown": on})
        kb = KnowledgeBase(cfg)
        kb.ingest([docs], dense=False, progress=False)
        texts[on] = " ".join(c.text for c in kb.store.all_chunks())
    assert "<br/>" not in texts[True] and "Release SIG" in texts[True]
    assert '<p align="right">' in texts[False]
