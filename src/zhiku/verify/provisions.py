"""A statute states a value in its own terms: a quantity the question asks of what the user
does (「一年能休几天带薪假」, 「生孩子能在家歇多少天」, 「一年挣多少钱」) is met, weakly, by a
numbered provision stating a value of that kind beside another word (「…年休假5天」, 「女职工生育
享受不少于九十天的产假」, 「减除费用六万元」). Read by the answerability check
(:func:`zhiku.verify.answerable.check`) and the composer's sentence choice
(:func:`zhiku.verify.answerable.meets_all`); config ``answerability_provisions``."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from zhiku.verify.pins import Constraint

# verbs that ask of a thing, not of an act (「起征点是多少」, 「年假有多少天」), and the modals
_NOT_ACTS = {"是", "有", "为", "叫", "要", "能", "会", "可以", "能够", "需要", "应当", "应该", "得", "算", "占"}
#: The quantity kinds a figure answers (how long, how much, how many: :data:`zhiku.verify.pins._QTY`),
#: which a provision states beside its own word for the thing; a time is read by its event, a
#: name by its kind (neither is loosened). The composer's ``answer_standing_figures`` reads them too.
FIGURES = frozenset({"days", "hours", "age", "people", "money", "amount", "duration", "frequency", "number"})
_ARTICLE = re.compile(r"第[零〇一二两三四五六七八九十百千\d]+条")


@lru_cache(maxsize=4096)
def of_act(before: str) -> bool:
    """Whether a quantity is asked of an act: the word before the quantity's asking words
    (``before`` is the clause up to them), past adverbs and pronouns (最多, 每月, 在家), is a
    verb other than a copula or a modal (「一年能休几天」, 「在家歇多少天」, 「一年挣多少钱」). The
    user's verb is the situation's word; a statute states the value in its own terms (年休假5天,
    九十天的产假). A quantity of a thing the question names (「起征点是每月多少钱」, 「年假有多少天」,
    「哺乳假有多少天」 where the tagger glues 有 to the noun) is not."""
    from zhiku.verify.pins import word_tags

    tags = [(w.strip(), t) for w, t in word_tags(before) if w.strip()]
    while tags and tags[-1][1][:1] in ("d", "r"):
        tags.pop()
    if not tags or tags[-1][1] not in ("v", "vn"):
        return False
    word = tags[-1][0]
    return word not in _NOT_ACTS and word[-1] not in "是有为"


def worded(c: Constraint) -> bool:
    """Whether ``c`` is a quantity asked of an act (:func:`of_act`) of a kind a provision states
    as a figure (days, hours, an age, a head count, a sum, a period, a number)."""
    return c.kind.value == "quantity" and c.of_act and c.text in FIGURES


def provision(block: str) -> bool:
    """Whether ``block`` (its title and text: :func:`zhiku.chunk.context.block_text`) is a
    numbered provision: a title without punctuation, then 第…条 within its first 40 characters."""
    first = block.split(maxsplit=1)
    return (len(first) == 2 and not re.search(r"[，,。！？!?；;：:]", first[0])
            and _ARTICLE.search(first[1][:40]) is not None)


def unworded(cons: tuple[Constraint, ...], cited: Sequence[tuple[str, str]],
             met: Callable[[Constraint, str, str], bool]) -> tuple[tuple[Constraint, ...], tuple[Constraint, ...]] | None:
    """The constraints and the misses of the first cited numbered provision (:func:`provision`)
    whose quoted sentences state a value of every quantity kind it misses (``met``, the check's
    reading of one constraint in a block and what is quoted from it, with the quantity's words
    dropped), the misses being quantities asked of an act (:func:`worded`) and the attribute a
    sum is asked of (「挣多少钱」): those quantities as ``unworded`` twins, which never decide
    (:func:`zhiku.verify.answerable.decisive`). None when no cited block qualifies."""
    from zhiku.verify.pins import Constraint, Kind

    for block, said in cited:
        if not provision(block):
            continue
        miss = [c for c in cons if not met(c, block, said)]
        qty = [c for c in miss if c.kind is Kind.QUANTITY]
        if not qty or any(c.kind is not Kind.QUANTITY and c.about != "sum" for c in miss):
            continue
        if all(worded(c) and met(Constraint(c.kind, c.text), block, said) for c in qty):
            twins = {c: Constraint(c.kind, c.text, c.about, True, True) for c in qty}
            return tuple(twins.get(c, c) for c in cons), tuple(twins.get(c, c) for c in miss)
    return None
