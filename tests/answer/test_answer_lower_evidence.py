"""The offline answer composed once more from the candidates below the evidence when the
answerability check refused it for a thing the question names (config ``answer_lower_evidence``),
on the real Arthas FAQ of tests/data/real: the entry 「### Arthas 能否跟踪 native 函数」 answers
「不能。」, a word, and ranks below longer entries sharing the question's other words."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zhiku.ask import stages as s
from zhiku.ask.query import Query
from zhiku.ask.run import Run
from zhiku.ask.search import retrieve
from zhiku.ask.workers import Ranked
from zhiku.types import TraceStep

from tests.answer.conftest import REAL, with_config
from tests.conftest import copied_kb

pytestmark = pytest.mark.integration

FAQ = "Arthas常见问题.md"


@pytest.fixture(scope="module")
def faq_kb(tmp_path_factory):
    """The Arthas FAQ alone, keyword-only."""
    return copied_kb(tmp_path_factory, REAL, [FAQ], "arthas")


@pytest.fixture(scope="module")
def log_kb(tmp_path_factory):
    """The Sa-Token changelog alone (tests/data/real/fresh), keyword-only."""
    return copied_kb(tmp_path_factory, REAL / "fresh", ["Sa-Token更新日志.md"], "satoken")


def _answer(kb, question: str, below: str = "", at: int = 6, **config):
    """The answer of the draft → verify → finish stages to ``question`` over its real keyword
    ranking, where the candidate whose heading holds ``below`` is moved to rank ``at`` + 1 (under
    the five passages the answer is composed from), as a dense ranking placed the short entry."""
    k = with_config(kb, **config)
    r = retrieve(k, question)
    hits = list(r.hits)
    if below:
        moved = next(h for h in hits if below in " ".join(h.chunk.section_path))
        hits.remove(moved)
        hits.insert(at, moved)
    ranked = Ranked(replace(r, hits=hits), tuple(hits))
    run, q = Run(k), Query(question, use_cache=False)
    c = s.Confidence(0.5, "", False)
    gen = s.draft(run, {}, q, ranked, c)
    try:
        while True:
            next(gen)
    except StopIteration as stop:
        drafted = stop.value
    note: dict = {}
    ans = s.finish(run, note, q, ranked, s.verify(run, {}, drafted), c)
    return replace(ans, trace=(*ans.trace, TraceStep("finish", 0.0, note)))


def test_the_entry_under_the_evidence_that_names_what_is_asked_answers(faq_kb):
    question = "Arthas 能不能跟踪 native 方法？"
    off = _answer(faq_kb, question, "native", answer_lower_evidence=0)
    assert off.refused  # composed from the five passages above it, none names native
    on = _answer(faq_kb, question, "native", answer_lower_evidence=5)
    assert not on.refused
    assert "不能" in on.text and any("native" in " ".join(c.section_path) for c in on.citations)


def test_a_thing_no_entry_names_is_still_refused(faq_kb):
    # the same shape asked of a language the FAQ never names: no lower entry names it either
    ans = _answer(faq_kb, "Arthas 能不能跟踪 Python 方法？", answer_lower_evidence=5)
    assert ans.refused
    tried = [t.detail["lower_evidence"] for t in ans.trace if "lower_evidence" in t.detail]
    assert tried and tried[0]["refused"]  # composed again from the lower entries, and refused


def test_a_figure_the_evidence_lacks_is_not_looked_for_below(faq_kb):
    # a figure asked (a phone number) is what an unanswerable question asks: lower entries state
    # figures of other things (versions, ports), so the refusal stands without a second draft
    off = _answer(faq_kb, "Arthas 的商业技术支持热线电话是多少？", answer_lower_evidence=0)
    ans = _answer(faq_kb, "Arthas 的商业技术支持热线电话是多少？", answer_lower_evidence=5)
    assert off.refused and ans.refused
    assert not any("lower_evidence" in t.detail for t in ans.trace)


def test_an_answer_from_the_evidence_is_the_same_with_the_setting_on(faq_kb):
    question = "Arthas 能不能跟踪 native 方法？"
    first = _answer(faq_kb, question, "native", at=0, answer_lower_evidence=0)
    again = _answer(faq_kb, question, "native", at=0, answer_lower_evidence=5)
    assert not first.refused and "不能" in first.text
    assert (again.text, again.refused, again.confidence) == (first.text, first.refused, first.confidence)


def test_a_release_named_and_its_date_are_looked_for_below(log_kb):
    # the release the question names is missing with the date asked: the entry under its
    # heading 「v1.44.0 @2025-6-7」, placed below the evidence, states both
    question = "Sa-Token v1.44.0 是哪天发布的？"
    off = _answer(log_kb, question, "v1.44.0", answer_lower_evidence=0)
    on = _answer(log_kb, question, "v1.44.0", answer_lower_evidence=5)
    assert off.refused
    assert not on.refused and "2025-6-7" in on.text

