"""A general Chinese thesaurus as a source of expansion words: a question word's synonyms
that the index holds (房子 → 房屋, 怀孕 → 妊娠), searched below the question's own words.

The groups are reference data (``data/sim_words.txt.gz``, derived from cnsyn; see
``data/README.md``); the index decides which of their words are worth searching.
"""

from __future__ import annotations

import gzip
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data") / "sim_words.txt.gz"
RARE = 20  # a question word held by more chunks is the corpus's own word: not expanded


@dataclass(frozen=True)
class Thesaurus:
    """Groups of words of one sense, each a tuple in the source's order."""

    groups: tuple[tuple[str, ...], ...]

    @cached_property
    def of(self) -> dict[str, tuple[int, ...]]:
        """Word → the numbers of the groups it is in."""
        out: dict[str, list[int]] = {}
        for i, g in enumerate(self.groups):
            for w in g:
                out.setdefault(w, []).append(i)
        return {w: tuple(v) for w, v in out.items()}

    def synonyms(self, word: str, max_group: int) -> list[str]:
        """The other words of ``word``'s groups of at most ``max_group`` words (broad groups
        gather loosely related words: 手术 → 针灸, 化疗), smallest group first.

        Args:
            word: a question word.
            max_group: the most words a group may have to be read.
        """
        groups = sorted((self.groups[i] for i in self.of.get(word, ())), key=len)
        return list(dict.fromkeys(w for g in groups if len(g) <= max_group for w in g if w != word))

    def expand(self, terms: Sequence[str], df: Callable[[str], int], n: int, max_group: int) -> list[str]:
        """Words to search besides ``terms``: for each term of two or more characters that
        the index holds in at most :data:`RARE` chunks (a layperson's word: 房子, not 工作)
        its first ``n`` synonyms of two or more characters that the index holds more often
        than the term itself (the corpus's way of saying it: 房子 → 房屋).

        Args:
            terms: the question's keyword terms (question words already dropped).
            df: how many chunks hold a word.
            n: synonyms kept per term.
            max_group: the most words a group may have to be read.

        Returns:
            Distinct added words, in the order of the terms they came from.
        """
        have = set(terms)
        out: dict[str, None] = {}
        for t in terms:
            if len(t) < 2 or t not in self.of:
                continue
            base = df(t)
            if base > RARE:
                continue
            got = [w for w in self.synonyms(t, max_group)
                   if len(w) > 1 and w not in have and w not in out and df(w) > base][:n]
            out.update(dict.fromkeys(got))
        return list(out)


_loaded: dict[str, Thesaurus] = {}
_lock = threading.Lock()


def load_thesaurus(path: Path = DATA) -> Thesaurus:
    """The thesaurus at ``path`` (gzip text, one group a line, words separated by spaces),
    read once per process."""
    with _lock:
        got = _loaded.get(str(path))
        if got is None:
            with gzip.open(path, "rt", encoding="utf-8") as f:
                got = Thesaurus(tuple(tuple(line.split()) for line in f if line.strip()))
            _loaded[str(path)] = got
        return got


def rare_synonyms(kb: Any) -> Callable[[str], list[str]]:
    """The statute's words for a layperson's word: for a term of two characters or more that
    the index of ``kb`` holds in at most :data:`RARE` chunks (斑马线, 马路, not 工作), the other
    words of two characters or more of its thesaurus groups of at most ``thesaurus_group`` words
    (:meth:`Thesaurus.synonyms`: 人行横道, 道路); other terms: none. Read by the dense veto's
    coverage (config ``dense_veto_synonyms``) and the offline answer's choice of sentence
    (``answer_term_synonyms``): the evidence names the same thing in its own word."""
    syn = load_thesaurus()
    most = kb.config.thesaurus_group

    def same(term: str) -> list[str]:
        if len(term) < 2 or term not in syn.of or kb.store.doc_frequency(term) > RARE:
            return []
        return [w for w in syn.synonyms(term, most) if len(w) > 1]

    return same
