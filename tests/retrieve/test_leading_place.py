"""The place a question opens with is pinned only with ``answerability_leading_place`` on, and
the setting reaches every reader of the pins (the answerability check, the confidence feature
counting them, the composer's choice of a sentence meeting them): a case narrative's opening
「…市人民检察院指控」 names the prosecutor's city, not what the article must state (real 刑法
text, keyword retrieval)."""

from __future__ import annotations

import pytest

from zhiku.ask import flow
from zhiku.ask.query import Query
from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import features
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned
from tests.answer.conftest import with_config

CASE = ("南京市栖霞区人民检察院指控被告人张某某故意伤害他人身体，致人轻伤，其行为已触犯《中华人民共和国刑法》"
        "××××之规定，构成××，特提请法院依法惩处。\n这种行为适用刑法哪一条？")


@pytest.mark.integration
def test_a_case_narratives_city_pins_nothing_with_the_setting_off(criminal_kb):
    """Shipped, ``answerability_opening_place`` pins the city leniently (met by an article naming
    no place); with both readings off it pins nothing."""
    off = CheckOptions(opening_place=False)
    assert not any(c.kind is Kind.PLACE for c in pinned(CASE, off))
    assert [(c.kind, c.text, c.about) for c in pinned(CASE)] == [(Kind.PLACE, "南京市", "opening")]
    assert [(c.kind, c.text) for c in pinned(CASE, opts=CheckOptions(leading_place=True))] == [(Kind.PLACE, "南京市")]
    on = with_config(criminal_kb, answerability_leading_place=True)
    r = retrieve(criminal_kb, CASE, Mode.BM25)
    assert features(with_config(criminal_kb, answerability_opening_place=False), CASE, r).pinned == 0.0
    assert features(on, CASE, r).pinned == 1.0
    shipped = flow.ask(criminal_kb, Query(CASE, mode=Mode.BM25, use_cache=False))
    assert not shipped.refused and "第二百三十四条" in shipped.text
    assert {t.stage: t.detail for t in shipped.trace}["answerable"]["pinned"] == ["place:南京市"]
    assert {t.stage: t.detail for t in shipped.trace}["answerable"]["missing"] == []
    # the twin with the setting on: the city is pinned, no article names it, the ask refuses
    twin = flow.ask(on, Query(CASE, mode=Mode.BM25, use_cache=False))
    assert twin.refused and "南京市" in twin.text
    assert {t.stage: t.detail for t in twin.trace}["answerable"]["missing"] == ["南京市"]
