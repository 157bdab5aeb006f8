"""A document's standing among legal texts, as the offline answer weighs it: a statute or a
regulation states the rule an everyday question asks about; a rule implementing or interpreting
one (a court's interpretation, a ministry's 办法, a 实施细则) restates or details it.

Among the top five of a keyword ranking of the whole laws corpus for the everyday questions, 49
of 50 gold articles were of a statute or a regulation, while an implementing or interpreting
rule held 48 of the 275 other passages: when a rule restates its statute (「初次申领机动车驾驶证后
的12个月为实习期」 in the regulation and in the ministry's rule on licences, or a court's
interpretation repeating 民法典's article on animals in the words of a narrower case) the answer
quoted whichever ranked first. Read from the title only, so documents that are no legal text
(a handbook, a report) are left alone, and only when the evidence holds numbered provisions of
both kinds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from zhiku.types import Hit

# 「最高人民法院关于审理民间借贷案件适用法律若干问题的规定」「企业职工带薪年休假实施办法」
# 「…的解释（一）」「人民检察院刑事诉讼规则」: a rule under a statute or regulation
SUBORDINATE = re.compile(r"^最高人民(?:法院|检察院)|(?:解释|规定|办法|细则|规则)(?:[（(][一二三四五六七八九十]+[)）])?$")


def subordinate(title: str) -> bool:
    """Whether a document ``title`` names a rule implementing or interpreting a statute or a
    regulation (:data:`SUBORDINATE`)."""
    return bool(SUBORDINATE.search(title.strip()))


def asks_figure(cons: Sequence[Any]) -> bool:
    """Whether a question asks a figure (how long, how much, how many: a quantity of one of the
    :data:`zhiku.verify.provisions.FIGURES` kinds among what it pins down,
    :func:`zhiku.verify.pins.pinned`; not who, when or where). Such a figure is often what a rule under a statute adds to it (the share of wages
    a deduction may take, how many days before a licence expires it is renewed): the statute's
    standing says nothing of which block states it."""
    from zhiku.verify.pins import Kind
    from zhiku.verify.provisions import FIGURES

    return any(c.kind is Kind.QUANTITY and c.text in FIGURES for c in cons)


def standing_bonus(hits: Sequence[Hit], weight: float) -> tuple[float, ...]:
    """Per hit, ``weight`` for a numbered provision of a statute or regulation when the hits also
    hold a numbered provision of a rule under one, else 0; () when that mix is absent or the
    weight is 0 (config ``answer_standing``)."""
    if not weight:
        return ()
    kinds = [None if h.chunk.article is None else subordinate(h.chunk.title or "") for h in hits]
    if True not in kinds or False not in kinds:
        return ()
    return tuple(weight if k is False else 0.0 for k in kinds)
