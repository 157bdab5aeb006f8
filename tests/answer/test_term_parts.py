"""A question's compound word the documents hold only by its parts (五一劳动节 over 劳动节),
answered from a government holiday notice (tests/data/real/2019年部分节假日安排.html, see
tests/data/real/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.answer.reading import term_parts
from zhiku.retrieve.segment import normalise
from tests.conftest import copied_kb

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
NOTICE = "2019年部分节假日安排.html"


@pytest.fixture(scope="module")
def notices_kb(tmp_path_factory):
    """The real government notices of tests/data/real (the holiday notice among them), keyword-only."""
    return copied_kb(tmp_path_factory, REAL, (NOTICE, "国务院工作规则.html", "政府网站集约化试点工作方案.html"), "notices")


def _ask(kb, question: str, parts: bool):
    from tests.answer.conftest import with_config
    from zhiku.ask.flow import ask
    from zhiku.ask.query import Query

    return ask(with_config(kb, answer_term_parts=parts), Query(question, use_cache=False))


def test_a_compound_no_block_holds_counts_by_the_dictionary_word_inside_it():
    said = [normalise("四、劳动节：5月1日放假。")]  # the texts read, normalised by the composer
    assert term_parts(["五一劳动节", "放假"], said) == ["劳动节", "放假"]
    # a word the text holds whole, a word none of whose parts it holds, a short word: as they are
    assert term_parts(["劳动节", "中秋节", "五一"], said) == ["劳动节", "中秋节", "五一"]


def test_the_holiday_asked_by_its_everyday_name_is_answered_with_its_own_line(notices_kb):
    question = "2019年五一劳动节哪天放假？"
    on = _ask(notices_kb, question, True)
    assert "5月1日" in on.text and on.citations[0].doc_path == NOTICE
    assert "5月1日" not in _ask(notices_kb, question, False).text  # off: the whole word counts nowhere


def test_a_holiday_the_notice_names_as_asked_is_answered_alike(notices_kb):
    # its positive twin: the notice's own word, nothing to split, the same answer either way
    question = "2019年国庆节放假几天？"
    on = _ask(notices_kb, question, True)
    assert "10月1日至7日" in on.text
    assert on.text == _ask(notices_kb, question, False).text
