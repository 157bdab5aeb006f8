"""Confidence reads how much of the question its first hit's document name supplies: a
question naming the law it asks about is answered from that law with more certainty than
the same question leaving the law unnamed (real law text, keyword retrieval)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import features, load_model, probability
from tests.answer.conftest import with_config


@pytest.mark.integration
def test_the_document_name_supplying_the_subject_raises_confidence(kb):
    named_q = "劳动法规定劳动者每周至少休息几日？"
    plain_q = "劳动者每周至少休息几日？"  # the positive twin: still answered, its title supplies nothing
    named = features(kb, named_q, retrieve(kb, named_q, Mode.BM25))
    plain = features(kb, plain_q, retrieve(kb, plain_q, Mode.BM25))
    assert named.title > 0.0 and plain.title == 0.0
    assert "title" in load_model()["names"]
    # the same evidence with and without the title's share of the question
    assert probability(named) > probability(replace(named, title=0.0))
    assert probability(plain) >= kb.config.min_confidence
    # the best sentence is read as the composer reads it: under its document's name only
    # with answer_doc_name on
    off = features(with_config(kb, answer_doc_name=False), named_q, retrieve(kb, named_q, Mode.BM25))
    assert off.named == off.sentence and named.named >= named.sentence
