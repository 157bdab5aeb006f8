"""A count that only names what the question asks which one of, and a version asked by 多少, ask
no count (config ``answerability_which_asks``): the JDBC page of tests/data/real/fresh13 (see
tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

JDBC = "fresh13/IoTDB-JDBC接口.md"
ON = CheckOptions(which_asks=True)
OFF = CheckOptions(which_asks=False)
VERSION = "Maven 里引入 iotdb-jdbc 依赖，版本号该填多少？"


def _asked(question: str, opts: CheckOptions) -> str:
    return next((c.text for c in pinned(question, opts) if c.kind is Kind.QUANTITY), "")


def _dependency():
    return next(c for c in real_chunks(JDBC, whole_path=True)
                if "${project.version}" in c.text and c.kind != "parent")


def test_a_version_asked_by_how_much_asks_no_count():
    assert _asked(VERSION, ON) == ""
    assert _asked(VERSION, OFF) == "number"


def test_the_dependency_listing_answers_the_version_asked():
    block = _dependency()
    assert "<artifactId>iotdb-jdbc</artifactId>" in block.text
    assert check(VERSION, [(block_text(block), block.text)], opts=ON).ok
    off = check(VERSION, [(block_text(block), block.text)], opts=OFF)
    assert not off.ok and "数目" in off.reason  # refused for want of a count


def test_a_count_before_a_which_question_names_the_setting_asked():
    question = "最多能订阅多少个 Topic 在哪个配置项里设置？"
    assert _asked(question, ON) == ""
    assert _asked(question, OFF) == "number"


def test_a_count_asked_alone_is_still_a_count():
    # the positive twins: 多少 asks how many when no which-question follows it and no version
    # comes before it, whichever the reading
    for opts in (ON, OFF):
        assert _asked("最多能订阅多少个 Topic？", opts) == "number"
        assert _asked("IoTDB 一共发布过多少个版本？", opts) == "number"
    # and the listing, which states no count, does not answer one
    block = _dependency()
    assert not check("iotdb-jdbc 依赖一共有多少个？", [(block_text(block), block.text)], opts=ON).ok
