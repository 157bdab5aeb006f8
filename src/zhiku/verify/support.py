"""Does a block support a sentence? Segmented term overlap, character bigrams, the numbers
the sentence states, and (when the overlap alone cannot decide) embedding similarity."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from zhiku.chunk import cn_to_int
from zhiku.retrieve.segment import QUESTION_WORDS, normalise
from zhiku.verify.citations import support as bigram_support

Segmenter = Callable[[str], list[str]]
EmbedFn = Callable[[list[str]], np.ndarray]

_STRUCT = re.compile(r"第\s*[零〇一二两三四五六七八九十百千万\d]+\s*[条章节款项编]")
_UNIT = r"(个月|个工作日|个|日|天|年|周岁|岁|万元|元|倍|次|周|月|人|名|项|小时|分钟|秒|%|万|亿)"
_ARABIC = re.compile(r"(\d+(?:\.\d+)?)\s*" + _UNIT + "?")
_CN_QTY = re.compile(r"([零〇一二两三四五六七八九十百千万]+)" + _UNIT)
_SENT = re.compile(r"[^。！？；\n]+[。！？；]?")


@dataclass(frozen=True)
class Support:
    """How well one block backs one sentence.

    ``lexical`` is the mean of the sentence's segmented content-term recall and its
    character-bigram share in the block; ``semantic`` the best cosine between the sentence
    and the block's closest sentences (None when not computed); ``numbers`` lists the
    quantities the sentence states that the block does not contain.
    """

    lexical: float
    semantic: float | None
    numbers: tuple[str, ...]
    supported: bool


def content_terms(words: Segmenter, text: str) -> list[str]:
    """The sentence's content words: segmented, question/function words and single
    characters that are not digits removed."""
    out = []
    for w in words(text):
        if w in QUESTION_WORDS or (len(w) == 1 and not w.isdigit()):
            continue
        out.append(w)
    return list(dict.fromkeys(out))


def quantities(text: str) -> list[tuple[str, int, str]]:
    """Numbers a sentence states, as (written form, value, unit or ""): Arabic numbers,
    and Chinese numerals followed by a unit (六个月, 三倍); article and chapter numbers
    (第十九条) are left out."""
    t = _STRUCT.sub(" ", normalise(text))
    out = [(m.group(1), int(float(m.group(1))), m.group(2) or "") for m in _ARABIC.finditer(t)]
    for m in _CN_QTY.finditer(t):
        try:
            v = cn_to_int(m.group(1))
        except (ValueError, KeyError):  # an approximate count (五六百) is not one value
            continue
        if v:
            out.append((m.group(1), v, m.group(2)))
    return out


# the kind of value a unit states: a question's own figure (「我男朋友今年才二十一岁」) is the
# user's situation, which a rule answers with a value of the same kind (「不得早于二十二周岁」)
_KIND_OF_UNIT = {"岁": "age", "周岁": "age", "元": "money", "万元": "money", "人": "people", "名": "people",
                 **dict.fromkeys(("日", "天", "年", "个月", "月", "周", "小时", "分钟", "秒", "个工作日"), "time")}


@lru_cache(maxsize=8192)  # called for every question term against every passage it is looked for in
def value_kind(term: str) -> str | None:
    """The kind of value ``term`` states when it is nothing but a number and its unit
    (二十一岁 → ``age``, 三个月 → ``time``, 5000元 → ``money``), else None; a year
    (2018年) is a date, not a period."""
    got = quantities(term)
    if len(got) != 1:
        return None
    form, value, unit = got[0]
    if re.sub(r"\s+", "", normalise(term)) != form + unit:
        return None
    kind = _KIND_OF_UNIT.get(unit)
    return None if kind == "time" and value >= 1000 else kind


# a calendar date (2008年1月1日, 1月1日, 十月一日) says when, not how long
_CALENDAR = re.compile(r"(?:\d{2,4}\s*年\s*)?\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?|"
                       r"[一二三四五六七八九十正]{1,3}月[一二三四五六七八九十]{1,3}[日号]")


def states_value(kind: str, text: str) -> bool:
    """Whether ``text`` states a value of ``kind`` (:func:`value_kind`); a calendar date
    is no period."""
    if kind == "time":
        text = _CALENDAR.sub(" ", text)
    return any(_KIND_OF_UNIT.get(u) == kind and not (kind == "time" and v >= 1000)
               for _, v, u in quantities(text))


def term_in(term: str, text: str) -> bool:
    """Whether a question term is in ``text`` (normalised): the term itself, or for a
    stated figure (二十一岁) a value of the same kind (二十二周岁)."""
    if term in text:
        return True
    kind = value_kind(term)
    return kind is not None and states_value(kind, text)


def missing_numbers(sentence: str, block: str) -> tuple[str, ...]:
    """Quantities of ``sentence`` that ``block`` does not state with the same unit (in
    Arabic or Chinese form); a unit-less number only needs its value."""
    have = quantities(block)
    pairs = {(v, u) for _, v, u in have}
    values = {v for _, v, _ in have}
    miss = []
    for form, v, u in quantities(sentence):
        if (v, u) in pairs or (not u and v in values):
            continue
        miss.append(form + u)
    return tuple(miss)


def lexical(words: Segmenter, sentence: str, block: str) -> float:
    """Mean of content-term recall and character-bigram share of ``sentence`` in ``block``."""
    terms = content_terms(words, sentence)
    b = normalise(block)
    recall = sum(t in b for t in terms) / len(terms) if terms else 1.0
    return 0.5 * (recall + bigram_support(sentence, block))


class SupportScorer:
    """Decides support with calibrated thresholds (see docs/verify.md).

    A sentence is supported by a block when every quantity it states is in the block and
    either its lexical overlap reaches ``lexical_min`` or it lies between
    ``lexical_floor`` and ``lexical_min`` and the embedding cosine reaches ``semantic_min``.
    Without an embedder the ambiguous zone counts as unsupported.
    """

    def __init__(self, words: Segmenter, embed: EmbedFn | None, lexical_min: float = 0.8,
                 lexical_floor: float = 0.45, semantic_min: float = 0.94) -> None:
        self.words, self.embed = words, embed
        self.lexical_min, self.lexical_floor, self.semantic_min = lexical_min, lexical_floor, semantic_min

    def score(self, sentence: str, block: str) -> Support:
        """Score one sentence against one block.

        Args:
            sentence: an answer sentence without citation markers.
            block: the text of the evidence block it cites.

        Returns:
            The scores and the verdict.
        """
        miss = missing_numbers(sentence, block)
        lex = lexical(self.words, sentence, block)
        if miss or lex < self.lexical_floor:
            return Support(lex, None, miss, False)
        if lex >= self.lexical_min:
            return Support(lex, None, miss, True)
        sem = self.semantic(sentence, block)
        return Support(lex, sem, miss, sem is not None and sem >= self.semantic_min)

    def semantic(self, sentence: str, block: str) -> float | None:
        """Best cosine between the sentence and the three block sentences sharing most
        bigrams with it (a long block's vector blurs the one sentence that matters)."""
        if self.embed is None:
            return None
        parts = [s.strip() for s in _SENT.findall(block) if s.strip()] or [block]
        parts = sorted(parts, key=lambda p: -bigram_support(sentence, p))[:3]
        vecs = self.embed([sentence, *parts])
        return float(np.max(vecs[1:] @ vecs[0]))

    def best(self, sentence: str, blocks: Sequence[str]) -> tuple[int, Support] | None:
        """The index and support of the first block (best lexical first) supporting the
        sentence, or None."""
        order = sorted(range(len(blocks)), key=lambda i: -lexical(self.words, sentence, blocks[i]))
        for i in order[:3]:
            s = self.score(sentence, blocks[i])
            if s.supported:
                return i, s
        return None
