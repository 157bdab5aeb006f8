"""A question asking which version, answered from a changelog whose entries' headings state
the release (tests/data/real/fresh/Sa-Token更新日志.md, see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from zhiku.answer.extractive import compose
from zhiku.retrieve.segment import query_terms, segmenters
from zhiku.types import Chunk, Hit

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit

LOG = "fresh/Sa-Token更新日志.md"


def _chunks(name: str) -> tuple[Chunk, ...]:
    return real_chunks(name)


def _compose(question: str, holding: str, head_version: bool) -> str:
    chunk = next(c for c in _chunks(LOG) if c.kind == "text" and holding in c.text)
    terms = query_terms(segmenters.create("words")(question))
    text, _ = compose(terms, [Hit(chunk, 0.03, "rrf")], lambda t: 1.0, head_version=head_version)
    return text


def test_which_version_is_answered_with_the_release_heading_of_the_change():
    question = "allowLoginIdColon 配置是哪个版本新增的？"
    text = _compose(question, "allowLoginIdColon", True)
    assert text.startswith("v1.46.0 @2026-8-18：") and "allowLoginIdColon" in text
    assert "v1.46.0" not in _compose(question, "allowLoginIdColon", False)  # the setting off


def test_a_question_not_about_a_version_quotes_the_change_alone():
    # its positive twin: the same entry, asked what the setting does, needs no release
    text = _compose("allowLoginIdColon 配置默认允许 loginId 包含冒号吗？", "allowLoginIdColon", True)
    assert "默认禁止 loginId 包含冒号" in text and "v1.46.0" not in text
