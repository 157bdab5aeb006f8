"""Numbered provisions first in keyword ranking: a passage that is no 第X条 (a case report, a
guide, a preamble) weighs less among candidates that hold provisions."""

from __future__ import annotations

from collections.abc import Sequence

from zhiku.types import Hit


def unnumbered_down(hits: Sequence[Hit], weight: float) -> list[Hit]:
    """Keyword hits re-ranked with the score of each hit outside a numbered provision
    (no article) multiplied by ``weight``.

    An everyday question asks what the rule is; a case report or a how-to guide retells
    the rule's words at length around one story, so BM25 ranks it beside (or above) the
    article that states it. The weight applies only where the candidates mix the two
    kinds: a list without any provision (manuals, FAQs) keeps its order.

    Args:
        hits: keyword hits, best first.
        weight: the factor of an unnumbered hit's score; ``1`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        the factor under ``provision``.
    """
    if weight >= 1 or not any(h.chunk.article for h in hits) or all(h.chunk.article for h in hits):
        return list(hits)
    scored = [(h.score * (1.0 if h.chunk.article else weight), i) for i, h in enumerate(hits)]
    order = sorted(range(len(hits)), key=lambda i: (-scored[i][0], i))
    return [Hit(hits[i].chunk, scored[i][0], hits[i].source,
                {**hits[i].sources, "provision": (rank, 1.0 if hits[i].chunk.article else weight)})
            for rank, i in enumerate(order, 1)]
