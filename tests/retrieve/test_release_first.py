"""A question naming a release, asked of changelogs whose sections state the release only in
their headings (tests/data/real/fresh/Sa-Token更新日志.md, fresh6/Vant4更新日志.md; see
tests/data/real/SOURCE.md): the hits under that release's heading come first, and a release
number searches its other spelling (4.8.9, v4.8.9) as the index holds it."""

from __future__ import annotations

import pytest

from zhiku.chunk.context import release_heading, release_numbers
from zhiku.prepare import keyword_text
from zhiku.retrieve.clause import release_first
from zhiku.retrieve.segment import segmenters
from zhiku.retrieve.terms import keyword_terms, version_forms
from zhiku.types import Hit

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit


def _hits(name: str) -> list[Hit]:
    chunks = [c for c in real_chunks(name, whole_path=True) if c.kind == "text"]
    return [Hit(c, 1.0 / (i + 1), "rrf") for i, c in enumerate(reversed(chunks))]  # the newest release last


def test_the_section_of_the_release_the_question_names_comes_first():
    hits = _hits("fresh/Sa-Token更新日志.md")
    out = release_first(hits, "Sa-Token v1.44.0 是哪天发布的？")
    assert release_heading(out[0].chunk) == "v1.44.0 @2025-6-7"
    assert sorted(h.chunk.id for h in out) == sorted(h.chunk.id for h in hits)  # nothing lost


def test_a_bare_release_number_finds_the_heading_spelled_with_its_v():
    out = release_first(_hits("fresh6/Vant4更新日志.md"), "npm 上的 vant 4.8.9 能不能用？")
    assert out[0].chunk.section_path[-1] == "v4.8.9" and "无效版本" in out[0].chunk.text


def test_a_question_naming_no_release_keeps_the_order():
    # its positive twin: asked by what the change says, the search's own order stands
    hits = _hits("fresh/Sa-Token更新日志.md")
    assert release_first(hits, "sso-server 前后端分离示例无法登录的问题修复了吗？") == hits
    assert release_numbers("2025.06.03 的公告说了什么") == set()  # a date is no release
    assert release_heading(next(c for c in real_chunks("fresh6/Vant4更新日志.md", whole_path=True)
                                if "新增 Highlight 组件" in c.text)) == "v4.8.0"


def test_a_release_number_searches_the_spelling_the_index_holds():
    seg = segmenters.create("mixed")
    held = [set(seg(keyword_text(c))) for c in real_chunks("fresh6/Vant4更新日志.md", whole_path=True)]
    df = lambda t: sum(t in s for s in held)  # noqa: E731
    terms = keyword_terms(seg, "npm 上的 vant 4.8.9 能不能用？", df)
    assert "4.8.9" in terms and df("4.8.9") == 0
    assert version_forms(terms, df) == ["v4.8.9"]
    assert version_forms(keyword_terms(seg, "vant 有哪些组件？", df), df) == []  # no release: nothing
