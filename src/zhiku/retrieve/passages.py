"""Dense scoring of the keyword candidates only: the bundled embedder reads a short form of the
best few candidates (title, chapter, the article's opening words), or for a case narrative the
candidates of the law it names whole, so a keyword-only index gains the meaning of a question
in everyday words without vectors for the whole corpus."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from zhiku.retrieve.fields import heading_similarity
from zhiku.types import Chunk, Hit

_LABEL = re.compile(r"^\s*第[零〇一二三四五六七八九十百千万\d]+条(之[一二三四五六七八九十]+)?\s*")


def short_form(chunk: Chunk, chars: int) -> str:
    """What the embedder reads of a candidate: its document's title, its last chapter heading
    and the first ``chars`` characters of its text (the article's number cut)."""
    head = chunk.section_path[-1] if chunk.section_path else ""
    body = _LABEL.sub("", chunk.text)[:chars]
    return " ".join(x for x in (chunk.title, head, body) if x)


def _cosines(kb: Any, question: str, texts: list[str], batch: int | None = None) -> list[float]:
    """The question's cosine with each text, the texts embedded through the vector cache (each
    encoded once, kept by its text's hash; ``batch`` texts per encoder call, default
    ``embed_batch``) and the question as a query."""
    from zhiku.embed.base import embed_through_cache

    vecs = embed_through_cache(kb.embedder, kb.config.cache_path, texts, batch or kb.config.embed_batch)
    q = kb.dense_query(question)
    return [float(v @ q) for v in vecs]


def by_passages(kb: Any, question: str, hits: list[Hit], detail: dict[str, Any]) -> list[Hit]:
    """The best ``passage_candidates`` of ``hits`` re-ranked with the question↔short-form cosine
    blended at ``passage_similarity`` (as :func:`zhiku.retrieve.fields.heading_similarity`
    blends the headings'), the rest after them as they were.

    The short forms' vectors are read from the vector cache, where ``zhiku embed --short-forms``
    (:meth:`zhiku.kb.KnowledgeBase.embed_short_forms`) stored them; when one of the candidates'
    is missing there the order is left as it was (the trace's ``passages_missing`` says how many),
    so an ask costs no encoder call and gives the same ranking whatever else runs. With
    ``passage_encode`` the missing forms are encoded instead, one per encoder call, and kept
    in the vector cache."""
    cfg = kb.config
    n = min(len(hits), cfg.passage_candidates)
    if cfg.passage_similarity <= 0 or n < 2:
        return hits
    forms = [short_form(h.chunk, cfg.passage_chars) for h in hits[:n]]
    if cfg.passage_encode:
        # one short form per encoder call: the bundled encoder then runs each on one thread, as it reads a
        # question; 20 forms as one batch on both cores of a busy machine took it 7.7 s, one by one 4.3 s
        cos = _cosines(kb, question, forms, 1)
    else:
        from zhiku.embed.base import cached_through

        vecs = cached_through(kb.embedder, cfg.cache_path, forms)
        missing = sum(v is None for v in vecs)
        if missing:
            detail.update(passages_missing=missing)
            return hits
        q = kb.dense_query(question)
        cos = [float(v @ q) for v in vecs]
    detail.update(passages=n)
    return heading_similarity(hits[:n], cos, cfg.passage_similarity, "passage") + hits[n:]


def by_narrative(kb: Any, question: str, hits: list[Hit], named: Collection[str],
                 detail: dict[str, Any]) -> list[Hit]:
    """A narrative's candidates re-ranked with the narrative↔candidate cosine blended at
    ``narrative_meaning`` (as :func:`zhiku.retrieve.fields.heading_similarity` blends the
    headings'), for the candidates of the documents it names; another document's candidate
    gets the lowest of their cosines.

    A case narrative tells the facts (持刀胁迫, 点燃杂草, 明知是盗窃所得而收购) in words the
    provision it falls under (寻衅滋事, 失火, 掩饰、隐瞒犯罪所得) shares few of, while its
    procedure words (被害人, 证言, 如实供述) match general rules; the embedder reads the
    narrative's meaning. Each candidate is embedded whole, as an ingest with vectors embeds
    it, through the vector cache (a law's articles are encoded once); the narrative itself is
    encoded once per ask (~0.5–1 s on two busy cores).

    Args:
        kb: the knowledge base (its embedder, vector cache and ``narrative_meaning``).
        question: the narrative as asked.
        hits: the candidates, best first.
        named: the documents the question names.
        detail: the trace step's detail, which records how many were embedded.

    Returns:
        ``hits`` re-ranked; unchanged when the setting is 0, no document is named or fewer
        than two candidates are of the named documents.
    """
    cfg = kb.config
    own = [h for h in hits if h.chunk.doc_id in named]
    if cfg.narrative_meaning <= 0 or len(own) < 2:
        return hits
    cos = {h.chunk.id: c for h, c in zip(own, _cosines(kb, question, [h.chunk.text for h in own]))}
    low = min(cos.values())
    detail.update(narrative=len(own))
    return heading_similarity(hits, [cos.get(h.chunk.id, low) for h in hits], cfg.narrative_meaning, "meaning")
