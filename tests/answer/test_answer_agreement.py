"""The offline answer quotes the document its evidence agrees on (``answer_agreement``): two
articles of 民法典 侵权责任编 on medical liability against one article of 医疗事故处理条例 on
settling a dispute, verbatim provisions in a real store in a temporary home."""

from __future__ import annotations

import pytest

from zhiku.answer.agreement import agreement_bonus
from zhiku.answer.extractive import compose
from zhiku.answer.respond import _bonus
from zhiku.ask.search import Mode, retrieve
from zhiku.verify.pins import pinned

from tests.answer.conftest import law_kb, with_config

CODE = ("# 中华人民共和国民法典 侵权责任编\n\n## 第六章 医疗损害责任\n\n"
        "第一千二百一十八条 患者在诊疗活动中受到损害，医疗机构或者其医务人员有过错的，由医疗机构承担赔偿责任。\n\n"
        "第一千二百二十三条 因药品、消毒产品、医疗器械的缺陷，或者输入不合格的血液造成患者损害的，患者可以向药品上市"
        "许可持有人、生产者、血液提供机构请求赔偿，也可以向医疗机构请求赔偿。患者向医疗机构请求赔偿的，医疗机构赔偿后，"
        "有权向负有责任的药品上市许可持有人、生产者、血液提供机构追偿。\n")
REGULATION = ("# 医疗事故处理条例\n\n## 第五章 医疗事故的赔偿\n\n"
              "第四十六条 发生医疗事故的赔偿等民事责任争议，医患双方可以协商解决；不愿意协商或者协商不成的，当事人可以"
              "向卫生行政部门提出调解申请，也可以直接向人民法院提起民事诉讼。\n")
INTERPRETATION = ("# 最高人民法院关于审理医疗损害责任纠纷案件适用法律若干问题的解释\n\n"
                  "第五条 患者依据民法典第一千二百一十九条规定主张医疗机构承担赔偿责任的，应当按照前条第一款规定提交证据。\n")
INJURY = ("# 最高人民法院关于审理人身损害赔偿案件适用法律若干问题的解释\n\n"
          "第六条 医疗费根据医疗机构出具的医药费、住院费等收款凭证，结合病历和诊断证明等相关证据确定。"
          "赔偿义务人对治疗的必要性和合理性有异议的，应当承担相应的举证责任。\n")
QUESTION = "在医院做手术出了问题，在什么情况下医院要赔偿？"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return law_kb(tmp_path_factory, (("民法典", "侵权责任编.md", CODE), ("行政法规", "医疗事故处理条例.md", REGULATION),
                                     ("司法解释", "医疗损害责任解释.md", INTERPRETATION),
                                     ("司法解释", "人身损害赔偿解释.md", INJURY)))


def _ranked(kb):
    """The evidence as a ranking of the whole laws corpus with vectors put it: an interpretation,
    the regulation's article, the code's two, another interpretation."""
    hits = retrieve(kb, QUESTION, Mode.BM25, route=False).hits
    article = {(h.chunk.title[-4:], h.chunk.article): h for h in hits}
    order = [("题的解释", "第五条"), ("故处理条例"[-4:], "第四十六条"), ("侵权责任编", "第一千二百一十八条"),
             ("侵权责任编", "第一千二百二十三条"), ("题的解释", "第六条")]
    order = [(t[-4:], a) for t, a in order]
    assert set(order) <= set(article), sorted(article)
    return [article[k] for k in order]


def _quoted(kb, hits, weight: float) -> str:
    # the agreement alone: the keyword-only store's blocks are not encoded for their meaning here
    bonus = _bonus(with_config(kb, answer_agreement=weight, answer_meaning_encode=False), QUESTION, hits,
                   pinned(QUESTION))
    _, cites = compose(retrieve(kb, QUESTION, Mode.BM25, route=False).terms, hits, kb.idf, bonus=bonus)
    return cites[0].title


def test_the_share_of_the_other_blocks_from_the_same_document(kb):
    hits = _ranked(kb)
    assert agreement_bonus(hits, 0.2) == (0.0, 0.0, 0.05, 0.05, 0.0)
    assert agreement_bonus(hits, 0.0) == ()


@pytest.mark.integration
def test_the_document_the_evidence_agrees_on_is_quoted(kb):
    hits = _ranked(kb)
    assert _quoted(kb, hits, 0.0) == "医疗事故处理条例"  # the words tie: the better-ranked block's
    assert _quoted(kb, hits, kb.config.answer_agreement) == "中华人民共和国民法典 侵权责任编"


@pytest.mark.integration
def test_evidence_agreeing_on_nothing_is_left_alone(kb):
    """Twin: one block per document, or all from one, gets no bonus: the words and the ranking
    choose as before."""
    hits = _ranked(kb)
    assert agreement_bonus(hits[:3], 0.15) == () and agreement_bonus(hits[2:4], 0.15) == ()
    assert agreement_bonus([hits[2], hits[1], hits[3]], 0.15)[1] == 0.0
    assert _quoted(kb, hits[:3], kb.config.answer_agreement) == _quoted(kb, hits[:3], 0.0)
