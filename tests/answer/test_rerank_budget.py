"""The dense reranker on a keyword-only index embeds candidates on the fly within a budget
(half of rerank_timeout): past it only the prefix embedded so far is reranked, the rest keep
their retrieval order; embedded candidates are cached by their text's hash."""

from __future__ import annotations

import pytest

from tests.answer.conftest import with_config
from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.embed.base import VectorCache
from zhiku.kb import KnowledgeBase
from zhiku.rerank import rerank
from zhiku.rerank.backends import DenseReranker

pytestmark = pytest.mark.integration
Q = "公司不给交社保，我能解除劳动合同吗？"


@pytest.fixture(scope="module")
def keyword_kb(tmp_path_factory, laws_dir):
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("kwrerank")))
    kb.ingest([laws_dir / "社会法"], dense=False, progress=False)
    return kb


def test_budget_spent_reranks_the_embedded_prefix_only(keyword_kb):
    k = with_config(keyword_kb, reranker="dense", rerank_candidates=20, rerank_keep=3.0, rerank_timeout=1e-6)
    hits = retrieve(k, Q, Mode.BM25, structured=False).hits
    trace = []
    out = rerank(k, Q, hits, trace)
    step = trace[0].detail
    n = DenseReranker.step
    assert step["scored"] == n and len(out) == 15  # one encoder call, then the budget is gone
    assert {h.chunk.id for h in out[:n]} == {h.chunk.id for h in hits[:n]}
    assert [h.score for h in out[:n]] == sorted((h.score for h in out[:n]), reverse=True)
    assert [h.chunk.id for h in out[n:]] == [h.chunk.id for h in hits[n:15]]  # retrieval order kept


def test_within_budget_every_candidate_is_scored_and_cached(keyword_kb):
    k = with_config(keyword_kb, reranker="dense", rerank_candidates=10, rerank_keep=3.0, rerank_timeout=300)
    hits = retrieve(k, Q, Mode.BM25, structured=False).hits
    trace = []
    out = rerank(k, Q, hits, trace)
    assert "scored" not in trace[0].detail and {h.chunk.id for h in out[:10]} == {h.chunk.id for h in hits[:10]}
    cache = VectorCache(k.config.cache_path)
    try:
        got = cache.get_many(k.embedder.name, [VectorCache.key(h.chunk.text) for h in hits[:10]])
    finally:
        cache.close()
    assert len(got) == len({h.chunk.text for h in hits[:10]})
    q = k.dense_query(Q)
    assert abs(out[0].score - float(got[VectorCache.key(out[0].chunk.text)] @ q)) < 1e-5
