"""Document evidence in keyword ranking: hits of a document that many strong hits point to move up."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from zhiku.types import Hit

DEPTH = 3  # a document's evidence: the sum of its best this-many hit scores


def document_boost(hits: Sequence[Hit], weight: float, depth: int = DEPTH) -> list[Hit]:
    """Keyword hits re-ranked with their document's evidence added to their own score.

    A question in everyday words often matches a stray passage of an unrelated document
    as well as several passages of the right one. This scores each document by the sum
    of its best ``depth`` hit scores among ``hits`` and adds to every hit ``weight`` times
    its document's share of the best document's evidence, on the scale of the best hit's
    score: the passage-plus-document combination of Callan (1994, "Passage-level evidence
    in document retrieval"), applied to the candidates only.

    Args:
        hits: keyword hits, best first.
        weight: document evidence weight relative to the best hit's score; ``0`` leaves
            ``hits`` as they are.
        depth: how many of a document's best hits make its evidence, at least 1.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        ``document`` with its new rank and its document's evidence share.
    """
    if weight <= 0 or len(hits) < 2:
        return list(hits)
    top = max(h.score for h in hits)
    by_doc: dict[str, list[float]] = defaultdict(list)
    for h in hits:
        by_doc[h.chunk.doc_id].append(h.score)
    evidence = {d: sum(sorted(s, reverse=True)[:max(1, depth)]) for d, s in by_doc.items()}
    best = max(evidence.values())
    if top <= 0 or best <= 0:
        return list(hits)
    shares = [evidence[h.chunk.doc_id] / best for h in hits]
    scores = [h.score + weight * s * top for h, s in zip(hits, shares)]
    order = sorted(range(len(hits)), key=lambda i: (-scores[i], i))
    return [Hit(hits[i].chunk, scores[i], hits[i].source,
                {**hits[i].sources, "document": (rank, round(shares[i], 4))})
            for rank, i in enumerate(order, 1)]
