"""The question side of dense search: what is encoded (the asking phrases cut, a narrative's
clauses apart), how the lists of several query vectors become one, and pseudo-relevance
feedback in vector space (Rocchio)."""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np

from zhiku.registry import Choice
from zhiku.retrieve.terms import cut_question_phrases
from zhiku.types import Hit

# where a narrative's clauses end: Chinese commas, stops, question and exclamation marks,
# semicolons and colons, and their Latin forms but the stop (、 joins items of one clause)
_CLAUSE_END = re.compile(r"[，。？！；：,?!;:]+")
_CJK_GAP = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")
# a clause shorter than this many characters (of words: Chinese characters, letters, digits)
# names no point of its own (还有, 但是, 请问): it is searched only within the whole question
MIN_CLAUSE = 4


class DenseFocus(Choice):
    """Which asking phrases the dense query leaves out: none, all of them, or only those that
    ask whether (是否, 能不能, 行吗, 怎么办), keeping those that say what kind of answer is
    asked for (多久, 多少, 什么情况下)."""

    OFF = ""
    ALL = "all"
    WHETHER = "whether"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "dense focus"


class ClauseMerge(Choice):
    """How the dense lists of a question's clauses join the whole question's list."""

    OFF = ""
    MAX = "max"
    RRF = "rrf"
    MEAN = "mean"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "dense clause merge"


def dense_text(question: str, focus: DenseFocus | bool) -> str:
    """The text dense search encodes for ``question``: with ``focus`` its asking phrases
    (这样做行吗, 怎么办, 能…吗: :data:`zhiku.retrieve.terms.QUESTION_PHRASES`) cut, and the
    clause fragments they leave (这样做行吗 → 做) dropped, so the vector is that of what the
    question is about; the text stays as written (case, full-width marks).

    Args:
        question: the question.
        focus: which asking phrases to cut (True: all, False: none; see :class:`DenseFocus`).

    Returns:
        The text to encode; ``question`` itself when focus is off or nothing is left.
    """
    focus = DenseFocus.ALL if focus is True else DenseFocus.OFF if focus is False else focus
    cut = (question if focus is DenseFocus.OFF
           else cut_question_phrases(question, whether_only=focus is DenseFocus.WHETHER))
    if cut == question:
        return question
    parts = [_CJK_GAP.sub("", p).strip() for p in _CLAUSE_END.split(cut)]
    kept = [p for p in parts if len(re.findall(r"\w", p)) >= 2]
    return "，".join(kept) if kept else question


def clauses(text: str, least: int = MIN_CLAUSE) -> list[str]:
    """The clauses of a narrative (split at ，。？！；：) that hold ``least`` word characters or
    more; none when fewer than two are left (a one-clause question is its whole text).

    Args:
        text: the question (its dense text).
        least: the fewest word characters a clause keeps.

    Returns:
        The clauses in question order, each once.
    """
    parts = [p.strip() for p in _CLAUSE_END.split(text)]
    kept = list(dict.fromkeys(p for p in parts if len(re.findall(r"\w", p)) >= least))
    return kept if len(kept) > 1 else []


def dense_texts(question: str, focus: DenseFocus | bool, merge: ClauseMerge) -> list[str]:
    """Every text the dense search of ``question`` encodes: its dense text first
    (:func:`dense_text`), then, when clauses are searched apart (``merge`` not off), the
    clauses of the question with its asking phrases cut whatever ``focus`` says (a clause
    that only asks, 这样做行吗, names no point: :func:`clauses`)."""
    whole = dense_text(question, focus)
    if merge is ClauseMerge.OFF:
        return [whole]
    return [whole, *(c for c in clauses(dense_text(question, True)) if c != whole)]


def mean_vector(vectors: Sequence[np.ndarray]) -> np.ndarray:
    """The mean of unit-length ``vectors`` (each normalised first), itself of unit length."""
    m = np.stack([np.asarray(v, dtype=np.float32) for v in vectors])
    m = m / np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-12)
    mean = m.mean(axis=0)
    return (mean / max(float(np.linalg.norm(mean)), 1e-12)).astype(np.float32)


def merged(lists: Sequence[Sequence[Hit]], merge: ClauseMerge, k: int, rrf_k: int = 60) -> list[Hit]:
    """One dense list from the lists of several query vectors (the whole question's first):
    ``max`` ranks each chunk by its best cosine with any of them; ``rrf`` by reciprocal rank
    fusion of the lists (Cormack et al. 2009, constant ``rrf_k``), a hit keeping its best
    cosine as its score so the later fusion reads cosines as before. Cut to ``k``.

    Returns:
        New ``dense`` hits, ranks renumbered.
    """
    if len(lists) == 1:
        return list(lists[0])[:k]
    best: dict[str, Hit] = {}
    order: dict[str, float] = {}
    for hits in lists:
        for rank, h in enumerate(hits, 1):
            if h.chunk.id not in best or h.score > best[h.chunk.id].score:
                best[h.chunk.id] = h
            gain = 1.0 / (rrf_k + rank) if merge is ClauseMerge.RRF else h.score
            order[h.chunk.id] = (order.get(h.chunk.id, 0.0) + gain if merge is ClauseMerge.RRF
                                 else max(order.get(h.chunk.id, -1.0), gain))
    ids = sorted(order, key=lambda c: -order[c])[:k]
    return [Hit(best[c].chunk, best[c].score, "dense", {"dense": (i, best[c].score)})
            for i, c in enumerate(ids, 1)]


def rocchio(question: np.ndarray, feedback: Sequence[np.ndarray], beta: float) -> np.ndarray:
    """The question's vector moved towards the mean of the ``feedback`` vectors (the first
    fused hits' stored vectors): q' = q̂ + β · mean(d̂), normalised (Rocchio 1971, "Relevance
    feedback in information retrieval", with the pseudo-relevant set as the relevant one and
    no negative set).

    Args:
        question: the question's vector.
        feedback: stored vectors of the passages taken as relevant.
        beta: their weight against the question's.

    Returns:
        The new query vector (unit length); the question's own (normalised) without feedback.
    """
    q = np.asarray(question, dtype=np.float32)
    q = q / max(float(np.linalg.norm(q)), 1e-12)
    if not len(feedback) or beta <= 0:
        return q
    moved = q + beta * mean_vector(feedback)
    return (moved / max(float(np.linalg.norm(moved)), 1e-12)).astype(np.float32)
