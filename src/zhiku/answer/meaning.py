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

The question's vector is the one the ranking's heading cosine (or the dense search) already made,
encoded here when none did (:func:`question_vector`), never read "when known": an earlier ask of the
same question must not change its answer. A case narrative is encoded too (``answer_meaning_long``;
off, it gets no bonus). Stored vectors are read by row id (~2 ms for five).
An index without vectors (the default whole-corpus keyword ingest) has none to read: with
``answer_meaning_encode`` the five blocks are encoded through the vector cache instead, as the
chapter headings are for the heading cosine, each in the short form the passage cosine embeds
(title, last chapter heading, the first ``answer_meaning_chars`` characters:
:func:`zhiku.retrieve.passages.short_form`), not whole: the encoder's time follows the length.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhiku.retrieve.complete import cosines
from zhiku.types import Hit


def meaning_bonus(kb: Any, question: str, hits: Sequence[Hit], weight: float,
                  encode: bool = False, chars: int = 0) -> tuple[float, ...]:
    """Per hit, ``weight`` × how far its stored vector's cosine with the question lies above the
    lowest among ``hits`` (0 for a hit without a vector); () when the bonus does not apply:
    weight 0, no vectors (unless ``encode``), a dense list in the ranking, or a narrative with ``answer_meaning_long``
    off (:func:`question_vector`).

    Args:
        kb: the knowledge base (its store's vectors and the remembered question vectors).
        question: the question as asked.
        hits: the evidence the answer chooses among, best first.
        weight: the config's ``answer_meaning`` (points of coverage per cosine point).
        encode: in an index holding no vectors, encode the hits' texts (through the vector
            cache, as the ingest would) instead of reading stored ones (config
            ``answer_meaning_encode``).
        chars: with ``encode``, encode each hit's short form (:func:`zhiku.retrieve.passages.short_form`:
            title, last chapter heading, the first ``chars`` characters) instead of its whole
            text; 0 = the whole text (config ``answer_meaning_chars``).
    """
    if not weight:
        return ()
    cos = block_cosines(kb, question, hits, encode, chars)
    if not cos:
        return ()
    low = min(c for c in cos if c is not None)
    return tuple(0.0 if c is None else weight * (c - low) for c in cos)


def block_cosines(kb: Any, question: str, hits: Sequence[Hit], encode: bool = False,
                  chars: int = 0) -> tuple[float | None, ...]:
    """Per hit, the cosine of its vector (stored, or with ``encode`` in an index holding none,
    its short form's or text's through the vector cache: see :func:`meaning_bonus`) with the
    question's, None for a hit without one; () when what it means is not read: fewer than two
    hits, a dense list in the ranking, no vectors (unless ``encode``), a narrative with
    ``answer_meaning_long`` off (:func:`question_vector`), or fewer than two cosines."""
    if len(hits) < 2 or any("dense" in h.sources for h in hits):
        return ()
    stored = kb.has_vectors()
    if not stored and not encode:
        return ()
    q = question_vector(kb, question)
    if q is None:
        return ()
    sims = cosines(q, kb.store.vectors_of([h.chunk.id for h in hits]) if stored else _encoded(kb, hits, chars))
    cos = tuple(sims.get(h.chunk.id) for h in hits)
    return cos if sum(c is not None for c in cos) >= 2 else ()


def question_vector(kb: Any, question: str):
    """The question's vector for its meaning, decided by the question alone (one answer for one
    question, whatever the process asked before): encoded, or its vector reused (the heading cosine
    of a keyword-only ranking, the narrative cosine and the dense search have made it already in
    most asks: no added encoding in practice); a question of more than ``heading_max_words`` words
    (a case narrative, ~400 ms to encode) gets none when ``answer_meaning_long`` is off. Never "the
    vector when one is known": a narrative no step of a keyword ask encoded got the bonus only
    after the same question had been asked in hybrid mode, and then quoted another block."""
    from zhiku.retrieve.segment import query_terms

    cfg = kb.config
    if not cfg.answer_meaning_long and 0 < cfg.heading_max_words < len(query_terms(kb.words(question))):
        return None
    return kb.query_vector(question)


def _encoded(kb: Any, hits: Sequence[Hit], chars: int = 0) -> dict[str, Any]:
    """The hits' vectors by chunk id, encoded through the vector cache from their short forms
    (``chars`` > 0: :func:`zhiku.retrieve.passages.short_form`) or whole texts (0), one text per
    encoder call: the bundled model encodes a single text on one thread, where five at once on
    its threads took seconds on a busy machine (~0.6 s one by one whole, under load)."""
    from zhiku.embed.base import embed_through_cache
    from zhiku.retrieve.passages import short_form

    chunks = list({h.chunk.id: h.chunk for h in hits}.values())
    texts = [short_form(c, chars) if chars > 0 else c.text for c in chunks]
    vecs = embed_through_cache(kb.embedder, kb.config.cache_path, texts, 1)
    return {c.id: v for c, v in zip(chunks, vecs)}
