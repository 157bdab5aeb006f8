"""A provision names its subject in full once and states the value in the next sentence by
the subject's last word: the quantity asked is met there (answerability_stems), while a
subject the cited block does not hold whole is still refused."""

from __future__ import annotations

import pytest

from zhiku.verify.answerable import check, decisive, meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

# 中华人民共和国献血法 (1997-12-29) 第二条, verbatim
BLOOD = "中华人民共和国献血法 第二条 国家实行无偿献血制度。国家提倡十八周岁至五十五周岁的健康公民自愿献血。"
AGE_SENTENCE = "国家提倡十八周岁至五十五周岁的健康公民自愿献血。"
ASK = "多大年纪的人可以去参加无偿献血？"


@pytest.mark.unit
def test_the_age_sentence_answers_by_the_subjects_last_word():
    """The age is stated of 献血 in the sentence after the one naming 无偿献血: answered, and
    the composer may pick that sentence; with the lever off it is refused."""
    age = next(c for c in pinned(ASK) if c.kind is Kind.QUANTITY)
    assert age.text == "age" and "年纪" not in age.about.split("|")  # 多大年纪 asks the age: no subject
    assert check(ASK, [(BLOOD, AGE_SENTENCE)]).ok
    assert meets_all(pinned(ASK), AGE_SENTENCE, BLOOD)
    off = check(ASK, [(BLOOD, AGE_SENTENCE)], opts=CheckOptions(stems=False))
    assert not off.ok and off.missing == (age,)
    assert not meets_all(pinned(ASK), AGE_SENTENCE, BLOOD, opts=CheckOptions(stems=False))


@pytest.mark.unit
def test_a_subject_the_block_does_not_hold_whole_is_refused():
    """The age sentence cited without the sentence naming 无偿献血 says 献血 only, not which
    donation: decisively refused; so is a block naming 无偿献血 beside a sentence stating the
    age of something else (劳动法 第十五条, verbatim), which holds no 献血."""
    alone = check(ASK, [(AGE_SENTENCE, AGE_SENTENCE)])
    assert not alone.ok and alone.missing[0].kind is Kind.QUANTITY and decisive(alone.missing[0], alone.constraints)
    other = "国家实行无偿献血制度。禁止用人单位招用未满十六周岁的未成年人。"
    assert not check(ASK, [(other, "禁止用人单位招用未满十六周岁的未成年人。")]).ok


@pytest.mark.unit
def test_only_a_compound_of_two_words_has_a_last_word():
    """最低工资 → 工资, but a three-character word (养老金, 开发商) keeps its whole: 老金 and 发商
    name nothing; 「个人养老金每年最多能存多少钱」 is not met by a sentence saying 老金."""
    from zhiku.verify.answerable import _stem

    assert (_stem("无偿献血"), _stem("最低工资")) == ("献血", "工资")
    assert _stem("养老金") == _stem("开发商") == _stem("经济补偿金") == ""
