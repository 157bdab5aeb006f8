"""A sum written with thousands separators (「最高1,000,000元」) is read as one sum by the
answerability check (config ``answerability_separators``): a security bounty's table row of a
real policy (tests/data/real/fresh3/OpenHarmony安全漏洞奖励计划.md, see tests/data/real/SOURCE.md),
and a statute's sum in words (tests/data/laws) read alike either way."""

from __future__ import annotations

import pytest

from tests.answer.conftest import law_text, real_chunks, sentence_with
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, unseparated
from zhiku.verify.options import CheckOptions

pytestmark = pytest.mark.unit

POLICY = "fresh3/OpenHarmony安全漏洞奖励计划.md"
ON, OFF = CheckOptions(separators=True), CheckOptions(separators=False)


def _row(word: str):
    """The row chunk of the policy's bounty table holding ``word``."""
    return next(c for c in real_chunks(POLICY, whole_path=True) if c.kind == "table_row" and word in c.text)


def test_a_numbers_thousands_separators_are_taken_out_and_other_commas_stay():
    assert unseparated("奖励金额范围 最高1,000,000元") == "奖励金额范围 最高1000000元"
    assert unseparated("最高10，000元") == "最高10000元"
    # not a thousands group: a list of item numbers, four digits after the comma
    assert unseparated("第1,2项，2,5000") == "第1,2项，2,5000"


def test_the_bounty_of_a_severity_is_read_as_a_sum_in_its_row():
    chunk = _row("1,000,000")
    block = block_text(chunk)
    question = "严重等级的漏洞最高奖励多少钱？"
    assert check(question, [(block, chunk.text)], opts=ON).ok
    # off: the commas cut 1,000,000元 into clauses, none beside 奖励 with its unit
    assert not check(question, [(block, chunk.text)], opts=OFF).ok


def test_a_sum_in_words_is_read_alike_either_way():
    # the positive twin: a statute's fine in Chinese numerals has no separator to take out
    sentence = sentence_with(law_text("民法商法/公司法(2018-10-26).md"), "另立会计账簿的，由县级以上")
    question = "公司另立会计账簿会被罚款多少钱？"
    on = check(question, [(f"公司法 {sentence}", sentence)], opts=ON)
    off = check(question, [(f"公司法 {sentence}", sentence)], opts=OFF)
    assert on.ok and off.ok
