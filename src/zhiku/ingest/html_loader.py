"""HTML loader (BeautifulSoup with the standard parser): main content, h1-h6 tree, tables."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder, clean_cells, markdown_table
from zhiku.ingest.files import read_text
from zhiku.ingest.html_main import drop_boilerplate, is_layout_table, main_content
from zhiku.ingest.pdf_layout import TableHeading, split_heading_rows
from zhiku.ingest.registry import loaders
from zhiku.structure.numbering import ASKS_RE, DETECTED_LEVEL, allowed, has_articles, heading_like, question_level
from zhiku.types import Document, OutlineEntry

_DROP = ("script", "style", "noscript", "nav", "footer", "header", "aside", "form", "iframe",
         "svg", "template", "button")
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = ("p", "li", "pre", "blockquote", "dt", "dd", "td", "th", "caption", "div", "section",
           "article", "main", "table", "summary", "details", *_HEADINGS)
_LEAVES = ("p", "li", "pre", "blockquote", "dt", "dd", "summary", *_HEADINGS)
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


@dataclass
class _Page:
    """What a walk over a page carries: the body being built, whether the page is
    organised in 第X条 articles, the level of the last ``<h1>``-``<h6>`` heading, the
    offsets of the headings that are bold lines (not ``<hN>``), and the lines added since
    the last table or heading (text, set as a title: centred or bold) with whether a
    table without a ``<caption>`` takes its title from them (config ``html_table_titles``);
    an empty block is kept as an empty line (it parts two titles)."""

    b: BodyBuilder
    articles: bool
    depth: int = 0
    bold: list[int] = field(default_factory=list)
    titles: bool = True
    above: list[tuple[str, bool]] = field(default_factory=list)

    def line(self, el, text: str) -> None:
        """Add a paragraph and remember it as a line above the next table."""
        self.b.paragraph(text)
        self.above.append((" ".join(text.split()), _set_as_title(el)))


#: A line stating the unit of a table's figures (「单位：人」, 「（单位：万元）」), printed
#: between a table's title and its header.
_UNIT_LINE_RE = re.compile(r"^[（(]?\s*(?:计量)?单位\s*[：:]\s*\S{1,12}?\s*[）)]?$")
#: Punctuation that ends a sentence or leads into what follows: such a line is prose, not a title.
_PROSE_END = tuple("。；;：:，,！!？?")
#: A comma or full stop inside a line: a sentence of clauses, which a title never is.
_CLAUSE_RE = re.compile(r"[，。；]")


def _set_as_title(el) -> bool:
    """Whether a block is set as a title line: centred (``align="center"``, ``text-align:
    center`` on it or on the run holding its text) or all its text bold."""
    def centred(x) -> bool:
        style = "".join(str(x.get("style", "")).split()).lower()
        return str(x.get("align", "")).lower() == "center" or "text-align:center" in style

    return centred(el) or any(centred(x) for x in el.find_all(True)) or _all_bold(el, _text(el))


def _all_bold(el, text: str) -> bool:
    """Whether all of a block's text (``text``) is bold (``<strong>``/``<b>``)."""
    bold = [x for x in el.find_all(["strong", "b"]) if not x.find_parent(["strong", "b"])]
    return bool(bold) and "".join("".join(_text(x) for x in bold).split()) == "".join(text.split())


def table_title(above: list[tuple[str, bool]]) -> str:
    """The title printed above a table that has no ``<caption>``, from the lines before it:
    a page exported from Word sets an attachment table's title as centred or bold lines
    (often broken in two: 「深圳湾口岸港方口岸区的」「查验区界址点坐标」), sometimes with a
    units line 「单位：人」 after it. The last line counts when it is short and not prose (no
    comma or full stop in it, not ending as a sentence or a lead-in, as a Word document's
    caption); up to two lines right above it count when set as a title, an empty line
    parting them from it (a heading over the table's own title, 「深圳湾公路大桥部分桥面界址点
    坐标」 over 「A匝道桥界址点坐标」, is not its title); a units line counts anywhere in that
    run; empty lines under the title are passed over.

    Args:
        above: the lines since the last table or heading, (text, set as a title), in order;
            an empty text is an empty block.

    Returns:
        The title, lines joined (without a space between Chinese characters) and a units
        line in brackets after it (「各省名额分配表（单位：人）」); "" when the line above the
        table is prose or long.
    """
    picked: list[str] = []
    for text, titled in reversed(above):
        if not text:
            if any(not _UNIT_LINE_RE.match(t) for t in picked):
                break
            continue
        unit = bool(_UNIT_LINE_RE.match(text))
        if len(text) > 40 or (not unit and (text.endswith(_PROSE_END) or _CLAUSE_RE.search(text))):
            break
        if picked and not (titled or unit):
            break
        picked.insert(0, text)
        if len(picked) == 3:
            break
    out = ""
    for text in picked:
        if out and _UNIT_LINE_RE.match(text):
            out += text if text.startswith(("（", "(")) else f"（{text}）"
            continue
        gap = "" if out and re.match(r"[\u4e00-\u9fff（(]", text) and re.search(r"[\u4e00-\u9fff.．、）)]$", out) else " "
        out = f"{out}{gap}{text}" if out else text
    return out


