"""When asked of an effect (「…什么时候生效」) is answered by the condition a manual states it
happens on, the question's verb right after 时/后/前 (config ``answerability_effect_times``): a
weak mismatch, answered at a lower confidence; read on the real zTree API page of
tests/data/real/fresh2 (setting.async.url: 「[setting.async.enable = true 时生效]」)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zhiku.verify.answerable import check, decisive
from zhiku.verify.options import CheckOptions

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit

PAGE = "fresh2/zTree-API-setting.async.url.html"
ON = replace(CheckOptions(), effect_times=True)


def _said() -> tuple[str, str]:
    """The block stating when the URL applies, and the sentence an answer quotes from it."""
    chunk = next(c for c in real_chunks(PAGE, whole_path=True) if "时生效" in c.text)
    said = next(s for s in chunk.text.split("\n") if "时生效" in s)
    return chunk.text, said


def test_the_condition_an_effect_happens_on_answers_when():
    block, said = _said()
    question = "setting.async.url什么时候生效？"
    off = check(question, [(block, said)])
    assert not off.ok and [c.text for c in off.missing] == ["when"]  # a date was wanted
    on = check(question, [(block, said)], opts=ON)
    # a weak mismatch: answered at a lower confidence, never a refusal
    assert not on.ok and all(c.unworded for c in on.missing)
    assert not any(decisive(c, on.constraints, ON) for c in on.missing)


def test_another_effect_the_text_states_no_condition_of_is_still_missed():
    # the same shape asked of an effect the page names no condition for (废弃): still missing
    block, said = _said()
    v = check("setting.async.url什么时候废弃？", [(block, said)], opts=ON)
    assert not v.ok and any(c.text == "when" and not c.unworded for c in v.missing)


def test_the_verb_before_its_condition_says_what_happens_then_not_when():
    # 「生效时…」 says what happens when it applies; it does not say when it does
    said = "setting.async.url 生效时，zTree 会向该地址请求子节点数据。"
    v = check("setting.async.url什么时候生效？", [(said, said)], opts=ON)
    assert not v.ok and any(c.text == "when" and not c.unworded for c in v.missing)


def test_a_date_asked_is_read_as_before():
    # the positive twin: a question a date answers is met by the date either way
    said = "本办法自2019年1月1日起生效。"
    for opts in (CheckOptions(), ON):
        assert check("本办法什么时候生效？", [(said, said)], opts=opts).ok
