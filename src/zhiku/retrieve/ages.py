"""An age written in digits (15岁) searched as the documents write ages: in Chinese numerals,
and as the age bounds around it that the index holds (未满十六周岁, 已满十四周岁)."""

from __future__ import annotations

import re
from collections.abc import Callable

from zhiku.chunk.numerals import int_to_cn
from zhiku.retrieve.segment import normalise

_AGE = re.compile(r"(?<!\d)(\d{1,3})\s*(?:周岁|岁)")
MAX_AGE = 120
MIN_BOUND_DF = 2  # an age the index states in this many chunks (not once in passing) is a bound
NEAR = 5  # years between an age and the bounds searched for it


def _bound(term: str, df: Callable[[str], int]) -> bool:
    """Whether ``term`` (四周岁) is an age the index holds on its own in at least
    :data:`MIN_BOUND_DF` chunks, not only inside a longer one (十四周岁)."""
    return df(term) - df("十" + term) >= MIN_BOUND_DF


def age_terms(question: str, df: Callable[[str], int]) -> list[str]:
    """Keyword terms for the ages a question writes in digits.

    A question says 15岁 or 17岁; a law states the bounds an age falls between
    (未满十六周岁, 十六周岁以上) in Chinese numerals, so neither the digits nor the age itself
    match. For each age: its Chinese-numeral forms the index holds (十五岁), and the nearest
    bound at or below it and the nearest above it, :data:`NEAR` years at most, among the ages
    ``X周岁`` the index holds (:func:`_bound`: the bounds are read from the index, not listed).

    Args:
        question: the question.
        df: how many chunks contain a token.

    Returns:
        Distinct terms, in the order of the ages.
    """
    out: dict[str, None] = {}
    for m in _AGE.finditer(normalise(question)):
        n = int(m.group(1))
        if not 0 < n <= MAX_AGE:
            continue
        for form in (f"{int_to_cn(n)}岁", f"{int_to_cn(n)}周岁"):
            if df(form):
                out.setdefault(form, None)
        below = next((b for a in range(n, max(n - NEAR, 0), -1) if _bound(b := f"{int_to_cn(a)}周岁", df)), None)
        above = next((b for a in range(n + 1, n + NEAR + 1) if _bound(b := f"{int_to_cn(a)}周岁", df)), None)
        for b in (below, above):
            if b:
                out.setdefault(b, None)
    return list(out)
