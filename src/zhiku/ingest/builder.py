"""Assemble a Document body from headings, paragraphs and tables, with pages and offsets."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from zhiku.ingest.loader import INVISIBLE_RE, doc_path, split_stem
from zhiku.types import Document, OutlineEntry, Table, content_hash


def markdown_table(columns: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> str:
    """Render a table as GitHub Markdown (``|`` in cells escaped, newlines flattened).

    Args:
        columns: header cells.
        rows: body rows, each as long as ``columns``.

    Returns:
        The Markdown text, one line per row.
    """
    def line(cells: tuple[str, ...]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|").replace("\n", " ") for c in cells) + " |"

    out = [line(columns), "| " + " | ".join("---" for _ in columns) + " |"]
    out += [line(r) for r in rows]
    return "\n".join(out)


def clean_cells(raw: list[list[object]], spans: bool = False
                ) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    """Turn raw cell values into (columns, rows): strings, blank rows dropped, padded.

    The first non-blank row is the header; a second header row under merged cells
    (``功率`` over ``额定 | 峰值``) is folded into it (``功率 额定``, ``功率 峰值``). An
    empty header cell is named from its column when the column is a running number
    (``序号``), else left empty: never a made-up ``列N``.

    Args:
        raw: rows of cell values (None, numbers or text).
        spans: the second row is a header row only when it fills a span of the first (a
            value under a header cell that is empty or repeats the one before it: 「额定」
            under 「功率」's second column); a data row whose first cell spans the first
            header's two columns (「税目 |  」 over 「大气污染物 |  」) stays a row. Given by the
            PDF loader, whose merged cells are known (config ``pdf_merged_cells``).

    Returns:
        (columns, rows); both empty when the table holds nothing.
    """
    rows = []
    for r in raw:
        cells = [_cell(v) for v in r]
        if any(cells):
            rows.append(cells)
    if not rows:
        return (), ()
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    rows = _fold_header(rows, spans)
    cols = tuple(c or _name_from(i, rows[1:]) for i, c in enumerate(rows[0]))
    return cols, tuple(tuple(r) for r in rows[1:])


#: a form's label cell: a few words ending in a colon (「发文机关：」, 「索 引 号：」)
_FORM_LABEL = re.compile(r"^[^：:|]{1,16}[：:]$")
_CJK_GAP = re.compile(r"(?<=[\u4e00-\u9fff])\s+(?=[\u4e00-\u9fff：])")


def form_pairs(raw: list[list[object]]) -> list[tuple[str, str]]:
    """The (label, value) pairs of a form laid out as a table, or [] for a table of records.

    A form is a table whose every row, its first included, alternates label and value cells
    (「索 引 号：| 000014349/2018-00228 | 主题分类：| 科技、教育」, the document information
    box over a gov.cn notice): each label ends in a colon. Read as a table its first row
    became the column names of the others (「索 引 号： 发文机关：，…」); its pairs are
    lines of text instead, a label's spaced characters closed up (索引号：).

    Args:
        raw: rows of cell values (None, numbers or text).

    Returns:
        The pairs in reading order, each label with its colon; pairs of two empty cells left
        out; [] when the table is no such form.
    """
    rows = [cells for cells in ([_cell(v) for v in r] for r in raw) if any(cells)]
    if len(rows) < 2:
        return []
    pairs = []
    for cells in rows:
        cells = cells + [""] * (len(cells) % 2)
        for label, value in zip(cells[::2], cells[1::2]):
            if not label and not value:
                continue
            if not _FORM_LABEL.match(label):
                return []
            pairs.append((_CJK_GAP.sub("", label), value))
    return pairs if len(pairs) >= 2 else []


_NUMBER_RE = re.compile(r"^[-+]?\d[\d.,，%]*$")


def _fold_header(rows: list[list[str]], spans: bool = False) -> list[list[str]]:
    """Fold a second header row into the first when the first spans merged cells (with
    ``spans``, only when the second fills one of those spans: :func:`clean_cells`)."""
    if len(rows) < 3:
        return rows
    top, sub = rows[0], rows[1]
    if spans and not any(s and (not t or t == left) for left, t, s in zip(["\0", *top], top, sub)):
        return rows
    merged = any(not c for c in top) or any(a and a == b for a, b in zip(top, top[1:]))
    fills = any(s and s != t for t, s in zip(top, sub))
    if not merged or not fills or any(_NUMBER_RE.match(c) for c in sub) or not any(top):
        return rows
    if sum(1 for c in sub if c) < 2:
        return rows
    filled, last = [], ""
    for t, s in zip(top, sub):
        last = t or (last if s else "")
        filled.append(last)
    head = [t if not s or s == t else (f"{t} {s}" if t else s) for t, s in zip(filled, sub)]
    return [head, *rows[2:]]


def _name_from(col: int, body: list[list[str]]) -> str:
    """A name for an unnamed column: ``序号`` when it counts 1, 2, 3...; else ""."""
    values = [r[col] for r in body if r[col]]
    if len(values) >= 2 and all(v.isdigit() for v in values) \
            and [int(v) for v in values] == list(range(int(values[0]), int(values[0]) + len(values))):
        return "序号"
    return ""


def _cell(value: object) -> str:
    """One cell as text: None → "", 32.0 → "32", a date without a time of day as the
    date (``2021-06-26``, not ``2021-06-26 00:00:00``), whitespace collapsed."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, dt.datetime) and value.time() == dt.time():
        value = value.date()
    return " ".join(INVISIBLE_RE.sub("", str(value)).split())


class BodyBuilder:
    """Collects blocks in reading order and builds the Document with exact offsets."""

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._pos = 0
        self._pending_pages = 0
        self.outline: list[OutlineEntry] = []
        self.tables: list[Table] = []
        self.pages: list[int] = []

    @property
    def page(self) -> int | None:
        """The current 1-based page, or None before the first :meth:`new_page`."""
        return len(self.pages) + self._pending_pages or None

    def new_page(self) -> None:
        """Start a new page: its offset is where the next block begins."""
        self._pending_pages += 1

    def _emit(self, text: str) -> int:
        if self._parts:
            self._parts.append("\n\n")
            self._pos += 2
        start = self._pos
        self.pages.extend([start] * self._pending_pages)
        self._pending_pages = 0
        self._parts.append(text)
        self._pos += len(text)
        return start

    def heading(self, label: str, level: int) -> None:
        """Add a heading line that becomes a node of the chapter tree (zero-width
        characters dropped: a documentation site's 「获取配置\u200b」 is 获取配置)."""
        label = " ".join(INVISIBLE_RE.sub("", label).split())
        if label:
            self.outline.append(OutlineEntry(self._emit(label), max(1, level), label))

    def paragraph(self, text: str, breaks: tuple[int, ...] = ()) -> None:
        """Add a paragraph; ``breaks`` are offsets inside it where a new page starts.
        Zero-width characters are dropped from a paragraph without breaks (with breaks
        the offsets would move)."""
        text = (text if breaks else INVISIBLE_RE.sub("", text)).strip()
        if not text:
            self.pages.extend([self._pos] * len(breaks))
            return
        start = self._emit(text)
        self.pages.extend(start + min(b, len(text)) for b in breaks)

    def table(self, raw: list[list[object]], caption: str = "",
              row_breaks: tuple[int, ...] = (), spans: bool = False) -> None:
        """Add a table (first row = header) as Markdown; blank tables are skipped.

        ``row_breaks`` are indexes into ``raw`` of rows that start a new page (a table
        continued across pages); ``spans``: a second header row must fill a merged span
        of the first (:func:`clean_cells`).
        """
        pairs = form_pairs(raw)
        if pairs:  # a form laid out as a table: its label：value pairs are lines of text
            for label, value in pairs:
                self.paragraph(f"{label}{value}")
            return
        columns, rows = clean_cells(raw, spans)
        if not columns:
            return
        md = markdown_table(columns, rows)
        page = self.page
        start = self._emit(md)
        self.tables.append(Table(start, start + len(md), caption, columns, rows, page))
        line_starts = [0] + [i + 1 for i, ch in enumerate(md) if ch == "\n"]
        for idx in row_breaks:
            self.pages.append(start + line_starts[min(idx + 1, len(line_starts) - 1)])

    def text(self) -> str:
        """The body so far."""
        return "".join(self._parts)

    def build(self, path: Path, root: Path, title: str = "", fmt: str = "") -> Document:
        """The Document: id from the body, title from ``title`` or the file name.

        Args:
            path: the source file.
            root: the folder it was found under.
            title: the title the format states (metadata, <title>), if any.
            fmt: the format name kept in metadata (``pdf``, ``docx``...).

        Returns:
            The Document with outline, tables and pages.
        """
        body = self.text()
        self.pages.extend([self._pos] * self._pending_pages)
        self._pending_pages = 0
        name, date = split_stem(path.stem)
        return Document(
            id=content_hash(body), path=doc_path(path, root), title=INVISIBLE_RE.sub("", title).strip() or name,
            body=body, version_date=date, metadata={"format": fmt} if fmt else {},
            outline=tuple(self.outline), tables=tuple(self.tables), pages=tuple(self.pages),
        )
