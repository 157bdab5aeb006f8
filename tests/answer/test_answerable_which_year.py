"""A which-question asks one of a kind by name (``answerability_which_kind``), and a year is
read beside what is asked of it (``answerability_year_beside``); each with a twin still answered."""

from __future__ import annotations


import pytest

from zhiku.verify.answerable import check, decisive, meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned
from tests.answer.conftest import law_text, line_with, sentence_with

GUIDE = law_text("其他/劳动仲裁和劳动诉讼的攻略.md")


@pytest.mark.unit
def test_a_which_question_is_answered_by_naming_one_of_its_kind():
    """「上海市的哪个规章规定了加班工资的计算基数？」 asks one 规章 by name: the guide's sentence
    naming 《上海市企业工资支付办法》 answers it; a sentence of the same paragraph that names no
    rule (「…到手工资减去加班工资后再…」) does not, decisively, as 上海市 pins one instance. Off,
    the kind is read as the word asked after it, whose absence only lowers the confidence."""
    block = line_with(GUIDE, "打七折")
    q = "上海市的哪个规章规定了加班工资的计算基数？"
    on = CheckOptions(which_kind=True)
    assert [(c.text, c.about) for c in pinned(q, on) if c.kind is Kind.FOCUS] == [("规章", "which")]
    named = sentence_with(block, "打七折")
    assert check(q, [(block, named)], opts=on).ok
    none = sentence_with(block, "能够证明")
    no = check(q, [(block, none)], opts=on)
    assert not no.ok and [c.text for c in no.missing] == ["规章"] and decisive(no.missing[0], no.constraints, on)
    kindless = CheckOptions(which_kind=False)
    off = check(q, [(block, none)], opts=kindless)
    assert not any(decisive(c, off.constraints, kindless) for c in off.missing)


@pytest.mark.unit
def test_a_kind_described_is_no_kind_named():
    """With ``answerability_which_named`` a which-question's kind is met by its word only where
    a name stands in the word's clause: the news snippet 「…在美国最高法院6月24日推翻确立堕胎权的判例…」
    (RGB zh) describes the overturned case and names none — refused, decisively, as the question
    names 美国最高法院 — where the kind's word alone met it before. The report naming
    《1973年罗伊诉韦德案》 still answers, and so does the guide's sentence naming the Shanghai rule."""
    q = "美国最高法院推翻了哪个堕胎判例"
    described = ("Jun 25, 2022 ... 在美国最高法院6月24日推翻确立堕胎权的判例，否认堕胎权属于宪法权利后，"
                 "堕胎权的支持者和反对者正在华盛顿国会山上的联邦最高法院外以及全美多个 ...")
    named = ("Jun 24, 2022 ... 美国最高法院6月24日作出裁决，推翻了具有里程碑意义的《1973年罗伊诉韦德案》"
             "（Roe v. Wade）的裁决，认为联邦宪法没有赋予堕胎的权利，是否允许堕胎 ...")
    kind, on = CheckOptions(which_kind=True, which_named=False), CheckOptions(which_kind=True, which_named=True)
    assert check(q, [(described, described)], opts=kind).ok  # the word 判例 met it
    no = check(q, [(described, described)], opts=on)
    assert not no.ok and [c.text for c in no.missing] == ["判例"] and decisive(no.missing[0], no.constraints, on)
    assert check(q, [(named, named)], opts=on).ok
    block = line_with(GUIDE, "打七折")
    assert check("上海市的哪个规章规定了加班工资的计算基数？", [(block, sentence_with(block, "打七折"))], opts=on).ok


@pytest.mark.unit
def test_a_which_question_of_a_rule_is_not_decided_by_its_kind():
    """「生产经营单位的主要负责人对本单位安全生产负有哪些职责？」 pins no instance or name: a kind
    missed only lowers the confidence (a weak mismatch), as before."""
    q = "生产经营单位的主要负责人对本单位安全生产负有哪些职责？"
    on = CheckOptions(which_kind=True)
    v = check(q, [("安全生产法 第五条 生产经营单位的主要负责人是本单位安全生产第一责任人。",
                   "生产经营单位的主要负责人是本单位安全生产第一责任人。")], opts=on)
    assert all(not decisive(c, v.constraints, on) for c in v.missing)


