"""Tests for gold matching, ranking metrics, refusal scores and answer matching."""

from __future__ import annotations

import math

import pytest

from zhiku.eval.dataset import EvalItem, Gold
from zhiku.eval.metrics import (
    aliases_from_documents,
    contains_answer,
    is_hit,
    mrr_at_k,
    ndcg_at_k,
    normalize_answer,
    recall_at_k,
    refusal_scores,
    relevance,
)
from zhiku.types import Chunk, Document, Hit, content_hash

pytestmark = pytest.mark.unit

LAW = "社会法/劳动合同法(2012-12-28).md"


def chunk(doc_path: str, article: str | None = None, doc_id: str = "d1", text: str = "……") -> Chunk:
    return Chunk(
        id=content_hash(doc_id, doc_path, article or "", text),
        doc_id=doc_id, doc_path=doc_path, title="劳动合同法", section_id="1",
        section_path=("第二章 劳动合同的订立",), article=article, text=text,
        start=0, end=len(text),
    )


def hit(c: Chunk) -> Hit:
    return Hit(chunk=c, score=1.0, source="bm25")


def item(*gold: Gold) -> EvalItem:
    return EvalItem(id="q", question="试用期最长多久？", gold=gold)


def test_mrr_and_recall_hand_values() -> None:
    rel = [0, 1, 0]
    assert mrr_at_k(rel, 10) == 0.5
    assert mrr_at_k(rel, 1) == 0.0
    assert recall_at_k(rel, 1) == 0.0
    assert recall_at_k(rel, 2) == 1.0
    assert mrr_at_k([], 10) == recall_at_k([], 10) == 0.0
    with pytest.raises(ValueError):
        mrr_at_k(rel, 0)


def test_ndcg_hand_values() -> None:
    # Two golds found at ranks 2 and 4: DCG = 1/log2(3) + 1/log2(5) = 0.63093 + 0.43068;
    # ideal puts both first: IDCG = 1 + 1/log2(3) = 1.63093 -> nDCG = 0.65092.
    assert ndcg_at_k([0, 1, 0, 1], 10, n_gold=2) == pytest.approx(0.650921, abs=1e-6)
    # One of two golds at rank 1 only: 1 / 1.63093.
    assert ndcg_at_k([1, 0, 0], 10, n_gold=2) == pytest.approx(1 / (1 + 1 / math.log2(3)))
    # Ideal is over min(k, n_gold): at k=1 one relevant item is perfect.
    assert ndcg_at_k([1, 0], 1, n_gold=2) == 1.0
    assert ndcg_at_k([0, 0, 1], 10, n_gold=1) == pytest.approx(0.5)
    assert ndcg_at_k([1], 10, n_gold=0) == 0.0


def test_is_hit_document_and_article() -> None:
    gold = Gold(LAW, "第十九条")
    assert is_hit(chunk(LAW, "第十九条"), gold, None)
    assert is_hit(hit(chunk(LAW, "第十九条")), gold, None)
    assert not is_hit(chunk(LAW, "第二十条"), gold, None)
    assert not is_hit(chunk(LAW, None), gold, None)
    assert not is_hit(chunk("社会法/劳动法(2018-12-29).md", "第十九条"), gold, None)
    assert is_hit(chunk(LAW, None), Gold(LAW), None)
    # A knowledge base ingested from a parent folder still matches on a path boundary.
    assert is_hit(chunk("laws/" + LAW, "第十九条"), gold, None)
    assert not is_hit(chunk("x" + LAW, "第十九条"), gold, None)
    with pytest.raises(TypeError):
        is_hit("not a chunk", gold, None)  # type: ignore[arg-type]


def test_is_hit_via_aliases() -> None:
    copy = "社会法/劳动合同法(2012-12-28) 副本.md"
    docs = [Document(id="d1", path=copy, title="劳动合同法", body="……", aliases=(LAW,))]
    aliases = aliases_from_documents(docs)
    assert aliases == {"d1": {copy, LAW}}
    c = chunk(copy, "第十九条", doc_id="d1")
    gold = Gold(LAW, "第十九条")
    assert not is_hit(c, gold, None)
    assert is_hit(c, gold, aliases)
    assert not is_hit(chunk(copy, "第十九条", doc_id="other"), gold, aliases)
    assert not is_hit(chunk(copy, "第二十条", doc_id="d1"), gold, aliases)


