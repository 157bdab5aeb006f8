"""Keyword rules of the router: a TOML file of intent → words/regex → sub-indexes, matched
on case- and width-normalised text (about a millisecond per question)."""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from zhiku.errors import ZhikuError


def fold(text: str) -> str:
    """Case and width normalised text (full-width Ａ１ → a1, upper → lower)."""
    return unicodedata.normalize("NFKC", text).lower()


@dataclass(frozen=True)
class Rule:
    """One intent: any word or regex that occurs sends the question to ``subindexes``."""

    intent: str
    subindexes: tuple[str, ...]
    words: tuple[str, ...] = ()
    patterns: tuple[re.Pattern[str], ...] = ()

    def match(self, folded: str) -> str | None:
        """The word or pattern that fired on an already folded question, or None."""
        for w in self.words:
            if w in folded:
                return w
        for p in self.patterns:
            m = p.search(folded)
            if m:
                return m.group(0)
        return None


def load_rules(path: Path, known: set[str] | None = None) -> list[Rule]:
    """Read a rules file (missing file = no rules).

    The file holds ``[[rules]]`` tables with ``intent``, ``subindexes`` and ``words``
    and/or ``regex`` lists.

    Args:
        path: the TOML file.
        known: sub-index names that exist; a rule naming another one is an error.

    Raises:
        ZhikuError: the file cannot be parsed, a rule lacks fields, a regex is invalid or a
            sub-index is unknown.
    """
    if not path.is_file():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ZhikuError(f"cannot read the routing rules {path}: {e}; fix or remove the file") from e
    rules = []
    for i, r in enumerate(data.get("rules", []), 1):
        intent = str(r.get("intent") or f"rule {i}")
        subs = tuple(r.get("subindexes") or ())
        words = tuple(fold(w) for w in r.get("words", ()) if w.strip())
        if not subs or not (words or r.get("regex")):
            raise ZhikuError(f"routing rule {intent!r} in {path} needs subindexes and words or regex")
        unknown = sorted(set(subs) - known) if known is not None else []
        if unknown:
            raise ZhikuError(f"routing rule {intent!r} in {path} names unknown sub-indexes {unknown}; "
                             f"known: {', '.join(sorted(known or ()))}")
        try:
            pats = tuple(re.compile(fold(p)) for p in r.get("regex", ()))
        except re.error as e:
            raise ZhikuError(f"routing rule {intent!r} in {path} has a bad regex: {e}") from e
        rules.append(Rule(intent, subs, words, pats))
    return rules


def match_rules(rules: list[Rule], question: str) -> list[tuple[Rule, str]]:
    """Every rule that fires on ``question``, with the text that fired it, in file order."""
    q = fold(question)
    out = []
    for r in rules:
        w = r.match(q)
        if w is not None:
            out.append((r, w))
    return out
