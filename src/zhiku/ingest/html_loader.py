"""HTML loader (BeautifulSoup with the standard parser): main content, h1-h6 tree, tables."""

from __future__ import annotations

import re
from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder, clean_cells, markdown_table
from zhiku.ingest.files import read_text
from zhiku.ingest.html_main import drop_boilerplate, is_layout_table, main_content
from zhiku.ingest.pdf_layout import TableHeading, split_heading_rows
from zhiku.ingest.registry import loaders
from zhiku.structure.numbering import has_articles
from zhiku.types import Document

_DROP = ("script", "style", "noscript", "nav", "footer", "header", "aside", "form", "iframe",
         "svg", "template", "button")
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = ("p", "li", "pre", "blockquote", "dt", "dd", "td", "th", "caption", "div", "section",
           "article", "main", "table", *_HEADINGS)
_LEAVES = ("p", "li", "pre", "blockquote", "dt", "dd", *_HEADINGS)
_HTML_TABLE_RE = re.compile(r"<table\b.*?</table\s*>", re.IGNORECASE | re.DOTALL)
_FENCE_RE = re.compile(r"^[ \t]*(```|~~~).*?^[ \t]*\1[^\n]*$", re.MULTILINE | re.DOTALL)


def _text(el) -> str:
    """The text of an element as a browser lays it out: inline elements run together
    (``常<span>务会议`` is 常务会议, never 常 务会议), ``<br>`` and nested blocks break,
    whitespace collapsed."""
    from bs4 import Comment, NavigableString

    parts: list[str] = []
    for d in el.descendants:
        if isinstance(d, NavigableString):
            parts.append("" if isinstance(d, Comment) else str(d))
        elif d.name == "br" or d.name in _BLOCKS:
            parts.append(" ")
    return " ".join("".join(parts).split())


def _span(cell, name: str) -> int:
    """A cell's ``rowspan``/``colspan`` (1 when missing or not a number, at most 100)."""
    try:
        return max(1, min(100, int(str(cell.get(name, "1")).strip() or 1)))
    except ValueError:
        return 1


def _rows(table) -> list[list[str]]:
    """Cell texts of a table's rows on its grid: a cell merged down (``rowspan``) gives its
    text to every row it covers (the command each option row belongs to), a cell merged
    across (``colspan``) leaves the places beside it empty; nested tables are flattened
    into their cell."""
    out: list[list[str]] = []
    below: dict[int, tuple[int, str]] = {}  # column -> (rows still covered, text)
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue
        row: list[str] = []
        cells = iter(tr.find_all(["td", "th"], recursive=False))
        cell = next(cells, None)
        while cell is not None or any(col >= len(row) for col in below):
            col = len(row)
            if col in below:
                left, text = below[col]
                row.append(text)
                if left > 1:
                    below[col] = (left - 1, text)
                else:
                    del below[col]
                continue
            if cell is None:
                break
            text, down = _text(cell), _span(cell, "rowspan")
            for i in range(_span(cell, "colspan")):
                if down > 1:
                    below[len(row)] = (down - 1, "" if i else text)
                row.append("" if i else text)
            cell = next(cells, None)
        out.append(row)
    return out


def _walk(node, b: BodyBuilder, articles: bool) -> None:
    """Add the blocks under ``node`` in document order."""
    for el in node.find_all(True, recursive=False):
        name = el.name
        if name in _HEADINGS:
            b.heading(_text(el), _HEADINGS[name])
        elif name == "table" and is_layout_table(el, rows := _rows(el)):
            _walk_cells(el, b, articles)
        elif name == "table":
            _table(el, rows, b, articles)
        elif name in _LEAVES or not el.find(_BLOCKS):
            b.paragraph(_text(el) if name != "pre" else el.get_text())
        else:
            _walk(el, b, articles)


def _table(el, rows: list[list[str]], b: BodyBuilder, articles: bool) -> None:
    """Add a data table; a row merged across the table that reads as a numbered heading
    (``一、知识产权保护方面`` in a list of measures) splits it there and stands as a line
    of its own, where the chapter tree finds it by its numbering."""
    cap = el.find("caption")
    caption = _text(cap) if cap else ""
    for piece in split_heading_rows(rows, articles):
        if isinstance(piece, TableHeading):
            b.paragraph(piece.text)
            caption = ""
        else:
            b.table(piece, caption=caption)


def _walk_cells(table, b: BodyBuilder, articles: bool) -> None:
    """A layout table's cells in order, read as blocks (not as a data table)."""
    for cell in table.find_all(["td", "th"]):
        if cell.find_parent("table") is table:
            if cell.find(_BLOCKS):
                _walk(cell, b, articles)
            else:
                b.paragraph(_text(cell))


def markdown_from_html_tables(text: str) -> str:
    """Raw HTML ``<table>`` blocks of a Markdown text (outside code fences) rewritten as
    pipe tables, as a Markdown viewer shows them; merged cells fill the places they cover.

    Args:
        text: the Markdown text.

    Returns:
        The text; unchanged when it holds no HTML table.
    """
    if "<table" not in text.lower():
        return text
    from bs4 import BeautifulSoup

    fences = [m.span() for m in _FENCE_RE.finditer(text)]

    def swap(m: re.Match) -> str:
        if any(a <= m.start() < z for a, z in fences):
            return m.group()
        table = BeautifulSoup(m.group(), "html.parser").find("table")
        columns, rows = clean_cells(_rows(table)) if table else ((), ())
        return markdown_table(columns, rows) if columns and rows else m.group()

    return _HTML_TABLE_RE.sub(swap, text)


@loaders.register(".html")
@loaders.register(".htm")
def load_html(path: Path, root: Path) -> Document:
    """Load an HTML page's main content: headings nest by level; navigation, scripts,
    comments, recommendation lists and link-heavy blocks are dropped (readability-style).

    Args:
        path: the .html/.htm file (any encoding :func:`read_text` handles).
        root: the folder it was found under.

    Returns:
        The Document; its title is ``<title>`` or the first ``<h1>``, its outline the
        ``<h1>``-``<h6>`` headings, tables kept as Tables.

    Raises:
        ZhikuError: the page holds no text once boilerplate is removed.
    """
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(read_text(path, binary_check=True), "html.parser")
    for el in soup.find_all(_DROP):
        el.decompose()
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    if soup.title:
        soup.title.decompose()
    drop_boilerplate(soup)
    b = BodyBuilder()
    main = main_content(soup)
    _walk(main, b, has_articles(main.get_text("\n").split("\n")))
    if not b.text().strip():
        raise ZhikuError(f"File {str(path)!r} has no text outside navigation and scripts; "
                         "check that it is the right page or remove it.")
    if not title and b.outline:
        title = b.outline[0].label
    return b.build(path, root, title=title, fmt="html")
