"""PDF layout as real files have it: two columns, text boxes, alternating running headers."""

from __future__ import annotations

import pytest

from zhiku.ingest import load_file
from zhiku.ingest.pdf_layout import clean_junk, is_data_table, junk_share

pytestmark = pytest.mark.unit

LEFT = ["本报告认为行业景气度持续回升，", "龙头公司市场份额稳步提升，", "维持增持评级。",
        "风险提示：原材料价格波动。", "需求不及预期。", "政策变化风险。"]
RIGHT = ["营业收入同比增长百分之十二，", "净利润同比增长百分之十八，", "毛利率提升一点五个百分点。",
         "经营现金流明显改善。", "存货周转天数下降。", "应收账款回款加快。"]


SENTENCES = ["实验数据表明该方法有效", "样本来自三个城市", "模型训练用时两小时", "误差低于百分之五",
             "对照组未见差异", "结果在复测中稳定", "参数取默认值", "数据清洗去除异常值",
             "统计检验显著", "局限在于样本量"]


CHAPTERS = ["绪论", "相关工作", "研究方法", "实验设计", "结果分析", "讨论", "结论", "致谢"]


def _canvas(path, pagesize=None):
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    return canvas.Canvas(str(path), pagesize=pagesize or A4)


def test_two_columns_are_read_column_by_column(tmp_path):
    c = _canvas(tmp_path / "研报.pdf")
    c.setFont("STSong-Light", 16)
    c.drawString(60, 780, "行业深度报告：景气回升，龙头受益")
    c.setFont("STSong-Light", 10)
    for i, (a, b) in enumerate(zip(LEFT, RIGHT)):
        c.drawString(60, 740 - 16 * i, a)
        c.drawString(320, 740 - 16 * i, b)
    c.save()
    body = "".join(load_file(tmp_path / "研报.pdf", tmp_path).body.split())
    assert body.startswith("行业深度报告")
    assert "".join(LEFT) in body and "".join(RIGHT) in body
    assert body.index("".join(LEFT)) < body.index("".join(RIGHT))


def test_text_boxes_are_text_not_a_table(tmp_path):
    c = _canvas(tmp_path / "协议.pdf")
    c.setFont("STSong-Light", 11)
    c.rect(60, 600, 470, 120)  # a framed box with two paragraphs: layout, not data
    c.line(60, 660, 530, 660)
    c.drawString(70, 690, "甲方与乙方经友好协商，就技术服务事宜签订本《技术服务协议书》。")
    c.drawString(70, 630, "乙方应于合同签订后三十日内完成系统部署，并提供一年免费维护服务。")
    c.rect(60, 500, 470, 60)
    c.drawString(70, 525, "本协议一式两份，甲乙双方各执一份，具有同等法律效力。")
    c.save()
    doc = load_file(tmp_path / "协议.pdf", tmp_path)
    assert doc.tables == ()
    assert "列1" not in doc.body and "|" not in doc.body
    assert "乙方应于合同签订后三十日内完成系统部署" in "".join(doc.body.split())


def test_running_headers_that_alternate_are_removed(tmp_path):
    c = _canvas(tmp_path / "论文.pdf")
    for page in range(1, 9):
        c.setFont("STSong-Light", 9)
        c.drawString(60, 810, "北京大学硕士学位论文" if page % 2 else f"第{(page + 1) // 2}章 研究方法")
        c.drawString(60, 798, f"北京大学硕士学位论文 {CHAPTERS[page - 1]}")  # title with chapter
        c.setFont("STSong-Light", 10.5)
        for i in range(20):
            c.drawString(60, 770 - 18 * i, f"{SENTENCES[(page + i) % 10]}（{page}-{i + 1}）")
        c.drawCentredString(297, 30, str(page))
        c.showPage()
    c.save()
    body = load_file(tmp_path / "论文.pdf", tmp_path).body
    assert "北京大学硕士学位论文" not in body and "研究方法" not in body
    assert not any(ch in body for ch in CHAPTERS)
    assert f"{SENTENCES[(8 + 19) % 10]}（8-20）" in body and f"{SENTENCES[1]}（1-1）" in body


def test_glyph_junk_and_broken_layers():
    assert clean_junk("函数(cid:0)f(x)(cid:12)的值\ufffd") == "函数f(x)的值"
    assert junk_share("(cid:1)(cid:2)(cid:3)正文") > 0.5 and junk_share("正常的文字") == 0.0
    assert junk_share("ÖÐ»ªÈËÃñ¹²ºÍ¹úÀÍ¶¯ºÏÍ¬·¨") > 0.3  # GBK bytes read as Latin-1


def test_data_tables_are_told_from_frames():
    assert is_data_table([["型号", "功率"], ["A1", "1.5"], ["A2", "2.2"]])
    assert not is_data_table([["甲方与乙方经友好协商就技术服务事宜签订本协议书，乙方应于合同签订后三十日内完成。"],
                              ["本协议一式两份。"]])
    assert not is_data_table([["协议书", None, None, None], [None, None, None, "第 1 页"]])


