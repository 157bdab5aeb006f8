"""A statute's or regulation's provision is quoted over a rule restating it (``answer_standing``):
verbatim provisions of 道路交通安全法实施条例 and of the ministry's rule on driving licences, a
real store in a temporary home."""

from __future__ import annotations

import pytest

from zhiku.answer.extractive import compose
from zhiku.answer.standing import standing_bonus, subordinate
from zhiku.ask.search import Mode, retrieve
from tests.answer.conftest import law_kb

REGULATION = ("# 中华人民共和国道路交通安全法实施条例\n\n## 第二章 车辆和驾驶人\n\n"
              "第二十二条 机动车驾驶证的有效期为6年，本条例另有规定的除外。\n\n"
              "机动车驾驶人初次申领机动车驾驶证后的12个月为实习期。在实习期内驾驶机动车的，应当在车身后部粘贴或者"
              "悬挂统一式样的实习标志。\n")
RULE = ("# 机动车驾驶证申领和使用规定\n\n## 第五章 机动车驾驶人管理\n\n"
        "第七十六条 机动车驾驶人初次取得汽车类准驾车型或者初次取得摩托车类准驾车型后的12个月为实习期。\n\n"
        "在实习期内驾驶机动车的，应当在车身后部粘贴或者悬挂统一式样的实习标志（附件3）。\n")
LAW = ("# 中华人民共和国道路交通安全法\n\n## 第二章 车辆和驾驶人\n\n"
       "第十九条 驾驶机动车，应当依法取得机动车驾驶证。\n")
QUESTION = "刚拿到驾照的实习期是多久？车上要贴实习标志吗？"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return law_kb(tmp_path_factory, (("行政法规", "道路交通安全法实施条例.md", REGULATION),
                                     ("部门规章", "机动车驾驶证申领和使用规定.md", RULE), ("法律", "道路交通安全法.md", LAW)))


def _quoted(kb, hits, weight: float) -> str:
    terms = retrieve(kb, QUESTION, Mode.BM25, route=False).terms
    _, cites = compose(terms, hits, kb.idf, bonus=standing_bonus(hits, weight))
    return cites[0].title


def test_titles_of_rules_under_a_statute():
    assert subordinate("最高人民法院关于审理民间借贷案件适用法律若干问题的规定")
    assert subordinate("最高人民法院关于适用《民法典》侵权责任编的解释（一）")
    assert subordinate("企业职工带薪年休假实施办法") and subordinate("人民检察院刑事诉讼规则")
    assert not subordinate("中华人民共和国道路交通安全法实施条例")
    assert not subordinate("中华人民共和国民法典 侵权责任编") and not subordinate("员工手册")


@pytest.mark.integration
def test_the_regulation_is_quoted_over_the_rule_restating_it(kb):
    hits = retrieve(kb, QUESTION, Mode.BM25, route=False).hits
    rule = [h for h in hits if h.chunk.title == "机动车驾驶证申领和使用规定"]
    regulation = [h for h in hits if h.chunk.title == "中华人民共和国道路交通安全法实施条例"]
    assert rule and regulation
    ranked = rule + regulation  # the rule ranked first, as the whole corpus ranks it
    assert _quoted(kb, ranked, 0.0) == "机动车驾驶证申领和使用规定"
    assert _quoted(kb, ranked, kb.config.answer_standing) == "中华人民共和国道路交通安全法实施条例"


@pytest.mark.integration
def test_evidence_of_one_standing_is_left_alone(kb):
    """Twin: a statute and a regulation, or text without numbered provisions, get no bonus:
    the words choose between them as before."""
    hits = retrieve(kb, QUESTION, Mode.BM25, route=False).hits
    statutes = [h for h in hits if h.chunk.title != "机动车驾驶证申领和使用规定"]
    assert len(statutes) >= 2 and standing_bonus(statutes, 0.2) == ()
    assert _quoted(kb, statutes, 0.2) == _quoted(kb, statutes, 0.0) == "中华人民共和国道路交通安全法实施条例"
    assert standing_bonus(hits, 0.0) == ()
