"""Field weight of chapter headings in keyword ranking: hits whose headings hold the question's words move up."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from zhiku.types import Hit


def heading_boost(hits: Sequence[Hit], terms: Sequence[str], idf: Callable[[str], float],
                  weight: float) -> list[Hit]:
    """Keyword hits re-ranked with their chapter headings counted as a field of their own.

    BM25 reads a chunk's header (title and section labels) once, inside its text, so a
    heading word weighs no more than the same word in the body. This adds, per hit, the
    IDF share of the question's words (two or more characters) that its section labels
    hold, times ``weight``, on the scale of the best hit's score: the BM25F idea of
    weighting a short field above the body (Robertson, Zaragoza and Taylor 2004), applied
    to the candidates only. Single characters are left out: a heading holding 房 says
    little about a question holding 房子.

    Args:
        hits: keyword hits, best first.
        terms: the question's keyword terms.
        idf: IDF of a term over chunks.
        weight: heading share weight relative to the best hit's score; ``0`` leaves ``hits``
            as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        ``heading`` with its new rank and heading share.
    """
    if weight <= 0 or not hits:
        return list(hits)
    words = {t: idf(t) for t in dict.fromkeys(terms) if len(t) > 1}
    total = sum(words.values())
    top = max(h.score for h in hits)
    if total <= 0 or top <= 0:
        return list(hits)
    shares = [sum(v for t, v in words.items() if t in " ".join(h.chunk.section_path)) / total
              for h in hits]
    order = sorted(range(len(hits)), key=lambda i: (-(hits[i].score + weight * shares[i] * top), i))
    return [Hit(hits[i].chunk, hits[i].score + weight * shares[i] * top, hits[i].source,
                {**hits[i].sources, "heading": (rank, round(shares[i], 4))})
            for rank, i in enumerate(order, 1)]
