"""A layperson asks 「谁承担责任」; a statute writes the verb and its object apart, the object
qualified (「应当承担侵权责任」): with answerability_split_heads the doer asked is read there,
while a clause that never names the object, or a word that is no verb-and-object pair, is not
met."""

from __future__ import annotations

import pytest

from zhiku.verify.answerable import _split_in, _verb_object, check, meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

ON = CheckOptions(split_heads=True)
OFF = CheckOptions(split_heads=False)
ASK = "饲养的动物造成他人损害，谁承担责任？"
# 中华人民共和国民法典 侵权责任编 第一千二百四十五条, verbatim
ANIMALS = ("第一千二百四十五条 饲养的动物造成他人损害的，动物饲养人或者管理人应当承担侵权责任；但是，能够证明"
           "损害是因被侵权人故意或者重大过失造成的，可以不承担或者减轻责任。")
# 最高人民法院关于适用《中华人民共和国民法典》侵权责任编的解释（一） 第二十三条, verbatim
DOGS = ("第二十三条 禁止饲养的烈性犬等危险动物造成他人损害，动物饲养人或者管理人主张不承担责任或者减轻责任的，"
        "人民法院不予支持。")


@pytest.mark.unit
def test_the_doer_of_a_qualified_liability_is_read_with_the_lever():
    """民法典's article names who bears 侵权责任: met with the lever, not without it; the
    interpretation writing 「承担责任」 whole is met either way (the positive twin)."""
    who = next(c for c in pinned(ASK, ON) if c.kind is Kind.QUANTITY)
    assert who.text == "person" and "承担责任" in who.about.split("|")
    assert meets_all(pinned(ASK, ON), ANIMALS, ANIMALS, ON)
    assert not meets_all(pinned(ASK, OFF), ANIMALS, ANIMALS, OFF)
    assert check(ASK, [(ANIMALS, ANIMALS)], opts=ON).ok
    assert meets_all(pinned(ASK, OFF), DOGS, DOGS, OFF) and meets_all(pinned(ASK, ON), DOGS, DOGS, ON)
    assert CheckOptions().split_heads  # on by default


@pytest.mark.unit
def test_only_a_verb_and_its_object_in_one_clause_are_read_apart():
    """承担…责任 within four characters of one clause (「承担连带赔偿责任」), 支付…工资 as 劳动合同法
    第八十五条 writes it (「低于当地最低工资标准支付劳动者工资的」), not 「额外支付劳动者一个月工资」 (five apart); not across a comma, not more than four characters apart, and not a word
    that is no pair of two-character words."""
    assert _split_in("承担责任", "应当承担连带赔偿责任")
    assert _split_in("支付工资", "（二）低于当地最低工资标准支付劳动者工资的；")
    assert not _split_in("支付工资", "额外支付劳动者一个月工资后，可以解除劳动合同")
    assert not _split_in("承担责任", "由用人单位承担，并依法追究责任")  # another clause
    assert not _split_in("承担责任", "承担因此造成的损失责任")  # 因此造成的损失: seven apart
    assert not _split_in("养老金", "养老保险基金")  # three characters: no pair


@pytest.mark.unit
def test_only_a_verb_then_its_noun_is_a_pair():
    """承担责任 and 支付工资 are a verb and its object; 女子单打 (two nouns), 无偿献血 (no noun
    after the verb) and 人口密度 are not, so 「女子网球单打」 does not meet 女子单打 by this reading."""
    assert _verb_object("承担责任") and _verb_object("支付工资")
    assert not _verb_object("女子单打") and not _verb_object("无偿献血") and not _verb_object("人口密度")
    assert not _split_in("女子单打", "获得女子网球单打冠军")
