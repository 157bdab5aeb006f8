"""The confidence after answering reads whether the answer states the kind of value the question
asks (``stated``, config ``confidence_stated``): an age asked, an answer stating an age. Real law
articles (tests/data/laws), real store, the shipped model."""

from __future__ import annotations

import pytest

from zhiku.answer.finish import shown_features
from zhiku.answer.respond import Verified
from zhiku.ask import Query, ask
from zhiku.ask.search import Mode
from zhiku.verify.answerable import Answerability
from zhiku.verify.confidence import after_features, answered, load_model
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned
from tests.answer.conftest import with_config

AGE = "法定结婚年龄男女各是多少岁？"
# 民法典 第一千零四十七条 states the ages asked; 第一千零五十条 shares 结婚, 男, 女 and states no age
STATES = "第一千零四十七条 结婚年龄，男不得早于二十二周岁，女不得早于二十周岁。[1]"
TOUCHES = "第一千零五十条 登记结婚后，按照男女双方约定，女方可以成为男方家庭的成员，男方可以成为女方家庭的成员。[1]"
# a question asking no kind of value: nothing to state
WHO = "夫妻在婚姻家庭中的地位是怎样的？"
EQUAL = "第一千零五十五条 夫妻在婚姻家庭中地位平等。[1]"


def _shown(kb, question: str, text: str, on: bool = True) -> dict:
    """What finish reads of an answer ``text`` to ``question`` (the verdict: what it pins, met),
    config ``confidence_stated`` ``on`` or off."""
    kb = with_config(kb, confidence_stated=on)
    verdict = Answerability(True, pinned(question, CheckOptions.from_config(kb.config)))
    return shown_features(kb, ["法定", "结婚", "年龄", "男女"], Verified(text, ()), [], verdict, question)


def _confidence(shown: dict, p: float = 0.6) -> float:
    return answered(p, False, 1.0, 0, **{k: v for k, v in shown.items() if k != "cosine"})


@pytest.mark.integration
def test_the_answer_stating_the_age_asked_is_more_confident_than_its_wrong_twin(laws_kb):
    right, wrong = _shown(laws_kb, AGE, STATES), _shown(laws_kb, AGE, TOUCHES)
    assert right["stated"] is True and wrong["stated"] is False
    assert _confidence(right) > _confidence(wrong)
    # the stated weight is part of that gap: read off, the gap is smaller (on_point still reads)
    r_off, w_off = _shown(laws_kb, AGE, STATES, False), _shown(laws_kb, AGE, TOUCHES, False)
    assert "stated" not in r_off and "stated" not in w_off
    assert _confidence(right) - _confidence(wrong) > _confidence(r_off) - _confidence(w_off) > 0


@pytest.mark.integration
def test_a_question_asking_no_kind_of_value_states_nothing(laws_kb):
    """Twin of the above: a question asking how things stand, not a figure, gets no stated mark
    from an answer that holds the thing asked, and keeps its probability for that part."""
    shown = _shown(laws_kb, WHO, EQUAL)
    assert shown["asks"] is False and shown["stated"] is False
    assert after_features(False, 1.0, 0, stated=shown["stated"])["stated"] == 0.0


@pytest.mark.unit
def test_the_shipped_weight_raises_an_answer_stating_the_kind_asked():
    m = load_model()
    names, weights = m["answered"]["names"], m["answered"]["weights"]
    assert "stated" in names and weights[names.index("stated")] > 0
    assert answered(0.5, False, 1.0, 0, stated=True) > answered(0.5, False, 1.0, 0, stated=False)
    # not read (the setting off, or an ask before it): neutral
    assert answered(0.5, False, 1.0, 0) == pytest.approx(answered(0.5, False, 1.0, 0, stated=False))
    assert after_features(False, 1.0, 0)["stated"] == 0.0


@pytest.mark.integration
def test_the_ask_records_it_in_the_finish_step(laws_kb):
    """The full keyword ask over the test laws records the mark for the figure asked (多少, answered
    from 第一千零四十七条) with the setting on, and nothing with it off (the default)."""
    def after(kb) -> dict:
        ans = ask(kb, Query("结婚年龄男女各是多少？", mode=Mode.BM25, use_cache=False))
        assert not ans.refused
        return next(t.detail for t in ans.trace if t.stage == "finish")["after"]

    assert after(with_config(laws_kb, confidence_stated=True))["stated"] is True
    assert "stated" not in after(laws_kb)