def test_relevance_counts_each_gold_once() -> None:
    g19 = Gold(LAW, "第十九条")
    hits = [hit(chunk(LAW, "第十九条", text="a")), hit(chunk(LAW, "第十九条", text="b")),
            hit(chunk(LAW, "第二十条"))]
    rel = relevance(hits, item(g19))
    assert rel == [1, 0, 0]
    assert ndcg_at_k(rel, 10, 1) == 1.0
    # Two golds, the first duplicated: only first hits on distinct golds count.
    g21 = Gold(LAW, "第二十一条")
    hits = [hit(chunk(LAW, "第十九条", text="a")), hit(chunk(LAW, "第十九条", text="b")),
            hit(chunk(LAW, "第二十一条"))]
    rel = relevance(hits, item(g19, g21))
    assert rel == [1, 0, 1]
    # DCG = 1 + 1/log2(4) = 1.5; IDCG = 1 + 1/log2(3) -> 0.91972.
    assert ndcg_at_k(rel, 10, 2) == pytest.approx(1.5 / (1 + 1 / math.log2(3)))
    # Document-level gold: any chunk of the document counts, once.
    assert relevance([hit(chunk(LAW, "第一条")), hit(chunk(LAW, "第二条"))], item(Gold(LAW))) == [1, 0]
    assert relevance([hit(chunk(LAW))], item()) == [0]


def test_refusal_scores() -> None:
    # (answerable, refused): one correct refusal, one missed, one wrong refusal, one answered.
    p, r, f1 = refusal_scores([(False, True), (False, False), (True, True), (True, False)])
    assert (p, r, f1) == (0.5, 0.5, 0.5)
    # Nothing refused: precision is 0/0.
    assert refusal_scores([(False, False), (True, False)]) == (None, 0.0, None)
    # Nothing unanswerable: recall is 0/0.
    assert refusal_scores([(True, True), (True, False)]) == (0.0, None, None)
    # Both defined but zero.
    assert refusal_scores([(False, False), (True, True)]) == (0.0, 0.0, 0.0)
    assert refusal_scores([]) == (None, None, None)
    p, r, f1 = refusal_scores([(False, True), (False, True), (False, False), (True, False)])
    assert (p, r) == (1.0, pytest.approx(2 / 3))
    assert f1 == pytest.approx(0.8)


def test_contains_answer_normalisation() -> None:
    assert normalize_answer(" ＡＧＧ０１，约为 0.304 平方公里。") == "agg01约为0304平方公里"
    assert contains_answer("若中离，则４ 分钟内不得配对", ["4分钟"]) is True
    assert contains_answer("面积约为 0.304 平方公里", ["约为0.304平方公里。"]) is True
    assert contains_answer("agg01 杀菌", ["ＡＧＧ０１"]) is True
    assert contains_answer("展示泰国的机车及车厢", ["其他", "展示泰国的机车及车厢。"]) is True
    assert contains_answer("未找到相关内容。", ["踢爆"]) is False
    assert contains_answer("任何回答", []) is None
    assert contains_answer("任何回答", ["。", " "]) is None


def test_citation_precision_counts_citations_at_gold_places() -> None:
    from zhiku.eval.metrics import citation_hits
    from zhiku.eval.report import ModeResult, summarise, EvalReport, format_table
    from zhiku.types import Citation

    item = EvalItem(id="q", question="试用期最长多久", answers=("六个月",),
                    gold=(Gold("社会法/劳动合同法(2012-12-28).md", "第十九条"),))
    right = Citation(1, "c1", "laws/社会法/劳动合同法(2012-12-28).md", "劳动合同法", (), "第十九条", "…")
    wrong_article = Citation(2, "c2", "laws/社会法/劳动合同法(2012-12-28).md", "劳动合同法", (), "第二十条", "…")
    alias = Citation(3, "c3", "copy/劳动合同法.md", "劳动合同法", (), "第十九条", "…")
    assert citation_hits([right, wrong_article, alias], item) == (3, 1)
    aliases = {"d1": {"copy/劳动合同法.md", "社会法/劳动合同法(2012-12-28).md"}}
    assert citation_hits([right, wrong_article, alias], item, aliases) == (3, 2)
    res = [ModeResult("a", "k", "full", True, 1, (), (0,), 0.1, False, "x", True, 3, 2),
           ModeResult("b", "k", "full", True, 1, (), (1,), 0.1, False, "y", False, 1, 1)]
    row = summarise(EvalReport("s", 10, ("full",), tuple(res)))[0]
    assert row.citation_precision == 0.75
    assert "cite P" in format_table([row]) and "0.750" in format_table([row])
