"""Markdown source markup that a viewer never shows as text, read the way a viewer shows it.

Four kinds, each outside code fences and inline code spans:

- inline HTML in prose: ``<p align="right">Release SIG<br/>2025年05月30日</p>`` is two lines
  of text, ``<br/>`` in a pipe-table cell is a space, ``<a name="s1"></a>`` anchors and
  ``<span>``/``<font>``/``<b>`` tags are dropped around their text, entities such as
  ``&gt;`` are the character they stand for;
- an in-page table of contents: a list whose every item is only a link to an anchor of the
  same page (``-   [编译构建过程中，提示找不到“-lgcc”](#section11181036112615)``) repeats
  the headings below it, so it is dropped;
- a heading written as an HTML element on a line of its own (``<h4 id="section1">烧录失败怎么
  办？</h4>``, as pages converted from Word or a wiki write an FAQ's questions) is the
  ATX heading of its level (``#### 烧录失败怎么办？``);
- backslash escapes: ``lsb\\_release`` is ``lsb_release``, ``OS\\(操作系统\\)`` is
  ``OS(操作系统)`` (an escaped pipe in a table row stays, it keeps the cell whole).

Raw HTML tables are rewritten as pipe tables before this (html_loader).

HTML comments (``<!-- … -->``: an Apache licence over a page, a note the author hid) are
dropped before the title and headings are read (:func:`drop_comments`, its own setting).
"""

from __future__ import annotations

import html
import re

_FENCE_LINE = re.compile(r"^\s{0,3}(?:```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")
# Block tags that start or end a line of text, line breaks, and inline tags shown as their text.
_BLOCK_TAG = re.compile(r"</?(?:p|div|center|section|blockquote)\b[^<>]*>", re.IGNORECASE)
_BR_TAG = re.compile(r"<br\s*/?>", re.IGNORECASE)
_INLINE_TAG = re.compile(
    r"</?(?:a|span|font|b|strong|i|em|u|sup|sub|small|big|mark|ins|kbd|s|del)\b[^<>]*>",
    re.IGNORECASE)
