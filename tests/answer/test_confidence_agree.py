"""Confidence reads whether the keyword and the dense search agree on the first hit, and a
refusal keeps only a small share of the evidence's confidence (a refusal is never a right
answer). Real law text, the bundled embedder."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import REFUSED, features, load_model, probability
from tests.asking import ask


@pytest.mark.integration
def test_keyword_and_dense_agreeing_on_the_first_hit_raises_confidence(kb):
    q = "劳动者每周至少休息几日？"
    r = retrieve(kb, q, Mode.HYBRID)
    first = r.hits[0].sources
    f = features(kb, q, r)
    assert f.top_agree == float(first.get("bm25", (0, 0))[0] == 1 and first.get("dense", (0, 0))[0] == 1)
    # the same hits, the first ranked first by both lists, then second by the dense list
    both = replace(r, hits=[replace(r.hits[0], sources={"bm25": (1, 9.0), "dense": (1, 0.9)}), *r.hits[1:]])
    apart = replace(r, hits=[replace(r.hits[0], sources={"bm25": (1, 9.0), "dense": (2, 0.9)}), *r.hits[1:]])
    agree, differ = features(kb, q, both), features(kb, q, apart)
    assert agree.top_agree == 1.0 and differ.top_agree == 0.0
    assert "top_agree" in load_model()["names"]
    assert probability(agree) > probability(differ)
    # keyword retrieval alone has nothing to agree with
    assert features(kb, q, retrieve(kb, q, Mode.BM25)).top_agree == 0.0


@pytest.mark.integration
def test_a_refusal_keeps_a_small_share_of_the_evidence_confidence(kb):
    """「2023年杭州市最低工资标准是多少？」: the laws state the minimum wage rule, not the
    year's figure of a city; the answerability check refuses it, with a tenth of the
    evidence's confidence. Its twin, the rule itself, is answered with the model's."""
    no = ask(kb, "2023年杭州市最低工资标准是多少？", Mode.BM25)
    steps = {t.stage: t.detail for t in no.trace}
    assert no.refused and steps["answerable"]["ok"] is False
    assert no.confidence == pytest.approx(REFUSED * steps["confidence"]["confidence"], abs=1e-3)
    assert no.low_confidence
    yes = ask(kb, "用人单位支付劳动者的工资不得低于什么标准？", Mode.BM25)
    assert not yes.refused and yes.confidence > no.confidence
