"""Setext headings in Markdown (a line underlined with ``===`` or ``---``) are headings, as a
viewer shows them (``markdown_setext``, on by default); a ``---`` after a blank line is a
thematic break and front matter is metadata. Real lines: the Chinese SemVer 2.0.0 specification (fresh14)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.ingest.markdown_text import setext_headings
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
SEMVER = REAL / "fresh14" / "语义化版本2.0.0规范.md"


def test_the_specifications_setext_headings_are_its_title_and_sections():
    doc = load_file(SEMVER, SEMVER.parent, markdown_setext=True)
    labels = [s.label for s in build_tree(doc)]
    assert doc.title == "语义化版本 2.0.0"
    assert labels[:3] == ["摘要", "简介", "语义化版本控制规范（SemVer）"]
    assert "合法语义化版本的巴科斯范式语法" in labels and "FAQ" in labels
    faq = next(s for s in build_tree(doc) if s.label == "FAQ")
    # the FAQ's ### questions sit under its setext heading
    assert "“v1.2.3” 是一个语义化版本号吗？" in [s.label for s in build_tree(doc) if s.parent_id == faq.id]
    # the twin with the setting off: no section of those, the ### questions alone
    old = [s.label for s in build_tree(load_file(SEMVER, SEMVER.parent, markdown_setext=False))]
    assert "摘要" not in old and "“v1.2.3” 是一个语义化版本号吗？" in old


def test_a_rule_after_a_blank_line_a_list_item_or_a_paragraph_of_two_lines_is_no_heading():
    text = "语义化版本 2.0.0\n===\n\n摘要\n---\n\n版本格式：主版本号.次版本号.修订号。\n\n---\n\n* 语义化版本控制规范（SemVer）\n---\n"
    out = setext_headings(text).split("\n")
    assert out[0] == "# 语义化版本 2.0.0" and out[3] == "## 摘要"
    assert out[8] == "---" and out[10] == "* 语义化版本控制规范（SemVer）" and out[11] == "---"
    two = "以下关键词 MUST、MUST NOT 的意义\n依照 RFC 2119 的叙述解读。\n---\n"
    assert setext_headings(two) == two
    fenced = "```\n摘要\n---\n```\n"
    assert setext_headings(fenced) == fenced