# A line that is one HTML heading element (its text may hold inline tags, not another heading).
_HEADING_LINE = re.compile(r"^[ \t]{0,3}<h([1-6])\b[^<>]*>(.*?)</h\1\s*>[ \t]*$", re.IGNORECASE)
_ENTITY = re.compile(r"&(?:[a-zA-Z]{2,8}|#\d{2,6}|#x[0-9a-fA-F]{2,5});")
# A backslash before ASCII punctuation (CommonMark): the character itself.
_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_ANCHOR_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[[^\]\n]+\]\(#[^)\s]*\)[ \t]*$")
#: A run of anchor-only list items at least this long is a table of contents.
TOC_MIN_ITEMS = 2
_COMMENT_OPEN, _COMMENT_CLOSE = "<!--", "-->"


def _code_spans(text: str) -> list[tuple[int, int]]:
    """Character ranges of a Markdown text a viewer shows as code: fenced blocks (fence
    lines included, an unclosed fence runs to the end) and inline code spans elsewhere."""
    spans: list[tuple[int, int]] = []
    pos, fence_at = 0, None
    for line in text.split("\n"):
        end = pos + len(line)
        if _FENCE_LINE.match(line):
            if fence_at is None:
                fence_at = pos
            else:
                spans.append((fence_at, end))
                fence_at = None
        elif fence_at is None and "`" in line:
            spans += [(pos + m.start(), pos + m.end()) for m in _CODE_SPAN.finditer(line)]
        pos = end + 1
    if fence_at is not None:
        spans.append((fence_at, len(text)))
    return spans


def drop_comments(text: str, keep: tuple[str, ...] = ()) -> str:
    """A Markdown text without its HTML comments, as a viewer hides them: a comment over
    several lines, on a line of its own (the line is left blank, so it still ends a
    paragraph) or inside a line (``文字<!-- 注 -->文字``). A ``<!--`` in a code fence or an
    inline code span is text. An unterminated ``<!--`` (no ``-->`` after it) is left as
    written: a viewer would hide the rest of the page, and reading it is safer than losing it.

    Args:
        text: the Markdown text (front matter already split off).
        keep: comments that start with one of these are kept (a marker read later, such
            as ``<!-- INFO END -->``).

    Returns:
        The text; unchanged when it holds no comment.
    """
    if _COMMENT_OPEN not in text:
        return text
    code = _code_spans(text)
    out, pos, start = [], 0, text.find(_COMMENT_OPEN)
    while start >= 0:
        inside = next((b for a, b in code if a <= start < b), None)
        if inside is not None:  # in code: text, look on after the code
            start = text.find(_COMMENT_OPEN, inside)
            continue
        end = text.find(_COMMENT_CLOSE, start + len(_COMMENT_OPEN))
        if end < 0:  # unterminated: left as written
            break
        end += len(_COMMENT_CLOSE)
        if not any(text.startswith(k, start) for k in keep):
            out.append(text[pos:start])
            pos = end
        start = text.find(_COMMENT_OPEN, end)
    out.append(text[pos:])
    return "".join(out)


def _outside_code(line: str) -> str:
    """One line read as shown, its inline code spans left as they are."""
    if (head := _HEADING_LINE.match(line)) and (label := _heading_text(head[2])):
        return f"{'#' * int(head[1])} {label}"
    table = _table_line(line)
    if "`" not in line:
        return _html_text(line, table)
    out, pos = [], 0
    for m in _CODE_SPAN.finditer(line):
        out += [_html_text(line[pos:m.start()], table), m.group()]
        pos = m.end()
    return "".join(out) + _html_text(line[pos:], table)


def _heading_text(inner: str) -> str:
    """The text of an HTML heading element's content: inline tags, breaks and entities read
    as shown, on one line ("" when it holds none, an anchor only)."""
    text = _html_text(_BR_TAG.sub(" ", inner), True)
    return " ".join(text.split())


def _table_line(line: str) -> bool:
    stripped = line.strip()
    return stripped.startswith("|") or stripped.count("|") >= 2


def _html_text(line: str, table: bool) -> str:
    """A stretch of one prose line (``table``: of a pipe-table row) with its inline HTML,
    entities and escapes read as text; outside a table it may become several lines."""
    if "<" in line:
        line = _BR_TAG.sub(" " if table else "\n", line)
        line = _BLOCK_TAG.sub(" " if table else "\n", line)
        line = _INLINE_TAG.sub("", line)
    if "&" in line:
        line = _ENTITY.sub(lambda m: html.unescape(m.group()), line)
    if "\\" in line:
        line = _ESCAPE.sub(lambda m: m.group() if table and m[1] == "|" else m[1], line)
    if "\n" in line:
        first, *rest = line.split("\n")
        indent = first[:len(first) - len(first.lstrip())]
        line = "\n".join([first.rstrip(), *(indent + r.strip() for r in rest if r.strip())])
        line = line.lstrip("\n") if not first.strip() else line
    return line


def _drop_toc(lines: list[str], code: list[bool]) -> list[int]:
    """Indexes of the lines of in-page tables of contents (blank lines between items kept)."""
    drop: list[int] = []
    run: list[int] = []
    for i, line in enumerate(lines + [""]):
        if i < len(lines) and not code[i] and _ANCHOR_ITEM.match(line):
            run.append(i)
        elif line.strip() or i == len(lines):
            if len(run) >= TOC_MIN_ITEMS:
                drop += run
            run = []
    return drop


def markdown_as_shown(text: str) -> str:
    """A Markdown body with inline HTML, in-page tables of contents and backslash escapes
    read as a viewer shows them (see the module doc); code fences and inline code untouched.

    Args:
        text: the Markdown body (HTML tables already rewritten as pipe tables).

    Returns:
        The body; unchanged when it holds none of these.
    """
    if not any(ch in text for ch in "<&\\") and "](#" not in text:
        return text
    lines = text.split("\n")
    code, fence = [], False
    for line in lines:
        if _FENCE_LINE.match(line):
            code.append(True)
            fence = not fence
        else:
            code.append(fence)
    dropped = set(_drop_toc(lines, code))
    out = [line if code[i] else _outside_code(line)
           for i, line in enumerate(lines) if i not in dropped]
    return "\n".join(out)


# A setext underline (CommonMark): = for a first-level heading, - for a second, at most three
# spaces in; and a line that cannot be the paragraph over it (a block of its own).
_SETEXT_LINE = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_NOT_PARAGRAPH = re.compile(r"^(?: {4}|\t| {0,3}(?:#|>|\||[-*+][ \t]|\d{1,9}[.)][ \t]|<|```|~~~|[-*_=]{3,}[ \t]*$))")


def setext_headings(text: str) -> str:
    """A Markdown text with its setext headings (a line of text underlined with ``===`` or
    ``---``) written as ATX headings (``# `` / ``## ``), as a viewer shows them: 「语义化版本 2.0.0」
    over ``===`` is the page's title, 「摘要」 over ``---`` a section. The line over the underline
    must be a one-line paragraph (a blank line or the start before it); a ``---`` after a blank
    line is a thematic break and stays, and so does a line in a code fence, under a list item,
    a table row, a quote or a heading (front matter is split off before this).

    Args:
        text: the Markdown text after its front matter.

    Returns:
        The text; unchanged when it has no setext heading.
    """
    if "==" not in text and "--" not in text:
        return text
    lines = text.split("\n")
    fence = False
    for i, line in enumerate(lines):
        if _FENCE_LINE.match(line):
            fence = not fence
            continue
        under = _SETEXT_LINE.match(line)
        if fence or not under or i == 0:
            continue
        above = lines[i - 1]
        if not above.strip() or _NOT_PARAGRAPH.match(above) or (i >= 2 and lines[i - 2].strip()):
            continue
        lines[i - 1] = ("#" if under[1][0] == "=" else "##") + " " + above.strip()
        lines[i] = ""
    return "\n".join(lines)
