"""Rerankers on the real knowledge base: dense re-scoring with stored vectors, LLM batch
scoring through the fake server (and its malformed-JSON fallback), thresholds per sub-index,
and how many chunks are kept."""

from __future__ import annotations

import math

import pytest

from tests.answer.conftest import with_config
from tests.llmserver import fake_llm
from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.ask.search import Mode, retrieve
from tests.asking import ask
from zhiku.rerank import keep_count, rerank, rerankers

pytestmark = pytest.mark.integration
Q = "每天工作时间最长不超过几个小时？"


def test_dense_rerank_rescores_with_stored_vectors(kb):
    k = with_config(kb, reranker="dense")
    hits = retrieve(k, Q, Mode.HYBRID, structured=False).hits
    trace = []
    out = rerank(k, Q, hits, trace)
    assert len(out) == keep_count(k.config) == math.ceil(5 * 1.5)
    assert all("rerank" in h.sources and h.source == "rerank" for h in out)
    scores = [h.score for h in out]
    assert scores == sorted(scores, reverse=True)
    q = k.dense_query(Q)
    vec = k.store.vectors_of([out[0].chunk.id])[out[0].chunk.id]
    assert abs(float(vec @ q) - out[0].score) < 1e-5
    assert trace[0].stage == "rerank" and trace[0].detail["kept"] == len(out)
    assert "工作时间" in out[0].chunk.text


def test_threshold_per_subindex_drops_and_refuses(kb):
    k = with_config(kb, reranker="dense", rerank_thresholds={"社会法": 2.0, "*": 0.0})
    out = rerank(k, Q, retrieve(k, Q, Mode.HYBRID, structured=False).hits, [])
    assert out and all(not h.chunk.doc_path.startswith("社会法/") for h in out)
    k = with_config(kb, reranker="dense", rerank_thresholds={"*": 2.0})
    ans = ask(k, Q)
    assert ans.refused and "检索了" in ans.searched


def test_llm_reranker_scores_all_candidates_in_one_prompt(kb):
    def script(body):
        prompt = body["messages"][1]["content"]
        n = prompt.count("\n\n[")
        return '{"scores": [' + ",".join(f'{{"id": {i}, "score": {i}}}' for i in range(1, n + 2)) + "]}"

    k0 = with_config(kb, reranker="llm")
    hits = retrieve(k0, Q, Mode.HYBRID, structured=False).hits[:12]
    with fake_llm(script) as srv:
        k = with_config(kb, reranker="llm", llm_model="fake", llm_base_url=srv.base_url, llm_retries=0)
        out = rerank(k, Q, hits, [])
        assert len(srv.requests) == 1
    assert out[0].chunk.id == hits[-1].chunk.id  # the script scored the last candidate highest
    with fake_llm(["不是 JSON"]) as srv:
        k = with_config(kb, reranker="llm", llm_model="fake", llm_base_url=srv.base_url, llm_retries=0)
        trace = []
        out = rerank(k, Q, hits, trace)
        assert len(srv.requests) == 2  # one corrective retry
    assert [h.chunk.id for h in out] == [h.chunk.id for h in hits][: len(out)]
    assert "valid JSON" in trace[0].detail["error"]


def test_bad_reranker_names_are_clear():
    with pytest.raises(ZhikuError, match="unknown reranker 'colbert'; choose one of") as e:
        load_config(None, reranker="colbert")
    assert all(n in str(e.value) for n in ("none", "dense", "cross-encoder", "llm"))
    with pytest.raises(ZhikuError, match="rerank_model"):
        rerankers.create("cross-encoder", load_config(None, reranker="cross-encoder"))


def test_dense_rerank_fused_with_the_retrieval_order(kb):
    """rerank_fusion=rrf: the first rerank_candidates hits are ordered by RRF of their
    retrieval rank and their cosine rank; the unscored rest follows in retrieval order."""
    k = with_config(kb, reranker="dense", rerank_fusion="rrf", rerank_candidates=6, rerank_keep=3.0)
    hits = retrieve(k, Q, Mode.HYBRID, structured=False).hits
    out = rerank(k, Q, hits, [])
    q = k.dense_query(Q)
    vecs = k.store.vectors_of([h.chunk.id for h in hits[:6]])
    cos = {h.chunk.id: float(vecs[h.chunk.id] @ q) for h in hits[:6]}
    by_cos = sorted(cos, key=lambda i: -cos[i])
    fused = {h.chunk.id: 1 / (60 + i) + 1 / (60 + 1 + by_cos.index(h.chunk.id)) for i, h in enumerate(hits[:6], 1)}
    want = sorted(by_cos, key=lambda i: -fused[i]) + [h.chunk.id for h in hits[6:]]  # ties: cosine order
    assert [h.chunk.id for h in out] == want[: len(out)] and len(out) == keep_count(k.config) > 6
    assert all(abs(h.score - cos[h.chunk.id]) < 1e-5 for h in out[:6])
    assert all("rerank" not in h.sources for h in out[6:])


def test_bad_rerank_fusion_is_clear():
    with pytest.raises(ZhikuError, match="unknown rerank_fusion 'mean'; choose one of: replace, rrf"):
        load_config(None, rerank_fusion="mean")
