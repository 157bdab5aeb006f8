"""A place a question opens with, outside its asking clause (``answerability_opening_place``):
missed by a block naming another place, met by one naming none; each with a twin still answered."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.verify.answerable import check, decisive
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

DATA = Path(__file__).resolve().parents[1] / "data" / "laws"
GUIDE = (DATA / "其他" / "劳动仲裁和劳动诉讼的攻略.md").read_text(encoding="utf-8")
CONTRACT = (DATA / "社会法" / "劳动合同法(2012-12-28).md").read_text(encoding="utf-8")
ON = CheckOptions(opening_place=True)
OFF = CheckOptions(opening_place=False)


def _line(text: str, word: str) -> str:
    return next(line for line in text.splitlines() if word in line)


@pytest.mark.unit
def test_an_opening_place_is_missed_by_a_block_naming_another_place():
    """The guide's paragraph on 《上海市企业工资支付办法》 (「…加班工资的计算基数为（实发工资-加班工资）* 70%」)
    does not answer a question opening with 广东: refused decisively; the same question opening
    with 上海 is answered. Off, the opening place pins nothing and both are answered."""
    block = _line(GUIDE, "打七折")
    said = next(s for s in block.split("。") if "70%" in s) + "。"
    q = "{}企业没有约定工资的，加班工资的计算基数是多少？"
    no = check(q.format("广东"), [(block, said)], opts=ON)
    assert not no.ok and [c.text for c in no.missing if c.kind is Kind.PLACE] == ["广东"]
    assert all(decisive(c, no.constraints) for c in no.missing)
    assert check(q.format("上海"), [(block, said)], opts=ON).ok
    assert check(q.format("广东"), [(block, said)], opts=OFF).ok
    assert not check(q.format("广东"), [(block, said)]).ok  # the shipped default reads it


@pytest.mark.unit
def test_an_opening_place_is_met_by_a_rule_naming_no_place():
    """劳动合同法 第十九条 names no place: it answers 「深圳劳动合同期限满一年不满三年的，试用期最长多久」
    (a case narrative opening 「江苏省南京市人民检察院指控…」 is read the same way), while a city's
    rule naming 上海市 does not."""
    art = _line(CONTRACT, "第十九条")
    q = "深圳劳动合同期限满一年不满三年的，试用期最长多久？"
    assert [c.about for c in pinned(q, ON) if c.kind is Kind.PLACE] == ["opening"]
    assert not [c for c in pinned(q, OFF) if c.kind is Kind.PLACE]
    assert check(q, [(f"中华人民共和国劳动合同法 {art}", art)], opts=ON).ok
    shanghai = art.replace("第十九条", "第十九条 本市")
    other = check(q, [(f"上海市劳动合同条例 {shanghai}", shanghai)], opts=ON)
    assert not other.ok and any(c.text == "深圳" for c in other.missing)
