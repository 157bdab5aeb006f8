"""Answer types in keyword ranking: a question asking how long or how much prefers passages that state a period or a sum,
one asking which provision applies to an act those that define an offence and its penalty."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum

from zhiku.retrieve.rescore import rescored
from zhiku.types import Hit

_NUM = r"[零〇一二两三四五六七八九十百千万半\d]+"


class AnswerType(Enum):
    """What kind of fact a question asks for, when its asking phrase says so."""

    PERIOD = "period"  # 多久, 多长时间内, 几天: a time limit or a duration
    SUM = "sum"  # 罚多少钱, 赔多少: an amount of money
    FEE = "fee"  # 要交钱吗, 收费吗: whether something costs
    AGE = "age"  # 几岁, 多大年龄: an age
    OFFENCE = "offence"  # 适用哪一条, 构成什么罪, 判几年: a provision defining an offence and its penalty


# the asking phrase of each type (how a layperson asks) and how a statute states its answer
_ASKS: dict[AnswerType, re.Pattern[str]] = {
    AnswerType.PERIOD: re.compile(r"多久|多长时间|多少时间|多长期限|(?:几|多少)(?:个)?(?:天|日|小时|周|星期|个月|月|年)"),
    AnswerType.SUM: re.compile(r"(?:罚|赔|补|付|给|交|收|花)(?:多少|几)(?:钱|元|块)?|多少钱|多少元|几块钱|多少罚款|多少赔偿"),
    AnswerType.FEE: re.compile(r"(?:交|收|花|付|掏|要)钱|收费|付费|要钱|免费"),
    AnswerType.AGE: re.compile(r"几岁|多少岁|多大年龄|多大年纪|年龄是多少|多大才"),
    AnswerType.OFFENCE: re.compile(r"适用[^？?。，,]{0,8}哪[一个]?条|构成[^？?。，,]{0,4}罪|(?:什么|何种|哪种|哪个)罪"
                                   r"|罪名|怎么判|如何判|判(?:几|多少)年|判刑|坐牢|定罪|量刑"),
}
_STATES: dict[AnswerType, re.Pattern[str]] = {
    AnswerType.PERIOD: re.compile(_NUM + r"(?:个)?(?:日|天|小时|周|个月|月|年)(?:内|以内|以上|以下|之内|届满|为限)?|时效|期限|期间届满"),
    AnswerType.SUM: re.compile(_NUM + r"(?:元|万元)"),
    AnswerType.FEE: re.compile(r"收费|收取|费用|免费|缴纳|交纳"),
    AnswerType.AGE: re.compile(_NUM + r"周岁"),
    # an act and what follows from it: 「…的，处三年以下有期徒刑」「…的，是贪污罪」「…的，依照…规定定罪处罚」
    AnswerType.OFFENCE: re.compile(r"的[，,][^。；]{0,40}?(?<!判)处(?:" + _NUM + r"(?:年|日|元|倍)"
                                   r"|拘役|管制|罚金|死刑|无期|警告|罚款|拘留)|的[，,]是[^。；，犯]{1,12}罪|定罪处罚"),
}


# how often, asked (「工资最少多长时间要发一次」, 「隔多久体检」) and stated: a rule says how often by
# the period of its round (每月, 按季, 一年一次, 每两年), not always as a count of days
FREQUENCY_ASK = re.compile(r"(?:多久|多长时间|多少时间)[^，,。；;？?]{0,8}?[一1](?:次|回)|隔多[久长]")
FREQUENCY = re.compile(r"每(?:" + _NUM + r"个?)?(?:日|天|周|星期|旬|月|季度?|年|半年|小时)"
                       r"|按(?:日|天|周|月|季度?|年)(?!份)|(?:日|天|周|月|季度|年)[一二两三四五六七八九十\d]次")


def answer_types(question: str, offence: bool = True) -> tuple[AnswerType, ...]:
    """The answer types a question's asking phrase names (none for most questions).

    Args:
        question: the question as asked.
        offence: include :attr:`AnswerType.OFFENCE` (the ``offence_type`` setting).

    Returns:
        The types, in :class:`AnswerType` order.
    """
    return tuple(t for t, p in _ASKS.items() if p.search(question) and (offence or t is not AnswerType.OFFENCE))


def states(kind: AnswerType, text: str) -> bool:
    """Whether ``text`` states an answer of ``kind`` (六十日内, 二百元, 十六周岁).

    Args:
        kind: the answer type.
        text: a passage.
    """
    return _STATES[kind].search(text) is not None


def answer_type_boost(hits: Sequence[Hit], types: Sequence[AnswerType], weight: float) -> list[Hit]:
    """Keyword hits re-ranked so that, for a question asking how long or how much, the
    passages stating a period or a sum move up.

    The asking phrase (多久, 罚多少钱) is cut from the keyword query because no statute
    uses it, but it says what the answer looks like: a number of days, a sum of yuan.
    Each candidate whose text states an answer of an asked type gains ``weight`` times the
    best hit's score: the answer-type matching of question answering systems (Prager et
    al. 2000, "Question-answering by predictive annotation"), applied to the candidates only.

    Args:
        hits: keyword hits, best first.
        types: the answer types the question asks for (:func:`answer_types`).
        weight: the gain relative to the best hit's score; ``0`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); a moved hit records ``answer_type``
        with its new rank. ``hits`` unchanged without ``types``.
    """
    if weight <= 0 or len(hits) < 2 or not types:
        return list(hits)
    top = max(h.score for h in hits)
    if top <= 0:
        return list(hits)
    has = [any(states(t, h.chunk.text) for t in types) for h in hits]
    if all(has) or not any(has):
        return list(hits)
    return rescored(hits, [h.score + (weight * top if x else 0.0) for h, x in zip(hits, has)], "answer_type",
                    [1.0 if x else 0.0 for x in has])


def offence_first(hits: Sequence[Hit], types: Sequence[AnswerType], window: int) -> list[Hit]:
    """``hits`` with, for a question asking which provision applies to an act, the ones
    defining an offence first among the best ``window``: after fusion a general rule (自首,
    犯罪未遂) that a dense list or the search of the whole index ranked high can still lead the
    provisions the narrative's act falls under. Each group keeps its order, the hits after
    the window stay where they are.

    Args:
        hits: fused candidates, best first.
        types: the answer types the question asks for (:func:`answer_types`).
        window: how many of the first hits are reordered; ``0`` = none.

    Returns:
        The same hits, reordered only for :attr:`AnswerType.OFFENCE`.
    """
    if window <= 0 or AnswerType.OFFENCE not in types:
        return list(hits)
    head = list(hits[:window])
    has = [states(AnswerType.OFFENCE, h.chunk.text) for h in head]
    return [h for h, x in zip(head, has) if x] + [h for h, x in zip(head, has) if not x] + list(hits[window:])
