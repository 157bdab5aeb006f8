"""Chapter headings in ranking: their words as a keyword field, their meaning as a soft field of the candidates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from zhiku.retrieve.rescore import rescored
from zhiku.types import Chunk, Hit


def idf_words(terms: Sequence[str], idf: Callable[[str], float]) -> dict[str, float]:
    """The question's distinct words of two or more characters, each with its IDF: what the
    field boosts count (a single character, 房 of 房子, says little about a question)."""
    return {t: idf(t) for t in dict.fromkeys(terms) if len(t) > 1}


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
    words = idf_words(terms, idf)
    total = sum(words.values())
    top = max(h.score for h in hits)
    if total <= 0 or top <= 0:
        return list(hits)
    shares = [sum(v for t, v in words.items() if t in " ".join(h.chunk.section_path)) / total
              for h in hits]
    return rescored(hits, [h.score + weight * s * top for h, s in zip(hits, shares)], "heading",
                    [round(s, 4) for s in shares])


def heading_text(chunk: Chunk) -> str:
    """What a chunk's chapter headings say (its section labels, else its document's title)."""
    return " ".join(chunk.section_path) or chunk.title


def heading_similarity(hits: Sequence[Hit], cosines: Sequence[float], share: float,
                       key: str = "headings") -> list[Hit]:
    """Candidates re-ranked by their retrieval score blended with how close the question's
    meaning is to their chapter headings.

    The order is that of ``(1 − share) × score + share × cosine``, each min-max scaled
    over ``hits`` (the weighted fusion of :func:`zhiku.retrieve.fusion.weighted`); the
    score kept is the retrieval score plus the cosine's part on its own scale, so scores
    stay comparable with an unblended ranking. A heading says what a whole chapter is
    about in the law's words (未成年工特殊保护), which a question in everyday words
    (15岁的孩子来帮工) may match in meaning while sharing no word with it.

    Args:
        hits: candidates, best first.
        cosines: one question↔heading cosine per hit.
        share: the cosine's share of the blend, in [0, 1); ``0`` leaves ``hits`` as they are.
        key: the source each hit records its new rank and cosine under.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        ``key`` (``headings``) with its new rank and cosine.
    """
    if share <= 0 or len(hits) < 2 or len(cosines) != len(hits):
        return list(hits)
    lo, hi = min(h.score for h in hits), max(h.score for h in hits)
    clo, chi = min(cosines), max(cosines)
    if chi <= clo:
        return list(hits)
    span = (hi - lo) if hi > lo else (abs(hi) or 1.0)
    w = min(share, 0.99) / (1 - min(share, 0.99))
    return rescored(hits, [h.score + w * span * (c - clo) / (chi - clo) for h, c in zip(hits, cosines)], key,
                    [round(c, 4) for c in cosines])


def by_headings(kb: Any, question: str, hits: list[Hit], detail: dict[str, Any]) -> list[Hit]:
    """``hits`` re-ranked with the question↔chapter-heading cosine as a soft field (see
    :func:`heading_similarity`); heading vectors are kept in the
    vector cache, so each distinct heading is embedded once."""
    from zhiku.embed.base import embed_through_cache

    if len(hits) < 2:
        return hits
    texts = [heading_text(h.chunk) for h in hits]
    distinct = list(dict.fromkeys(texts))
    vecs = embed_through_cache(kb.embedder, kb.config.cache_path, distinct, kb.config.embed_batch)
    q = kb.dense_query(question)
    cos = {t: float(v @ q) for t, v in zip(distinct, vecs)}
    detail.update(headings=len(distinct))
    return heading_similarity(hits, [cos[t] for t in texts], kb.config.heading_similarity)
