"""Rare-word bridges: a question word the index holds rarely or never (房子, 别人, 家暴) searches
the index's own word for it (房屋, 他人, 家庭暴力), when two independent signals agree — the
bundled embedder finds the pair unusually close, and either the general thesaurus lists them
together or they share a morpheme (a character: 家暴 → 家庭暴力, 交警 → 交通警察).

The embedder's cosines between short words are compressed (unrelated pairs 0.87–0.89, 期房 ↔
预售商品房 0.93), so closeness is read per word: how many standard deviations a candidate's
cosine stands above the word's mean cosine to the whole vocabulary. Either signal alone is
noisy (the embedder: 坐牢 → 筑牢, 期房 → 期日; characters: 司机 → 司法机关; the thesaurus's
broad groups: 房子 → 楼宇), so a bridge needs both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from zhiku.retrieve.segment import _CJK_WORD

RARE = 20  # a question word held by more chunks is the corpus's own word: not bridged
MAX_WORDS = 4  # words bridged per question, the rarest first: a word the index lacks is embedded
# at ask time (~10 ms each), and a case narrative holds dozens of them
SAMPLE = 2048  # vocabulary words a word's spread of cosines is read from (to about 2 %)


def dictionary_word(word: str) -> bool:
    """Whether the segmenter's dictionary holds ``word``: a word people write (房子, 期房),
    not a segmentation accident of the question (我结, 他管, 这说)."""
    import rjieba

    return bool(rjieba.has_word(word))


def bridgeable(terms: Sequence[str], df: Callable[[str], int],
               known: Callable[[str], bool] = dictionary_word) -> list[str]:
    """The question words worth bridging: dictionary words of two or more CJK characters
    that the index holds in at most :data:`RARE` chunks, the :data:`MAX_WORDS` rarest of
    them in question order.

    Args:
        terms: the question's keyword terms.
        df: how many chunks hold a word.
        known: whether a word is a dictionary word (default :func:`dictionary_word`).
    """
    found = [t for t in dict.fromkeys(terms) if len(t) > 1 and _CJK_WORD.fullmatch(t) and df(t) <= RARE and known(t)]
    keep = set(sorted(found, key=df)[:MAX_WORDS])
    return [t for t in found if t in keep]


@dataclass(frozen=True)
class Vocabulary:
    """The index vocabulary's unit vectors with what a bridge reads of them: the words holding
    each character, and an even sample of the vectors (a word's mean cosine to the whole
    vocabulary and its spread, without comparing it with every word)."""

    words: tuple[str, ...]
    vectors: np.ndarray  # (n, dim) float32, unit length

    @cached_property
    def holding(self) -> dict[str, tuple[int, ...]]:
        """Character → the rows of the words holding it."""
        out: dict[str, list[int]] = {}
        for i, w in enumerate(self.words):
            for c in set(w):
                out.setdefault(c, []).append(i)
        return {c: tuple(v) for c, v in out.items()}

    @cached_property
    def row(self) -> dict[str, int]:
        """Word → its row."""
        return {w: i for i, w in enumerate(self.words)}

    @cached_property
    def sample(self) -> np.ndarray:
        """Every k-th vector, :data:`SAMPLE` or fewer: what a word's spread is read from."""
        return np.ascontiguousarray(self.vectors[:: max(1, -(-len(self.vectors) // SAMPLE))], dtype=np.float32)

    def spread(self, vector: np.ndarray) -> tuple[float, float]:
        """Mean and standard deviation of ``vector``'s cosines to the vocabulary (to an even
        sample of it: two thousand words estimate both to about 2 %, in well under a millisecond)."""
        sims = self.sample @ np.asarray(vector, dtype=np.float32)
        return float(sims.mean()), float(sims.std()) or 1.0


def bridges(words: Sequence[str], vectors: np.ndarray, vocab: Vocabulary, df: Callable[[str], int],
            synonyms: Callable[[str], Sequence[str]], n: int, z: float,
            exclude: Sequence[str] = ()) -> dict[str, str]:
    """Each word's first ``n`` bridges: its thesaurus synonyms and the vocabulary words
    sharing a character with it that the index holds more often than the word, kept when
    their cosine to it stands ``z`` or more standard deviations above the word's mean cosine
    to the vocabulary, closest first.

    Args:
        words: the question words to bridge (see :func:`bridgeable`).
        vectors: their unit vectors, shape (len(words), dim), same embedder as ``vocab``.
        vocab: the index vocabulary and its vectors.
        df: how many chunks hold a word.
        synonyms: a word's thesaurus synonyms.
        n: bridges kept per word.
        z: the least standardised cosine of a bridge.
        exclude: words not to add (the question's own terms).

    Returns:
        Bridge word → the question word it stands in for, in the order of ``words``.
    """
    out: dict[str, str] = {}
    skip = set(exclude) | set(words)
    for t, v in zip(words, np.asarray(vectors, dtype=np.float32)):
        base = df(t)
        rows = {vocab.row[w] for w in synonyms(t) if w in vocab.row}
        rows.update(j for c in set(t) for j in vocab.holding.get(c, ()))
        rows_ = np.fromiter(rows, dtype=np.int64, count=len(rows))
        if n <= 0 or not len(rows_):
            continue
        mu, sd = vocab.spread(v)
        cos = vocab.vectors[rows_] @ v
        kept = 0
        for i in np.argsort(-cos):
            if (cos[i] - mu) / sd < z or kept >= n:
                break
            w = vocab.words[rows_[i]]
            if w in skip or w in out or w in t or df(w) <= base:
                continue
            out[w] = t
            kept += 1
    return out
