"""Real PDF, DOCX, HTML, XLSX and CSV files through load → structure → chunk."""

from __future__ import annotations

import pytest

import factory
from zhiku.chunk import chunk_document
from zhiku.ingest import load_file
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

CHAPTERS = ["第一章 总则", "第二章 劳动合同的订立", "第三章 劳动合同的履行和变更", factory.APPENDIX]


def _load(docs_dir, name):
    doc = load_file(docs_dir / name, docs_dir)
    sections = build_tree(doc)
    return doc, sections, chunk_document(doc, sections, size=300, parent_size=900, min_section=20)


def _squash(text: str) -> str:
    return "".join(text.split())


def test_pdf_tree_clean_text_pages_and_table(docs_dir):
    doc, sections, chunks = _load(docs_dir, "劳动合同法.pdf")
    assert doc.title == factory.TITLE
    assert [s.label for s in sections] == CHAPTERS  # bookmarks, TOC page dropped
    assert factory.HEADER not in doc.body and "页" not in doc.body.replace("页面", "")
    assert "....." not in doc.body and not doc.body.startswith("目")
    assert len(doc.pages) >= 5 and doc.pages[0] == doc.pages[1] == 0  # page 1 was the TOC
    source = factory.articles(factory.law_blocks())
    arts = {c.article: c for c in chunks if c.kind == "article"}
    assert set(arts) == set(source)
    for label, text in source.items():  # lines and pages re-joined exactly
        assert _squash(arts[label].text) == text, label
    assert arts["第一条"].page == 2
    pages = [arts[a].page for a in source]
    assert pages == sorted(pages) and pages[-1] >= 5
    assert any(doc.page_at(c.start) != doc.page_at(c.end - 1) for c in arts.values())
    (table,) = doc.tables
    assert table.caption == factory.CAPTION and table.rows[0][0] == "IS100-65-200"
    rows = [c for c in chunks if c.kind == "table_row"]
    assert len(rows) == 3 and all(c.page == table.page and c.section_path == (factory.APPENDIX,)
                                  for c in rows)
    assert "扬程 32 m" in rows[0].text and "功率 15 千瓦" in rows[0].text


def test_pdf_without_bookmarks_detects_headings_by_numbering_and_font(tmp_path):
    path = factory.make_pdf(tmp_path / "无书签.pdf", outline=False)
    doc = load_file(path, tmp_path)
    labels = [s.label for s in build_tree(doc)]
    assert labels == CHAPTERS  # 第X章 by numbering, 附录 by its larger font


def test_docx_heading_styles_tables_in_order(docs_dir):
    doc, sections, chunks = _load(docs_dir, "劳动合同法.docx")
    assert doc.title == factory.TITLE and doc.pages == ()
    assert [s.label for s in sections] == CHAPTERS
    source = factory.articles(factory.law_blocks())
    arts = {c.article: c for c in chunks if c.kind == "article"}
    assert {a: _squash(c.text) for a, c in arts.items()} == source
    (table,) = doc.tables
    assert table.caption == factory.CAPTION and table.start > arts["第三十五条"].end
    kinds = [c.kind for c in chunks if c.start == table.start]
    assert kinds == ["table", "table_summary", "table_row", "table_row", "table_row"]
    md = next(c for c in chunks if c.kind == "table")
    assert md.text.startswith("| 型号 | 扬程(m) |") and "| IS80-50-160 | 28 | 50 | 7.5 |" in md.text


def test_html_tree_without_boilerplate(docs_dir):
    doc, sections, chunks = _load(docs_dir, "劳动合同法.html")
    assert doc.title == factory.TITLE
    assert [s.label for s in sections][:2] == [factory.TITLE, "第一章 总则"]
    assert sections[1].parent_id == sections[0].id
    for junk in ("导航菜单", "跟踪代码", "页脚信息"):
        assert junk not in doc.body
    assert doc.tables[0].caption == factory.CAPTION
    assert any(c.article == "第十九条" for c in chunks)


def test_xlsx_and_csv_each_sheet_a_table(docs_dir):
    doc, sections, chunks = _load(docs_dir, "设备参数.xlsx")
    assert [t.caption for t in doc.tables] == [factory.CAPTION, "电机"]
    assert [s.label for s in sections] == [factory.CAPTION, "电机"]
    rows = [c.text for c in chunks if c.kind == "table_row"]
    assert "水泵性能参数表：型号 IS100-65-200，扬程 32 m，流量 100 立方米每小时，功率 15 千瓦。" in rows
    assert any("额定功率 11 kW" in r for r in rows)
    doc, _, chunks = _load(docs_dir, "泵.csv")
    assert doc.tables[0].columns == tuple(factory.COLUMNS) and len(doc.tables[0].rows) == 3


def test_docx_numbered_and_bulleted_paragraphs_keep_their_numbers(tmp_path):
    import docx

    d = docx.Document()
    d.add_heading("巡检步骤", level=1)
    for text in ("检查电源", "检查水泵", "记录读数"):
        d.add_paragraph(text, style="List Number")
    d.add_paragraph("注意安全", style="List Bullet")
    d.save(str(tmp_path / "巡检.docx"))
    doc = load_file(tmp_path / "巡检.docx", tmp_path)
    assert "1. 检查电源\n\n2. 检查水泵\n\n3. 记录读数\n\n• 注意安全" in doc.body


def test_pdf_table_continued_across_pages_is_one_table(tmp_path):
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A5
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    style = ParagraphStyle("b", fontName="STSong-Light", fontSize=10, leading=15)
    rows = [["型号", "扬程(m)"]] + [[f"IS{i:03d}", str(20 + i)] for i in range(60)]
    table = Table(rows, repeatRows=1)
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "STSong-Light"),
                               ("GRID", (0, 0), (-1, -1), 0.5, colors.black)]))
    path = tmp_path / "长表.pdf"
    SimpleDocTemplate(str(path), pagesize=A5).build([Paragraph("泵型号表", style), table])
    doc = load_file(path, tmp_path)
    (t,) = doc.tables
    assert t.caption == "泵型号表" and len(t.rows) == 60 and t.rows[-1] == ("IS059", "79")
    assert len(doc.pages) >= 2 and t.start < doc.pages[1] < t.end
    assert doc.page_at(doc.body.index("IS059")) == len(doc.pages)
    rows = [c for c in chunk_document(doc, build_tree(doc)) if c.kind == "table_row"]
    assert rows[0].page == 1 and rows[-1].page == len(doc.pages) and "IS059" in rows[-1].text
