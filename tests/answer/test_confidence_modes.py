"""With config ``confidence_dense_model`` on, confidence is read by the model fitted on the kind
of ranking it scores: a hybrid ranking (a dense list among its lists) by the part of
confidence.json fitted on hybrid asks, whose cosines, agreement of the two lists and fused order
it has seen; a keyword-only ranking and a narrative by the keyword model, unchanged by the
setting. Real law text (tests/data/laws), real store, the bundled embedder."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import load_model, model_of, with_vectors
from tests.answer.conftest import with_config
from tests.asking import ask

# 劳动法 第三十八条 (a day of rest each week): both searches find it
REST = "劳动者每周至少休息几日？"


def _steps(ans) -> dict:
    return {t.stage: t.detail for t in ans.trace}


def test_each_kind_of_ranking_has_its_own_fitted_part():
    m = load_model()
    assert "dense" in m and model_of(True) is m["dense"] and model_of(False) is m
    # the hybrid part reads what only a hybrid ranking has: the two lists' agreement
    assert "agree" in m["dense"]["names"]
    assert "agree" not in m["names"] and "answered" in m["dense"]
    # a model without a hybrid part serves both
    flat = {k: v for k, v in m.items() if k != "dense"}
    assert model_of(True, flat) is flat


@pytest.mark.integration
def test_a_hybrid_answer_is_read_by_the_hybrid_part(kb):
    on = with_config(kb, confidence_dense_model=True)
    ans = ask(on, REST, Mode.HYBRID)
    assert not ans.refused and with_vectors(on.config, ans.hits)
    off = ask(with_config(kb, confidence_dense_model=False), REST, Mode.HYBRID)
    # the same evidence and answer, read by the other model: another confidence
    assert off.text == ans.text and [h.chunk.id for h in off.hits] == [h.chunk.id for h in ans.hits]
    assert _steps(off)["confidence"]["features"] == _steps(ans)["confidence"]["features"]
    assert off.confidence != pytest.approx(ans.confidence, abs=1e-4)
    assert not with_vectors(with_config(kb, confidence_dense_model=False).config, ans.hits)


@pytest.mark.integration
def test_a_narrative_is_read_by_the_keyword_model(kb):
    """A case description of more than heading_max_words words: its shares of its many words are
    small however well the evidence matches, so its hybrid ranking keeps the keyword model."""
    story = ("被告人张某某与被害人李某某系同村村民，二人因宅基地边界问题长期发生纠纷。某日上午，张某某在自家院内"
             "修建围墙时，李某某前来阻拦并与其发生争吵，随后双方互相推搡，张某某持木棍击打李某某头部，致其"
             "轻伤二级。案发后张某某主动到派出所投案，如实供述了自己的罪行，并赔偿了被害人的经济损失，取得"
             "被害人的谅解。张某某的行为应当如何定罪处罚？")
    on = with_config(kb, confidence_dense_model=True)
    r = retrieve(on, story, Mode.HYBRID)
    assert len(r.terms) > kb.config.heading_max_words and any("dense" in h.sources for h in r.hits[:10])
    assert not with_vectors(on.config, r.hits, r.terms) and with_vectors(on.config, r.hits, r.terms[:5])
    ans = ask(on, story, Mode.HYBRID)
    steps = _steps(ans)
    off = ask(with_config(kb, confidence_dense_model=False), story, Mode.HYBRID)
    assert off.refused == ans.refused and off.confidence == pytest.approx(ans.confidence, abs=1e-9)
    assert steps["confidence"]["confidence"] == _steps(off)["confidence"]["confidence"]


@pytest.mark.integration
def test_a_keyword_answer_is_read_by_the_keyword_model_either_way(kb):
    """Twin: a keyword-only ranking holds no dense hit, so the setting changes nothing."""
    on = with_config(kb, confidence_dense_model=True)
    ans = ask(on, REST, Mode.BM25)
    assert not ans.refused and not with_vectors(on.config, ans.hits)
    off = ask(with_config(kb, confidence_dense_model=False), REST, Mode.BM25)
    assert off.text == ans.text and off.confidence == pytest.approx(ans.confidence, abs=1e-9)
