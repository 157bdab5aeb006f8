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

    assert _heading_level(Line("第二章 劳动合同的订立", 10), 10, []) == 2
    assert _heading_level(Line("3.2.1 轴承检查", 10), 10, []) == 4
    assert _heading_level(Line("3.2 日常维护", 10), 10, []) == 3
    assert _heading_level(Line("一、总体要求", 10), 10, []) == 2
    assert _heading_level(Line("1 范围", 14), 10, [14.0]) == 2
    assert _heading_level(Line("12 个月内完成", 10), 10, []) is None
    assert _heading_level(Line("第一条 为了完善劳动合同制度，制定本法。", 10), 10, []) is None
    assert _heading_level(Line("设备参数", 15), 10, [15.0]) == 1
