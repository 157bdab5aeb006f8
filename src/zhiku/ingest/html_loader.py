"""HTML loader (BeautifulSoup with the standard parser): h1-h6 tree, boilerplate removed."""

from __future__ import annotations

from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder
from zhiku.ingest.files import read_text
from zhiku.ingest.registry import loaders
from zhiku.types import Document

_DROP = ("script", "style", "noscript", "nav", "footer", "header", "aside", "form", "iframe",
         "svg", "template", "button")
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = ("p", "li", "pre", "blockquote", "dt", "dd", "td", "th", "caption", "div", "section",
           "article", "main", "table", *_HEADINGS)
_LEAVES = ("p", "li", "pre", "blockquote", "dt", "dd", *_HEADINGS)


def _rows(table) -> list[list[str]]:
    """Cell texts of a table's rows (nested tables are flattened into their cell)."""
    out = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue
        out.append([c.get_text(" ", strip=True) for c in tr.find_all(["td", "th"], recursive=False)])
    return out


def _walk(node, b: BodyBuilder) -> None:
    """Add the blocks under ``node`` in document order."""
    for el in node.find_all(True, recursive=False):
        name = el.name
        if name in _HEADINGS:
            b.heading(el.get_text(" ", strip=True), _HEADINGS[name])
        elif name == "table":
            cap = el.find("caption")
            b.table(_rows(el), caption=cap.get_text(" ", strip=True) if cap else "")
        elif name in _LEAVES or not el.find(_BLOCKS):
            b.paragraph(el.get_text(" ", strip=True) if name != "pre" else el.get_text())
        else:
            _walk(el, b)


@loaders.register(".html")
@loaders.register(".htm")
def load_html(path: Path, root: Path) -> Document:
    """Load an HTML page: headings nest by level, nav/header/footer/script/style dropped.

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
    b = BodyBuilder()
    _walk(soup.body or soup, b)
    if not b.text().strip():
        raise ZhikuError(f"File {str(path)!r} has no text outside navigation and scripts; "
                         "check that it is the right page or remove it.")
    if not title and b.outline:
        title = b.outline[0].label
    return b.build(path, root, title=title, fmt="html")
