"""Keyword query terms of a question: question phrases dropped, single characters as a back-off only."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from zhiku.chunk.context import release_numbers
from zhiku.retrieve.segment import _CJK_WORD, normalise, query_terms

# Phrases that ask rather than say what about: how long, whether, may I…, what to do. They
# are cut from the text before segmentation, so a segmenter that emits sub-words (mixed:
# 多长时间 → 多 长 时间 长时间) does not turn them into search terms. Units stay (小时, 天):
# 多/几 go, the unit the answer is counted in is kept.
QUESTION_PHRASES = (
    "多长时间", "多少时间", "多长", "多久", "多少", "多大", "多远", "几个", "几",
    "怎么办", "怎么样", "怎么", "怎样", "如何", "为什么", "为啥", "干嘛", "咋办", "咋",
    "什么情况下", "什么时候", "什么", "哪些", "哪个", "哪里", "哪儿", "哪",
    "是否", "能否", "可否", "能不能", "可不可以", "会不会", "是不是", "有没有", "算不算",
    "要不要", "行不行", "可以吗", "合法吗", "违法吗", "正常吗", "对吗", "行吗",
    "请问", "我想问", "想问一下", "问一下", "这样", "那样", "这种", "那种", "这算", "算是",
)
# sentence-final particles, only where a clause ends (酒吧 keeps its 吧)
_FINAL = r"[吗呢吧啊呀嘛](?=[\s，。？！?!,.;；、]|$)"
_PHRASES = re.compile("|".join([re.escape(p) for p in sorted(QUESTION_PHRASES, key=len, reverse=True)]
                               + [_FINAL]))


# the question phrases that say what kind of answer is asked for (a time limit, an amount, the
# conditions, which ones): the rest only ask whether, or fill (是否, 能不能, 行吗, 怎么办, 请问, 这样)
ANSWER_KIND_PHRASES = frozenset({
    "多长时间", "多少时间", "多长", "多久", "多少", "多大", "多远", "几个", "几", "怎么样", "怎么", "怎样",
    "如何", "为什么", "为啥", "什么情况下", "什么时候", "什么", "哪些", "哪个", "哪里", "哪儿", "哪",
})
_WHETHER = re.compile("|".join([re.escape(p) for p in sorted(QUESTION_PHRASES, key=len, reverse=True)
                                if p not in ANSWER_KIND_PHRASES] + [_FINAL]))


def cut_question_phrases(text: str, whether_only: bool = False) -> str:
    """``text`` as written (not normalised) with its question phrases replaced by a space; with
    ``whether_only`` those that say what kind of answer is asked for (:data:`ANSWER_KIND_PHRASES`:
    多久, 多少, 什么情况下) are kept and only those that ask whether or fill are cut."""
    return (_WHETHER if whether_only else _PHRASES).sub(" ", text)


def focus_question(text: str) -> str:
    """``text`` with its question phrases replaced by a space (see :data:`QUESTION_PHRASES`).

    Args:
        text: a question.

    Returns:
        The normalised text without the phrases; the text itself when nothing else is left.
    """
    text = normalise(text)
    out = cut_question_phrases(text)
    return out if _CJK_WORD.search(out) or re.search(r"\w", out) else text


def char_backoff(tokens: Sequence[str], df: Callable[[str], int]) -> list[str]:
    """Tokens without the single characters a longer known word of the question covers.

    A mixed segmenter adds each word's characters so that an unseen word (冷静期) still
    matches through its characters. For a word the corpus knows (违反, 治安) those
    characters only add noise: summed over a question, 违/反/治/安/管/理 decide near-ties
    among unrelated passages. They are kept only as a back-off for words no chunk holds,
    and when the segmenter produced the character on its own.

    Args:
        tokens: the segmenter's tokens of the question, in order.
        df: how many chunks contain a token.

    Returns:
        The tokens, covered single characters removed.
    """
    known = [t for t in tokens if len(t) > 1 and _CJK_WORD.fullmatch(t) and df(t) > 0]
    unseen = [t for t in tokens if len(t) > 1 and _CJK_WORD.fullmatch(t) and df(t) == 0]
    out = []
    for t in tokens:
        if len(t) == 1 and _CJK_WORD.fullmatch(t):
            if any(t in w for w in known) and not any(t in w for w in unseen):
                continue
        out.append(t)
    return out


def version_forms(terms: Sequence[str], df: Callable[[str], int]) -> list[str]:
    """The other spelling of each release number among ``terms`` that the index holds:
    ``v4.8.9`` for ``4.8.9`` and ``4.8.9`` for ``v4.8.9`` (config ``version_forms``).

    Args:
        terms: a question's keyword terms.
        df: how many chunks contain a token.

    Returns:
        The forms to search too, none already among ``terms``; a form no chunk holds is left out,
        and a date written with dots (2025.06.03) is no release (:func:`release_numbers`).
    """
    have = set(terms)
    out = []
    for t in terms:  # a release number, with or without its v, is one token to the segmenter
        number = t[1:] if t.startswith("v") else t
        if number not in release_numbers(t):
            continue
        other = number if t.startswith("v") else f"v{t}"
        if other not in have and df(other) > 0:
            have.add(other)
            out.append(other)
    return out


def keyword_terms(segment: Callable[[str], list[str]], question: str, df: Callable[[str], int],
                  focus: bool = True, backoff: bool = False) -> list[str]:
    """The BM25 terms of a question.

    Args:
        segment: the index's segmenter.
        question: the question (or its rewrite with the term dictionary applied).
        df: how many chunks contain a token.
        focus: cut question phrases first (:func:`focus_question`).
        backoff: keep single characters only as a back-off (:func:`char_backoff`).

    Returns:
        Distinct terms in question order, question words dropped.
    """
    tokens = segment(focus_question(question) if focus else question)
    if backoff:
        tokens = char_backoff(tokens, df)
    return query_terms(tokens)
