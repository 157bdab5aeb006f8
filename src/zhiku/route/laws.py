"""The law step of routing (``route_laws``): a question that names no law and that no tier
sent anywhere is sent to the law its unrouted search's candidates point at, when they point
at one law clearly (its candidates' reciprocal ranks summed, the best law's sum at least
``route_laws`` — a share — above the second's); the search then runs inside that law too
and its hits come first, as for a law the question names. Otherwise nothing changes."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from zhiku.types import Hit, Route, TraceStep

LAWS_TIER = "laws"
# rank offset of a candidate's vote (1/(OFFSET + rank)): 1 lets the first candidates weigh
# most, which on the laws corpus picked the gold law more often than 10 or 60 (the
# calibration in benchmarks/law_calibrate.py)
OFFSET = 1


def law_scores(hits: Sequence[Hit], law_of: Callable[[str], str | None]) -> list[tuple[str, float]]:
    """Each law's votes from the ranked candidates: the sum of ``1 / (OFFSET + rank)`` of its
    hits (its versions and folder copies as one law), best first.

    Args:
        hits: the unrouted search's candidates, best first.
        law_of: doc id → law (None: not a law, skipped).
    """
    out: dict[str, float] = {}
    for i, h in enumerate(hits, 1):
        law = law_of(h.chunk.doc_id)
        if law is not None:
            out[law] = out.get(law, 0.0) + 1.0 / (OFFSET + i)
    return sorted(out.items(), key=lambda kv: -kv[1])


def margin(ranked: Sequence[tuple[str, float]]) -> float:
    """How far the best law stands above the second, as a share of the best's score (0: a
    tie or nothing; 1: one law only)."""
    if not ranked or ranked[0][1] <= 0:
        return 0.0
    return 1.0 - (ranked[1][1] if len(ranked) > 1 else 0.0) / ranked[0][1]


def law_route(kb: Any, route: Route, hits: Sequence[Hit], named: tuple[str, ...],
              trace: list[TraceStep]) -> Route:
    """``route`` sent to one law when the law step is sure, else ``route`` as it is.

    Only a route that decided nothing (the fallback) for a question naming no document is
    considered; the law's documents are its candidates' (in scope, versions in force).
    A ``laws`` trace step shows the best laws' scores, the margin and why it decided or not.

    Args:
        kb: the knowledge base (store, config).
        route: the router's decision.
        hits: the unrouted search's fused candidates, best first.
        named: documents the question names.
        trace: receives the ``laws`` step.

    Returns:
        A ``laws`` route (confidence 0.9, the law's documents in ``doc_ids``) or ``route``.
    """
    import time

    from zhiku.retrieve.clause import law_of

    cfg = kb.config
    if not cfg.route_laws or named or route.tier != "fallback" or not hits:
        return route
    t0 = time.perf_counter()
    docs: dict[str, Any] = {}  # doc id → its document (None: gone), read once

    def law(doc_id: str) -> str | None:
        if doc_id not in docs:
            docs[doc_id] = kb.store.get_doc(doc_id)
        return law_of(docs[doc_id]) if docs[doc_id] is not None else None

    ranked = law_scores(hits, law)
    m = margin(ranked)
    detail: dict[str, Any] = {"top": [[x, round(v, 4)] for x, v in ranked[:5]], "margin": round(m, 4),
                              "threshold": cfg.route_laws}
    sure = bool(ranked) and m >= cfg.route_laws
    detail["decided"] = sure
    detail["why"] = (f"{ranked[0][0]} 的候选得分高出第二名 {m:.0%} ≥ {cfg.route_laws:.0%}" if sure
                     else f"最高的法律只高出第二名 {m:.0%} < {cfg.route_laws:.0%}，不缩小范围")
    trace.append(TraceStep(LAWS_TIER, time.perf_counter() - t0, detail))
    scores = {**route.scores, LAWS_TIER: detail}
    if not sure:
        return replace(route, scores=scores)
    best = ranked[0][0]
    ids = tuple(dict.fromkeys(h.chunk.doc_id for h in hits if law(h.chunk.doc_id) == best))
    subs = tuple(dict.fromkeys(docs[i].subindex for i in ids))
    return replace(route, tier=LAWS_TIER, subindexes=subs or route.subindexes, doc_ids=ids, confidence=0.9,
                   reason=detail["why"], scores=scores)
