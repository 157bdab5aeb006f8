"""Cleaning PDF page text: running headers/footers, page numbers, TOC pages, broken lines."""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass

_PAGE_NO_RE = re.compile(
    r"^[\s\-—–·]*(?:第\s*\d+\s*页(?:\s*[，,/]?\s*共\s*\d+\s*页)?|\d{1,4}|\d+\s*/\s*\d+"
    r"|[-—–]\s*\d+\s*[-—–]|page\s+\d+(?:\s+of\s+\d+)?|[ivx]{1,5})[\s\-—–·]*$",
    re.IGNORECASE,
)
_LEADER_RE = re.compile(r"(?:\.{3,}|…{2,}|·{3,}|\.\s\.\s\.|[ \t]{2,})\s*[-—–]?\s*\d{1,4}\s*[-—–]?\s*$")
_DOTS_RE = re.compile(r"(?:\.{3,}|…{2,}|·{3,}|\.\s\.\s\.)\s*[-—–]?\s*\d{1,4}\s*[-—–]?\s*$")
_TOC_TITLE_RE = re.compile(r"^\s*(目\s*录|contents)\s*$", re.IGNORECASE)
_END_RE = re.compile(r"[。！？；：:!?;”」』）)]$")
#: A line that starts a new paragraph whatever came before it.
STARTER_RE = re.compile(
    r"^\s*(?:第[0-9一二三四五六七八九十百千零〇两]+[编章节条]"
    r"|[一二三四五六七八九十]+、|[（(][一二三四五六七八九十0-9]+[）)]"
    r"|\d+(?:\.\d+)+\s|\d+[、.．]\s*\S|[•·●▪◆■\-–]\s)"
)


@dataclass(frozen=True)
class Line:
    """One text line of a page, with its font size and vertical position."""

    text: str
    size: float = 0.0
    top: float = 0.0
    mono: bool = False  # set in a monospace font: a line of a code or config listing
    #: the line's runs of text split at wide gaps, each (x0, x1, text), left to right: the
    #: cells of a table printed without ruling lines (:func:`zhiku.ingest.pdf_layout.unruled_tables`)
    cells: tuple[tuple[float, float, str], ...] = ()


_PREFIX = 8  # characters of a running header's fixed beginning


def _key(text: str) -> str:
    """A line with its numbers masked, so ``第 3 页`` and ``第 4 页`` compare equal."""
    return re.sub(r"\d+", "#", "".join(text.split()))


def strip_running(pages: list[list[Line]], edge: int = 2) -> list[list[Line]]:
    """Remove running headers/footers and page numbers from the edges of each page.

    A line among the first or last ``edge`` lines of a page is dropped when it is a
    page number (``12``, ``第 3 页``, ``- 4 -``, ``Page 5 of 9``) or when the same line
    (numbers masked) sits on the edge of at least 30% of the pages (and two or more):
    any wording, and headers that alternate between odd and even pages. On six pages or
    more, a short edge line that begins like that many edge lines do (the thesis title
    followed by each chapter's name) goes too.

    Args:
        pages: lines of each page in reading order.
        edge: how many lines at the top and bottom are examined.

    Returns:
        New page lists without those lines.
    """
    counts: Counter[str] = Counter()
    heads: Counter[str] = Counter()
    for lines in pages:
        counts.update({_key(ln.text) for ln in lines[:edge] + lines[-edge:]})
        heads.update({_key(ln.text)[:_PREFIX] for ln in lines[:edge] + lines[-edge:]
                      if len(_key(ln.text)) > _PREFIX})
    need = max(2, -(-len(pages) * 3 // 10))
    out = []
    for lines in pages:
        keep = []
        for i, ln in enumerate(lines):
            on_edge = i < edge or i >= len(lines) - edge
            key = _key(ln.text)
            running = len(pages) >= 2 and counts[key] >= need or (
                len(pages) >= 6 and len(key) <= 40 and heads[key[:_PREFIX]] >= need
                and not STARTER_RE.match(ln.text))
            if on_edge and (running or _PAGE_NO_RE.match(ln.text)):
                continue
            keep.append(ln)
        out.append(keep)
    return out


def is_toc_page(lines: list[Line]) -> bool:
    """Whether a page is a printed table of contents (dot leaders and page numbers).

    Args:
        lines: the page's lines after :func:`strip_running`.

    Returns:
        True when at least three lines, and at least half of them (or all but the
        ``目录`` title), end in a leader followed by a page number.
    """
    texts = [ln.text for ln in lines if ln.text.strip()]
    leaders = sum(1 for t in texts if _LEADER_RE.search(t))
    titled = any(_TOC_TITLE_RE.match(t) for t in texts[:2])
    return leaders >= 3 and (leaders * 2 >= len(texts) or (titled and leaders * 3 >= len(texts)))


def drop_toc_lines(lines: list[Line]) -> list[Line]:
    """A page's lines without a printed contents block that shares the page with other
    text: three or more leader-and-page-number lines, and a 目录 title just above them.

    Args:
        lines: the page's lines.

    Returns:
        The lines that are not part of the contents block.
    """
    marks = [bool(_DOTS_RE.search(ln.text)) for ln in lines]
    if sum(marks) < 3:
        return lines
    first = marks.index(True)
    drop = {i for i, m in enumerate(marks) if m}
    drop |= {i for i in range(max(0, first - 2), first) if _TOC_TITLE_RE.match(lines[i].text)}
    return [ln for i, ln in enumerate(lines) if i not in drop]


def body_size(pages: list[list[Line]]) -> float:
    """The body font size: the size that covers the most characters.

    Args:
        pages: lines of every page.

    Returns:
        The size, or 0.0 when no line has one.
    """
    weight: Counter[float] = Counter()
    for lines in pages:
        for ln in lines:
            weight[round(ln.size, 1)] += len(ln.text)
    return weight.most_common(1)[0][0] if weight else 0.0


def typical_width(pages: list[list[Line]]) -> float:
    """The usual length of a full line (upper quartile of line lengths), at least 10.

    Args:
        pages: lines of every page.

    Returns:
        The length in characters.
    """
    lengths = [len(ln.text) for lines in pages for ln in lines if ln.text.strip()]
    if len(lengths) < 4:
        return float(max(lengths, default=10))
    return max(10.0, statistics.quantiles(lengths, n=4)[2])


def continues(prev: str, line: str, width: float) -> bool:
    """Whether ``line`` continues the paragraph that ends with the line ``prev``.

    A paragraph ends after sentence-final punctuation or a short line, and a line that
    starts with an article, a numbered item or a bullet starts a new one.

    Args:
        prev: the previous line's text.
        line: this line's text.
        width: the typical full line length (:func:`typical_width`).

    Returns:
        True to join the two lines.
    """
    prev = prev.rstrip()
    if not prev or STARTER_RE.match(line) or _END_RE.search(prev):
        return False
    return len(prev) >= 0.8 * width


def join_lines(prev: str, line: str) -> str:
    """Join a paragraph and its next line: no space in Chinese, one between Latin
    words, and a word hyphenated across the break is made whole again.

    Args:
        prev: the paragraph so far.
        line: the continuation.

    Returns:
        The joined text.
    """
    line = line.strip()
    prev = prev.rstrip()
    if prev.endswith("-") and len(prev) > 1 and prev[-2].isalpha() and line[:1].islower():
        return prev[:-1] + line
    if prev[-1:].isascii() and prev[-1:].isalnum() and line[:1].isascii() and line[:1].isalnum():
        return prev + " " + line
    return prev + line
