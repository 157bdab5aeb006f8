"""Citation verification: every cited sentence must be supported by the text it cites."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from zhiku.retrieve.segment import normalise
from zhiku.types import Chunk

_MARKED = re.compile(r"(.+?)((?:\[\d+\])+)")
_PUNCT = re.compile(r"[\s，。！？；：、“”‘’（）()《》,.!?;:\"'\-]")


@dataclass(frozen=True)
class CitationCheck:
    """The verdict on one sentence and the blocks it cites."""

    sentence: str
    markers: tuple[int, ...]
    supported: bool
    support: float


def _bigrams(s: str) -> set[str]:
    return {s[i : i + 2] for i in range(len(s) - 1)} or {s}


def support(sentence: str, source: str) -> float:
    """Share of the sentence's character bigrams found in the source (0..1)."""
    a = _PUNCT.sub("", normalise(sentence))
    b = _PUNCT.sub("", normalise(source))
    if not a:
        return 1.0
    if a in b:
        return 1.0
    grams = _bigrams(a)
    return len(grams & _bigrams(b)) / len(grams)


def verify(text: str, cited: Mapping[int, Chunk], threshold: float = 0.6) -> list[CitationCheck]:
    """Check each marked sentence of ``text`` against the chunks its markers name.

    Args:
        text: answer text with ``[n]`` markers after sentences.
        cited: marker number → chunk.
        threshold: minimum bigram support for a sentence to count as supported.

    Returns:
        One check per marked sentence; a marker naming no chunk is unsupported.
    """
    out = []
    for m in _MARKED.finditer(text):
        sent = m.group(1)
        marks = tuple(int(x) for x in re.findall(r"\d+", m.group(2)))
        best = max((support(sent, cited[k].text) for k in marks if k in cited), default=0.0)
        out.append(CitationCheck(sent, marks, best >= threshold, best))
    return out
