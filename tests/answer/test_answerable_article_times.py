"""When asked of a rule (什么时候) is answered by a numbered provision that states the time of the
act in the statute's own words (案件受理费 for 仲裁费: ``answerability_article_times``) or the
condition or event the duty asked follows (「…完成登记，应当…核发…证书」: ``answerability_condition_times``):
weak mismatches, answered at a lower confidence. A provision stating neither, a condition that is
the asked act itself, a sentence missing a word of the question and a name the evidence does not
hold still refuse (real law text, verbatim from the laws corpus and tests/data/laws)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import answered_weakly, article_in, cited_alone, law_kb, law_text, with_config
from zhiku.verify.answerable import check, condition_time, decisive, meets_all, period_stated, rule_time, time_stated
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned

# 仲裁委员会仲裁收费办法 (1995-07-28) 第三条, 第四条 (its first paragraph), 第十二条; 不动产登记暂行条例
# (2019-03-24) 第二十一条; 中华人民共和国公司法 (2023-12-29) 第二十九条 (its first sentence)
FEE_LAW = ("# 仲裁委员会仲裁收费办法\n\n"
           "第三条 案件受理费用于给付仲裁员报酬、维持仲裁委员会正常运转的必要开支。\n\n"
           "第四条 申请人应当自收到仲裁委员会受理通知书之日起15日内，按照仲裁案件受理费表的规定预交案件受理费。"
           "被申请人在提出反请求的同时，应当按照仲裁案件受理费表的规定预交案件受理费。\n\n"
           "第十二条 仲裁委员会受理仲裁申请后，仲裁庭组成前，申请人撤回仲裁申请，或者当事人自行达成和解协议并撤回"
           "仲裁申请的，案件受理费应当全部退回。\n")
FEE = "仲裁委员会仲裁收费办法 " + FEE_LAW.split("\n\n")[2]
ISSUE = ("不动产登记暂行条例 第二十一条 登记事项自记载于不动产登记簿时完成登记。"
         "不动产登记机构完成登记，应当依法向申请人核发不动产权属证书或者登记证明。")
FOUNDING = "中华人民共和国公司法 第二十九条 设立公司，应当依法向公司登记机关申请设立登记。"
# 最高人民法院关于审理侵害知识产权民事案件适用惩罚性赔偿的解释 (2021-03-02) 第二条 (its second sentence)
APPEAL = ("最高人民法院关于审理侵害知识产权民事案件适用惩罚性赔偿的解释 第二条 原告在一审法庭辩论终结前增加惩罚性赔偿"
          "请求的，人民法院应当准许；在二审中增加惩罚性赔偿请求的，人民法院可以根据当事人自愿的原则进行调解，调解不成的，"
          "告知当事人另行起诉。")
OFF = CheckOptions(article_times=False, condition_times=False)


def _labour(label: str) -> str:
    return "中华人民共和国劳动合同法 " + article_in(law_text("社会法/劳动合同法(2012-12-28).md"), label).strip()



@pytest.mark.unit
def test_a_time_the_statute_states_of_the_act_in_its_own_words():
    """「什么时候要交仲裁费」: 第四条 states the time (自收到…受理通知书之日起15日内) of 预交案件受理费,
    not of 仲裁费 — a weak mismatch with the reading on, a refusal off. Asked in the statute's
    words, the time stands beside them and the question is met either way (the twin that must
    not change)."""
    ask = "仲裁申请受理以后，什么时候要交仲裁费？"
    v = check(ask, cited_alone(FEE))
    assert not v.ok and [(c.text, c.unworded) for c in v.missing] == [("when", True)]
    assert answered_weakly(ask, FEE) and not answered_weakly(ask, FEE, OFF)
    worded = "什么时候要预交案件受理费？"
    assert check(worded, cited_alone(FEE)).ok and check(worded, cited_alone(FEE), opts=OFF).ok


@pytest.mark.unit
def test_no_time_a_named_subject_or_unnumbered_text_still_refuses():
    """A provision stating no time at all (劳动合同法 第三十一条, on overtime) does not answer when;
    a company the evidence does not name (腾讯) refuses; the same sentence quoted from unnumbered
    text (no 第…条: a story, a guide) is not read so; a date asked (几月几号) is read as before."""
    assert not answered_weakly("公司什么时候可以安排加班？", _labour("第三十一条"))
    named = check("腾讯的仲裁费什么时候交？", cited_alone(FEE))
    assert any(c.text == "腾讯" and decisive(c, named.constraints) for c in named.missing)
    text = FEE.split(" ", 2)[-1]
    assert not answered_weakly("仲裁申请受理以后，什么时候要交仲裁费？", f"仲裁费怎么交 {text}")
    assert not answered_weakly("仲裁费要在几月几号之前交？", FEE)


@pytest.mark.unit
def test_the_condition_a_duty_follows_says_when():
    """「不动产登记证书什么时候发」: 第二十一条 says once registration is done (完成登记，应当…核发…证书),
    「开股东会，什么时候要通知股东」: 公司法 第六十四条's 「召开股东会会议，应当于…通知全体股东」 —
    with ``answerability_condition_times`` a weak mismatch, off a refusal (the meeting's 十五日前 is
    ``answerability_event_periods``' reading, off)."""
    meeting = "中华人民共和国公司法 " + article_in(law_text("民法商法/公司法(2023-12-29).md"), "第六十四条").strip()
    for ask, block in (("不动产登记证书什么时候发？", ISSUE), ("开股东会，什么时候要通知股东？", meeting)):
        assert [c.text for c in pinned(ask) if c.kind.value == "quantity"] == ["when"]
        v = check(ask, cited_alone(block))
        assert not v.ok and [(c.text, c.unworded) for c in v.missing] == [("when", True)]
        assert answered_weakly(ask, block) and not answered_weakly(ask, block, OFF)


@pytest.mark.unit
def test_a_condition_naming_the_act_or_missing_a_word_does_not_say_when():
    """「用人单位安排加班的，应当…支付加班费」 says what follows overtime, not when 「公司什么时候可以安排加班」
    (加班 is the condition); 「设立公司，应当…申请设立登记」 does not say when a company registers its
    staff for social insurance (社保 is not in it); the duty is read in its modal's clause only —
    「…可以…进行调解，调解不成的，告知当事人另行起诉」 is another condition's, and says nothing of
    when to sue for damages after a beating; a company the evidence does not name refuses."""
    overtime = _labour("第三十一条")
    assert not answered_weakly("公司什么时候可以安排加班？", overtime)
    assert not answered_weakly("公司什么时候必须给新员工办社保登记？", FOUNDING)
    assert not answered_weakly("被打了，什么时候可以去法院起诉要赔偿？", APPEAL)
    named = check("腾讯的不动产登记证书什么时候发？", cited_alone(ISSUE))
    assert any(c.text == "腾讯" and decisive(c, named.constraints) for c in named.missing)


@pytest.mark.unit
def test_the_composer_reads_neither():
    """The composer's preference for a sentence meeting what the question pins is not moved by
    either reading: they only soften a refusal."""
    for ask, block in (("仲裁申请受理以后，什么时候要交仲裁费？", FEE), ("不动产登记证书什么时候发？", ISSUE)):
        assert not meets_all(pinned(ask), block.split(" ", 2)[-1], block)


@pytest.mark.unit
def test_the_readings_of_what_a_provision_states_share_one_guard():
    """Each reading of what a numbered provision states of its own subject reads only the kind
    it is for, and only from a numbered provision: a time asked (什么时候) of a rule — a place or
    a year pinned asks a fact of one instance, not read — and a period asked (多少天) whatever the
    question pins. 第四条 states 自收到…通知书之日起15日内 of 预交案件受理费, 第二十一条 when the
    certificate is issued."""
    def read(ask, block):
        cons = pinned(ask)
        c = next(c for c in cons if c.kind.value == "quantity")
        said = block.split(" ", 1)[-1]
        return [f(c, block, said, cons) for f in (time_stated, rule_time, condition_time, period_stated)]

    assert read("仲裁费什么时候交？", FEE) == [True, True, False, False]
    assert read("不动产登记证书什么时候发？", ISSUE) == [False, False, True, False]
    for ask in ("北京的仲裁费什么时候交？", "2019年的仲裁费什么时候交？"):
        assert read(ask, FEE) == [False] * 4
    assert read("北京的不动产登记证书什么时候发？", ISSUE) == [False] * 4
    for ask in ("仲裁费多少天内交？", "北京的仲裁费多少天内交？", "2019年的仲裁费多少天内交？"):
        assert read(ask, FEE) == [False, False, False, True]
    # the same sentences in unnumbered text: none reads them
    assert read("仲裁费什么时候交？", "仲裁费怎么交 " + FEE.split(" ", 2)[-1]) == [False] * 4
    assert read("仲裁费多少天内交？", "仲裁费怎么交 " + FEE.split(" ", 2)[-1]) == [False] * 4


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return law_kb(tmp_path_factory, (("行政法规", "仲裁委员会仲裁收费办法.md", FEE_LAW),))


@pytest.mark.integration
def test_the_ask_answers_from_the_article_stating_the_time(kb):
    """The whole offline ask over the fee rules: 第四条 is quoted and the answer stands, at a lower
    confidence; with the reading off it is refused for want of the time asked."""
    from zhiku.ask import Mode, Query, ask

    q = Query("仲裁申请受理以后，什么时候要交仲裁费？", mode=Mode.BM25, use_cache=False)
    on = ask(kb, q)
    assert not on.refused and "之日起15日内" in on.text
    assert any(c.article == "第四条" for c in on.citations)
    off = ask(with_config(kb, answerability_article_times=False, answerability_condition_times=False), q)
    assert off.refused and "时间" in off.text
