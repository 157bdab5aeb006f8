"""Headings as real files write them: 一、 （一） 1.1 第X部分, bold paragraphs, cells, TOCs."""

from __future__ import annotations

import pytest

from zhiku.ingest import load_file
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

GUIDE = """员工手册

第一部分 总则

一、 关于本手册

本手册适用于公司全体员工，请仔细阅读并遵守。

二、关于工作时间

（一）标准工时

每日工作八小时，每周工作四十小时。

（二）加班

加班须经部门负责人书面批准。

第二部分 福利

一、年假

工作满一年的员工享有五天带薪年假。
"""


def _tree(path, tmp_path):
    doc = load_file(path, tmp_path)
    return doc, build_tree(doc)


def _shape(tree):
    return [(s.id, s.label) for s in tree]


def test_plain_text_guide_nests_by_its_numbering(tmp_path):
    path = tmp_path / "员工手册.txt"
    path.write_text(GUIDE, encoding="utf-8")
    _, tree = _tree(path, tmp_path)
    assert _shape(tree) == [
        ("1", "第一部分 总则"), ("1.1", "一、 关于本手册"), ("1.2", "二、关于工作时间"),
        ("1.2.1", "（一）标准工时"), ("1.2.2", "（二）加班"),
        ("2", "第二部分 福利"), ("2.1", "一、年假")]


def test_dotted_numbers_nest_by_number_not_order(tmp_path):
    text = ("9 试验方法\n\n9.1 外观\n\n目视检查外观。\n\n9.1.1 表面\n\n无划痕。\n\n9.2 尺寸\n\n"
            "用卡尺测量。\n\n9.3 重量\n\n用电子秤称量。\n\n10 标志\n\n每件产品应有标志。\n")
    path = tmp_path / "规格.txt"
    path.write_text(text, encoding="utf-8")
    _, tree = _tree(path, tmp_path)
    by = {s.label.split()[0]: s for s in tree}
    assert by["9.2"].parent_id == by["9"].id == by["9.3"].parent_id
    assert by["9.1.1"].parent_id == by["9.1"].id and by["10"].parent_id is None


def test_article_texts_keep_their_list_items_inside_articles(tmp_path):
    text = ("第一章 总则\n\n第一条 为了规范管理，制定本办法。\n\n第二条 本办法所称费用包括：\n\n"
            "（一）差旅费\n\n（二）会议费\n\n第三条 本办法自发布之日起施行。\n")
    path = tmp_path / "办法.txt"
    path.write_text(text, encoding="utf-8")
    _, tree = _tree(path, tmp_path)
    assert [s.label for s in tree] == ["第一章 总则"]


def test_printed_contents_in_a_text_file_are_not_empty_chapters(tmp_path):
    toc = "目录\n\n一、总则\t1\n\n二、假期\t3\n\n"
    path = tmp_path / "手册.txt"
    path.write_text(toc + "一、总则\n\n本手册适用于全体员工。\n\n二、假期\n\n员工享有年假。\n",
                    encoding="utf-8")
    _, tree = _tree(path, tmp_path)
    assert [s.label for s in tree] == ["一、总则", "二、假期"]


def test_docx_bold_numbered_paragraphs_and_spec_table_rows_are_headings(tmp_path):
    import docx

    d = docx.Document()
    d.add_paragraph("锂离子电池规格书")
    for text, body in (("1 范围", "本规格书适用于型号 ICR18650 的电池。"),
                       ("2 技术要求", None), ("2.1 电性能", "标称容量 2600mAh。"),
                       ("2.2 安全性能", "过充不起火、不爆炸。")):
        d.add_paragraph().add_run(text).bold = True
        if body:
            d.add_paragraph(body)
    table = d.add_table(rows=5, cols=3)
    rows = [("项目", "条件", "参数"), ("3 电气特性",) * 3, ("标称电压", "0.2C 放电", "3.7V"),
            ("3.1 内阻",) * 3, ("交流内阻", "1kHz", "≤70mΩ")]
    table.cell(1, 0).merge(table.cell(1, 2))  # a heading row merged across the table
    table.cell(3, 0).merge(table.cell(3, 2))
    for r, row in enumerate(rows):
        for c, val in enumerate(row[:1] if r in (1, 3) else row):
            table.cell(r, c).text = val
    d.save(str(tmp_path / "规格书.docx"))
    doc, tree = _tree(tmp_path / "规格书.docx", tmp_path)
    by = {s.label: s for s in tree}
    assert ["1 范围", "2 技术要求", "2.1 电性能", "2.2 安全性能", "3 电气特性", "3.1 内阻"] \
        == [s.label for s in tree]
    assert by["2.2 安全性能"].parent_id == by["2 技术要求"].id
    assert by["3.1 内阻"].parent_id == by["3 电气特性"].id
    tables = {t.rows[0][0]: t for t in doc.tables}
    assert tables["标称电压"].columns == ("项目", "条件", "参数")
    assert tables["交流内阻"].columns == ("项目", "条件", "参数")  # the header carries on


