"""Rerank fused candidates: ``none``, ``dense`` (stored vectors), ``cross-encoder``
(sentence-transformers) or ``llm`` (all candidates scored in one prompt); thresholds per
sub-index; keep ``rerank_keep`` × ``answer_chunks`` chunks for the answer."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Protocol

from zhiku.index.store import subindex_of
from zhiku.registry import Choice, Registry
from zhiku.retrieve.fusion import rrf
from zhiku.types import Hit, TraceStep


NONE = "none"  # the reranker setting that keeps the fused order


class RerankFusion(Choice):
    """How the reranker's scores order the candidates: by themselves, as one more ranked
    list fused with the retrieval order (RRF), or blended with the retrieval scores
    (weighted: ``alpha`` × the reranker's min-max scaled score + (1 − ``alpha``) × the
    retrieval score over the best one), so that a bi-encoder's cosine reorders the keyword
    candidates without overruling the words they share with the question."""

    REPLACE = "replace"
    RRF = "rrf"
    WEIGHTED = "weighted"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "rerank_fusion"


class Reranker(Protocol):
    """Scores candidates for a question; higher is better. It may score only a prefix of
    them (a bounded budget ran out): the rest keep their retrieval order after it."""

    name: str

    def scores(self, kb: Any, question: str, hits: Sequence[Hit]) -> list[float]:
        """One score per hit (or per hit of a prefix), in the hits' order."""
        ...


rerankers: Registry[Reranker] = Registry("reranker")
_made: dict[tuple[str, str], Reranker] = {}


def registered() -> Registry[Reranker]:
    """The reranker registry with the built-ins registered (plugins register their own)."""
    from zhiku.rerank import backends  # noqa: F401  (registers dense, cross-encoder, llm)

    return rerankers


def reranker_for(cfg: Any) -> Reranker | None:
    """The configured reranker (shared per name and model), or None for ``none``.

    Raises:
        ZhikuError: unknown reranker name, or its model cannot be loaded.
    """
    if cfg.reranker == NONE:
        return None
    key = (cfg.reranker, cfg.rerank_model)
    if key not in _made:
        _made[key] = registered().create(cfg.reranker, cfg)
    return _made[key]


def keep_count(cfg: Any) -> int:
    """How many chunks survive reranking: ``rerank_keep`` × ``answer_chunks``, rounded up."""
    return math.ceil(cfg.answer_chunks * cfg.rerank_keep)


def threshold(cfg: Any, path: str) -> float | None:
    """Minimum score for a chunk of the document at ``path`` (its sub-index's, else ``*``)."""
    th = cfg.rerank_thresholds
    return th.get(subindex_of(path), th.get("*"))


def rerank(kb: Any, question: str, hits: Sequence[Hit], trace: list[TraceStep]) -> list[Hit]:
    """Reorder ``hits`` with the configured reranker and cut them to what the answer needs.

    New hits carry the score in ``sources["rerank"]`` beside the retrievers' ranks; exact
    clause hits stay first and are never dropped. Hits below their sub-index threshold
    are dropped. A failing LLM reranker keeps the fused order (the trace says why).

    Args:
        kb: the knowledge base.
        question: the question.
        hits: fused candidates, best first.
        trace: gets a ``rerank`` step.

    Returns:
        At most :func:`keep_count` hits, best first.
    """
    cfg = kb.config
    r = reranker_for(cfg)
    if r is None or not hits:
        return list(hits)
    t0 = time.perf_counter()
    detail: dict[str, Any] = {"reranker": r.name}
    exact = [h for h in hits if h.source == "clause"]
    rest = [h for h in hits if h.source != "clause"]
    from zhiku.llm import LLMError

    n = cfg.rerank_candidates or len(rest)
    rest, tail = rest[:n], rest[n:]
    try:
        scores = r.scores(kb, question, rest)
    except LLMError as e:
        detail["error"] = str(e)
        scores = [-float(i) for i in range(len(rest))]
    if len(scores) < len(rest):  # the reranker's budget ran out: the unscored go after
        detail["scored"] = len(scores)
        rest, tail = rest[:len(scores)], rest[len(scores):] + tail
    ranked = sorted(zip(rest, scores), key=lambda p: -p[1])
    fusion = RerankFusion.from_str(cfg.rerank_fusion)
    if fusion is RerankFusion.RRF:
        ranked = _fused(rest, ranked, cfg.rrf_k)
    elif fusion is RerankFusion.WEIGHTED:
        ranked = _blended(rest, scores, cfg.alpha)
    out, dropped = [], 0
    for i, (h, s) in enumerate(ranked, 1):
        th = threshold(cfg, h.chunk.doc_path)
        if th is not None and s < th and "error" not in detail:
            dropped += 1
            continue
        out.append(replace(h, score=float(s), source="rerank", sources={**h.sources, "rerank": (i, float(s))}))
    out = (exact + out + tail)[: keep_count(cfg)]  # the unscored tail after, in retrieval order
    detail.update(candidates=len(hits), dropped=dropped, kept=len(out),
                  top=[{"doc": h.chunk.doc_path, "article": h.chunk.article, "score": round(h.score, 4)}
                       for h in out[:5]])
    trace.append(TraceStep("rerank", time.perf_counter() - t0, detail))
    return out


def _fused(hits: list[Hit], ranked: list[tuple[Hit, float]], k: int) -> list[tuple[Hit, float]]:
    """``ranked`` (the reranker's order) fused by RRF with ``hits`` (the retrieval order):
    Σ 1/(k + rank) over both lists (Cormack et al. 2009); each hit keeps its reranker score."""
    score = {h.chunk.id: (h, s) for h, s in ranked}  # the reranker's list first: ties keep its order
    return [score[f.chunk.id] for f in rrf([[h for h, _ in ranked], hits], k=k)]


def _blended(hits: list[Hit], scores: list[float], alpha: float) -> list[tuple[Hit, float]]:
    """``hits`` ordered by ``alpha`` × their reranker score scaled to [0, 1] over the
    candidates (min-max) + (1 − ``alpha``) × their retrieval score over the best one
    (the convex combination of normalised scores; Bruch et al. 2023 find it more robust
    than RRF when one side is much stronger). Ties keep the retrieval order; each hit keeps
    its reranker score."""
    if not hits:
        return []
    lo, hi = min(scores), max(scores)
    top = max(h.score for h in hits)
    span, top = (hi - lo) or 1.0, top if top > 0 else 1.0
    mixed = [alpha * (s - lo) / span + (1 - alpha) * max(h.score, 0.0) / top for h, s in zip(hits, scores)]
    order = sorted(range(len(hits)), key=lambda i: (-mixed[i], i))
    return [(hits[i], scores[i]) for i in order]
