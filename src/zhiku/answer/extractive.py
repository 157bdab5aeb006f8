"""Offline answer composer: the question's best-covering sentences, cited, in source order."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zhiku.retrieve.segment import normalise
from zhiku.types import Citation, Hit

_SENT = re.compile(r"[^。！？；\n]+[。！？；]?")


@dataclass(frozen=True)
class Sentence:
    """A candidate sentence of one evidence chunk."""

    hit_rank: int
    pos: int
    text: str
    score: float


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs split at 。！？； and line breaks."""
    return [(m.start(), m.group().strip()) for m in _SENT.finditer(text) if m.group().strip()]


def coverage(terms: Sequence[str], text: str, idf: Callable[[str], float]) -> float:
    """IDF-weighted share of the query terms that occur in ``text`` (0..1)."""
    total = sum(idf(t) for t in terms)
    if total <= 0:
        return 0.0
    t_norm = normalise(text)
    return sum(idf(t) for t in terms if t in t_norm) / total


def compose(
    terms: Sequence[str],
    hits: Sequence[Hit],
    idf: Callable[[str], float],
    max_chars: int = 360,
    whole_first: bool = False,
) -> tuple[str, tuple[Citation, ...]]:
    """Pick sentences that best cover the question and cite each one.

    Args:
        terms: the question's content terms (segmented, question words removed).
        hits: evidence, best first.
        idf: term weight function.
        max_chars: answer length budget (the first sentence is always kept).
        whole_first: quote the first hit whole (an exact clause lookup).

    Returns:
        The answer text with ``[n]`` markers after each sentence, and the citations.
    """
    picked: list[Sentence] = []
    if whole_first and hits:
        picked.append(Sentence(0, 0, hits[0].chunk.text, 1.0))
    else:
        cands = []
        for r, h in enumerate(hits):
            for pos, s in split_sentences(h.chunk.text):
                cov = coverage(terms, s, idf)
                cands.append(Sentence(r, pos, s, cov + 0.15 / (r + 1)))
        cands.sort(key=lambda s: -s.score)
        used = 0
        for s in cands:
            if picked and (used + len(s.text) > max_chars or s.score < 0.5 * picked[0].score):
                continue
            picked.append(s)
            used += len(s.text)
    picked.sort(key=lambda s: (s.hit_rank, s.pos))
    markers: dict[int, int] = {}
    parts: list[str] = []
    quotes: dict[int, list[str]] = {}
    for s in picked:
        m = markers.setdefault(s.hit_rank, len(markers) + 1)
        parts.append(f"{s.text}[{m}]")
        quotes.setdefault(s.hit_rank, []).append(s.text)
    cites = []
    for rank, m in markers.items():
        c = hits[rank].chunk
        cites.append(Citation(m, c.id, c.doc_path, c.title, c.section_path, c.article,
                              "".join(quotes[rank]), c.version_date))
    return "".join(parts), tuple(cites)
