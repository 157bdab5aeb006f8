"""What a keyword-ranked passage means, as the offline answer weighs it: the cosine of its stored
vector with the question's, beside the words it shares with the question.

A keyword ranking of everyday questions puts near-ties among neighbouring articles (the
article on overtime before the one on the working day for 「每天工作时间最长不超过几个
小时」) and literal matches in another law (「最长不得超过2年」 of a ship registration rule for a
lease's longest term) at the top; the words the passages share with the question tie too, so
the answer quoted whichever ranked first. The passage's meaning as a whole tells them apart:
among the top five of a keyword ranking of the whole laws corpus the gold article had the best
cosine for 35 of 49 questions, where the word choice quoted it for 33. Beside a dense list the
ranking already holds that evidence (the same choice on a hybrid ranking: 28 of 48), so the
bonus (``answer_meaning`` 12) applies only to a keyword-only ranking, as the chapter-heading cosine does
(:func:`zhiku.retrieve.fields.by_headings`).

No question is encoded for it: the vector is the one the ranking's heading cosine already made
(:meth:`zhiku.kb.KnowledgeBase.known_query_vector`); a question too long for that (a case
narrative, ~400 ms to encode) gets no bonus. Stored vectors are read by row id (~2 ms for five).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhiku.retrieve.complete import cosines
from zhiku.types import Hit


def meaning_bonus(kb: Any, question: str, hits: Sequence[Hit], weight: float) -> tuple[float, ...]:
    """Per hit, ``weight`` × how far its stored vector's cosine with the question lies above the
    lowest among ``hits`` (0 for a hit without a vector); () when the bonus does not apply:
    weight 0, no vectors, a dense list in the ranking, or the question not encoded already.

    Args:
        kb: the knowledge base (its store's vectors and the remembered question vectors).
        question: the question as asked.
        hits: the evidence the answer chooses among, best first.
        weight: the config's ``answer_meaning`` (points of coverage per cosine point).
    """
    if not weight or len(hits) < 2 or any("dense" in h.sources for h in hits) or not kb.has_vectors():
        return ()
    q = kb.known_query_vector(question)
    if q is None:
        return ()
    sims = cosines(q, kb.store.vectors_of([h.chunk.id for h in hits]))
    cos = [sims.get(h.chunk.id) for h in hits]
    known = [c for c in cos if c is not None]
    if len(known) < 2:
        return ()
    low = min(known)
    return tuple(0.0 if c is None else weight * (c - low) for c in cos)
