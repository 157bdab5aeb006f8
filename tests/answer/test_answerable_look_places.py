"""A where-to-look question (去哪里看, 在哪里查, 到哪里下载, 哪里可以找到) asks a page, a site, a
link, a file or a menu as well as a place (config ``answerability_look_places``): the Vant 4
changelog of tests/data/real/fresh6 (see tests/data/real/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, has_quantity
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

ON, OFF = CheckOptions(), CheckOptions(look_places=False)


def _asked(question: str, opts: CheckOptions) -> str:
    return next(c.text for c in pinned(question, opts) if c.kind is Kind.QUANTITY)


def _notice():
    """The changelog's opening notice: from v4.9.0 on, the changelog is published on GitHub's Releases page."""
    return next(c for c in real_chunks("fresh6/Vant4更新日志.md", whole_path=True)
                if "Releases" in c.text and c.kind != "parent")


def test_where_to_look_asks_a_page():
    for q in ("之后去哪里看？", "社保缴费记录在哪里查？", "新版驱动到哪儿下载？", "哪里可以找到历史版本？"):
        assert _asked(q, ON) == "page", q
        assert _asked(q, OFF) == "place", q
    # where a thing is done or is still asks a place
    for q in ("户口在哪里办？", "会议在哪里举行？"):
        assert _asked(q, ON) == "place", q


def test_a_page_a_link_or_a_file_answers_where_to_look():
    assert has_quantity("page", "更新日志统一发布在 GitHub 的 Releases 页面", "更新|日志")
    assert has_quantity("page", "详见 https://github.com/youzan/vant/releases", "更新|日志")
    assert has_quantity("page", "请下载 driver-v2.zip 安装", "驱动|下载")
    assert has_quantity("page", "可到社保经办机构查询", "社保|记录")  # a place or an institution still does
    assert not has_quantity("page", "当前版本不再更新日志", "更新|日志")
    assert not has_quantity("page", "已迁移到文档网站", "文档|网站")  # the question's own words name no page


def test_the_changelog_s_new_home_answers_where_to_look():
    chunk = _notice()
    question = "Vant 从哪个版本开始不在文档网站上更新日志了，之后去哪里看？"
    assert check(question, [(block_text(chunk), chunk.text)], opts=ON).ok
    off = check(question, [(block_text(chunk), chunk.text)], opts=OFF)
    assert not off.ok and "地点" in off.reason  # a page was not read as naming where


LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"


def _line(law: str, holding: str) -> str:
    return next(ln for ln in (LAWS / law).read_text(encoding="utf-8").splitlines() if holding in ln)


def test_a_place_of_law_still_needs_a_place():
    # the negative twin: where a thing is done asks a place or an institution; a file named
    # (「在决定文件上签名」) is none, with the reading or without
    signed = _line("民法商法/公司法(2018-10-26).md", "在决定文件上签名")
    question = "股东一致同意的决定在哪里签名？"
    assert _asked(question, ON) == "place"
    for opts in (ON, OFF):
        assert not check(question, [(signed, signed)], opts=opts).ok
    assert has_quantity("page", signed, "股东|决定")  # a where-to-look question would be met by it


def test_a_place_of_law_is_met_by_its_institution_either_way():
    # the positive twin: 「户口在哪里办」 is answered by the office a statute names (公安机关)
    article = _line("民法典/婚姻家庭编.md", "办理户口登记")
    for opts in (ON, OFF):
        assert check("收养关系成立后，被收养人的户口在哪里办？", [(article, article)], opts=opts).ok
