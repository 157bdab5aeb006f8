"""A caller's view keeps its own per-generation state: IDF weights over the chunks it may
read and the path map of the documents it may read, never the whole knowledge base's."""

from __future__ import annotations

import math

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase

pytestmark = pytest.mark.integration

DOCS = {"hr/薪酬制度.md": "# 薪酬制度\n\n## 第一章 奖金\n\n第一条 年终奖金按绩效系数发放，奖金每年三月发放。\n",
        "finance/预算制度.md": "# 预算制度\n\n## 第一章 预算\n\n第一条 年度预算由财务部编制，预算须经董事会审批。\n\n"
                               "## 第二章 支出\n\n第二条 单笔支出超过五百万元须经财务总监审批。\n"}


def _two_group_kb(tmp_path):
    """DOCS ingested keyword-only, hr/ readable by the hr group and finance/ by finance."""
    root = tmp_path / "corpus"
    for rel, text in DOCS.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    cfg = load_config(home=tmp_path / "h", access=[{"paths": ["hr/**"], "groups": ["hr"]},
                                                   {"paths": ["finance/**"], "groups": ["finance"]}])
    kb = KnowledgeBase(cfg)
    assert kb.ingest([root], dense=False, progress=False).added == 2
    return kb


def test_a_views_idf_and_paths_are_its_own(tmp_path):
    kb = _two_group_kb(tmp_path)
    whole = kb.idf("审批")  # cached on the whole knowledge base first
    hr = kb.for_groups(("hr",))
    n, df = hr.chunk_count(), kb.store.doc_frequency("审批")
    assert n < kb.chunk_count()
    assert hr.idf("审批") == math.log(1.0 + (n - df + 0.5) / (df + 0.5)) != whole
    assert kb.idf("审批") == whole
    assert set(hr.doc_paths()) == {"hr/薪酬制度.md"} and set(kb.doc_paths()) == set(DOCS)


def test_a_views_document_bags_hold_only_what_it_may_read(tmp_path):
    kb = _two_group_kb(tmp_path)
    paths = {d.doc_id: d.path for d in kb.store.documents()}
    terms = kb.segment("预算审批")
    # the whole knowledge base scores the budget rule; a caller of hr never sees it
    assert [paths[d] for d in kb.doc_bags().best(terms, 0.75)][:1] == ["finance/预算制度.md"]
    hr = kb.for_groups(("hr",)).doc_bags()
    assert [paths[d] for d in hr.docs] == ["hr/薪酬制度.md"]
    assert all(paths[d] == "hr/薪酬制度.md" for d in hr.best(terms, 0.75))
    # the twin: the finance caller's bags score its own rule
    fin = kb.for_groups(("finance",)).doc_bags()
    assert [paths[d] for d in fin.best(terms, 0.75)] == ["finance/预算制度.md"]
    assert len(list((tmp_path / "h").glob("docbags*.npz"))) == 3  # the whole one and one per caller
