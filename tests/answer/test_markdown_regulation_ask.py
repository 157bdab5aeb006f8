"""A regulation kept as Markdown without ``#`` chapter headings — its chapters plain lines, its
article labels run into their text — is answered and cited by chapter and article like the same
law with headings (configs ``markdown_divisions`` and ``article_label_forms``): 劳动法 of
tests/data/laws, rewritten so, asked through the one ask over a keyword-only ingest."""

from __future__ import annotations

import re

import pytest

from tests.answer.conftest import law_kb, law_text
from zhiku.ask.flow import ask
from zhiku.ask.query import Query

pytestmark = pytest.mark.integration

QUESTION = "用人单位延长工作时间，一般每日不得超过几小时？"


def _plain(text: str) -> str:
    """The law without ``#``: its chapter lines plain, its article labels run into their text."""
    text = re.sub(r"(?m)^#+ (?=第.+章)", "", text)
    return re.sub(r"(?m)^(第[一二三四五六七八九十百零]+条) ", r"\1", text)


@pytest.fixture(scope="module")
def kbs(tmp_path_factory):
    law = law_text("社会法/劳动法(2018-12-29).md")
    return (law_kb(tmp_path_factory, [("社会法", "劳动法.md", _plain(law))]),
            law_kb(tmp_path_factory, [("社会法", "劳动法.md", law)]))


def test_the_plain_markdown_regulation_is_cited_by_chapter_and_article(kbs):
    plain, published = kbs
    got = ask(plain, Query(QUESTION, use_cache=False))
    assert not got.refused and "一小时" in got.text
    first = got.citations[0]
    assert first.article == "第四十一条" and first.section_path == ("第四章 工作时间和休息休假",)
    # the positive twin: the law as published, with ## chapter headings, answers the same
    twin = ask(published, Query(QUESTION, use_cache=False))
    assert (twin.citations[0].article, twin.citations[0].section_path) == (first.article, first.section_path)
