"""A quoted source that opens by turning (但是, 不过, 然而, 可是) brings the sentence before it, what
it turns from (config ``answer_turns``), on real documents (tests/data/real, see its SOURCE.md):
the SemVer FAQ's 「但是，在语义化版本号之前增加前缀 “v” 是…常用做法」 with 「“v1.2.3” 并不是的一个语义化的
版本号」 before it, and Sa-Token's configuration page 「但是 —— 有的场景下…」 with the sentence it
turns from; a source not turning is quoted as before."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.answer.around import TURN, around
from zhiku.answer.extractive import Sentence, split_sentences
from zhiku.types import Hit

pytestmark = pytest.mark.unit


def _source(name: str, opening: str):
    """The hit of the chunk of tests/data/real/NAME holding a sentence opening with
    ``opening``, and that sentence as the answer's source."""
    chunk = next(c for c in real_chunks(name, whole_path=True)
                 if any(t.startswith(opening) for _, t in split_sentences(c.text)))
    pos, text = next((p, t) for p, t in split_sentences(chunk.text) if t.startswith(opening))
    return [Hit(chunk, 1.0, "bm25")], Sentence(0, pos, text, 1.0)


def _texts(picked):
    return [s.text for s in picked]


def test_a_source_turning_from_the_sentence_before_it_brings_that_sentence():
    hits, src = _source("fresh14/语义化版本2.0.0规范.md", "但是，在语义化版本号之前增加前缀")
    question = "v1.2.3 这种带 v 前缀的写法算不算语义化版本号？"
    on = _texts(around([src], hits, question, turns=True))
    assert on[0] == src.text and on[1].startswith("“v1.2.3” 并不是")
    assert _texts(around([src], hits, question, turns=False)) == [src.text]


def test_the_same_on_another_document():
    hits, src = _source("fresh/Sa-Token框架配置.md", "但是 —— 有的场景下")
    question = "登录之前能不能使用 Token-Session？"
    on = _texts(around([src], hits, question, turns=True))
    assert len(on) == 2 and "伪造的 Token 是无法获取" in on[1]
    assert _texts(around([src], hits, question, turns=False)) == [src.text]


def test_a_source_that_does_not_turn_is_quoted_alone():
    hits, src = _source("fresh14/语义化版本2.0.0规范.md", "最简单的做法是以 0.1.0")
    question = "项目刚开始开发时初始版本号建议用多少？"
    assert _texts(around([src], hits, question, turns=True)) == [src.text]
    assert TURN.match("但是，在语义化版本号之前增加前缀") and TURN.match("不过目前")
    assert not TURN.match("但凡有下列情形之一的") and not TURN.match("最简单的做法是以 0.1.0")
