"""Dense scoring of the keyword candidates only: the bundled embedder reads a short form of the
best few candidates (title, chapter, the article's opening words), so a keyword-only index
gains the meaning of a question in everyday words without vectors for the whole corpus."""

from __future__ import annotations

import re
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


def by_passages(kb: Any, question: str, hits: list[Hit], detail: dict[str, Any]) -> list[Hit]:
    """The best ``passage_candidates`` of ``hits`` re-ranked with the question↔short-form cosine
    blended at ``passage_similarity`` (as :func:`zhiku.retrieve.fields.heading_similarity`
    blends the headings'), the rest after them as they were. Each short form is embedded
    once: its vector is kept in the vector cache by its text's hash."""
    from zhiku.embed.base import embed_through_cache

    cfg = kb.config
    n = min(len(hits), cfg.passage_candidates)
    if cfg.passage_similarity <= 0 or n < 2:
        return hits
    texts = [short_form(h.chunk, cfg.passage_chars) for h in hits[:n]]
    vecs = embed_through_cache(kb.embedder, cfg.cache_path, texts, cfg.embed_batch)
    q = kb.dense_query(question)
    cos = [float(v @ q) for v in vecs]
    detail.update(passages=n)
    return heading_similarity(hits[:n], cos, cfg.passage_similarity, "passage") + hits[n:]

