"""When asked of a rule (什么时候) is answered by a statute in its own terms — from an event
(之日起, 期满), at once or at any time — not by a date: read as a weak mismatch in a numbered
provision (config ``answerability_statute_times``), answered at a lower confidence; a named
subject the evidence misses still refuses (real law text, verbatim: tests/data/laws)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import answered_weakly, cited_alone
from zhiku.verify.answerable import check, decisive, meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

# 中华人民共和国劳动法 (2018-12-29) 第二十三条; 中华人民共和国劳动合同法 (2012-12-28) 第七条, 第三十一条
END = "中华人民共和国劳动法 第二十三条 劳动合同期满或者当事人约定的劳动合同终止条件出现，劳动合同即行终止。"
BEGIN = "中华人民共和国劳动合同法 第七条 用人单位自用工之日起即与劳动者建立劳动关系。用人单位应当建立职工名册备查。"
OVERTIME = ("中华人民共和国劳动合同法 第三十一条 用人单位应当严格执行劳动定额标准，不得强迫或者变相强迫劳动者加班。"
            "用人单位安排加班的，应当按照国家有关规定向劳动者支付加班费。")



@pytest.mark.unit
def test_a_rule_states_when_from_an_event():
    """「劳动合同什么时候终止」: 劳动法 第二十三条 says at expiry (期满), 「劳动关系从什么时候开始
    建立」: 劳动合同法 第七条 from the first day of work (自用工之日起) — no date, no N日内. With
    the reading on they are answered (a weak mismatch); off, the missing time refuses."""
    for ask, block in (("劳动合同什么时候终止？", END), ("劳动关系从什么时候开始建立？", BEGIN)):
        assert [c.text for c in pinned(ask) if c.kind is Kind.QUANTITY] == ["when"]
        v = check(ask, cited_alone(block))
        assert not v.ok and [(c.text, c.unworded) for c in v.missing] == [("when", True)]
        assert answered_weakly(ask, block)
        assert not answered_weakly(ask, block, CheckOptions(statute_times=False))


@pytest.mark.unit
def test_a_named_subject_or_no_time_still_refuses():
    """The twin naming a company the evidence does not (腾讯) is refused as before; a provision
    stating no time at all (第三十一条, on overtime) does not answer when; the same sentence
    quoted from unnumbered text (no 第…条: a story, a guide) is not read so."""
    named = check("腾讯的劳动合同什么时候终止？", cited_alone(END))
    assert not named.ok and any(c.text == "腾讯" and decisive(c, named.constraints) for c in named.missing)
    assert not answered_weakly("公司什么时候可以安排加班？", OVERTIME)
    text = END.split(" ", 2)[-1]
    assert not answered_weakly("劳动合同什么时候终止？", f"劳动合同终止的情形 {text}")


@pytest.mark.unit
def test_the_composer_reads_the_statute_forms_as_before():
    """The composer's preference for a sentence meeting what the question pins is not moved by
    the statute's forms of when (they only soften a refusal): 期满 alone does not meet it."""
    ask = "劳动合同什么时候终止？"
    cons = pinned(ask)
    assert not meets_all(cons, END.split(" ", 2)[-1], END)


# 中华人民共和国公司法 (2018-10-26) 第四十一条 (its first sentence), 第一百一十条; 中华人民共和国劳动合同法 (2012-12-28) 第三十七条
MEETING = ("中华人民共和国公司法 第四十一条 召开股东会会议，应当于会议召开十五日前通知全体股东；但是，公司章程另有规定"
           "或者全体股东另有约定的除外。")
BOARD = "中华人民共和国公司法 第一百一十条 董事会每年度至少召开两次会议，每次会议应当于会议召开十日前通知全体董事和监事。"
NOTICE = ("中华人民共和国劳动合同法 第三十七条 劳动者提前三十日以书面形式通知用人单位，可以解除劳动合同。"
          "劳动者在试用期内提前三日通知用人单位，可以解除劳动合同。")


@pytest.mark.unit
def test_a_rule_states_when_as_a_period_before_an_event():
    """「开股东会什么时候要通知股东」: 第四十一条 says fifteen days before the meeting (会议召开十五日前),
    「董事会开会什么时候通知董事」: 第一百一十条 ten days before — the time relative to the event it
    names (``answerability_event_periods``, off by default): on, a weak mismatch, answered at a
    lower confidence; off, the missing time refuses. A company the evidence does not name still refuses, and how long
    ahead with no event named (劳动合同法 第三十七条's 提前三十日, the worker's notice, read for
    「公司要辞退我，应该什么时候通知我？」) is not read so."""
    from dataclasses import replace

    # the duty's condition (「召开股东会会议，应当…」) is ``answerability_condition_times``' reading: off here
    plain = CheckOptions(condition_times=False)
    on = replace(plain, event_periods=True)
    for ask, block in (("开股东会，什么时候要通知股东？", MEETING), ("董事会开会，什么时候要通知董事？", BOARD)):
        v = check(ask, cited_alone(block), opts=on)
        assert not v.ok and [(c.text, c.unworded) for c in v.missing] == [("when", True)]
        assert answered_weakly(ask, block, on) and not answered_weakly(ask, block, plain)
    named = check("腾讯的股东会什么时候通知股东？", cited_alone(MEETING))
    assert any(c.text == "腾讯" and decisive(c, named.constraints) for c in named.missing)
    assert not answered_weakly("公司要辞退我，应该什么时候通知我？", NOTICE, on)
    assert not answered_weakly("公司什么时候可以安排加班？", OVERTIME, on)  # no time stated: still refused
