"""A question's short word the documents write in a longer form holding its characters in
order (大写 in 大小写, 重启 in 重新启动), answered from zTree's API help pages
(tests/data/real/fresh2/zTree-API-*.html, see tests/data/real/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.answer.reading import term_spreads
from zhiku.retrieve.segment import normalise
from tests.conftest import copied_kb

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real" / "fresh2"
PAGES = ("zTree-API-setting.check.chkStyle.html", "zTree-API-setting.async.url.html", "zTree-API-fn.zTree.init.html")


@pytest.fixture(scope="module")
def ztree_kb(tmp_path_factory):
    """zTree's three API help pages, with the bundled embedder's vectors (hybrid, as served)."""
    return copied_kb(tmp_path_factory, REAL, PAGES, "ztree", dense=True)


def _ask(kb, question: str, spreads: bool):
    from tests.answer.conftest import with_config
    from zhiku.ask.flow import ask
    from zhiku.ask.query import Query

    return ask(with_config(kb, answer_term_spreads=spreads), Query(question, use_cache=False))


def test_a_short_word_no_block_holds_counts_by_the_longer_word_spreading_it():
    # the texts read, normalised by the composer
    assert term_spreads(["重启", "broker"], [normalise("而不需重新启动Broker服务节点")]) == ["重新启动", "broker"]
    assert term_spreads(["大写"], ["请注意大小写，不要改变"]) == ["大小写"]
    # a word the text holds whole, a longer word that is no dictionary word, a Latin word: as they are
    assert term_spreads(["属性", "大写", "radio"], ["属性有效", "大的小写字"]) == ["属性", "大写", "radio"]


def test_the_case_question_quotes_the_pages_warning_on_case(ztree_kb):
    question = "chkStyle的值能写成大写吗？"
    on = _ask(ztree_kb, question, True)
    assert "大小写" in on.text and on.citations[0].doc_path == PAGES[0]
    assert "大小写" not in _ask(ztree_kb, question, False).text  # off: 大写 counts nowhere


def test_a_question_in_the_pages_own_words_is_answered_alike(ztree_kb):
    # its positive twin: every word stands in the page as asked, nothing to spread
    question = "chkStyle设为radio时哪个属性有效？"
    on = _ask(ztree_kb, question, True)
    assert "radioType" in on.text
    assert on.text == _ask(ztree_kb, question, False).text
