"""Loaders on the real public documents of tests/data/real (see its SOURCE.md)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


@functools.cache
def _load(name: str):
    doc = load_file(REAL / name, REAL)
    return doc, build_tree(doc)


def _own_text(doc, sections, label: str) -> str:
    sec = next(s for s in sections if s.label == label)
    child = min((s.start for s in sections if s.parent_id == sec.id), default=sec.end)
    return "".join(doc.body[sec.start:child].split())


def test_code_listing_with_comments_on_the_right_is_not_read_as_two_columns():
    # a directory tree with `// 说明` comments leaves an empty strip down the page; the
    # paragraph above it spans that strip, so the page is one column
    doc, sections = _load("Paho-MQTT用户手册.pdf")
    body = "".join(doc.body.split())
    assert "PahoMQTT是Eclipse实现的MQTT协议的客户端" in body
    assert "├───docs│└───figures//文档使用图片" in body
    labels = [s.label for s in sections]
    assert labels.index("1.1 文件目录结构") < labels.index("1.2 RT-Thread 软件包功能特点")
    assert labels.index("1.4.1 MQTT 客户端") < labels.index("1.4.4 MQTT 协议中的订阅、主题、会话")


def test_bookmark_pointing_at_the_page_before_its_heading_is_placed_at_the_heading():
    doc, sections = _load("网络工具集应用笔记.pdf")
    assert "Ping是一种网络诊断工具" in _own_text(doc, sections, "4.2.1. 介绍")
    intro = _own_text(doc, sections, "4.1 NetUtils 组件介绍")
    assert "|tcpdump|网络调试|" in intro  # the tool table of 4.1 stays in 4.1 (a table: no rules)
    parents = {s.label: s.parent_id for s in sections}
    ids = {s.label: s.id for s in sections}
    assert parents["4.2.1. 介绍"] == ids["4.2 Ping 工具的配置与使用"]
    assert parents["4.3.1. 介绍"] == ids["4.3 NTP 工具的配置与使用"]


def test_inline_elements_of_a_gov_page_run_together():
    doc, sections = _load("国务院工作规则.html")
    assert "国务院第54次常务会议修订通过" in doc.body
    assert ["".join(s.label.split()) for s in sections][:2] == ["第一章总则", "第二章组成人员职责"]


def test_lines_of_a_code_listing_are_not_joined_into_one_paragraph():
    # menuconfig options set in a monospace font, one per line: each stays its own line
    doc, _ = _load("Paho-MQTT用户手册.pdf")
    lines = [" ".join(ln.split()) for ln in doc.body.splitlines()]
    assert "[*] Enable MQTT example #开启 MQTT 功能示例" in lines
    assert any(ln.startswith("(1) Max pahomqtt subscribe topic handlers") for ln in lines)
    assert "本软件包是在Eclipsepaho-mqtt源码包的基础上设计的一套MQTT客户端程序。" in "".join(doc.body.split())


def test_word_exported_list_in_a_gov_page_is_a_table_under_its_attachment():
    # the attachment's list of measures: every cell a <p> (Word/WPS export), rows merged
    # across the table are the list's numbered headings
    doc, sections = _load("第二批支持创新相关改革举措.html")
    rows = [r for t in doc.tables for r in t.rows]
    assert ("13", "以协商估值、坏账分担为核心的中小企业商标质押贷款模式") == rows[[r[0] for r in rows].index("13")][:2]
    measure = next(t for t in doc.tables if "指导部门" in t.columns)
    assert measure.columns[-1] == "推广范围"
    assert not any(r[0].startswith("一、") for r in rows)
    parents = {s.label: s.parent_id for s in sections}
    ids = {s.label: s.id for s in sections}
    appendix = ids["附件 第二批支持创新相关改革举措推广清单"]
    assert parents["一、知识产权保护方面（共5项）"] == appendix
    assert parents["五、管理体制创新方面（共3项）"] == appendix
    assert parents["三、认真抓好组织实施"] is None  # the notice's own items stay outside


def test_html_tables_in_markdown_are_tables_with_merged_cells_filled_down():
    # mqadmin's commands: Excel-exported <table>s in a Markdown page, one command cell
    # merged down over the rows of its options
    doc, sections = _load("RocketMQ运维管理.md")
    assert "<td" not in doc.body and "mso-spacerun" not in doc.body
    topic = next(t for t in doc.tables if any(r[0] == "updateTopic" for r in t.rows))
    assert topic.columns == ("名称", "含义", "命令选项", "说明")
    assert ("updateTopic", "创建更新Topic配置", "-r", "可读队列数（默认为 8）") in topic.rows
    assert any(r[0] == "clusterList" and r[2] == "-i" for t in doc.tables for r in t.rows)
    labels = [s.label for s in sections]
    assert "2.2 集群相关" in labels and "首先启动Name Server" not in labels


def test_toml_front_matter_of_a_hugo_page_is_metadata_not_text():
    doc, sections = _load("贡献者公约行为准则-2.1版.md")
    assert doc.title == "贡献者公约" and doc.version_date == "2.1"
    assert "+++" not in doc.body and "aliases" not in doc.body
    labels = [s.label for s in sections]
    assert labels[0] == "我们的承诺" and "4. 永久封禁" in labels


def test_a_section_holding_only_a_table_leaves_no_chunk_of_headings():
    # the attachment's list: its title line is merged with the first sub-section, whose only
    # content is a table (cut into table chunks): the text chunk left held just the two headings
    from zhiku.chunk import chunk_document
    from zhiku.config import Config

    name = "第二批支持创新相关改革举措.html"
    doc, sections = _load(name)
    cfg = Config()
    chunks = chunk_document(doc, sections, size=cfg.chunk_size_for(name), overlap=cfg.chunk_overlap,
                            parent_size=cfg.parent_size, min_section=cfg.min_section)
    texts = [c.text for c in chunks if c.kind in ("text", "parent")]
    assert not any("".join(t.split()) == "第二批支持创新相关改革举措推广清单一、知识产权保护方面（共5项）" for t in texts)
    assert any(c.kind == "table_row" and "技术调查官" in c.text for c in chunks)  # the table stays
    assert any(t.startswith("（一）知识产权保护方面5项") for t in texts)  # prose under a heading stays


def _load2(name: str):
    return _load(f"fresh2/{name}")


def test_bold_numbered_lines_of_a_word_converted_manual_are_its_chapters():
    # 「**一、开发板详情**」, 「**1、安装依赖工具**」, 「2、**…反面外观图**」: Word headings a
    # conversion wrote as bold lines; they nest by their numbering
    doc, sections = _load2("润和DAYU200开发套件说明.md")
    labels = [s.label for s in sections]
    assert labels[:3] == ["一、开发板详情", "1、润和HH-SCDAYU200开发板正面外观图", "2、润和HH-SCDAYU200开发板反面外观图"]
    ids = {s.label: s.id for s in sections}
    parents = {s.label: s.parent_id for s in sections}
    assert parents["1、安装依赖工具"] == ids["六、搭建开发环境"]
    assert parents["七、编译调试"] is None and "四、开发板配件安装" in labels  # its closing colon dropped
    assert "12V/2A" in _own_text(doc, sections, "二、开发板规格")


def test_bold_lines_not_numbered_as_headings_stay_text():
    # the twin: 「**简介**」, 「**说明：**」, 「**1）启动NameServer**」 and 「* **jdbcUrl**」 are
    # emphasis, a step and a list item, not chapters
    _, sections = _load2("润和DAYU200开发套件说明.md")
    assert not {"简介", "说明：", "前提条件"} & {s.label for s in sections}
    _, steps = _load("RocketMQ部署方式.md")
    assert not any("启动NameServer" in s.label for s in steps)
    _, params = _load("DataX-MysqlReader插件文档.md")
    assert "jdbcUrl" not in {s.label for s in params}


def test_an_anchor_in_a_markdown_heading_is_not_part_of_its_label():
    # 「## 简介<a name="section11660541593"></a>」 in every OpenHarmony page
    doc, sections = _load2("HiSpark_Phoenix开发指引.md")
    assert doc.title == "HiSpark_Phoenix开发指引"
    labels = [s.label for s in sections]
    assert labels[:3] == ["简介", "目录", "开发环境搭建"] and "hdc 工具" in labels
    assert not any("<a" in lab for lab in labels)


def test_a_help_page_keeps_its_parameters_and_example_beside_its_longest_paragraphs():
    # an API help page: a description block of six numbered paragraphs (the densest text),
    # then the parameters, the return value and an example under their own headings
    doc, sections = _load2("zTree-API-fn.zTree.init.html")
    body = "".join(doc.body.split())
    assert "创建zTree必须使用此方法" in body
    assert "如果需要异步加载根节点，可以设置为null或[]" in body
    assert "zTreeObj=$.fn.zTree.init($(\"#tree\"),setting,zTreeNodes);" in body
    assert [s.label for s in sections if s.level == 2] == ["概述[ 依赖 jquery.ztree.core 核心 js ]",
                                                         "Function 参数说明", "setting & function 举例"]


def test_a_section_holding_only_a_picture_leaves_no_chunk():
    # 「2、Mipi 屏幕安装如下图」 over an image whose alt text names another board (DAYU200 in the
    # DAYU210 manual): nothing a question could be answered from
    from zhiku.chunk import chunk_document

    doc, sections = _load2("润和DAYU210开发套件说明.md")
    chunks = chunk_document(doc, sections, size=500, overlap=0.15, min_section=40)
    assert not any("dayu210.Mipi.jpg" in c.text for c in chunks)
    # the twin: the introduction, its picture among sentences, keeps both
    assert any("HH-SCDAYU210.png" in c.text and "基于Rockchip RK3588" in c.text for c in chunks)


def test_a_paragraph_hard_wrapped_mid_sentence_is_one_line():
    # 「润和HH-SCDAYU200是基于Rockchip」 / 「RK3568，集成…」: a Markdown viewer shows one
    # paragraph, so the sentence naming the chip is one sentence
    doc, _ = _load2("润和DAYU200开发套件说明.md")
    assert "润和HH-SCDAYU200是基于Rockchip RK3568，集成双核心架构GPU" in doc.body
    assert "板载四核64位Cortex-A55处理器采用22nm先进工艺" in doc.body


def test_lines_that_end_a_sentence_or_open_a_block_are_not_joined():
    # the twin: a code fence's lines, list items, link definitions and a line ending in 。
    # keep their breaks
    from zhiku.ingest.loader import join_soft_breaks

    text = "下载工具\n```\nrepo sync -c\nrepo forall\n```\n- 第一步\n- 第二步\n句子完了。\n下一句\n[a]: http://x\n[b]: http://y"
    assert join_soft_breaks(text) == text
    doc, _ = _load2("HiSpark_Phoenix开发指引.md")
    assert "    repo sync -c  \n    repo forall -c 'git lfs pull'" in doc.body


def test_table_rows_without_the_closing_pipe_stay_rows_of_their_table():
    # a security bulletin: every CVE row ends in a link and leaves out the closing pipe
    doc, _ = _load("fresh3/OpenHarmony安全漏洞公告2025-06.md")
    cves = [t for t in doc.tables if t.columns[0] == "CVE"]
    assert [len(t.rows) for t in cves] == [11, 17]
    row = next(r for r in cves[0].rows if r[0] == "CVE-2025-27131")
    assert row[3:5] == ("中危", "6.1") and row[-1].startswith("[5.0.3.x](")
    # its twin: the patch-tag table closes every row and reads the same as before
    tags = next(t for t in doc.tables if t.columns[0] == "安全补丁标签")
    assert tags.rows == (("2025年06月", "[5.0.3.x]"),)


def test_a_line_after_a_table_that_does_not_open_with_a_pipe_ends_the_table():
    from zhiku.ingest.loader import markdown_tables
    body = "| a | b |\n| --- | --- |\n| 1 | 2\n| 3 | 4 |\n说明 | 不是表格行\n| 5 |"
    (t,) = markdown_tables(body)
    assert t.rows == (("1", "2"), ("3", "4"))
    assert body[t.start:t.end].endswith("| 3 | 4 |")


def test_a_slide_whose_text_all_sits_in_a_ruled_table_is_read_from_its_text_layer():
    # the last content slide is one ruled staffing table and a picture: no line is left
    # outside the table, which once passed for a scanned page and went to OCR (every cell
    # a line, every line a heading)
    doc, sections = _load("fresh3/登录易SIG介绍.pdf")
    assert not doc.metadata.get("ocr_pages")
    (table,) = doc.tables
    assert "对接人" in table.columns and "预计投入人力" in table.columns  # a wrapped cell joined
    row = next(r for r in table.rows if "邱棋锋" in r)
    assert "登录易后端" in row and "30小时/周" in row
    assert not any(s.label in ("50小时/周", "2021.9.1", "刘文印") for s in sections)
    # its twin, a page that is only a picture, is still read by OCR (tests/formats/test_ocr.py)
