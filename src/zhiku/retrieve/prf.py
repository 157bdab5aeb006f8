"""Pseudo-relevance feedback for keyword search (RM3): the best first-pass passages lend their words."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zhiku.index.store import Scope
from zhiku.retrieve.segment import _CJK_WORD, QUESTION_WORDS
from zhiku.types import Hit

Keyword = Callable[[Sequence[str], int, Scope], list[Hit]]


@dataclass(frozen=True)
class Feedback:
    """RM3 parameters: passages read, words added, and the weight of the original terms
    (a term repeated n times in a BM25 query weighs n times)."""

    docs: int = 10
    terms: int = 10
    original_weight: int = 2


def feedback_terms(hits: Sequence[Hit], segment: Callable[[str], list[str]], idf: Callable[[str], float],
                   exclude: Sequence[str], n_docs: int, n_terms: int) -> list[str]:
    """The words of the first-pass passages most likely in a relevant one (relevance model 1).

    P(w|R) ∝ Σ_d P(w|d)·P(d|q), with P(d|q) the passage's share of the first-pass score
    (Lavrenko and Croft 2001; RM3 as in Abdul-Jaleel et al. 2004), times the word's IDF so
    that words every passage shares (应当, 规定) do not win. Only words of two or more
    characters that the question lacks are candidates.

    Args:
        hits: the first-pass ranking.
        segment: the index's segmenter.
        idf: a word's IDF over chunks.
        exclude: the question's own terms.
        n_docs: how many passages are read.
        n_terms: how many words are returned.

    Returns:
        Up to ``n_terms`` words, best first.
    """
    top = [h for h in hits[:n_docs] if h.score > 0]
    total = sum(h.score for h in top)
    if not top or total <= 0:
        return []
    skip = set(exclude) | QUESTION_WORDS
    weight: Counter[str] = Counter()
    for h in top:
        toks = [t for t in segment(h.chunk.text) if len(t) > 1 and _CJK_WORD.fullmatch(t)]
        if not toks:
            continue
        for w, n in Counter(toks).items():
            if w not in skip:
                weight[w] += (n / len(toks)) * (h.score / total)
    scored = {w: p * idf(w) for w, p in weight.items()}
    return sorted(scored, key=lambda w: -scored[w])[:n_terms]


def keyword_with_feedback(keyword: Keyword, segment: Callable[[str], list[str]], idf: Callable[[str], float],
                          terms: Sequence[str], k: int, scope: Scope, fb: Feedback) -> tuple[list[Hit], list[str]]:
    """BM25 for ``terms``, then again with the feedback words added below the originals.

    Args:
        keyword: the store's BM25 search.
        segment: the index's segmenter.
        idf: a word's IDF over chunks.
        terms: the question's terms.
        k: how many hits.
        scope: where to search.
        fb: the feedback parameters.

    Returns:
        The second-pass hits (the first pass when no word was added) and the added words.
    """
    first = keyword(terms, max(k, fb.docs), scope)
    extra = feedback_terms(first, segment, idf, terms, fb.docs, fb.terms)
    if not extra:
        return first[:k], []
    return keyword([*terms] * fb.original_weight + extra, k, scope), extra
