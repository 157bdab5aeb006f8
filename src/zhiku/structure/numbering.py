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


# A clause line of a standard or a specification (GB/T 1.1): its number (1, 5.2, 5.2.1; A.1 in
# an annex), then the clause's title or its first sentence, or nothing (a term's number,
# its name on the next line).
_CLAUSE_RE = re.compile(r"^[ \t\u3000]*(?P<num>(?:\d{1,2}|[A-Z])(?:[.．]\d{1,2}){0,4})"
                        r"(?:[ \t\u3000]+(?P<rest>\S.*?))?[ \t\u3000]*$")
# An annex's opening line: 附录 A (or 附 录 A), its kind （规范性附录）/（资料性附录） after it.
_ANNEX_RE = re.compile(r"^[ \t\u3000]*附[ \t\u3000]*录[ \t\u3000]*(?P<letter>[A-Z])(?![A-Za-z])")
_SENTENCE_MARK = re.compile(r"[。；，,;：:！？!?]")
#: The longest clause title after the number, in characters (a Latin letter or space counts
#: half: a term's English name follows its Chinese one, 「大气污染物特别排放限值 special
#: limitation for air pollutants」).
CLAUSE_TITLE_MAX = 30


def clause_title(rest: str, longest: float = CLAUSE_TITLE_MAX) -> bool:
    """Whether the text after a clause number is a title (「适用范围」, 「固体废物 solid
    wastes」), not a sentence: short, no sentence or clause mark in it, a word first."""
    rest = rest.strip()
    width = sum(0.5 if ch.isascii() else 1 for ch in rest)
    return (2 <= len(rest) and width <= longest and not _SENTENCE_MARK.search(rest)
            and not TOC_LINE_RE.search(rest) and (rest[0].isalpha() or rest[0] in "（(《“\""))


def _follows(path: list[str], parts: list[str]) -> bool:
    """Whether clause ``parts`` comes next after the open clause ``path``: the next sibling
    of a clause on the path (one number may have been lost to the layout) or the first
    child of the last one (5.2.1 after 5.2)."""
    depth = len(parts)
    if depth > len(path) + 1 or parts[:-1] != path[:depth - 1]:
        return False
    last = int(parts[-1]) if parts[-1].isdigit() else None
    if last is None:
        return False
    if depth == len(path) + 1:
        return last == 1
    before = int(path[depth - 1]) if path[depth - 1].isdigit() else 0
    return before < last <= before + 2


def clause_headings(lines: list[str], least: int = 3) -> dict[int, str]:
    """The lines of a standard's or a specification's numbered clauses that are headings,
    decided by the document's evidence, not by one line.

    A clause line is numbered ``1``, ``5.2``, ``5.2.1`` (an annex: 附录 A, then ``A.1``). The
    clauses must run in order: a top clause with a title after the last one (1 范围, 2 规范性
    引用文件 …), a sub-clause as the next sibling or the first child of the open clause (the
    clause sentences count for the order: 「4.1 农村生活污水的处理，应…」). A line that breaks
    the order is text: a version number (2.0.0), a decimal or a unit in a table (0.5, 「2 X」
    of a subscript), a date, a page number, a contents line with a leader. Of the clauses in
    order, the ones whose number is followed by a title (「4.4 无组织排放控制要求」) or stands
    alone (a term's number 「3.1」, its name on the next line) are headings; one whose number
    opens a sentence (ends in 。, is long, holds a comma) is text, and so are list items inside
    a clause (``a)``, ``1)``) — unless a titled clause as deep or deeper is open before it
    (「4.5 每个新建…」 after 「4.4.3 厂区环境」): then its number alone is a heading, so that its
    sentence is not cited under the clause before it.

    Args:
        lines: the document's lines in reading order.
        least: the fewest top clauses with titles (and sub-clauses) that make the document
            one of numbered clauses; below it no line is a clause heading.

    Returns:
        Line index → heading label; a number alone is labelled with the next line when that
        line is a title (the term 「3.1 农村生活污水 rural sewage」), a sentence's clause that
        closes a titled one with its number (the label is then the start of its line). Empty
        when the document is not written in numbered clauses.
    """
    path: list[str] = []
    found: dict[int, str] = {}
    tops = subs = 0
    annex = ""
    open_depth = 0  # the depth of the deepest clause heading open
    for i, line in enumerate(lines):
        if (head := _ANNEX_RE.match(line)) and head["letter"] > annex and tops >= least:
            annex, path, open_depth = head["letter"], [head["letter"]], 1
            found[i] = " ".join(line.split())
            continue
        match = _CLAUSE_RE.match(line)
        if not match or TOC_LINE_RE.search(line):
            continue
        parts = re.split(r"[.．]", match["num"])
        rest = match["rest"] or ""
        if parts[0].isalpha() and (len(parts) < 2 or parts[0] != annex):
            continue  # an annex's clause only under that annex (A.1 under 附录 A)
        if len(parts) == 1:
            if not parts[0].isdigit() or not clause_title(rest):
                continue  # a top clause always has a title; 「1」 alone is a page number
            if int(parts[0]) != 1 and not (path and path[0].isdigit() and _follows(path[:1], parts)):
                continue
            if int(parts[0]) == 1 and path and not annex:
                tops = subs = 0  # a second run from 1: the clauses after a contents list
            tops += 1
        elif not _follows(path, parts):
            continue
        else:
            subs += 1
        path = parts
        if clause_title(rest):
            found[i] = f"{match['num']} {rest.strip()}"
        elif not rest and len(parts) > 1:
            nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
            term = nxt and clause_title(nxt, 40) and not _CLAUSE_RE.match(nxt)
            found[i] = f"{match['num']} {nxt}" if term else match["num"]
        elif open_depth >= len(parts):  # a heading as deep is open: this clause closes it
            found[i] = match["num"]
        open_depth = len(parts) if i in found else min(open_depth, len(parts) - 1)
    return found if tops >= least and subs >= 2 else {}
