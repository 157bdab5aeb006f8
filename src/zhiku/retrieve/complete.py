"""Fusion on complete evidence: before a keyword and a dense list are fused, each
candidate only one of them retrieved is scored by the other retriever too."""

from __future__ import annotations

from collections.abc import Callable, Sequence
import numpy as np

from zhiku.types import Hit

# where a filled-in score is recorded: beside the retrievers' own keys (``bm25``,
# ``dense``), which keep meaning "this retriever found it at this rank"
FILLED = {"bm25": "bm25_filled", "dense": "dense_filled"}


def cosines(question: np.ndarray, vectors: dict[str, np.ndarray]) -> dict[str, float]:
    """The cosine between the question's vector and each stored vector (by chunk id); with
    several query vectors (rows of a 2-D ``question``: a question's clauses searched apart)
    the best of their cosines, as the dense list ranks them."""
    if not vectors:
        return {}
    ids = list(vectors)
    m = np.stack([vectors[i] for i in ids]).astype(np.float32)
    q = np.atleast_2d(np.asarray(question, dtype=np.float32))
    q = q / np.maximum(np.linalg.norm(q, axis=1, keepdims=True), 1e-12)
    norms = np.linalg.norm(m, axis=1)
    sims = ((m @ q.T) / np.where(norms > 0, norms, 1.0)[:, None]).max(axis=1)
    return dict(zip(ids, (float(s) for s in sims)))


def filled(hits: Sequence[Hit], others: Sequence[Hit], scores: Callable[[list[str]], dict[str, float]],
           source: str) -> list[Hit]:
    """``hits`` (one retriever's list, best first) completed with the candidates of
    ``others`` it lacks, each scored by ``scores`` (chunk ids → this retriever's score;
    an id left out is left out: the retriever would not find it at all, as a passage
    holding none of the query's words), re-ranked by score.

    Without this, fusion reads "not retrieved" as "no evidence": reciprocal rank fusion
    gives a passage one list ranks first and the other never saw 1 / (k + 1), less than
    any passage both lists hold at ranks up to 2k + 1, and weighted fusion counts it 0 on
    the other side. Scored by both, every candidate is fused on what each retriever makes
    of it (the completed lists of Fox and Shaw's CombSUM, 1994, rather than missing
    values).

    Args:
        hits: this retriever's hits, best first.
        others: the other retriever's hits.
        scores: this retriever's score of the given chunk ids.
        source: this retriever's name (``bm25`` or ``dense``).

    Returns:
        New list: ``hits`` keep their sources; a filled hit has ``source`` and records its
        rank in the completed list and its score under ``FILLED[source]``. Stable: equal
        scores keep the retrieved hits first, then the others' order.
    """
    have = {h.chunk.id for h in hits}
    missing = list({h.chunk.id: h.chunk for h in others if h.chunk.id not in have}.values())
    if not missing:
        return list(hits)
    got = scores([c.id for c in missing])
    extra = [Hit(c, float(got[c.id]), source, {}) for c in missing if c.id in got]
    merged = list(hits) + extra
    order = sorted(range(len(merged)), key=lambda i: (-merged[i].score, i))
    key, n = FILLED.get(source, source + "_filled"), len(hits)
    return [merged[i] if i < n else Hit(merged[i].chunk, merged[i].score, source, {key: (rank, merged[i].score)})
            for rank, i in enumerate(order, 1)]


def complete(keyword: list[Hit], dense: list[Hit], question: np.ndarray, vectors: dict[str, np.ndarray],
             bm25: Callable[[list[str]], dict[str, float]]) -> tuple[list[Hit], list[Hit]]:
    """The keyword and dense lists of one search, each completed with the other's
    candidates (see :func:`filled`): a keyword candidate's dense score is the cosine of the
    question's vector with its stored vector (nothing is encoded); a dense candidate's
    keyword score is the BM25 of the keyword query over that chunk, with the index's
    statistics (``bm25``: the store's :meth:`keyword_scores` of that query).

    Args:
        keyword: the keyword hits, best first (before any re-weighing).
        dense: the dense hits, best first.
        question: the question's vector (the one the dense search used).
        vectors: stored vectors by chunk id, of the keyword candidates at least.
        bm25: chunk ids → their BM25 scores for the keyword query.
    """
    def cosine(ids: list[str]) -> dict[str, float]:
        return cosines(question, {i: vectors[i] for i in ids if i in vectors})

    return filled(keyword, dense, bm25, "bm25"), filled(dense, keyword, cosine, "dense")
