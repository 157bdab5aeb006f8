"""Bigram support: how much of a sentence a source text contains (quotes, web results)."""

from __future__ import annotations

import re

from zhiku.retrieve.segment import normalise

_PUNCT = re.compile(r"[\s，。！？；：、“”‘’（）()《》,.!?;:\"'\-]")


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
