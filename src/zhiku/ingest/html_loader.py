"""HTML loader (BeautifulSoup with the standard parser): main content, h1-h6 tree, tables."""

from __future__ import annotations

from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder
from zhiku.ingest.files import read_text
from zhiku.ingest.html_main import drop_boilerplate, is_layout_table, main_content
from zhiku.ingest.registry import loaders
from zhiku.types import Document

_DROP = ("script", "style", "noscript", "nav", "footer", "header", "aside", "form", "iframe",
         "svg", "template", "button")
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = ("p", "li", "pre", "blockquote", "dt", "dd", "td", "th", "caption", "div", "section",
           "article", "main", "table", *_HEADINGS)
_LEAVES = ("p", "li", "pre", "blockquote", "dt", "dd", *_HEADINGS)


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


def _rows(table) -> list[list[str]]:
    """Cell texts of a table's rows (nested tables are flattened into their cell)."""
    out = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue
        out.append([_text(c) for c in tr.find_all(["td", "th"], recursive=False)])
    return out


def _walk(node, b: BodyBuilder) -> None:
    """Add the blocks under ``node`` in document order."""
    for el in node.find_all(True, recursive=False):
        name = el.name
        if name in _HEADINGS:
            b.heading(_text(el), _HEADINGS[name])
        elif name == "table" and is_layout_table(el, _rows(el)):
            _walk_cells(el, b)
        elif name == "table":
            cap = el.find("caption")
            b.table(_rows(el), caption=_text(cap) if cap else "")
        elif name in _LEAVES or not el.find(_BLOCKS):
            b.paragraph(_text(el) if name != "pre" else el.get_text())
        else:
            _walk(el, b)


def _walk_cells(table, b: BodyBuilder) -> None:
    """A layout table's cells in order, read as blocks (not as a data table)."""
    for cell in table.find_all(["td", "th"]):
        if cell.find_parent("table") is table:
            if cell.find(_BLOCKS):
                _walk(cell, b)
            else:
                b.paragraph(_text(cell))


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
    _walk(main_content(soup), b)
    if not b.text().strip():
        raise ZhikuError(f"File {str(path)!r} has no text outside navigation and scripts; "
                         "check that it is the right page or remove it.")
    if not title and b.outline:
        title = b.outline[0].label
    return b.build(path, root, title=title, fmt="html")
