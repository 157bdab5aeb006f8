"""HTML comments in Markdown are not content: a licence in ``<!-- … -->`` over a page, a note
or a section an author hid; on real pages of tests/data/real (see its SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.ingest.markdown_text import drop_comments
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
TTL = "fresh13/IoTDB数据保留时间.md"
JDBC = "fresh13/IoTDB-JDBC接口.md"


def _load(name: str, **options):
    doc = load_file(REAL / name, REAL, **options)
    return doc, build_tree(doc)


def test_a_licence_comment_over_the_page_is_neither_title_nor_text():
    # IoTDB's Chinese manual opens every page with the Apache licence in <!-- … -->, then
    # 「# 数据保留时间」: the heading is the title and the licence is nowhere
    doc, sections = _load(TTL)
    assert doc.title == "数据保留时间"
    assert "Licensed to the Apache" not in doc.body and "under the License" not in doc.body
    assert doc.body.startswith("## 1. 概览")
    assert [s.label for s in sections][:2] == ["1. 概览", "2. 设置TTL"]


def test_the_setting_off_reads_the_licence_as_before():
    # the twin (an ablation): off, the licence is the page's first text and the title is
    # the file's name, as before this reading
    doc, sections = _load(TTL, markdown_hide_comments=False)
    assert doc.title == "IoTDB数据保留时间"
    assert "Licensed to the Apache Software Foundation" in doc.body
    assert sections[0].label == "数据保留时间"


def test_a_comment_inside_a_code_fence_stays_text():
    # the JDBC page's Maven snippet says in an XML comment that the version is the server's:
    # inside a fence it is code, kept as written; the licence above the page still goes
    doc, _ = _load(JDBC)
    assert "<!-- 版本号与数据库版本号相同 -->" in doc.body
    assert doc.title == "JDBC" and "Licensed to" not in doc.body


def test_a_section_the_author_commented_out_is_no_section():
    # Sa-Token's configuration page hides 「#### 配置项详解：isAutoMode」 in a comment; its
    # sibling 「#### 配置项详解：isHttp」 is shown, so it stays a section
    _, sections = _load("fresh/Sa-Token框架配置.md")
    labels = [s.label for s in sections]
    assert "配置项详解：isHttp" in labels and "配置项详解：maxLoginCount" in labels
    assert not any("isAutoMode" in label for label in labels)
    _, shown = _load("fresh/Sa-Token框架配置.md", markdown_hide_comments=False)
    assert "配置项详解：isAutoMode" in [s.label for s in shown]


def test_a_marker_comment_that_ends_a_preamble_is_kept():
    # a law's 「<!-- INFO END -->」 closes its preamble: the title, effective date and first
    # article are read as before
    doc, _ = _load("fresh8/工资支付暂行规定.md")
    assert doc.title == "工资支付暂行规定" and doc.metadata["effective"] == "1995-01-01"
    assert doc.body.startswith("第一条 为维护劳动者通过劳动获得劳动报酬的权利")


def test_an_inline_comment_goes_and_inline_code_keeps_its_comment():
    # an inline comment inside a line goes; a `<!--` written in inline code is text
    text = ("TTL 默认以毫秒为单位<!-- 与配置文件的时间精度无关 -->，数据过期后不可查询。\n"
            "Umi-OCR 的更新日志用 `<!-- 6.5k★ 撒花~ -->` 记里程碑。")
    assert drop_comments(text) == ("TTL 默认以毫秒为单位，数据过期后不可查询。\n"
                                   "Umi-OCR 的更新日志用 `<!-- 6.5k★ 撒花~ -->` 记里程碑。")


def test_a_comment_on_lines_of_its_own_leaves_a_paragraph_break():
    # the Sa-Token FAQ hides a paragraph in a comment between two paragraphs: they stay two
    text = ("如果不是以上原因，可以加群提供复现demo。\n"
            "<!-- 目前能复现此问题的情况是：在项目中有配置类继承 `WebMvcConfigurationSupport` 时\n"
            "解决方案是将 `extends WebMvcConfigurationSupport` 改为 `implements WebMvcConfigurer`。 -->\n"
            "不更新是正常现象")
    assert drop_comments(text) == "如果不是以上原因，可以加群提供复现demo。\n\n不更新是正常现象"


def test_an_unterminated_comment_is_left_as_written():
    # a `<!--` with no `-->` after it would hide the rest of the page in a viewer; it is kept,
    # so no text is lost; a closed comment before it still goes
    text = "<!-- INFO -->\n# 数据保留时间\n<!--\n## 1. 概览\nIoTDB 支持对设备级别设置数据保留时间。"
    assert drop_comments(text) == "\n# 数据保留时间\n<!--\n## 1. 概览\nIoTDB 支持对设备级别设置数据保留时间。"


def test_the_setting_reaches_the_loader_through_ingest(tmp_path):
    # markdown_hide_comments goes config → ingest → load_file: two knowledge bases, one process
    import shutil

    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    docs = tmp_path / "docs"
    docs.mkdir()
    shutil.copy(REAL / TTL, docs)
    texts = {}
    for on in (True, False):
        cfg = load_config(home=tmp_path / f"home-{on}").model_copy(update={"markdown_hide_comments": on})
        kb = KnowledgeBase(cfg)
        kb.ingest([docs], dense=False, progress=False)
        texts[on] = " ".join(c.text for c in kb.store.all_chunks())
    assert "Licensed to" not in texts[True] and "TTL 默认以毫秒为单位" in texts[True]
    assert "Licensed to the Apache" in texts[False]
