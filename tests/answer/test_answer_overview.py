"""A summary of a document's clauses yields to the clause it summarises (``answer_overview``):
the SemVer specification as published in Chinese (tests/data/real/fresh14, its setext headings
read), whose 「摘要」 restates each rule in a line, in a real store with the bundled embedder in a
temporary home."""

from __future__ import annotations

import pytest

from zhiku.answer.extractive import compose
from zhiku.answer.overview import summarises
from zhiku.ask.search import Mode, retrieve
from tests.answer.conftest import REAL
from tests.conftest import copied_kb

SEMVER = "语义化版本2.0.0规范.md"
PATCH = "次版本号加一的时候，修订号要怎么处理？"  # rule 7: 每当次版本号递增时，修订号必须（MUST）归零
RULES = "版本号递增规则是什么？"  # the summary states them: 版本格式：…，版本号递增规则如下：


def test_a_summary_is_read_from_its_section_labels():
    assert summarises(("摘要",))
    assert summarises(("IoTDB 数据保留时间", "1. 概览"))
    assert summarises(("Guide", "Overview", "Settings"))  # a section under the overview is part of it


def test_a_section_of_its_own_is_no_summary():
    """Twin: a heading that only begins with a summary's word, or names the clauses, is none."""
    assert not summarises(("语义化版本控制规范（SemVer）",))
    assert not summarises(("快速开始", "概述与安装"))
    assert not summarises(("5 水污染物排放控制要求",))
    assert not summarises(())


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return copied_kb(tmp_path_factory, REAL / "fresh14", [SEMVER], "semver", dense=True, markdown_setext=True)


def _quoted(kb, question: str, share: float) -> tuple[str, str]:
    """The section the composer quotes and its quote, from the hybrid ranking's best five (the
    summary first among them)."""
    found = retrieve(kb, question, Mode.HYBRID, route=False)
    hits = found.hits[:5]
    assert summarises(hits[0].chunk.section_path)
    _, cites = compose(found.terms, hits, kb.idf, overview=share)
    return cites[0].section_path[-1], cites[0].quote


@pytest.mark.integration
def test_the_rule_is_quoted_not_the_summary_restating_it(kb):
    assert _quoted(kb, PATCH, 0.0)[0] == "摘要"
    section, quote = _quoted(kb, PATCH, kb.config.answer_overview or 0.8)
    assert section == "语义化版本控制规范（SemVer）" and "修订号必须（MUST）归零" in quote


@pytest.mark.integration
def test_what_the_summary_states_itself_is_still_quoted_from_it(kb):
    """Twin: the summary states the increment rules asked for as a list; no clause scores near it."""
    section, quote = _quoted(kb, RULES, kb.config.answer_overview or 0.8)
    assert section == "摘要" and "版本号递增规则如下" in quote