@pytest.mark.unit
def test_a_year_must_stand_beside_the_figure_asked_of_it():
    """The guide's 案例1 opens 「2008年5月1日，程序员李某入职某网络公司，…约定月工资6000元+奖金」 and
    then tells 张某's case (「…约定工资每月5000元+提成」) with no year: 张某's wage answers no
    question of 2008 with ``answerability_year_beside`` (decisively); 李某's, in the sentence
    naming 2008, still does. Off, the year anywhere in the block meets it."""
    block = "\n".join(line for line in GUIDE.splitlines() if "程序员李某" in line or "超市销售人员" in line)
    on = CheckOptions(year_beside=True)
    zhang = sentence_with(line_with(GUIDE, "超市销售人员"), "5000元")
    q = "2008年超市销售人员张某约定的月工资是多少钱？"
    no = check(q, [(block, zhang)], opts=on)
    assert not no.ok and [c.text for c in no.missing] == ["2008"] and decisive(no.missing[0], no.constraints, on)
    assert check(q, [(block, zhang)]).ok
    li = sentence_with(line_with(GUIDE, "程序员李某"), "6000元")
    assert check("2008年程序员李某约定的月工资是多少钱？", [(block, li)], opts=on).ok


@pytest.mark.unit
def test_a_sort_of_the_kind_is_named_by_its_compound():
    """「简体中文文案推荐用哪种引号？」 asks a sort of 引号: the style guide's heading 「简体中文使用直角引号」
    (tests/data/real/fresh5) names one by the compound 直角引号, which the question does not say,
    so it answers with ``answerability_which_named`` on; the RGB snippet's 「…推翻确立堕胎权的判例」
    (的 before the kind's word) still names none."""
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[1] / "data/real/fresh5/中文文案排版指北.md").read_text(encoding="utf-8")
    lines = guide.splitlines()
    heading = next(line.lstrip("# ").strip() for line in lines if "直角引号" in line)
    block = lines[0].lstrip("# ") + "\n" + heading  # the section under its document's title
    on = CheckOptions(which_kind=True, which_named=True)
    q = "简体中文文案推荐用哪种引号？"
    assert check(q, [(block, heading)], opts=on).ok
    described = heading.replace("直角引号", "的引号")  # the kind's word after 的: no sort named
    no = check(q, [(block, described)], opts=on)
    assert not no.ok and [c.text for c in no.missing] == ["引号"]
    described = "在美国最高法院6月24日推翻确立堕胎权的判例，否认堕胎权属于宪法权利后"
    assert not check("美国最高法院推翻了哪个堕胎判例", [(described, described)], opts=on).ok


@pytest.mark.unit
def test_the_composer_reads_a_sort_named_in_the_blocks_heading():
    """Choosing the sentence to quote, a which-question's kind named in the block's first line
    (its title and heading, 「…简体中文使用直角引号」) meets it for every sentence of the block
    (「用法：」 under that heading), as it did before ``answerability_which_named``; a block whose
    heading names none does not (the link line 「- [英语](README.md)」 under the guide's title)."""
    on = CheckOptions(which_kind=True, which_named=True)
    q = "简体中文文案推荐用哪种引号？"
    cons = pinned(q, on)
    under = "中文文案排版指北 简体中文使用直角引号\n用法：\n> 「老师，『有条不紊』的『紊』是什么意思？」"
    assert meets_all(cons, "用法：", under, on)
    plain = "中文文案排版指北 简体中文的用法\n用法：\n> 「老师，『有条不紊』的『紊』是什么意思？」"
    assert not meets_all(cons, "用法：", plain, on)
