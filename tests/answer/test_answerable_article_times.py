"""When asked of a rule (什么时候) is answered by a numbered provision that states the time of the
act in the statute's own words (案件受理费 for 仲裁费: ``answerability_article_times``): a weak
mismatch, answered at a lower confidence. A provision stating no time and a name the evidence does
not hold still refuse (real law text, verbatim from the laws corpus and tests/data/laws)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import article_in, law_kb, law_text, with_config
from zhiku.verify.answerable import check, decisive, meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned

# 仲裁委员会仲裁收费办法 (1995-07-28) 第三条, 第四条 (its first paragraph), 第十二条
FEE_LAW = ("# 仲裁委员会仲裁收费办法\n\n"
           "第三条 案件受理费用于给付仲裁员报酬、维持仲裁委员会正常运转的必要开支。\n\n"
           "第四条 申请人应当自收到仲裁委员会受理通知书之日起15日内，按照仲裁案件受理费表的规定预交案件受理费。"
           "被申请人在提出反请求的同时，应当按照仲裁案件受理费表的规定预交案件受理费。\n\n"
           "第十二条 仲裁委员会受理仲裁申请后，仲裁庭组成前，申请人撤回仲裁申请，或者当事人自行达成和解协议并撤回"
           "仲裁申请的，案件受理费应当全部退回。\n")
FEE = "仲裁委员会仲裁收费办法 " + FEE_LAW.split("\n\n")[2]
OFF = CheckOptions(article_times=False)


def _labour(label: str) -> str:
    return "中华人民共和国劳动合同法 " + article_in(law_text("社会法/劳动合同法(2012-12-28).md"), label).strip()


def _cited(block: str) -> list[tuple[str, str]]:
    return [(block, block.split(" ", 2)[-1])]


def _weak(question: str, block: str, opts: CheckOptions = CheckOptions()) -> bool:
    """Answered, perhaps at a lower confidence: nothing missing decides."""
    v = check(question, _cited(block), opts=opts)
    return v.ok or not any(decisive(c, v.constraints, opts) for c in v.missing)


@pytest.mark.unit
def test_a_time_the_statute_states_of_the_act_in_its_own_words():
    """「什么时候要交仲裁费」: 第四条 states the time (自收到…受理通知书之日起15日内) of 预交案件受理费,
    not of 仲裁费 — a weak mismatch with the reading on, a refusal off. Asked in the statute's
    words, the time stands beside them and the question is met either way (the twin that must
    not change)."""
    ask = "仲裁申请受理以后，什么时候要交仲裁费？"
    v = check(ask, _cited(FEE))
    assert not v.ok and [(c.text, c.unworded) for c in v.missing] == [("when", True)]
    assert _weak(ask, FEE) and not _weak(ask, FEE, OFF)
    worded = "什么时候要预交案件受理费？"
    assert check(worded, _cited(FEE)).ok and check(worded, _cited(FEE), opts=OFF).ok


@pytest.mark.unit
def test_no_time_a_named_subject_or_unnumbered_text_still_refuses():
    """A provision stating no time at all (劳动合同法 第三十一条, on overtime) does not answer when;
    a company the evidence does not name (腾讯) refuses; the same sentence quoted from unnumbered
    text (no 第…条: a story, a guide) is not read so; a date asked (几月几号) is read as before."""
    assert not _weak("公司什么时候可以安排加班？", _labour("第三十一条"))
    named = check("腾讯的仲裁费什么时候交？", _cited(FEE))
    assert any(c.text == "腾讯" and decisive(c, named.constraints) for c in named.missing)
    text = FEE.split(" ", 2)[-1]
    assert not _weak("仲裁申请受理以后，什么时候要交仲裁费？", f"仲裁费怎么交 {text}")
    assert not _weak("仲裁费要在几月几号之前交？", FEE)



@pytest.mark.unit
def test_the_composer_reads_neither():
    """The composer's preference for a sentence meeting what the question pins is not moved by the
    reading: it only softens a refusal."""
    ask = "仲裁申请受理以后，什么时候要交仲裁费？"
    assert not meets_all(pinned(ask), FEE.split(" ", 2)[-1], FEE)


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
    off = ask(with_config(kb, answerability_article_times=False), q)
    assert off.refused and "时间" in off.text
