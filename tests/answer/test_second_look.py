"""How close the sentence an answer quotes is to the question (verify/shown.py): the second
look the dense veto takes before refusing evidence the fitted model would answer from
(``veto_quote``), and the confidence signal after answering (``quote_cosine``, ``near``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.ask import Query, ask
from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import HYBRID, after_features
from zhiku.verify.shown import quote_cosine, second_look
from tests.answer.conftest import with_config

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
# a layperson's words for what 民法典 第一千零八十四条 rules on (who raises a child after a
# divorce): 老婆, 分开, 娃, 带 are in no article, so the dense veto's term coverage is low
CHILD = "跟老婆分开以后，娃归谁带？"
MARS = "火星基地的氧气配给标准是多少升每天？"
PET = "家里的猫突然不爱吃饭了怎么办？"


def _article(name: str) -> str:
    text = (LAWS / "民法典" / "婚姻家庭编.md").read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if line.startswith(name))


def _confidence_step(ans) -> dict:
    return next(t.detail for t in ans.trace if t.stage == "confidence")


def _compose_step(ans) -> dict:
    return next(t.detail for t in ans.trace if t.stage == "compose")


@pytest.mark.integration
def test_the_article_that_answers_is_closer_than_one_beside_it(kb):
    """Asked at what age a man may marry, 第一千零四十七条 (the marriage ages, quoted
    verbatim) is closer to the question than 第一千零八十七条 of the same law (dividing the
    common property at a divorce), and reaches ``veto_quote``; the article label is not read.
    A question about something the laws do not hold is far from a rule of them."""
    q = "男的要满多少岁才能去领结婚证？"
    right, wrong = _article("第一千零四十七条"), _article("第一千零八十七条")
    near, beside = quote_cosine(kb, q, right), quote_cosine(kb, q, wrong)
    assert near > beside
    assert near >= kb.config.veto_quote
    assert near == pytest.approx(quote_cosine(kb, q, right.split(" ", 1)[1]), abs=1e-6)
    assert quote_cosine(kb, MARS, _article("第一千零四十七条")) < kb.config.veto_quote


@pytest.mark.integration
def test_the_second_look_reads_what_the_composer_would_quote(kb):
    """Over 第一千零八十四条 (raising a child after a divorce, quoted verbatim) the offline
    composer's sentence is close to the layperson's question about it; over the same
    evidence, the question about Mars is far."""
    r = retrieve(kb, CHILD, Mode.HYBRID)
    hits = [h for h in r.hits if h.chunk.article == "第一千零八十四条"] or \
        [h for h in retrieve(kb, "离婚后子女由父或者母直接抚养", Mode.HYBRID).hits if h.chunk.article == "第一千零八十四条"]
    assert hits
    assert second_look(kb, CHILD, r.terms, hits[:1], False)[0] >= kb.config.veto_quote
    mars = retrieve(kb, MARS, Mode.HYBRID)
    assert second_look(kb, MARS, mars.terms, hits[:1], False)[0] < kb.config.veto_quote


@pytest.mark.integration
def test_a_vetoed_paraphrase_is_answered_when_its_quote_is_close_enough(kb):
    """The dense veto refuses the layperson's question (its words are in no article) though
    the fitted model would answer, and the second look records how close the quote is; with
    ``veto_quote`` at that cosine the model's probability stands and it is answered from
    婚姻家庭编 (the answer the second look composed, not composed again), just above it the refusal stands, and with the second look off (0) it is
    refused without one, as before."""
    strict = ask(with_config(kb, veto_quote=0.99), Query(CHILD, use_cache=False))
    step = _confidence_step(strict)
    assert strict.refused and "vetoed" in step and "veto_lifted" not in step
    near = step["quote_cosine"]  # rounded to 4 places in the trace
    ans = ask(with_config(kb, veto_quote=near - 1e-4), Query(CHILD, use_cache=False))
    lifted = _confidence_step(ans)
    assert lifted["veto_lifted"] and not ans.refused
    # the model's probability stands, decides and is shown (config confidence_dense_model off,
    # the default); with it on the part fitted on hybrid asks is shown and the decision the same
    assert lifted["vetoed"] == pytest.approx(step["vetoed"]) and lifted["vetoed"] >= kb.config.min_confidence
    assert lifted["confidence"] == pytest.approx(step["vetoed"])
    shown = ask(with_config(kb, veto_quote=near - 1e-4, confidence_dense_model=True),
                Query(CHILD, use_cache=False))
    part = _confidence_step(shown)
    assert part["veto_lifted"] and not shown.refused
    assert part["confidence"] == pytest.approx(part[HYBRID], abs=1e-4)
    assert any("婚姻家庭" in c.doc_path for c in ans.citations)
    # the offline answer the second look composed is the draft: composed once, the same
    # answer as the ask whose veto never fired composes itself
    assert _compose_step(ans)["reused"]
    unvetoed = ask(with_config(kb, dense_veto=False), Query(CHILD, use_cache=False))
    assert not _compose_step(unvetoed)["reused"] and unvetoed.text == ans.text
    assert ask(with_config(kb, veto_quote=near + 0.001), Query(CHILD, use_cache=False)).refused
    off = ask(with_config(kb, veto_quote=0.0), Query(CHILD, use_cache=False))
    assert off.refused and "quote_cosine" not in _confidence_step(off)


@pytest.mark.integration
@pytest.mark.parametrize("question", [MARS, PET, "两车追尾发生交通事故，责任比例是怎么认定的？"])
def test_a_question_the_laws_do_not_answer_stays_refused(kb, question):
    """The same second look at questions the test laws do not answer: the quote is far from
    the question (a traffic accident's liability quoted from a labour law's rule on accidents
    at work comes closest), the veto's refusal stands."""
    ans = ask(kb, Query(question, use_cache=False))
    step = _confidence_step(ans)
    assert ans.refused
    assert step["quote_cosine"] < kb.config.veto_quote and "veto_lifted" not in step


