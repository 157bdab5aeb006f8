"""Offline answers pass the same verification as LLM answers; conflicts between versions
and between departments are flagged and both sides cited; the support checks themselves."""

from __future__ import annotations

import pytest

from zhiku.config import load_config
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.llm import LLMError, client_for
from tests.asking import ask
from zhiku.retrieve.segment import segmenters
from zhiku.verify.check import split_marked
from zhiku.verify.conflicts import find_conflicts
from zhiku.verify.support import SupportScorer, missing_numbers

QUESTIONS = ["试用期最长多久？", "用人单位拖欠劳动报酬，劳动者可以怎么办？", "离婚冷静期是多长时间？",
             "劳动合同法第三十九条规定了什么？", "结婚的法定年龄是多少？"]


@pytest.mark.integration
@pytest.mark.parametrize("q", QUESTIONS)
def test_extractive_answers_pass_verification(kb, q):
    ans = ask(kb, q)
    assert not ans.refused and ans.generator == "extractive"
    v = next(t for t in ans.trace if t.stage == "verify").detail
    assert v["removed"] == [] and v["checked"] == v["kept"] > 0
    cited = {c.marker for c in ans.citations}
    marked = {m for s in split_marked(ans.text) for m in s.markers}
    assert marked <= cited and ans.to_dict()["low_confidence"] == ans.low_confidence


@pytest.mark.integration
def test_two_versions_are_flagged_and_both_cited(kb):
    docs = [d for d in kb.store.documents() if "公司法" in d.path]
    old, new = sorted(docs, key=lambda d: d.version_date)
    a = kb.store.find(Scope(doc_ids=(old.doc_id,), article="第四十七条", versions="all"))[0]
    b = kb.store.find(Scope(doc_ids=(new.doc_id,), article="第四十七条", versions="all"))[0]
    found = find_conflicts({1: a, 2: b}, {1}, kb.words)
    assert [c.kind for c in found] == ["version"] and found[0].markers == (1, 2)
    assert "2018-10-26" in found[0].note and "2023-12-29" in found[0].note


@pytest.mark.integration
def test_departments_disagreeing_are_flagged_offline(tmp_path):
    d = tmp_path / "制度"
    d.mkdir()
    (d / "财务部差旅管理办法.md").write_text(
        "# 财务部差旅管理办法\n\n## 第三章 住宿\n\n第十条 员工出差住宿费标准为每晚不超过400元，凭发票报销。\n",
        encoding="utf-8")
    (d / "人事部出差规定.md").write_text(
        "# 人事部出差规定\n\n## 第二章 住宿\n\n第六条 员工出差住宿费标准为每晚不超过600元，凭发票报销。\n",
        encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp_path / "h", min_confidence=0.1))
    kb.ingest([d], dense=False, progress=False)
    ans = ask(kb, "员工出差住宿费标准是多少？")
    assert not ans.refused and [c.kind for c in ans.conflicts] == ["source"]
    c = ans.conflicts[0]
    cited = {x.marker: x.title for x in ans.citations}
    assert set(c.markers) <= set(cited) and {cited[m] for m in c.markers} == {"财务部差旅管理办法", "人事部出差规定"}
    assert "不一致" in ans.text and "".join(f"[{m}]" for m in c.markers) in ans.text
    assert ans.to_dict()["conflicts"][0]["kind"] == "source"


@pytest.mark.unit
def test_numbers_and_support_checks():
    assert missing_numbers("试用期不得超过六个月", "试用期最长不得超过6个月") == ()
    assert missing_numbers("支付三倍赔偿金", "第八十三条 三年以上 支付赔偿金") == ("三倍",)
    s = SupportScorer(segmenters.create("words"), None)
    block = "劳动合同期限三个月以上不满一年的，试用期不得超过一个月；三年以上固定期限的劳动合同，试用期不得超过六个月。"
    assert s.score("三年以上固定期限的劳动合同，试用期不得超过六个月", block).supported
    assert not s.score("三年以上固定期限的劳动合同，试用期不得超过十二个月", block).supported
    assert not s.score("用人单位应当为劳动者缴纳社会保险费", block).supported


@pytest.mark.unit
def test_markers_in_every_form_are_read():
    got = split_marked("甲规定如此。[1]乙【2】；丙[1,3]。\n丁")
    assert [(x.text, x.markers) for x in got if x.text] == [("甲规定如此", (1,)), ("乙", (2,)),
                                                          ("丙", (1, 3)), ("丁", ())]


@pytest.mark.unit
def test_local_gguf_errors_are_clear(tmp_path):
    cfg = load_config(None, llm_gguf=str(tmp_path / "missing.gguf"))
    c = client_for(cfg, "answerer")
    assert c.settings.model == "missing" and c.settings.gguf.endswith("missing.gguf")
    with pytest.raises(LLMError, match="does not exist"):
        c.chat([{"role": "user", "content": "x"}])
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    c = client_for(load_config(None, llm_gguf=str(tmp_path / "m.gguf")), "answerer")
    with pytest.raises(LLMError, match="xllamacpp"):
        c.chat([{"role": "user", "content": "x"}])
