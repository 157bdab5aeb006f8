"""PDF cleaning rules on small hand-made pages: headers, page numbers, TOC, joining."""

from __future__ import annotations

import pytest

from zhiku.ingest.pdf_clean import Line, continues, is_toc_page, join_lines, strip_running

pytestmark = pytest.mark.unit


def test_running_header_footer_and_page_numbers_are_removed():
    words = ["泵的选型", "电机功率", "安装要求", "维护保养"]
    pages = [[Line("某公司 设备手册 2024版"), Line(f"{w}的说明。"), Line(f"- {i} -")]
             for i, w in enumerate(words, 1)]
    out = strip_running(pages)
    assert [[ln.text for ln in p] for p in out] == [[f"{w}的说明。"] for w in words]


def test_toc_page_is_recognised():
    toc = [Line("目 录"), Line("第一章 总则 ........ 1"), Line("第二章 订立 ........ 3"),
           Line("第三章 履行 ........ 9"), Line("附录 ........ 12")]
    assert is_toc_page(toc)
    assert not is_toc_page([Line("第一条 为了完善劳动合同制度，制定本法。")])


def test_lines_join_in_chinese_and_latin_and_across_hyphens():
    assert join_lines("建立和维护适应社会主义市场经济的", "劳动制度") == "建立和维护适应社会主义市场经济的劳动制度"
    assert join_lines("the pump is centri-", "fugal") == "the pump is centrifugal"
    assert join_lines("rated flow", "100 m3/h") == "rated flow 100 m3/h"
    assert continues("为了保护劳动者的合法权益，调整劳动关系，建立和维护适应社", "会主义", 30)
    assert not continues("制定本法。", "第二条 本法适用于……", 30)
    assert not continues("短行", "下一段", 30)


def test_numbered_heading_levels_without_bookmarks():
    from zhiku.ingest.pdf import _heading_level
    from zhiku.structure.numbering import DETECTED_LEVEL as D

    def level(text, size=10, sizes=(), articles=False):
        return _heading_level(Line(text, size), 10, list(sizes), articles)

    assert level("第二章 劳动合同的订立") == 2
    # other numbering is found at the detected level; the tree nests it by its numbers
    assert level("3.2.1 轴承检查") == level("3.2 日常维护") == level("一、总体要求") == D
    assert level("一、 关于本手册") == level("（一）标准工时") == level("第一部分 总则") == D
    assert level("1 范围", 14, [14.0]) == D and level("1 范围") is None  # bare number: larger font
    assert level("12 个月内完成") is None
    assert level("第一条 为了完善劳动合同制度，制定本法。") is None
    assert level("（一）劳动合同期限", articles=True) is None  # a list item of an article
    assert level("设备参数", 15, [15.0]) == 1