def test_word_bookmark_names_and_stale_pdf_titles_are_not_kept(tmp_path):
    from reportlab.lib.pagesizes import A5
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(tmp_path / "劳动合同法.pdf"), pagesize=A5)
    c.setTitle("法规修改决定电子报备格式标准及示例")
    c.bookmarkPage("p1")
    c.addOutlineEntry("OLE_LINK5", "p1", level=0)
    c.addOutlineEntry("第一章 总则", "p1", level=1)
    c.setFont("STSong-Light", 14)
    c.drawString(40, 520, "中华人民共和国劳动合同法")
    c.drawString(40, 490, "第一章 总则")
    c.setFont("STSong-Light", 10)
    c.drawString(40, 460, "第一条 为了完善劳动合同制度，制定本法。")
    c.save()
    doc, tree = _tree(tmp_path / "劳动合同法.pdf", tmp_path)
    assert doc.title == "劳动合同法"  # the file name, not the template's title
    assert [s.label for s in tree] == ["第一章 总则"]


_W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def _list_numbering(d, num_id: int, levels) -> None:
    """Add a multi-level list (one (numFmt, lvlText) per level) to a document's numbering."""
    from docx.oxml import parse_xml

    lvls = "".join(f'<w:lvl w:ilvl="{i}"><w:start w:val="1"/><w:numFmt w:val="{fmt}"/>'
                   f'<w:lvlText w:val="{text}"/></w:lvl>' for i, (fmt, text) in enumerate(levels))
    root = d.part.numbering_part.element
    root.insert(0, parse_xml(f'<w:abstractNum {_W_NS} w:abstractNumId="{num_id}">{lvls}</w:abstractNum>'))
    root.append(parse_xml(f'<w:num {_W_NS} w:numId="{num_id}"><w:abstractNumId w:val="{num_id}"/></w:num>'))


def _numbered(d, text: str, num_id: int, ilvl: int, style=None) -> None:
    from docx.oxml import parse_xml

    par = d.add_paragraph(text, style=style)
    par._p.get_or_add_pPr().append(parse_xml(
        f'<w:numPr {_W_NS}><w:ilvl w:val="{ilvl}"/><w:numId w:val="{num_id}"/></w:numPr>'))


def test_docx_multilevel_list_numbers_and_outline_level_styles(tmp_path):
    # a standard written in a GB/T 1.1 template: custom styles (章标题, 一级条标题) with an
    # outline level, numbered 1 / 2.1 by one multi-level list, list items a) b) by another
    import docx
    from docx.enum.style import WD_STYLE_TYPE
    from docx.oxml import parse_xml

    d = docx.Document()
    for name, outline in (("章标题", 1), ("一级条标题", 2)):
        style = d.styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
        style.element.get_or_add_pPr().append(parse_xml(f'<w:outlineLvl {_W_NS} w:val="{outline}"/>'))
    _list_numbering(d, 90, [("decimal", "%1\u3000"), ("decimal", "%1.%2\u3000")])
    _list_numbering(d, 91, [("lowerLetter", "%1)")])
    _numbered(d, "范围", 90, 0, "章标题")
    d.add_paragraph("本部分规定了定期安全评价的工作内容。")
    _numbered(d, "策划和准备", 90, 0, "章标题")
    _numbered(d, "确定评价范围", 90, 1, "一级条标题")
    d.add_paragraph("评价范围应包括以下安全要素：")
    _numbered(d, "核电厂设计", 91, 0)
    _numbered(d, "老化", 91, 0)
    _numbered(d, "确定评价依据", 90, 1, "一级条标题")
    d.save(str(tmp_path / "标准.docx"))
    doc, tree = _tree(tmp_path / "标准.docx", tmp_path)
    by = {s.label: s for s in tree}
    assert [s.label for s in tree] == ["1 范围", "2 策划和准备", "2.1 确定评价范围", "2.2 确定评价依据"]
    assert by["2.2 确定评价依据"].parent_id == by["2 策划和准备"].id
    assert "a) 核电厂设计" in doc.body and "b) 老化" in doc.body
