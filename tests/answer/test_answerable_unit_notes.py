"""A block noting the unit its figures are in (「（单位：人）」 over a table's rows) states a
quantity of that unit's kind in a bare cell (config ``answerability_unit_notes``): the quota
table of the Tibet-class notice of tests/data/real/fresh9, the Sa-Token configuration page of
tests/data/real/fresh (see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.stated import noted_unit

pytestmark = pytest.mark.unit

TIBET = "fresh9/内地西藏班扩大规模通知.html"
SATOKEN = "fresh/Sa-Token框架配置.md"
ON = CheckOptions(unit_notes=True)
OFF = CheckOptions(unit_notes=False)


def _chunk(name: str, holding: str, kind: str | None = None):
    return next(c for c in real_chunks(name, whole_path=True)
                if holding in c.text and c.kind != "parent" and (kind is None or c.kind == kind))


def test_a_note_names_the_kind_of_its_unit():
    row = _chunk(TIBET, "江苏，", "table_row")
    assert "（单位：人）" in row.text and "1997年 140" in row.text
    assert noted_unit("people", row.text)
    assert not noted_unit("money", row.text) and not noted_unit("days", row.text)
    line = _chunk(SATOKEN, "（单位：秒）")
    assert noted_unit("hours", line.text)  # 秒 is a unit of hours asked
    assert not noted_unit("people", line.text)


def test_a_quota_row_answers_how_many_students():
    row = _chunk(TIBET, "江苏，", "table_row")
    question = "江苏省1997年要招多少名内地西藏初中班学生？"
    assert check(question, [(block_text(row), row.text)], opts=ON).ok
    off = check(question, [(block_text(row), row.text)], opts=OFF)
    assert not off.ok and "人数" in off.reason  # refused: 140 carries no 人 or 名


def test_a_figure_with_its_unit_answers_either_way():
    # the positive twin: the notice's own sentence states 2000名 with its unit, note or not
    text = _chunk(TIBET, "至1998年达到2000名的招生规模")
    for opts in (ON, OFF):
        assert check("内地西藏初中班1995年实招多少名学生？", [(block_text(text), text.text)], opts=opts).ok


def test_a_note_of_another_unit_states_no_head_count():
    # a page noting seconds does not turn its bare figures into people, with the reading on
    line = _chunk(SATOKEN, "（单位：秒）")
    assert not check("Sa-Token 的 token 最多允许多少人同时在线？", [(block_text(line), line.text)], opts=ON).ok
