"""The offline composer's preference for a sentence meeting what decides a refusal when none
meets every pin (config ``answer_decisive_pins``), on the DolphinScheduler hardware page of
tests/data/real/fresh6 (see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks, words
from zhiku.answer.extractive import compose
from zhiku.answer.respond import _decides
from zhiku.chunk.context import block_text
from zhiku.retrieve.segment import query_terms
from zhiku.types import Hit
from zhiku.verify.answerable import meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned

pytestmark = pytest.mark.unit

PAGE = "fresh6/DolphinScheduler软硬件环境建议.md"


def _compose(question: str, holding: list[str], decisive: bool) -> str:
    """The offline answer from the page's chunks holding each of ``holding``, in that order (best
    first, as retrieval ranked them)."""
    chunks = [next(c for c in real_chunks(PAGE, whole_path=True) if w in c.text and c.kind != "parent")
              for w in holding]
    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate(chunks)]
    opts = CheckOptions()
    cons = pinned(question, opts)
    text, _ = compose(query_terms(words()(question)), hits, lambda t: 1.0,
                      meets=lambda s, b: meets_all(cons, s, b, opts),
                      decides=_decides(cons, opts) if decisive else None)
    return text


def test_the_figure_asked_is_preferred_over_the_situation_s_words():
    # the note names 部署 and 生产环境 (the question's situation) and no size; the table row states
    # the memory (8 GB+) under 生产环境 without 部署: none meets every pin
    question = "生产环境部署 DolphinScheduler 的服务器最少要多大内存？"
    holding = ["以上建议配置为部署 DolphinScheduler 的最低配置", "**内存** 8 GB+"]
    assert "8 GB" in _compose(question, holding, decisive=True)
    assert "8 GB" not in _compose(question, holding, decisive=False)


def test_a_sentence_meeting_every_pin_is_chosen_either_way():
    # the positive twin: asked without the situation, the row meets every pin and is quoted both ways
    question = "DolphinScheduler 生产环境的服务器内存要多大？"
    holding = ["以上建议配置为部署 DolphinScheduler 的最低配置", "**内存** 8 GB+"]
    for decisive in (True, False):
        assert "8 GB" in _compose(question, holding, decisive)

