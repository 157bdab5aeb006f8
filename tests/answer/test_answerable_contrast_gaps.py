"""A sibling qualifier the user writes beside its noun where the document puts a word between
them, on real documents (tests/data/real, see its SOURCE.md; config
``answerability_contrast_gaps``): 「农村污水处理设施」 is the provincial standard's
「农村生活污水处理设施」, though the same block names 「城镇污水处理厂」; a qualifier the text states
only of the sibling still refuses, gap or no gap."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, contrast_gap, contrast_met
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import contrasts

pytestmark = pytest.mark.unit

STANDARD = "fresh14/DB44-2208-2019农村生活污水处理排放标准.pdf"


def _chunk(name: str, *words: str):
    """The first chunk of tests/data/real/NAME holding every word, its block text and the
    sentence holding the first."""
    chunk = next(c for c in real_chunks(name, whole_path=True) if all(w in c.text for w in words))
    said = next(s for s in chunk.text.replace("。", "。\n").splitlines() if words[0] in s)
    return block_text(chunk), said


def test_a_word_between_the_qualifier_and_its_noun_still_states_the_qualifier():
    # clause 4 一般要求: 4.3 sends villages near a town to 城镇污水处理厂, 4.4 is on 农村生活污水处理设施
    block, said = _chunk(STANDARD, "农村生活污水处理设施排泥", "城镇污水处理厂")
    question = "农村污水处理设施排出的泥要怎么处置？"
    assert [c.text for c in contrasts(question)] == ["农村|污水处理"]
    assert "农村生活污水处理设施" in block and "农村污水处理" not in block
    assert check(question, [(block, said)], opts=CheckOptions(contrast_gaps=True)).ok
    # off, only the words side by side meet it: the block's 城镇污水处理厂 refuses
    off = check(question, [(block, said)], opts=CheckOptions(contrast_gaps=False))
    assert not off.ok and [c.text for c in off.missing] == ["农村|污水处理"]


def test_the_gap_never_helps_a_qualifier_the_text_states_only_of_its_sibling():
    # 上海市住房公积金管理若干规定 第三条 names 城镇私营企业 and no 农村 one
    block, said = _chunk("fresh/上海市住房公积金管理若干规定.md", "城镇私营企业")
    question = "农村私营企业的职工要缴住房公积金吗？"
    pins = [c.text for c in contrasts(question)]
    assert pins and pins[0].startswith("农村|")
    for gaps in (True, False):
        assert not contrast_met(pins[0], block, gaps)
    # its twin, the member the text does state, is met either way
    assert contrast_met("城镇|私营企业", block, True) and contrast_met("城镇|私营企业", block, False)


def test_a_gap_naming_the_sibling_or_longer_than_two_characters_is_no_gap():
    group = ("男", "女")
    assert contrast_gap("女", "职工", "女性职工", group)
    # 宪法's 「实行男女同工同酬」: the gap after 男 is the sibling 女
    assert not contrast_gap("男", "同工", "国家保护妇女的权利和利益，实行男女同工同酬", group)
    # the standard's 「农村居民生活活动所产生的污水」: 居民生活活动 is four characters
    assert not contrast_gap("农村", "活动", "农村居民生活活动所产生的污水", ("城镇", "农村"))
    assert contrast_gap("农村", "污水处理", "现有农村生活污水处理设施", ("城镇", "农村"))
