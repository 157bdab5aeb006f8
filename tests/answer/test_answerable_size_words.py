"""尺寸/规格/大小/长宽 asked 是多少 asks a size, not any number (config
``answerability_size_words``), and an instance's kind noun after a word the question itself
says is the instance asked (config ``answerability_asked_instances``): the emergency-rescue
number-plate notice of tests/data/real/fresh6 (see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, has_quantity
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

NOTICE = "fresh6/消防救援车辆应急救援专用号牌通知.html"
ON = CheckOptions(size_words=True)
OFF = CheckOptions(size_words=False, asked_instances=False)


def _chunk(holding: str, without: str = ""):
    return next(c for c in real_chunks(NOTICE, whole_path=True)
                if holding in c.text and c.kind != "parent" and not (without and without in c.text))


def _asked(question: str, opts: CheckOptions) -> str:
    return next(c.text for c in pinned(question, opts) if c.kind is Kind.QUANTITY)


def test_size_words_ask_a_size():
    for q in ("应急救援专用号牌的汽车号牌尺寸是多少？", "这块底板的规格是多少？", "机箱长宽是多少？",
              "单个文件大小一般是多少？"):
        assert _asked(q, ON) == "size", q
        assert _asked(q, OFF) == "number", q
    # a count or a price asked of a thing with a size is still a count or a price
    assert _asked("专用号牌分为几种？", ON) == "number"
    assert _asked("这种规格的号牌多少钱？", ON) == "money"


def test_a_dimension_states_a_size_and_a_count_does_not():
    assert has_quantity("size", "汽车号牌规格为480毫米×140毫米")
    assert has_quantity("size", "外形 480×140")
    assert not has_quantity("size", "汽车号牌每副两只，分别悬挂在车辆前后部")


def test_the_plate_size_is_met_by_the_dimensions_not_the_count():
    question = "应急救援专用号牌的汽车号牌尺寸是多少？"
    size, count = _chunk("480毫米"), _chunk("每副两只", without="480")
    assert check(question, [(block_text(size), size.text)], opts=ON).ok
    on = check(question, [(block_text(count), count.text)], opts=ON)
    assert not on.ok and "大小" in on.reason  # refused for want of a size
    # off: the count (两只) was the number asked, and 汽车号牌 read as another plate than 专用号牌
    assert check(question, [(block_text(count), count.text)], opts=OFF).ok
    assert not check(question, [(block_text(size), size.text)], opts=OFF).ok


def test_a_count_asked_of_the_plates_is_met_by_the_count_either_way():
    # the positive twin: how many kinds of plate there are is answered by 两种, with the readings or without
    count = _chunk("每副两只", without="480")
    for opts in (ON, OFF):
        assert check("应急救援专用号牌分为几种？", [(block_text(count), count.text)], opts=opts).ok


def test_another_plate_than_the_one_asked_still_misses():
    # the question's own words name the plate; 普通小型汽车的蓝色号牌 is none the notice sizes
    size = _chunk("480毫米")
    assert not check("普通小型汽车的蓝色号牌尺寸是多少？", [(block_text(size), size.text)], opts=ON).ok


def test_a_kind_noun_after_a_word_the_question_does_not_say_is_another_instance():
    # 摩托车号牌 is another plate than the 汽车号牌 asked, with the reading on: its clause is dropped
    from zhiku.verify.instances import own_clauses

    cons = pinned("应急救援专用号牌的汽车号牌尺寸是多少？", ON)
    piece = "汽车号牌规格为480毫米×140毫米，摩托车号牌规格为220毫米×140毫米"
    assert own_clauses(piece, cons, asked=True) == "汽车号牌规格为480毫米×140毫米"
    assert own_clauses(piece, cons, asked=False) == ""
