"""The table row the question names (config ``answer_row_keys``, :func:`named_row`): a
question asking one cell of a table names its row by the row's first value (「中危漏洞最高能拿
多少奖励」 names the row 「漏洞等级 中」), while the best-covering row sentence may be a sibling row
sharing the other words (「漏洞等级 低，…奖励金额范围 最高10,000元」)."""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Sequence

from zhiku.answer.extractive import ROW, Sentence
from zhiku.retrieve.segment import normalise
from zhiku.types import Hit

_PAIR_END = re.compile(r"[，,。]")  # a pair's end, as written and normalised


def row_keys(texts: Sequence[str]) -> list[str]:
    """The first value of each row sentence of one table (:func:`zhiku.chunk.tables.row_sentence`,
    「caption：column value，column value…。」): the text after the prefix all of them share
    (the caption and the first column's name, cut back to the space before the value), up to
    the first pair's end; "" for a row whose first pair is not there.

    Args:
        texts: two or more row sentences of one table.

    Returns:
        One key per row, in order.
    """
    common = os.path.commonprefix(list(texts))
    cut = common.rfind(" ") + 1
    if cut <= 0 or _PAIR_END.search(common[:cut]):
        return ["" for _ in texts]
    return [_PAIR_END.split(t[cut:], 1)[0].strip() for t in texts]


@functools.cache
def _words():
    from zhiku.retrieve.segment import segmenters

    return segmenters.create("words")


def names_key(key: str, question: str, words: Sequence[str]) -> bool:
    """Whether the question names a row by its first value: the key stands in the question
    and, when it is one character, opens one of the question's words (中 of 中危, not 高 of
    最高).

    Args:
        key: the row's first value, normalised.
        question: the question, normalised.
        words: the question's words (precise segmentation).
    """
    if not key or key not in question:
        return False
    return len(key) > 1 or any(w.startswith(key) for w in words)


def named_row(picked: list[Sentence], hits: Sequence[Hit], question: str) -> list[Sentence]:
    """``picked`` with its source replaced by the row sentence of the same table that the
    question names by its first value (:func:`names_key`), when the source is a row the
    question does not name and exactly one row of that table among ``hits`` is named; as it
    is otherwise.

    Args:
        picked: the sentences chosen, the source first.
        hits: the evidence the sentences index into.
        question: the question.

    Returns:
        The sentences.
    """
    if not picked or picked[0].hit_rank >= len(hits) or hits[picked[0].hit_rank].chunk.kind != ROW:
        return picked
    first = hits[picked[0].hit_rank].chunk
    rows = [(r, h.chunk) for r, h in enumerate(hits)
            if h.chunk.kind == ROW and h.chunk.parent_id == first.parent_id]
    if len(rows) < 2:
        return picked
    keys = row_keys([normalise(c.text) for _, c in rows])
    q = normalise(question)
    words = _words()(question)
    named = [(r, c) for (r, c), k in zip(rows, keys) if names_key(k, q, words)]
    if len(named) != 1 or named[0][0] == picked[0].hit_rank:
        return picked  # the source is the row named, or the question names none or several
    r, c = named[0]
    return [Sentence(r, 0, c.text, picked[0].cover)]
