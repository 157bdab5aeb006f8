"""Offline answer composer: the question's best-covering sentences, cited, in source order."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from zhiku.retrieve.segment import normalise
from zhiku.types import Citation, Hit

_SENT = re.compile(r"[^。！？\n]+[。！？]?")
_CLAUSE = re.compile(r"[^；]+；?")
LONG_SENTENCE = 160


@dataclass(frozen=True)
class Sentence:
    """A candidate sentence of one evidence chunk."""

    hit_rank: int
    pos: int
    text: str
    score: float


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs split at 。！？ and line breaks; a sentence longer than
    ``LONG_SENTENCE`` characters is split further at ；."""
    out = []
    for m in _SENT.finditer(text):
        sent = m.group()
        if len(sent) <= LONG_SENTENCE:
            out.append((m.start(), sent))
            continue
        out.extend((m.start() + c.start(), c.group()) for c in _CLAUSE.finditer(sent))
    return [(pos, s.strip()) for pos, s in out if s.strip()]


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
    max_chars: int = 300,
    whole_first: bool = False,
    max_sentences: int = 4,
    max_sources: int = 3,
) -> tuple[str, tuple[Citation, ...]]:
    """Pick sentences that best cover the question and cite each one.

    Args:
        terms: the question's content terms (segmented, question words removed).
        hits: evidence, best first.
        idf: term weight function.
        max_chars: answer length budget (the first sentence is always kept).
        whole_first: quote the first hit whole (an exact clause lookup).
        max_sentences: at most this many sentences.
        max_sources: sentences come from the best this many hits.

    Returns:
        The answer text with ``[n]`` markers after each sentence, and the citations.
    """
    picked: list[Sentence] = []
    if whole_first and hits:
        picked.append(Sentence(0, 0, hits[0].chunk.text, 1.0))
    else:
        picked = _pick(terms, hits[:max_sources], idf, max_chars, max_sentences)
    picked.sort(key=lambda s: (s.hit_rank, s.pos))
    return _render(picked, hits)


def _pick(terms, hits, idf, max_chars: int, max_sentences: int) -> list[Sentence]:
    """Each of the two best hits contributes its best sentence when retrieval ranks it
    close to the top (score at least 80 % of the best hit's); the rest is filled greedily
    with sentences scoring at least 60 % of the best sentence."""
    cands = []
    for r, h in enumerate(hits):
        for pos, s in split_sentences(h.chunk.text):
            cands.append(Sentence(r, pos, s, coverage(terms, s, idf) + 0.15 / (r + 1)))
    cands.sort(key=lambda s: -s.score)
    if not cands:
        return []
    best = cands[0].score
    picked: list[Sentence] = [cands[0]]
    for r in (0, 1):
        top = next((c for c in cands if c.hit_rank == r), None)
        close = r < len(hits) and hits[r].score >= 0.8 * hits[0].score
        if top is not None and top not in picked and close and top.score > 0.15 / (r + 1):
            picked.append(top)
    used = sum(len(s.text) for s in picked)
    for s in cands:
        if len(picked) >= max_sentences:
            break
        if s in picked or used + len(s.text) > max_chars or s.score < 0.6 * best:
            continue
        picked.append(s)
        used += len(s.text)
    return picked


def _render(picked: list[Sentence], hits: Sequence[Hit]) -> tuple[str, tuple[Citation, ...]]:
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
                              "…".join(quotes[rank]), c.version_date, c.page))
    return "".join(parts), tuple(cites)
