"""With config ``confidence_dense_model`` on, confidence is read by the model fitted on the kind
of ranking it scores: a hybrid ranking (a dense list among its lists) by the part of
confidence.json fitted on hybrid asks, whose cosines, agreement of the two lists and fused order
it has seen; a keyword-only ranking and a narrative by the keyword model, unchanged by the
setting. The part gives the confidence shown; whether to refuse stays with the keyword model, the
vetoes and the second look. Real law text (tests/data/laws), real store, the bundled embedder."""

from __future__ import annotations

import pytest

from zhiku.ask import Query
from zhiku.ask import ask as ask_query
from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import HYBRID, features, load_model, model_of, shown_confidence, with_vectors
from tests.answer.conftest import with_config
from tests.asking import ask

# 劳动法 第三十八条 (a day of rest each week): both searches find it
REST = "劳动者每周至少休息几日？"
# a layperson's words for 民法典 第一千零八十四条 (who raises a child after a divorce): the dense
# veto refuses its evidence and its second look answers it (tests/answer/test_second_look.py)
CHILD = "跟老婆分开以后，娃归谁带？"
MARS = "火星基地的氧气配给标准是多少升每天？"


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


@pytest.mark.integration
def test_the_refusal_is_decided_as_before_and_the_hybrid_part_shows(kb):
    """The paraphrase the dense veto's second look answers: the hybrid part reads its evidence
    under ``min_confidence`` (it once refused it there, before the veto, so the second look never
    ran), but the refusal is decided on the keyword model's probability, the veto and the second
    look as with the setting off: answered from 婚姻家庭编 with the same text, the second look
    lifting the same veto; the confidence shown is the hybrid part's."""
    strict = ask_query(with_config(kb, veto_quote=0.99), Query(CHILD, use_cache=False))
    near = _steps(strict)["confidence"]["quote_cosine"]  # the second look lifts the veto from here
    look = with_config(kb, veto_quote=near - 1e-4)
    ans = ask_query(with_config(look, confidence_dense_model=True), Query(CHILD, use_cache=False))
    off = ask_query(with_config(look, confidence_dense_model=False), Query(CHILD, use_cache=False))
    step, before = _steps(ans)["confidence"], _steps(off)["confidence"]
    assert not off.refused and before["veto_lifted"] and HYBRID not in before
    assert not ans.refused and step["veto_lifted"] and step["vetoed"] == before["vetoed"]
    assert ans.text == off.text and any("婚姻家庭" in c.doc_path for c in ans.citations)
    assert step[HYBRID] < kb.config.min_confidence <= step["vetoed"]
    assert step["confidence"] == pytest.approx(step[HYBRID], abs=1e-4)
    assert ans.confidence != pytest.approx(off.confidence, abs=1e-4)


@pytest.mark.integration
def test_a_question_the_laws_do_not_answer_is_refused_either_way(kb):
    """Twin: the question about Mars is refused with the setting on as off (the veto's refusal
    stands), and the refusal shows no more than the lower of the two readings."""
    on = ask_query(with_config(kb, confidence_dense_model=True), Query(MARS, use_cache=False))
    off = ask_query(with_config(kb, confidence_dense_model=False), Query(MARS, use_cache=False))
    assert on.refused and off.refused
    step = _steps(on)["confidence"]
    assert on.confidence <= off.confidence + 1e-9 and on.confidence <= step[HYBRID] + 1e-9


@pytest.mark.unit
def test_what_is_shown_of_each_reading():
    """Without the hybrid part's reading the decided probability is shown; with it, an answer
    shows the part's probability and a refusal the lower of the two."""
    assert shown_confidence(0.6, False, {}) == 0.6
    assert shown_confidence(0.6, False, {HYBRID: 0.2}) == 0.2
    assert shown_confidence(0.1, True, {HYBRID: 0.4}) == 0.1
    assert shown_confidence(0.3, True, {HYBRID: 0.2}) == 0.2


@pytest.mark.integration
def test_a_named_clause_found_exactly_is_read_by_the_keyword_model(kb):
    """「劳动合同法第三十九条规定了什么？」 names its article, found exactly (the first hit the clause
    lookup's): the part fitted on hybrid asks never saw such a lookup, so its hybrid ranking keeps
    the keyword model, and the setting changes nothing; its twin without the article is read by
    the part (REST, above)."""
    q = "劳动合同法第三十九条规定了什么？"
    on = with_config(kb, confidence_dense_model=True)
    r = retrieve(on, q, Mode.HYBRID)
    assert r.exact and r.hits[0].source == "clause" and any("dense" in h.sources for h in r.hits[:10])
    assert not with_vectors(on.config, r.hits, r.terms)
    ans = ask(on, q, Mode.HYBRID)
    off = ask(with_config(kb, confidence_dense_model=False), q, Mode.HYBRID)
    assert HYBRID not in _steps(ans)["confidence"]
    assert off.text == ans.text and off.confidence == pytest.approx(ans.confidence, abs=1e-9)


@pytest.mark.integration
def test_a_dense_hit_counts_among_the_first_ten_only(kb):
    """With vectors means what :func:`zhiku.retrieve.fusion.has_dense` says of the first ten
    hits, which the ``has_dense`` feature reads too: a hit dense search found, put tenth after
    nine keyword-only hits, counts; put eleventh, it does not."""
    on = with_config(kb, confidence_dense_model=True)
    hybrid = retrieve(on, REST, Mode.HYBRID)
    keyword = [h for h in retrieve(on, REST, Mode.BM25).hits if "dense" not in h.sources]
    found = next(h for h in hybrid.hits if "dense" in h.sources)
    assert with_vectors(on.config, hybrid.hits) and features(on, REST, hybrid).has_dense == 1.0
    assert len(keyword) >= 10 and not with_vectors(on.config, keyword[:10])
    assert with_vectors(on.config, [*keyword[:9], found])
    assert not with_vectors(on.config, [*keyword[:10], found])
