"""Confidence reads whether the keyword and the dense search agree on the first hit and
whether the answer flags evidence that disagrees, and a refusal keeps only a small share of
the evidence's confidence (a refusal is never a right answer). Real law text, the bundled
embedder."""

from __future__ import annotations

from dataclasses import replace

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import REFUSED, features, load_model, probability
from tests.asking import ask


@pytest.mark.integration
def test_keyword_and_dense_agreeing_on_the_first_hit_raises_confidence(kb):
    q = "劳动者每周至少休息几日？"
    r = retrieve(kb, q, Mode.HYBRID)
    first = r.hits[0].sources
    f = features(kb, q, r)
    assert f.top_agree == float(first.get("bm25", (0, 0))[0] == 1 and first.get("dense", (0, 0))[0] == 1)
    # the same hits, the first ranked first by both lists, then second by the dense list
    both = replace(r, hits=[replace(r.hits[0], sources={"bm25": (1, 9.0), "dense": (1, 0.9)}), *r.hits[1:]])
    apart = replace(r, hits=[replace(r.hits[0], sources={"bm25": (1, 9.0), "dense": (2, 0.9)}), *r.hits[1:]])
    agree, differ = features(kb, q, both), features(kb, q, apart)
    assert agree.top_agree == 1.0 and differ.top_agree == 0.0
    # read by the keyword model, which reads a hybrid ranking of a narrative (and every one with
    # confidence_dense_model off); the part fitted on hybrid asks reads the top three's agreement
    assert "top_agree" in load_model()["names"]
    assert probability(agree, dense=False) > probability(differ, dense=False)
    assert "agree" in load_model()["dense"]["names"]
    assert probability(replace(f, agree=1.0), dense=True) > probability(replace(f, agree=0.0), dense=True)
    # keyword retrieval alone has nothing to agree with
    assert features(kb, q, retrieve(kb, q, Mode.BM25)).top_agree == 0.0


@pytest.mark.integration
def test_a_refusal_keeps_a_small_share_of_the_evidence_confidence(kb):
    """「2023年杭州市最低工资标准是多少？」: the laws state the minimum wage rule, not the
    year's figure of a city; the answerability check refuses it, with a tenth of the
    evidence's confidence. Its twin, the rule itself, is answered with the model's."""
    no = ask(kb, "2023年杭州市最低工资标准是多少？", Mode.BM25)
    steps = {t.stage: t.detail for t in no.trace}
    assert no.refused and steps["answerable"]["ok"] is False
    assert no.confidence == pytest.approx(REFUSED * steps["confidence"]["confidence"], abs=1e-3)
    assert no.low_confidence
    yes = ask(kb, "用人单位支付劳动者的工资不得低于什么标准？", Mode.BM25)
    assert not yes.refused and yes.confidence > no.confidence


@pytest.mark.integration
def test_evidence_that_disagrees_with_itself_lowers_confidence(tmp_path):
    """A handbook stating two values for 年假 is answered with both sides flagged and a
    lower confidence than the same answer would have without the conflict; its twin, the
    handbook without the second value, flags nothing."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase
    from zhiku.verify.confidence import answered

    rule = "# 员工手册\n\n## 第三章 休假\n\n第十条 公司员工每年享有带薪年假十五天。\n\n"
    got = {}
    for name, extra in (("two", "第十一条 公司年假为零天。\n"), ("one", "第十一条 病假须提交医院证明。\n")):
        d = tmp_path / name / "手册"
        d.mkdir(parents=True)
        (d / "员工手册.md").write_text(rule + extra, encoding="utf-8")
        kb = KnowledgeBase(load_config(home=tmp_path / name / "h"))
        kb.ingest([d], dense=False, progress=False)
        ans = ask(kb, "公司年假有多少天？", Mode.BM25)
        steps = {t.stage: t.detail for t in ans.trace}
        got[name] = (ans, steps["confidence"]["confidence"], steps["finish"]["after"])
    ans, p, after = got["two"]
    assert ans.conflicts and after["conflict"] is True
    assert ans.confidence == pytest.approx(answered(p, **after), abs=1e-3)
    assert ans.confidence < answered(p, **{**after, "conflict": False})
    twin, _, after = got["one"]
    assert not twin.refused and not twin.conflicts and after["conflict"] is False
