"""Heading numbering schemes (一、 （一） 1.1.1 第X部分) and lines that look like headings."""

from __future__ import annotations

import re

from zhiku.chunk.numerals import NUMERAL_CHARS

_CN = "一二三四五六七八九十百零〇"
#: Outline level of a heading found by its numbering alone (no style, bookmark or #):
#: below every explicit level; such headings nest by their numbering kinds.
DETECTED_LEVEL = 7
#: A line asking a question, by its closing mark: an FAQ entry's question written as a bold
#: line (or a ``<summary>``/``<dt>`` that asks) heads the answer under it.
ASKS_RE = re.compile(r"[？?][^\S\n]*$")


def question_level(depth: int, deepest: int) -> int:
    """The outline level of an FAQ entry's question that is no styled heading: one below the
    last heading (``depth``, at most ``deepest``), as the same bold line in Markdown sits, or
    below every numbered heading when the page has none yet."""
    return min(depth + 1, deepest) if depth else DETECTED_LEVEL + 1
#: (scheme, pattern); the pattern matches the number at the start of a heading label.
SCHEMES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("part", re.compile(rf"^第[0-9{_CN}]+部分")),
    ("cn", re.compile(rf"^[{_CN}]+[、．.](?!\d)")),
    ("paren_cn", re.compile(rf"^[（(][{_CN}]+[）)]")),
    ("dotted", re.compile(r"^(?:\d{1,3}[.．]){1,5}\d{1,3}(?![\d.．])|^\d{1,3}(?=[\s\u3000]|[.．](?!\d))")),
    ("num_dun", re.compile(r"^\d{1,3}、")),
    ("paren_num", re.compile(r"^[（(]\d{1,3}[）)]")),
)
#: Bookmark names Word writes for its own use; never a chapter of the document.
WORD_BOOKMARK_RE = re.compile(r"^(?:OLE_LINK\d*|_Toc\d+|_Hlk\d+|_Ref\d+|_GoBack|_Toc_\w+)$",
                              re.IGNORECASE)
#: A printed table-of-contents line: a label, a dot leader or tab, a page number.
TOC_LINE_RE = re.compile(r"(?:\.{2,}|…+|·{2,}|-{3,}|\t|\s{2,})\s*[-—–]?\s*\d{1,4}\s*[-—–]?\s*$")
_END_PUNCT = re.compile(r"[。，；,;：:！？!?、]$")
#: Inline HTML in a Markdown heading (an anchor 「<a name="section1"></a>」): not what it says.
INLINE_TAG_RE = re.compile(r"</?(?:a|span|b|i|u|em|strong|font|sup|sub|br|code)\b[^<>]*>", re.IGNORECASE)
_ARTICLE_LINE_RE = re.compile(rf"^\s*第[0-9{NUMERAL_CHARS}]+条")


def strip_inline_tags(label: str) -> str:
    """A Markdown heading's text without the inline HTML in it (``简介<a name="s1"></a>``).

    Args:
        label: the heading text.

    Returns:
        The text, tags removed.
    """
    return INLINE_TAG_RE.sub("", label) if "<" in label else label


def scheme(label: str) -> str | None:
    """The numbering scheme of a heading label: ``part``, ``cn`` (一、), ``paren_cn``
    (（一）), ``dotted1``.. ``dotted6`` (1 / 1.1 / 1.1.1), ``num_dun`` (1、), ``paren_num``
    ((1)); None when it is not numbered that way.

    Args:
        label: the heading text.

    Returns:
        The scheme name, or None.
    """
    text = label.strip()
    for name, pattern in SCHEMES:
        match = pattern.match(text)
        if match:
            if name == "dotted":
                return f"dotted{match.group().count('.') + match.group().count('．') + 1}"
            return name
    return None


def number_of(label: str) -> str:
    """The number part of a numbered label (``9.2`` of ``9.2 试验``), or ""."""
    for _, pattern in SCHEMES:
        match = pattern.match(label.strip())
        if match:
            return match.group().rstrip("、．.")
    return ""


def heading_like(text: str, max_len: int = 40) -> str | None:
    """The scheme of a line that reads as a numbered heading, else None.

    A heading line is short, does not end like a sentence or a list item (。；，：),
    is not a printed contents line (a leader and a page number) and, after its number,
    starts with a word rather than a figure (``1 000 元`` is not a heading).

    Args:
        text: the line.
        max_len: the longest heading, in characters.

    Returns:
        The scheme (see :func:`scheme`), or None.
    """
    text = text.strip()
    if not text or len(text) > max_len or _END_PUNCT.search(text) or TOC_LINE_RE.search(text):
        return None
    kind = scheme(text)
    if kind is None:
        return None
    rest = text[len(number_of(text)):].lstrip("、．. \u3000\t")
    if not rest or not (rest[0].isalpha() or rest[0] in "（(《“\""):
        return None
    return kind


def has_articles(lines: list[str], least: int = 3) -> bool:
    """Whether text is organised in 第X条 articles (then （一）/一、 lines are list items).

    Args:
        lines: the text's lines.
        least: how many article lines make it so.

    Returns:
        True when at least ``least`` lines start with 第X条.
    """
    return sum(1 for ln in lines if _ARTICLE_LINE_RE.match(ln)) >= least


def allowed(kind: str | None, articles: bool) -> bool:
    """Whether a numbered line of ``kind`` may be a heading in a text with/without articles:
    in article texts only 第X部分 and dotted 1.1 numbers are headings."""
    if kind is None:
        return False
    return not articles or kind == "part" or (kind.startswith("dotted") and kind != "dotted1")
