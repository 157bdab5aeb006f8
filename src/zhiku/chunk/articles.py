"""Article labels (第十九条, 第一百二十条之一): the regex, parsing and normal form."""

from __future__ import annotations

import re
from functools import lru_cache

from zhiku.chunk.numerals import NUMERAL_CHARS, cn_to_int, int_to_cn

_NUM = f"[0-9０-９{NUMERAL_CHARS}]+"

#: An article label at the start of a line or paragraph: ``第十九条 ``, ``第19条：``,
#: ``第一百二十条之一　``. The label must be followed by whitespace, a colon or the end
#: of the line, so a sentence that merely starts with a reference (``第二十条规定的…``)
#: is not an article; a label with a stray space inside (``第一百二十八 条侦查…``, a
#: typo in the corpus) is accepted as is. Groups: ``num``, ``sub`` (after 之).
ARTICLE_RE = re.compile(
    rf"^[^\S\n]*[第笫][^\S\n]?(?P<num>{_NUM})(?P<gap>[^\S\n]+)?条"
    rf"(?:之(?P<sub>{_NUM}))?"
    r"(?(gap)|(?=[^\S\n]|[:：]|$))",
    re.MULTILINE,
)

#: An article label at the start of a line however it is written: bold (``**第一条** ``) or run
#: into its text (``第一条为了…``); :data:`ARTICLE_RE` holds the plain ones. Whether a loose one is
#: a label is decided by the chunker (:func:`zhiku.chunk.chunker.article_starts`). Groups: ``bold``,
#: ``num``, ``sub``.
LOOSE_ARTICLE_RE = re.compile(
    rf"^[^\S\n]*(?P<bold>\*\*|__)?[第笫][^\S\n]?(?P<num>{_NUM})条(?:之(?P<sub>{_NUM}))?(?(bold)(?:\*\*|__))",
    re.MULTILINE,
)

#: An article reference anywhere in text, e.g. in a question: 第19条, 第十九条, 第120条之一.
ARTICLE_REF_RE = re.compile(rf"第\s*(?P<num>{_NUM})\s*条(?:之(?P<sub>{_NUM}))?")


@lru_cache(maxsize=8192)  # a corpus repeats the same few thousand labels (64k calls on the laws)
def article_label(num: str, sub: str | None = None) -> str:
    """Build the normal label from the number parts of a match.

    Args:
        num: the article number in Chinese or Arabic numerals (``19``, ``十九``).
        sub: the number after 之, if any.

    Returns:
        The label in Chinese numerals, e.g. ``第十九条`` or ``第一百二十条之一``.

    Raises:
        ValueError: when a part is not a numeral.
    """
    label = f"第{int_to_cn(cn_to_int(num))}条"
    if sub:
        label += f"之{int_to_cn(cn_to_int(sub))}"
    return label


def normalize_article(text: str) -> str | None:
    """Return the normal label of the first article reference in ``text``.

    Args:
        text: any text, e.g. ``劳动合同法第19条规定了什么`` or ``第 十九 条``.

    Returns:
        ``第十九条``-style label, or None when ``text`` names no article.
    """
    for match in ARTICLE_REF_RE.finditer(text):
        try:
            return article_label(match["num"], match["sub"])
        except ValueError:
            continue
    return None
