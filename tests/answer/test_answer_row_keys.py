"""The offline composer quoting the table row a question names by its first value (config
``answer_row_keys``), on the bug-bounty policy of tests/data/real/fresh3 (an amount table:
漏洞等级, 漏洞样例, 奖励金额范围) and the coordinate tables of tests/data/real/tables (see
tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks, words
from zhiku.answer.extractive import compose
from zhiku.answer.rows import row_keys
from zhiku.retrieve.segment import query_terms
from zhiku.types import Hit

pytestmark = pytest.mark.unit

POLICY = "fresh3/OpenHarmony安全漏洞奖励计划.md"


def _rows(page: str) -> list:
    return [c for c in real_chunks(page, whole_path=True) if c.kind == "table_row"]


def _compose(question: str, rows: list, named: bool) -> str:
    """The offline answer from ``rows`` in that order (best first, as retrieval ranked them)."""
    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate(rows)]
    text, _ = compose(query_terms(words()(question)), hits, lambda t: 1.0, rows_whole=True,
                      row_keys=question if named else "")
    return text


def _level(level: str):
    return next(c for c in _rows(POLICY) if c.text.startswith(f"漏洞等级 {level}，"))


def test_the_row_named_by_its_first_value_is_quoted_over_a_sibling_ranked_above_it():
    # retrieval ranked the 低 row first: shorter, and holding 最高 and 奖励 as the 中 row does
    question = "中危漏洞最高能拿多少奖励？"
    rows = [_level("低"), _level("中"), _level("严重")]
    assert "最高200,000元" in _compose(question, rows, named=True)
    assert "最高10,000元" in _compose(question, rows, named=False)


def test_a_one_character_value_inside_a_word_names_no_row():
    # 高 stands in 最高 (a word of the question that does not open with it): the 高 row is not
    # named, so the answer stays the best-covering row
    question = "低危漏洞最高能拿多少奖励？"
    rows = [_level("低"), _level("高"), _level("中")]
    for named in (True, False):
        assert "最高10,000元" in _compose(question, rows, named)


def test_a_question_naming_no_row_or_the_first_keeps_it():
    # the positive twin: the source row is the one named, or none is named
    rows = [_level("严重"), _level("高")]
    for named in (True, False):
        assert "1,000,000元" in _compose("严重漏洞最高奖励多少？", rows, named)
        assert "1,000,000元" in _compose("漏洞奖励最高是多少钱？", rows, named)


def test_row_keys_are_the_first_values_after_the_shared_caption_and_column():
    from pathlib import Path

    from zhiku.chunk.tables import table_chunks
    from zhiku.ingest import load_file

    bay = Path(__file__).resolve().parent.parent / "data" / "real" / "tables"
    doc = load_file(bay / "深圳湾口岸港方口岸区范围批复.html", bay)
    table = next(t for t in doc.tables if t.caption == "A匝道桥界址点坐标")
    texts = [c.text for c in table_chunks(doc, table, "s", ()) if c.kind == "table_row"]
    assert row_keys(texts)[:3] == ["A1", "A2", "A3"]
    assert row_keys([r.text for r in (_level("低"), _level("中"))]) == ["低", "中"]
