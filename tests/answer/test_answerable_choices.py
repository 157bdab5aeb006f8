"""A quantity's word naming an option of a choice asks no kind of quantity (config
``answerability_choices``): the retention page of tests/data/real/fresh13 and the hazardous
waste transfer rule of tests/data/real/fresh10 (see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

TTL = "fresh13/IoTDB数据保留时间.md"
WASTE = "fresh10/危险废物转移管理办法.md"
ON = CheckOptions(choices=True)
OFF = CheckOptions(choices=False)
CHOICE = "IoTDB 判断数据是否过期，看的是写入时间还是数据点时间？"


def _chunk(name: str, holding: str):
    return next(c for c in real_chunks(name, whole_path=True) if holding in c.text and c.kind != "parent")


def _asked(question: str, opts: CheckOptions) -> str:
    return next((c.text for c in pinned(question, opts) if c.kind is Kind.QUANTITY), "")


def test_times_offered_as_options_ask_no_date():
    assert _asked(CHOICE, ON) == ""
    assert _asked(CHOICE, OFF) == "date"


def test_the_retention_page_answers_the_choice():
    block = _chunk(TTL, "依据的是数据点时间")
    assert "非写入时间" in block.text
    assert check(CHOICE, [(block_text(block), block.text)], opts=ON).ok
    off = check(CHOICE, [(block_text(block), block.text)], opts=OFF)
    assert not off.ok and "时间" in off.reason  # refused for want of a date


def test_a_time_asked_is_still_a_date():
    # the positive twin from another document: 时间 asked, no option offered; and a choice
    # whose option asks a value itself (多久) still asks it
    for opts in (ON, OFF):
        assert _asked("危险废物转移管理办法的施行时间是？", opts) == "date"
        assert _asked("危险废物转移联单是纸质的还是电子的，要保存多久？", opts) == "duration"
    article = _chunk(WASTE, "第三十二条")
    assert "2022年1月1日" in article.text
    for opts in (ON, OFF):
        assert check("危险废物转移管理办法的施行时间是？", [(block_text(article), article.text)], opts=opts).ok
        no_date = _chunk(WASTE, "第一条")
        assert not check("危险废物转移管理办法的施行时间是？", [(block_text(no_date), no_date.text)], opts=opts).ok
