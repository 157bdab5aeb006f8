"""The confidence after answering reads how much of the answer's text the question's own words make
up (``on_point``, config ``confidence_on_point``): the sentence stating the thing asked repeats the
question's words around its answer, a passage that only touches the question holds them once in
much else. Real law articles (tests/data/laws), real store, the shipped model."""

from __future__ import annotations

import pytest

from zhiku.answer.finish import on_point_shown
from zhiku.answer.respond import Verified
from zhiku.ask import Query, ask
from zhiku.ask.search import Mode
from zhiku.config import Config
from zhiku.verify.confidence import ON_POINT, after_features, answered, load_model, on_point
from tests.answer.conftest import with_config

AGE = "法定结婚年龄男女各是多少岁？"
# 民法典 第一千零四十七条 states the ages asked; 第一千零五十条 shares 结婚, 男, 女 and says another thing
STATES = "第一千零四十七条 结婚年龄，男不得早于二十二周岁，女不得早于二十周岁。[1]"
TOUCHES = "第一千零五十条 登记结婚后，按照男女双方约定，女方可以成为男方家庭的成员，男方可以成为女方家庭的成员。[1]"


@pytest.mark.unit
def test_the_article_stating_what_is_asked_is_more_on_point_than_one_touching_it():
    assert on_point(AGE, STATES) > on_point(AGE, TOUCHES) > 0
    # the markers are no part of the text read
    assert on_point(AGE, STATES) == on_point(AGE, STATES.replace("[1]", ""))
    assert on_point(AGE, "") == 0.0


@pytest.mark.unit
def test_a_latin_word_counts_whole_case_ignored():
    """A name or a figure in Latin letters counts as one word (CVPR2022), not letter by letter:
    the line of a workshop page that repeats it once among English words is not on point; the
    sentence naming the event and where it is held is."""
    asked = "CVPR2022在哪举办"
    held = on_point(asked, "cvpr2022将在新奥尔良举办。")
    workshop = on_point(asked, "CVPR2022 Biometrics Workshop - Pet Biometric Challenge. 赛事类型. 奖金.")
    assert held > 3 * workshop > 0


@pytest.mark.unit
def test_the_shipped_weight_raises_the_answer_on_point_and_lowers_the_other():
    m = load_model()
    assert "on_point" in m["answered"]["names"]
    w = m["answered"]["weights"][m["answered"]["names"].index("on_point")]
    assert w > 0
    on, off = on_point(AGE, STATES), on_point(AGE, TOUCHES)
    assert answered(0.6, False, 1.0, 0, on_point=on) > answered(0.6, False, 1.0, 0, on_point=off)
    # at the neutral share, and when it was not read, the probability is kept
    assert answered(0.6, False, 1.0, 0, on_point=ON_POINT) == pytest.approx(answered(0.6, False, 1.0, 0))
    assert after_features(False, 1.0, 0)["on_point"] == 0.0


def _after(kb, question: str) -> dict:
    ans = ask(kb, Query(question, mode=Mode.BM25, use_cache=False))
    assert not ans.refused
    return next(t.detail for t in ans.trace if t.stage == "finish")["after"]


@pytest.mark.integration
def test_the_ask_records_the_share_of_its_answer(laws_kb):
    after = _after(laws_kb, "结婚年龄男女各是多少？")
    assert 0 < after["on_point"] <= 1
    assert after_features(**after)["on_point"] == pytest.approx(after["on_point"] - ON_POINT)


@pytest.mark.integration
def test_nothing_is_recorded_when_off_or_for_a_narrative(laws_kb):
    """Twins: with the setting off the share is not read (neutral); nor for a case narrative of
    more words than heading_max_words, whose many words make up most of any quote, right or wrong."""
    assert "on_point" not in _after(with_config(laws_kb, confidence_on_point=False), "结婚年龄男女各是多少？")
    narrative = ("张某与李某于二零一九年在老家相识，两人交往三年后打算结婚，张某当时二十一周岁，李某十九周岁，"
                 "双方父母都同意，村里也办了酒席，但是到民政局登记的时候工作人员说不能登记，张某的父亲很生气，"
                 "认为村里别人家的孩子都是这样办的，后来两人一起去外地打工，又生了一个孩子，孩子的户口一直上不了，"
                 "请问法律规定的结婚年龄男女各是多少，他们的婚姻有没有效力？")
    assert "on_point" not in _after(laws_kb, narrative)


@pytest.mark.unit
def test_a_quote_is_read_and_a_model_s_own_prose_is_not():
    """The weight was fitted on the offline composer's quotes; a model's answer restates the
    question as it likes (「法定结婚年龄男女各是多少岁？男方二十二周岁…」), so its share is not read.
    Twin: the same text quoted by the composer is read."""
    cfg, terms = Config(), ["法定", "结婚", "年龄", "男女"]
    quoted = on_point_shown(cfg, terms, AGE, Verified(STATES, ()))
    assert quoted == {"on_point": round(on_point(AGE, STATES), 4)}
    assert on_point_shown(cfg, terms, AGE, Verified(STATES, (), generator="llm")) == {}
    assert on_point_shown(cfg.model_copy(update={"confidence_on_point": False}), terms, AGE, Verified(STATES, ())) == {}