def test_cover_lines_and_a_contents_block_do_not_hold_the_chapters(tmp_path):
    # a datasheet: large cover lines, a 目录 block with dot leaders mid-page, 一、/4.1 chapters
    c = _canvas(tmp_path / "传感器.pdf")
    c.setFont("STSong-Light", 20)
    c.drawString(60, 780, "温湿度传感器")
    c.drawString(60, 750, "产品手册")
    c.setFont("STSong-Light", 10)
    c.drawString(60, 720, "本传感器出厂经过标定校准，具有温度补偿功能，适用于暖通空调和除湿器。")
    c.drawString(60, 700, "目录")
    for i, (label, page) in enumerate([("一、传感器性能", 2), ("二、电气特性", 2), ("三、通信", 3)]):
        c.drawString(60, 680 - 16 * i, f"{label} {'.' * 60} - {page} -")
    c.showPage()
    c.setFont("STSong-Light", 10)
    y = 780
    for label, text in (("一、传感器性能", "湿度精度为正负百分之三。"), ("二、电气特性", "供电电压为三点三伏。"),
                        ("三、通信", "采用标准总线通信。"), ("3.1 时序", "起始信号之后发送地址。"),
                        ("3.2 命令", "发送测量命令后等待八十毫秒。")):
        c.drawString(60, y, label)
        c.drawString(60, y - 18, text)
        y -= 48
    c.save()
    doc = load_file(tmp_path / "传感器.pdf", tmp_path)
    from zhiku.structure import build_tree

    tree = {s.label: s for s in build_tree(doc)}
    assert "目录" not in tree and "...." not in doc.body
    assert tree["一、传感器性能"].parent_id is None and tree["三、通信"].parent_id is None
    assert tree["3.2 命令"].parent_id == tree["三、通信"].id


def test_a_table_row_broken_by_the_page_break_is_joined():
    from zhiku.ingest.pdf import _Assembler

    asm = _Assembler([], [])
    asm.table([["项目", "说明"], ["试用期", "劳动合同期限三个月以上不满一年的，"]], continued=False)
    asm.table([["", "试用期不得超过一个月。"], ["工资", "不得低于最低工资标准。"]], continued=True)
    asm.flush()
    (table,) = asm.b.tables
    assert table.rows == (("试用期", "劳动合同期限三个月以上不满一年的，试用期不得超过一个月。"),
                          ("工资", "不得低于最低工资标准。"))


def test_heading_rows_inside_a_spec_sheet_table_split_it(tmp_path):
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A5
    from reportlab.platypus import SimpleDocTemplate, Table, TableStyle

    _canvas(tmp_path / "x.pdf")  # registers the font
    rows = [["项目", "条件", "参数"], ["1 电气特性", "", ""], ["标称电压", "0.2C 放电", "3.7V"],
            ["标称容量", "0.2C 放电", "2600mAh"], ["2 机械特性", "", ""], ["重量", "常温", "45g"],
            ["直径", "常温", "18.3mm"]]
    table = Table(rows)
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "STSong-Light"),
                               ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                               ("SPAN", (0, 1), (-1, 1)), ("SPAN", (0, 4), (-1, 4))]))
    SimpleDocTemplate(str(tmp_path / "电芯规格书.pdf"), pagesize=A5).build([table])
    doc = load_file(tmp_path / "电芯规格书.pdf", tmp_path)
    from zhiku.structure import build_tree

    assert [s.label for s in build_tree(doc)] == ["1 电气特性", "2 机械特性"]
    first, second = doc.tables
    assert first.columns == second.columns == ("项目", "条件", "参数")
    assert first.rows[0] == ("标称电压", "0.2C 放电", "3.7V") and second.rows[-1][2] == "18.3mm"


def test_a_spec_sheet_titled_over_its_heading_rows_loads(tmp_path):
    # the first page read as printed for a standard's cover holds a line and a table row that
    # is a heading: both are read as its lines (a heading row is no table to take apart)
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A5
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Table, TableStyle

    _canvas(tmp_path / "x.pdf")  # registers the font
    rows = [["项目", "条件", "参数"], ["1 电气特性", "", ""], ["标称电压", "0.2C 放电", "3.7V"],
            ["标称容量", "0.2C 放电", "2600mAh"], ["2 机械特性", "", ""], ["重量", "常温", "45g"]]
    table = Table(rows)
    table.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "STSong-Light"),
                               ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                               ("SPAN", (0, 1), (-1, 1)), ("SPAN", (0, 4), (-1, 4))]))
    title = Paragraph("18650 锂离子电芯规格书", ParagraphStyle("t", fontName="STSong-Light", fontSize=12))
    SimpleDocTemplate(str(tmp_path / "电芯规格书.pdf"), pagesize=A5).build([title, table])
    doc = load_file(tmp_path / "电芯规格书.pdf", tmp_path)
    from zhiku.structure import build_tree

    assert [s.label for s in build_tree(doc)][-2:] == ["1 电气特性", "2 机械特性"]
    assert "18650 锂离子电芯规格书" in doc.body and "standard" not in doc.metadata
