"""A count asked (多少, 几个) is not met by the digits of a name, a release number or a
caption's number, and an answer stating no other count refuses (config
``answerability_counts``): development-board pages of tests/data/real/fresh2 (see
tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import law_text, real_chunks, sentence_with
from zhiku.answer.finish import uncounted
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, unnamed
from zhiku.verify.options import CheckOptions

pytestmark = pytest.mark.unit

ON, OFF = CheckOptions(counts=True), CheckOptions(counts=False)


def _chunk(name: str, word: str, kind: str | None = None):
    """The chunk of fresh2/NAME holding ``word`` (of ``kind``, when given)."""
    return next(c for c in real_chunks(f"fresh2/{name}", whole_path=True)
                if word in c.text and (kind is None or c.kind == kind))


def test_figures_that_count_nothing_are_left_out_and_counts_with_units_stay():
    assert unnamed("图2：润和HH-SCDAYU210开发板正面外观图[1]").count("2") == 0
    assert "4.3.2" not in unnamed("从 Arthas 4.3.2 开始")
    assert "16MB" in unnamed("容量为 16MB 的 Nor Flash") and "23" in unnamed("共 23 项")


def test_a_board_photo_caption_does_not_state_the_range_asked():
    chunk = _chunk("润和DAYU210开发套件说明.md", "正面外观图")
    block, said = block_text(chunk), "图2：润和HH-SCDAYU210开发板正面外观图[1]"
    question = "DAYU210开发板的工作温度范围是多少？"
    on = check(question, [(block, said)], opts=ON)
    assert not on.ok and uncounted(on, said)  # the caption's digits are no count: refused
    # off: 210 of the board's name beside its name met the count asked
    assert check(question, [(block, said)], opts=OFF).ok


def test_a_count_the_board_table_states_is_met_either_way():
    # the positive twin: 「RS485 | 2路」 — the interface's own digits left out, its count stays
    chunk = _chunk("Niobe407开发板说明.md", "RS485", "table_row")
    question = "Niobe407开发板有几路RS485？"
    on = check(question, [(block_text(chunk), chunk.text)], opts=ON)
    assert on.ok and check(question, [(block_text(chunk), chunk.text)], opts=OFF).ok


def test_a_count_told_before_the_asking_clause_is_no_count_asked():
    # the gate's twin (tests/data/laws): 「几个股东」 tells who, the last clause asks whether; the
    # article is answered, as with the reading off, though it states no count
    sentence = sentence_with(law_text("民法商法/公司法(2023-12-29).md"), "可以请求人民法院解散公司")
    question = "几个股东闹翻了，公司什么事都决定不了，能请法院把公司解散吗？"
    verdict = check(question, [(f"公司法 {sentence}", sentence)], opts=ON)
    assert not uncounted(verdict, sentence, question)
