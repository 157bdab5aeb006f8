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
        c.setFont("STSong-Light", 10.5)
        for i in range(20):
            c.drawString(60, 770 - 18 * i, f"{SENTENCES[(page + i) % 10]}（{page}-{i + 1}）")
        c.drawCentredString(297, 30, str(page))
        c.showPage()
    c.save()
    body = load_file(tmp_path / "论文.pdf", tmp_path).body
    assert "北京大学硕士学位论文" not in body and "研究方法" not in body
    assert f"{SENTENCES[(8 + 19) % 10]}（8-20）" in body and f"{SENTENCES[1]}（1-1）" in body


def test_glyph_junk_and_broken_layers():
    assert clean_junk("函数(cid:0)f(x)(cid:12)的值\ufffd") == "函数f(x)的值"
    assert junk_share("(cid:1)(cid:2)(cid:3)正文") > 0.5 and junk_share("正常的文字") == 0.0


def test_data_tables_are_told_from_frames():
    assert is_data_table([["型号", "功率"], ["A1", "1.5"], ["A2", "2.2"]])
    assert not is_data_table([["甲方与乙方经友好协商就技术服务事宜签订本协议书，乙方应于合同签订后三十日内完成。"],
                              ["本协议一式两份。"]])
    assert not is_data_table([["协议书", None, None, None], [None, None, None, "第 1 页"]])
