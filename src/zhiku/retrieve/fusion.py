"""Fusion of ranked lists: reciprocal rank fusion and min-max weighted fusion."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.registry import Choice
from zhiku.types import Hit


class FusionMode(Choice):
    """How ranked lists from several retrievers are combined."""

    RRF = "rrf"
    WEIGHTED = "weighted"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "fusion mode"


def _merge_sources(lists: Sequence[Sequence[Hit]]) -> dict[str, tuple[Hit, dict[str, tuple[int, float]]]]:
    merged: dict[str, tuple[Hit, dict[str, tuple[int, float]]]] = {}
    for hits in lists:
        for rank, h in enumerate(hits, 1):
            first, src = merged.setdefault(h.chunk.id, (h, {}))
            src.update(h.sources or {h.source: (rank, h.score)})
    return merged


def rrf(lists: Sequence[Sequence[Hit]], k: int = 60, limit: int | None = None,
        weights: Sequence[float] | None = None) -> list[Hit]:
    """Reciprocal rank fusion: score(d) = Σ 1 / (k + rank_i(d)).

    Cormack, Clarke & Büttcher (2009), "Reciprocal Rank Fusion outperforms Condorcet and
    individual rank learning methods", k = 60.

    Args:
        lists: ranked hits per retriever (best first).
        k: the RRF constant.
        limit: keep this many fused hits.
        weights: one factor per list (default 1 each): a list's reciprocal ranks count
            that much (weighted RRF, as in Bruch et al. 2023, "An analysis of fusion
            functions for hybrid retrieval").

    Returns:
        New hits (source ``rrf``) that keep each retriever's rank and score in ``sources``.
    """
    scores: dict[str, float] = {}
    for i, hits in enumerate(lists):
        w = weights[i] if weights else 1.0
        for rank, h in enumerate(hits, 1):
            scores[h.chunk.id] = scores.get(h.chunk.id, 0.0) + w / (k + rank)
    merged = _merge_sources(lists)
    order = sorted(scores, key=lambda cid: -scores[cid])
    out = [Hit(merged[c][0].chunk, scores[c], "rrf", dict(merged[c][1])) for c in order]
    return out[:limit] if limit else out


def weighted(
    lists: Sequence[Sequence[Hit]], weights: Sequence[float], limit: int | None = None
) -> list[Hit]:
    """Min-max normalise each list's scores to [0, 1] and add them with ``weights``.

    Returns:
        New hits (source ``weighted``), sources kept as in :func:`rrf`.
    """
    if len(weights) != len(lists):
        raise ZhikuError("weighted fusion needs one weight per ranked list")
    scores: dict[str, float] = {}
    for hits, w in zip(lists, weights):
        if not hits:
            continue
        vals = [h.score for h in hits]
        lo, hi = min(vals), max(vals)
        for h in hits:
            norm = (h.score - lo) / (hi - lo) if hi > lo else 1.0
            scores[h.chunk.id] = scores.get(h.chunk.id, 0.0) + w * norm
    merged = _merge_sources(lists)
    order = sorted(scores, key=lambda cid: -scores[cid])
    out = [Hit(merged[c][0].chunk, scores[c], "weighted", dict(merged[c][1])) for c in order]
    return out[:limit] if limit else out


def fuse(
    lists: Sequence[Sequence[Hit]], mode: FusionMode, k: int = 60, alpha: float = 0.5,
    limit: int | None = None, factors: Sequence[float] | None = None,
) -> list[Hit]:
    """Fuse a keyword list and a dense list (in that order) with the chosen mode; ``factors``
    (one per list, default 1 each) multiply each list's contribution in either mode."""
    f = list(factors) if factors else [1.0] * len(lists)
    if mode is FusionMode.RRF:
        return rrf(lists, k=k, limit=limit, weights=factors)
    weights = [1.0 - alpha, alpha] if len(lists) == 2 else [1.0] * len(lists)
    return weighted(lists, [w * x for w, x in zip(weights, f)], limit=limit)


def fuse_search(lists: Sequence[Sequence[Hit]], cfg: Any, alpha: float | None = None,
                factors: Sequence[float] | None = None, words: int = 0, dense: bool | None = None) -> list[Hit]:
    """The ranked lists of one search fused as the config says (``fusion``; ``alpha`` for
    weighted fusion, default the ``alpha`` setting). With a dense list among them,
    ``hybrid_fusion`` decides (weighted with ``hybrid_alpha`` by default) unless the question
    has more than ``hybrid_fusion_max_words`` words (``words``: a case narrative, whose dense
    vector is blurred by names, places and sums; RRF keeps its keyword list's say).

    With ``hybrid_doc_weight`` on, the fused hits of such a question gain their document's
    evidence (:func:`zhiku.retrieve.docprior.document_boost` over the fused scores).

    RRF's constant is ``hybrid_rrf_k`` when a dense list is among them and ``rrf_k`` when
    all are keyword lists. A keyword and a dense list of 50 candidates each disagree on
    most of them, so with Cormack's k = 60 (set for TREC runs of 1,000) any passage both
    lists hold, at ranks as low as 60 each, outranks the one passage either list ranks
    first alone (2 / 120 > 1 / 61); a smaller constant lets each list's best ones through
    while agreement still counts.

    Args:
        lists: ranked hits per retriever (keyword first, best first).
        cfg: the configuration (``fusion``, ``rrf_k``, ``hybrid_rrf_k``, ``alpha``).
        alpha: the dense weight of weighted fusion.
        factors: one weight per list (default 1 each; see :func:`fuse`).
        dense: whether a dense list is among ``lists`` (default: :func:`has_dense` of them).
    """
    dense = has_dense(lists) if dense is None else dense
    k = cfg.hybrid_rrf_k if dense and cfg.hybrid_rrf_k else cfg.rrf_k
    hybrid = _hybrid(cfg, dense, words)
    mode = FusionMode.from_str(cfg.hybrid_fusion if hybrid else cfg.fusion)
    if hybrid and mode is FusionMode.WEIGHTED:
        alpha = cfg.hybrid_alpha
    out = fuse(lists, mode, k=k, alpha=cfg.alpha if alpha is None else alpha, factors=factors)
    if hybrid and cfg.hybrid_doc_weight > 0:  # several strong hits of one document
        from zhiku.retrieve.docprior import document_boost

        out = document_boost(out, cfg.hybrid_doc_weight)
    return out


def has_dense(lists: Sequence[Sequence[Hit]]) -> bool:
    """Whether a dense list is among the ranked lists of one search: a hit of theirs that dense
    search found — a dense list's own hits and those it was completed with (source ``dense``),
    or a merged hit with ``dense`` among its sources (the dense lists of several sub-indexes
    merged, a routed search's fused order). A keyword list's hits never carry it, not even those
    dense search scored (``dense_filled``): a keyword-only hit at the head of a hybrid ranking
    still has a dense list beside it. The one test of "keyword only or not" of the search
    stages (fusion, the meaning re-rank, named offences, the learned order)."""
    return any(h.source == "dense" or "dense" in h.sources for hits in lists for h in hits)


def _hybrid(cfg: Any, dense: bool, words: int) -> bool:
    return bool(dense and cfg.hybrid_fusion and not 0 < cfg.hybrid_fusion_max_words < words)


def fusion_of(cfg: Any, lists: Sequence[Sequence[Hit]], words: int = 0, dense: bool | None = None) -> str:
    """The fusion :func:`fuse_search` applies to ``lists`` for a question of ``words`` words:
    ``hybrid_fusion`` when a dense list is among them (``dense``, default: :func:`has_dense`)
    and the question is no narrative, else ``fusion``."""
    dense = has_dense(lists) if dense is None else dense
    return str(cfg.hybrid_fusion if _hybrid(cfg, dense, words) else cfg.fusion)