@pytest.mark.integration
def test_the_quote_cosine_is_read_after_answering_only_when_switched_on(kb):
    """With ``quote_cosine`` on, the answer's ``finish`` step records the cosine of its
    quote (what the confidence model's ``near`` reads); off (the default) it is not read."""
    q = "用人单位可以直接辞退怀孕的女职工吗？"

    def after(k):
        ans = ask(k, Query(q, use_cache=False))
        return next(t.detail for t in ans.trace if t.stage == "finish")["after"]

    assert 0.8 < after(with_config(kb, quote_cosine=True))["cosine"] < 1.0
    assert "cosine" not in after(kb)


@pytest.mark.unit
def test_near_is_neutral_unless_read():
    """``near`` counts steps of 0.02 from 0.90 within ±3; a cosine not read (0) is neutral,
    so a model fitted with it gives an answer without it the log-odds of the others."""
    assert after_features(False, 1.0, 0)["near"] == 0.0
    assert after_features(False, 1.0, 0, cosine=0.94)["near"] == pytest.approx(2.0)
    assert after_features(False, 1.0, 0, cosine=0.86)["near"] == pytest.approx(-2.0)
    assert after_features(False, 1.0, 0, cosine=0.70)["near"] == -3.0


# 中华人民共和国电子商务法 (2018-08-31) 第三十九条, verbatim: its first sentence sets up the
# rating system, its second says what a platform may not do
RATINGS = ("第三十九条 电子商务平台经营者应当建立健全信用评价制度，公示信用评价规则，为消费者提供对平台内销售的商品"
           "或者提供的服务进行评价的途径。电子商务平台经营者不得删除消费者对其平台内销售的商品或者提供的服务的评价。")


@pytest.mark.integration
def test_the_second_look_reads_the_closest_of_the_first_sentences(kb):
    """「…平台能把我的差评删掉吗？」 is answered by 第三十九条's second sentence: read with
    ``veto_quote_sentences`` 2 (shipped) the quote's cosine is that sentence's, closer than the
    opening sentence alone; the question about Mars stays far from both."""
    q = "我在网店给了个差评，购物平台能把我的差评删掉吗？"
    first, second = RATINGS.split("。")[:2]
    one, two = quote_cosine(kb, q, RATINGS), quote_cosine(kb, q, RATINGS, kb.config.veto_quote_sentences)
    assert kb.config.veto_quote_sentences == 2
    assert one == pytest.approx(quote_cosine(kb, q, first + "。"), abs=1e-5)
    assert two == pytest.approx(max(one, quote_cosine(kb, q, second + "。")), abs=1e-5)
    assert two > one
    assert quote_cosine(kb, MARS, RATINGS, 2) < kb.config.veto_quote
