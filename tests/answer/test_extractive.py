"""The offline composer: lists come with their items, weak second sources stay out."""

from __future__ import annotations

import pytest

from zhiku.answer.extractive import compose
from zhiku.types import Chunk, Hit

pytestmark = pytest.mark.unit

# 医师法 (2021-08-20) 第二十三条 and 第三十五条, shortened.
DUTIES = ("第二十三条 医师在执业活动中履行下列义务：\n（一）树立敬业精神，恪守职业道德，履行医师职责；\n"
          "（二）遵循临床诊疗指南，遵守临床技术操作规范和医学伦理规范等；\n"
          "（三）尊重、关心、爱护患者，依法保护患者隐私和个人信息；")
STUDENTS = ("第三十五条 参加临床教学实践的医学生，应当在执业医师监督、指导下参与临床诊疗活动。"
            "医疗卫生机构应当为其提供相应的条件。")


def _hit(i: int, article: str, text: str, score: float) -> Hit:
    c = Chunk(f"c{i}", "d", "行政法/医师法.md", "医师法", str(i), ("第三章 执业规则",), article, text, 0, len(text))
    return Hit(c, score, "rrf")


def _terms():
    return ["医师", "执业", "活动", "履行", "义务"]


def test_a_list_lead_in_brings_its_items():
    hits = [_hit(1, "第二十三条", DUTIES, 0.033)]
    text, cites = compose(_terms(), hits, lambda t: 1.0)
    assert "履行下列义务：（一）树立敬业精神" in text and "（三）尊重、关心、爱护患者" in text
    assert text.count("（二）") == 1 and len(cites) == 1


def test_a_second_source_that_covers_little_is_not_cited():
    hits = [_hit(1, "第二十三条", DUTIES, 0.0330), _hit(2, "第三十五条", STUDENTS, 0.0328)]
    text, cites = compose(_terms(), hits, lambda t: 1.0)
    assert [c.article for c in cites] == ["第二十三条"]
    assert "医学生" not in text


def test_another_articles_list_item_is_not_quoted_alone():
    # 民法典 第一千零四十七条 and an item of 第一千零五十一条 (the cases of an invalid marriage)
    age = "第一千零四十七条 结婚年龄，男不得早于二十二周岁，女不得早于二十周岁。"
    invalid = "第一千零五十一条 有下列情形之一的，婚姻无效：\n（一）重婚；\n（二）有禁止结婚的亲属关系；\n（三）未到法定婚龄。"
    hits = [_hit(1, "第一千零四十七条", age, 0.0330), _hit(2, "第一千零五十一条", invalid, 0.0329)]
    idf = {"结婚": 3.0, "法定": 1.0, "年龄": 1.0}.get  # 结婚 is the rare word, as in the corpus
    text, cites = compose(["结婚", "法定", "年龄"], hits, idf)
    assert "二十二周岁" in text and "（二）" not in text and "（三）" not in text