def _walk(node, page: _Page) -> None:
    """Add the blocks under ``node`` in document order."""
    b = page.b
    for el in node.find_all(True, recursive=False):
        name = el.name
        if name in _HEADINGS:
            page.depth = _HEADINGS[name]
            page.above.clear()
            b.heading(_text(el), _HEADINGS[name])
        elif name == "table" and is_layout_table(el, rows := _rows(el)):
            _walk_cells(el, page)
        elif name == "table":
            _table(el, rows, page)
        elif name == "dl" and _definitions(el, b):
            page.above.clear()
            continue
        elif name in _LEAVES or not el.find(_BLOCKS):
            text = _text(el) if name != "pre" else el.get_text()
            level = _bold_heading(el, text, page) if name != "pre" else None
            if level is None:
                page.line(el, text)
            else:
                page.bold.append(len(b.outline))
                page.above.clear()
                b.heading(text, level)
        else:
            _walk(el, page)


#: Elements that hold an FAQ entry's question when they ask: a disclosure widget's summary
#: (``<details><summary>…？</summary>…</details>``) and a definition list's term.
_ENTRY_TAGS = ("summary", "dt")


def _bold_heading(el, text: str, page: _Page) -> int | None:
    """The outline level of a block that is a heading written as a bold line (an FAQ
    page whose questions are ``<p><strong>…？</strong></p>``, a Word page saved as HTML
    whose headings are bold numbered lines ``<b>一、总体要求</b>``), else None.

    A block is one when all its text is bold (``<strong>``/``<b>``) and it either asks a
    question (so is an FAQ widget's ``<summary>`` or a ``<dt>`` that asks, bold or not) — then it sits one level below the last ``<hN>`` heading, as the same line
    in Markdown does — or is numbered like a heading (一、 1.1 （一）: a level below every
    ``<hN>``, nesting by its numbering)."""
    if not text or len(text) > 80:
        return None
    if el.name in _ENTRY_TAGS and ASKS_RE.search(text):
        return question_level(page.depth, 6)
    if not _all_bold(el, text):
        return None
    if ASKS_RE.search(text):
        return question_level(page.depth, 6)
    kind = heading_like(text)
    return DETECTED_LEVEL if kind not in (None, "num_dun", "paren_num") \
        and allowed(kind, page.articles) else None


def _definitions(el, b: BodyBuilder) -> bool:
    """Add a definition list (``<dl>``) as lines 「term：definition」, each definition
    under its term, so a definition read alone still names what it defines; False (and
    nothing added) when the list has no short term to pair (a ``<dl>`` used for layout)."""
    items = [x for x in el.find_all(["dt", "dd"]) if x.find_parent("dl") is el]
    terms = [_text(x) for x in items if x.name == "dt"]
    if not terms or any(len(t) > 40 or ASKS_RE.search(t) for t in terms) \
            or any(x.find("table") for x in items):
        return False  # layout, or an FAQ whose questions are the terms: read as blocks
    term = ""
    for x in items:
        text = _text(x)
        if x.name == "dt":
            if term:
                b.paragraph(term)
            term = text
        elif term:
            b.paragraph(f"{term.rstrip('：:')}：{text}" if text else term)
            term = ""
        else:
            b.paragraph(text)
    if term:
        b.paragraph(term)
    return True


def _table(el, rows: list[list[str]], page: _Page) -> None:
    """Add a data table; a row merged across the table that reads as a numbered heading
    (``一、知识产权保护方面`` in a list of measures) splits it there and stands as a line
    of its own, where the chapter tree finds it by its numbering."""
    cap = el.find("caption")
    caption = _text(cap) if cap else table_title(page.above) if page.titles else ""
    page.above.clear()
    b = page.b
    for piece in split_heading_rows(rows, page.articles):
        if isinstance(piece, TableHeading):
            b.paragraph(piece.text)
            caption = ""
        else:
            b.table(piece, caption=caption)


def _walk_cells(table, page: _Page) -> None:
    """A layout table's cells in order, read as blocks (not as a data table)."""
    for cell in table.find_all(["td", "th"]):
        if cell.find_parent("table") is table:
            if cell.find(_BLOCKS):
                _walk(cell, page)
            else:
                page.line(cell, _text(cell))


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


def _plain_headings(page: _Page) -> None:
    """On a page without ``<hN>`` headings whose bold lines gave it an outline, keep the
    headings the chapter tree finds in a plain text (第X章 lines, 一、 numbered lines,
    附件), which an outline would otherwise replace."""
    b = page.b
    if not page.bold or len(page.bold) < len(b.outline):
        return
    from zhiku.structure.tree import find_headings

    have = {e.start for e in b.outline}
    found = [OutlineEntry(h.start, h.depth, h.label) for h in find_headings(b.text(), plain=True)
             if h.start not in have]
    b.outline[:] = sorted([*b.outline, *found], key=lambda e: e.start)


@loaders.register(".html")
@loaders.register(".htm")
def load_html(path: Path, root: Path, html_table_titles: bool = True) -> Document:
    """Load an HTML page's main content: headings nest by level; navigation, scripts,
    comments, recommendation lists and link-heavy blocks are dropped (readability-style).

    Args:
        path: the .html/.htm file (any encoding :func:`read_text` handles).
        root: the folder it was found under.
        html_table_titles: a data table without a ``<caption>`` is captioned with the
            title lines printed above it (:func:`table_title`; config ``html_table_titles``),
            so its row sentences name their table; False leaves it without a caption.

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
    page = _Page(b, has_articles(main.get_text("\n").split("\n")), titles=html_table_titles)
    _walk(main, page)
    _plain_headings(page)
    if not b.text().strip():
        raise ZhikuError(f"File {str(path)!r} has no text outside navigation and scripts; "
                         "check that it is the right page or remove it.")
    if not title and b.outline:
        title = b.outline[0].label
    return b.build(path, root, title=title, fmt="html")
