"""Structures enterprise pages commonly have, with real public text (tests/data/real, see its
SOURCE.md): FAQ questions written as bold lines in HTML and Word, definition lists, headings at
every HTML level, numbered clauses, Word tables and merged cells of a workbook."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


def _faq() -> list[tuple[str, str, list[str]]]:
    """(chapter, question, answer paragraphs) of the RocketMQ FAQ, as its page states them."""
    out, chapter, entry = [], "", None
    for line in (REAL / "RocketMQ常见问题.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            chapter = line[3:].strip()
        elif m := re.match(r"^\d+\. \*\*(.+)\*\*$", line):
            entry = (chapter, m[1], [])
            out.append(entry)
        elif entry and line.strip():
            entry[2].append(line.strip())
    return out


def _tree(path: Path):
    doc = load_file(path, path.parent)
    return doc, build_tree(doc)


def _own(doc, sections, label: str) -> str:
    sec = next(s for s in sections if s.label == label)
    child = min((s.start for s in sections if s.parent_id == sec.id), default=sec.end)
    return doc.body[sec.start:child]


def _html_faq(tmp_path: Path, bold: str = "strong") -> Path:
    parts, last = ["<html><head><title>RocketMQ 常见问题</title></head><body><article>",
                   "<h1>经常被问到的问题</h1>"], ""
    for chapter, question, answer in _faq():
        if chapter != last:
            parts.append(f"<h2>{chapter}</h2>")
            last = chapter
        parts.append(f"<p><{bold}>{question}</{bold}></p>")
        parts += [f"<p>{a}</p>" for a in answer]
    path = tmp_path / "RocketMQ常见问题.html"
    path.write_text("".join(parts) + "</article></body></html>", encoding="utf-8")
    return path


def test_bold_questions_of_an_html_faq_head_their_answers(tmp_path):
    doc, sections = _tree(_html_faq(tmp_path))
    ids = {s.label: s for s in sections}
    entry = ids["消息体的大小限制是多少？"]
    assert ids[next(s.label for s in sections if s.id == entry.parent_id)].label == "3 配置相关"
    assert "通常是256KB" in _own(doc, sections, "消息体的大小限制是多少？")
    # the next question is a sibling, not a child of the one before it
    stay = ids["消息在服务器上可以保存多长时间？"]
    assert stay.parent_id == entry.parent_id
    assert "256KB" not in _own(doc, sections, "消息在服务器上可以保存多长时间？")


def test_b_tags_count_as_bold_and_a_partly_bold_line_is_no_heading(tmp_path):
    path = _html_faq(tmp_path, bold="b")
    text = path.read_text(encoding="utf-8").replace(
        "<p>不需要，RocketMQ可以独立的运行。</p>",
        "<p><b>不需要</b>，RocketMQ可以独立的运行吗？</p>")
    path.write_text(text, encoding="utf-8")
    _, sections = _tree(path)
    labels = [s.label for s in sections]
    assert "消息只会被传递一次吗？" in labels
    assert not any(label.startswith("不需要") for label in labels)


def test_a_page_without_heading_tags_keeps_its_numbered_lines_beside_bold_questions(tmp_path):
    # a notice laid out in <p> only: 一、/二、 lines are its chapters, a bold question an entry
    lines = (REAL / "2019年部分节假日安排.html").read_text(encoding="utf-8")
    assert "一、元旦：" in lines
    path = tmp_path / "通知.html"
    path.write_text("<html><body><div><p>一、总体要求</p><p>试点地区要在2019年底前完成集约化。</p>"
                    "<p><strong>哪些地区参加试点？</strong></p><p>北京市、吉林省等10个地区。</p>"
                    "<p>二、工作进度</p><p>2018年10月底前报国务院办公厅备案。</p></div></body></html>",
                    encoding="utf-8")
    doc, sections = _tree(path)
    assert [s.label for s in sections] == ["一、总体要求", "哪些地区参加试点？", "二、工作进度"]
    assert sections[1].parent_id == sections[0].id
    assert "北京市" in _own(doc, sections, "哪些地区参加试点？")


def test_a_definition_list_reads_each_definition_under_its_term(tmp_path):
    # terms of the ESP-AT factory parameter table's columns, defined as a help page lists them
    path = tmp_path / "参数说明.html"
    path.write_text("<html><body><article><h1>出厂参数说明</h1><dl>"
                    "<dt>uart_baudrate</dt><dd>AT 命令口的波特率，默认 115200。</dd>"
                    "<dt>max_tx_power</dt><dd>最大发射功率，取值 40 ~ 84。</dd>"
                    "<dd>单位 0.25 dBm。</dd></dl></article></body></html>", encoding="utf-8")
    body = load_file(path, tmp_path).body
    assert "uart_baudrate：AT 命令口的波特率，默认 115200。" in body
    assert "max_tx_power：最大发射功率，取值 40 ~ 84。\n\n单位 0.25 dBm。" in body


def test_html_headings_nest_at_every_level(tmp_path):
    labels = ["经常被问到的问题", "1 基本", "安装", "依赖", "可选依赖", "版本"]
    path = tmp_path / "levels.html"
    path.write_text("<html><body><article>" + "".join(
        f"<h{i}>{label}</h{i}><p>{label}的说明。</p>" for i, label in enumerate(labels, 1))
        + "<h2>2 使用</h2><p>运行。</p></article></body></html>", encoding="utf-8")
    _, sections = _tree(path)
    assert [s.id for s in sections] == ["1", "1.1", "1.1.1", "1.1.1.1", "1.1.1.1.1", "1.1.1.1.1.1", "1.2"]


def _docx_faq(path: Path) -> Path:
    import docx

    d = docx.Document()
    d.add_heading("经常被问到的问题", level=1)
    last = ""
    for chapter, question, answer in _faq():
        if chapter != last:
            d.add_heading(chapter, level=2)
            last = chapter
        d.add_paragraph().add_run(question).bold = True
        for a in answer:
            d.add_paragraph(a)
    d.save(str(path))
    return path


def test_bold_questions_of_a_word_faq_head_their_answers(tmp_path):
    doc, sections = _tree(_docx_faq(tmp_path / "RocketMQ常见问题.docx"))
    ids = {s.label: s for s in sections}
    entry = ids["当消费失败的时候如何重新消费消息？"]
    assert next(s for s in sections if s.id == entry.parent_id).label == "2 使用"
    assert "最多会重试16次" in _own(doc, sections, "当消费失败的时候如何重新消费消息？")
    assert ids["消息只会被传递一次吗？"].parent_id == entry.parent_id


def test_a_word_table_with_merged_cells_keeps_its_rows(tmp_path):
    import docx

    d = docx.Document()
    d.add_heading("外围接口", level=1)
    t = d.add_table(rows=4, cols=3)
    for r, row in enumerate([("类别", "信息条目", "数量"), ("调试接口", "调试串口 (UART0)", "1"),
                             ("", "JTAG调试接口", "1"), ("工业控制接口", "I2C接口", "2")]):
        for c, val in enumerate(row):
            t.cell(r, c).text = val
    t.cell(1, 0).merge(t.cell(2, 0))
    path = tmp_path / "接口.docx"
    d.save(str(path))
    (table,) = load_file(path, tmp_path).tables
    assert table.columns == ("类别", "信息条目", "数量")
    assert table.rows[1][:2] == ("调试接口", "JTAG调试接口")  # a cell merged down fills each row


def test_a_workbook_cell_merged_down_names_every_row_it_groups():
    doc = load_file(REAL / "fresh3" / "L0开发板厂商信息自查表.xlsx", REAL / "fresh3")
    (table,) = doc.tables
    rows = {r[2]: r for r in table.rows}
    assert rows["I2C接口"][1] == "工业控制接口" and rows["ADC输入"][1] == "工业控制接口"
    assert rows["电池接口"][1] == "电源"
    # a title merged across the sheet is not repeated in the columns it spans
    assert table.columns[1:6] == ("", "", "", "", "")


def test_a_merge_across_and_a_date_cell_of_a_workbook(tmp_path):
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.append(["时间", "议题", "时长"])
    ws.append([dt.datetime(2021, 6, 26), "社区治理机制完善建议", "20 min"])
    ws.append([dt.datetime(2021, 7, 1, 9, 30), "softbus支持HTTP2协议三方件引入", "10min"])
    ws.append(["备注：PMC 全体成员参加", None, None])
    ws.merge_cells("A4:C4")
    wb.save(tmp_path / "议题.xlsx")
    (table,) = load_file(tmp_path / "议题.xlsx", tmp_path).tables
    assert table.rows[0][0] == "2021-06-26" and table.rows[1][0] == "2021-07-01 09:30:00"
    assert table.rows[2] == ("备注：PMC 全体成员参加", "", "")


def test_numbered_clauses_of_a_plain_text_nest_by_their_numbers(tmp_path):
    path = tmp_path / "规范.txt"
    path.write_text("3 日志打印\n\n3.1 日志级别\n\n日志分为 DEBUG、INFO、WARN、ERROR、FATAL 五级。\n\n"
                    "3.1.1 ERROR 级别\n\n程序出错，影响功能时打印。\n\n3.2 日志格式\n\n"
                    "每条日志包含时间、级别和模块名。\n", encoding="utf-8")
    doc, sections = _tree(path)
    parents = {s.label: s.parent_id for s in sections}
    ids = {s.label: s.id for s in sections}
    assert parents["3.1.1 ERROR 级别"] == ids["3.1 日志级别"]
    assert parents["3.2 日志格式"] == ids["3 日志打印"]
    assert "程序出错" in _own(doc, sections, "3.1.1 ERROR 级别")


def test_html_heading_elements_in_markdown_are_its_headings(tmp_path):
    # an FAQ converted from a wiki: each question an <h4> line, one in a code fence is code
    lines = ["# 经常被问到的问题", ""]
    last = ""
    for chapter, question, answer in _faq():
        if chapter != last:
            lines += [f'<h2 id="{chapter}">{chapter}</h2>', ""]
            last = chapter
        lines += [f'<h4 id="q{len(lines)}"><a name="s{len(lines)}"></a>{question}</h4>', *answer, ""]
    lines += ["```html", "<h3>示例代码</h3>", "```"]
    path = tmp_path / "RocketMQ常见问题.md"
    path.write_text("\n".join(lines), encoding="utf-8")
    doc, sections = _tree(path)
    ids = {s.label: s for s in sections}
    entry = ids["消息体的大小限制是多少？"]
    assert next(s for s in sections if s.id == entry.parent_id).label == "3 配置相关"
    assert "通常是256KB" in _own(doc, sections, "消息体的大小限制是多少？")
    assert "<h4" not in doc.body and "<h3>示例代码</h3>" in doc.body
    kept = load_file(path, tmp_path, markdown_as_shown=False)
    assert '<h4 id="q' in kept.body  # the setting off keeps the source as written


@pytest.mark.integration
def test_an_html_faq_answers_from_the_entry_under_its_bold_question(tmp_path):
    from zhiku.ask.flow import ask
    from zhiku.ask.query import Query
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    docs = tmp_path / "docs"
    docs.mkdir()
    _html_faq(docs)
    kb = KnowledgeBase(load_config(home=tmp_path / "home"))
    kb.ingest([docs], dense=False, progress=False)
    ans = ask(kb, Query("RocketMQ 消息在服务器上默认保存多长时间？", use_cache=False))
    assert not ans.refused and "3 天" in ans.text
    assert ans.citations[0].section_path[-1] == "消息在服务器上可以保存多长时间？"
    other = ask(kb, Query("RocketMQ 是否需要安装 zookeeper？", use_cache=False))  # a positive twin
    assert not other.refused and "不需要" in other.text
    assert other.citations[0].section_path[-1].startswith("我是否需要安装其他的软件")


def test_questions_of_disclosure_widgets_and_of_a_definition_list_head_their_answers(tmp_path):
    entries = [e for e in _faq() if e[0] == "3 配置相关"]
    widgets = "".join(f"<details><summary>{q}</summary><p>{''.join(a)}</p></details>" for _, q, a in entries)
    terms = "".join(f"<dt>{q}</dt><dd>{''.join(a)}</dd>" for _, q, a in entries)
    path = tmp_path / "faq.html"
    path.write_text(f"<html><body><main><h1>常见问题</h1><h2>配置</h2>{widgets}<h2>再问一遍</h2>"
                    f"<dl>{terms}</dl></main></body></html>", encoding="utf-8")
    doc, sections = _tree(path)
    labels = [s.label for s in sections]
    assert labels.count("消息体的大小限制是多少？") == 2
    first, second = (s for s in sections if s.label == "消息体的大小限制是多少？")
    assert first.parent_id == "1.1" and second.parent_id == "1.2"
    assert "通常是256KB" in doc.body[first.start:first.end]
    assert "消息体的大小限制是多少？：" not in doc.body  # a question is no term to define
