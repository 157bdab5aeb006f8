"""Character bigrams beside words and term proximity: two re-readings of the keyword
candidates by the question's words as the statutes write them (both off: measured without a gain)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from zhiku.retrieve.fields import heading_similarity
from zhiku.retrieve.rescore import rescored
from zhiku.retrieve.segment import _CJK_WORD, QUESTION_WORDS, normalise
from zhiku.retrieve.terms import focus_question
from zhiku.types import Hit

K1, B = 1.2, 0.75  # BM25's constants (Robertson and Zaragoza 2009)
_SENTENCE = re.compile(r"[。；;！？!?\n]+")


def bigrams(text: str) -> list[str]:
    """Overlapping character bigrams of each run of CJK characters in ``text`` (a run of
    one character gives none; punctuation, Latin letters and digits end a run)."""
    out: list[str] = []
    for m in _CJK_WORD.finditer(normalise(text)):
        run = m.group()
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


def question_bigrams(question: str, words: Callable[[str], list[str]]) -> list[str]:
    """The distinct bigrams of a question's content part: its question phrases cut as the
    focus step cuts them (:func:`zhiku.retrieve.terms.focus_question`), then its question and
    function words (:data:`zhiku.retrieve.segment.QUESTION_WORDS`, read by the precise
    segmenter ``words``) cut too, so that no bigram spans 我/了/是否; the bigrams of each run
    of characters left (年休假 → 年休, 休假, where a statute's 带薪年休假 holds both)."""
    out: list[str] = []
    for run in _CJK_WORD.findall(focus_question(question)):  # punctuation ends a run
        out.extend(bigrams("".join(" " if w in QUESTION_WORDS else w for w in words(run))))
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class BigramStats:
    """How many searched chunks hold each character bigram (``df``), how many chunks there
    are (``n``) and their mean length in bigrams (``avg_len``): the BM25 statistics of a
    bigram field the index does not store."""

    df: Mapping[str, int]
    n: int
    avg_len: float

    @classmethod
    def build(cls, texts: Iterable[str]) -> BigramStats:
        """Counted over the searched chunks' ``texts`` (~8 s at 66k law passages)."""
        df: Counter[str] = Counter()
        n = total = 0
        for t in texts:
            grams = bigrams(t)
            df.update(set(grams))
            total += len(grams)
            n += 1
        return cls(dict(df), max(n, 1), total / max(n, 1))

    def save(self, path: Path, key: str) -> None:
        """Write the statistics to ``path`` (JSON) for the index state ``key``; a home that
        cannot be written keeps them in memory only."""
        try:
            path.write_text(json.dumps({"key": key, "n": self.n, "avg_len": self.avg_len, "df": self.df},
                                       ensure_ascii=False), encoding="utf-8")
        except OSError:
            pass

    @classmethod
    def load(cls, path: Path, key: str) -> BigramStats | None:
        """The statistics saved for ``key``, or None (no file, another index state, unreadable)."""
        try:
            got = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(got, dict) or got.get("key") != key:
            return None
        return cls(got["df"], int(got["n"]), float(got["avg_len"]))

    def idf(self, gram: str) -> float:
        """Robertson–Spärck Jones IDF of a bigram: ln(1 + (N − df + .5)/(df + .5))."""
        d = self.df.get(gram, 0)
        return math.log(1 + (self.n - d + 0.5) / (d + 0.5))

    def score(self, grams: Sequence[str], text: str) -> float:
        """BM25 of the question's bigrams ``grams`` over one chunk's ``text`` (a bigram no
        chunk holds scores nothing)."""
        mine = bigrams(text)
        tf = Counter(mine)
        norm = K1 * (1 - B + B * len(mine) / (self.avg_len or 1.0))
        return sum(self.idf(g) * tf[g] * (K1 + 1) / (tf[g] + norm) for g in grams if tf[g] and g in self.df)


def bigram_rescore(hits: Sequence[Hit], grams: Sequence[str], stats: BigramStats, share: float) -> list[Hit]:
    """Keyword candidates re-ranked by their word score blended with the BM25 of the
    question's character bigrams over their text (config ``bigram_weight``).

    The order is that of ``(1 − share) × word score + share × bigram score``, each min-max
    scaled over ``hits`` (as :func:`zhiku.retrieve.fields.heading_similarity` blends); the
    score kept is the word score plus the bigram part on its scale. Words and bigrams differ
    where the question and the statute cut one concept differently (年假 / 年休假,
    经济补偿金 / 补偿): the bigrams still meet.

    Args:
        hits: keyword candidates, best first.
        grams: the question's bigrams (:func:`question_bigrams`).
        stats: the corpus's bigram statistics.
        share: the bigram score's share of the blend, in [0, 1); ``0`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each records ``bigrams`` with its new
        rank and bigram score.
    """
    if share <= 0 or len(hits) < 2 or not grams:
        return list(hits)
    return heading_similarity(hits, [stats.score(grams, h.chunk.text) for h in hits], share, "bigrams")


def best_sentence(text: str, words: Mapping[str, float]) -> float:
    """The most IDF of the question's ``words`` that one sentence of ``text`` holds (a
    sentence ends at 。；！？ or a line break), as a share of all their IDF."""
    total = sum(words.values())
    if total <= 0:
        return 0.0
    best = 0.0
    for sent in _SENTENCE.split(normalise(text)):
        if sent:
            best = max(best, sum(v for w, v in words.items() if w in sent))
    return best / total


def proximity_boost(hits: Sequence[Hit], words: Mapping[str, float], weight: float) -> list[Hit]:
    """Keyword candidates re-ranked with a gain for holding the question's words close
    together (config ``proximity_weight``): ``weight`` × the IDF share of the question's words
    its best sentence holds (:func:`best_sentence`), on the scale of the best hit's score (as
    :func:`zhiku.retrieve.fields.heading_boost` adds its field). BM25 reads a chunk as a bag of
    words: an article holding the question's words in one sentence and a long one scattering
    them over its paragraphs score alike (term proximity: Tao and Zhai 2007).

    Args:
        hits: keyword candidates, best first.
        words: the question's distinct words of two or more characters with their IDF
            (:func:`zhiku.retrieve.fields.idf_words`).
        weight: the gain relative to the best hit's score; ``0`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each records ``proximity`` with its
        new rank and best sentence's share.
    """
    if weight <= 0 or len(hits) < 2 or not words:
        return list(hits)
    top = max(h.score for h in hits)
    shares = [best_sentence(h.chunk.text, words) for h in hits]
    return rescored(hits, [h.score + weight * s * top for h, s in zip(hits, shares)], "proximity",
                    [round(s, 4) for s in shares])
