"""PDF page layout: columns and reading order, data tables told from boxes, glyph junk."""

from __future__ import annotations

import re
from dataclasses import dataclass

from zhiku.ingest.pdf_clean import Line

#: Glyphs pdfminer could not map (``(cid:12)``), private-use code points, replacement marks.
_JUNK_RE = re.compile(r"\(cid:\d+\)|[\ue000-\uf8ff\ufffd]")
#: Latin-1 letters and C1 controls: a Chinese text layer whose font encoding is broken
#: comes out as runs of them (``ÖÐ»ªÈËÃñ``); counted as junk, never removed.
_MOJIBAKE_RE = re.compile(r"[\u0080-\u009f\u00c0-\u00ff]")
#: Monospace font names (Consolas, Courier, DejaVu Sans Mono, LM Mono): code listings.
_MONO_RE = re.compile(r"mono|consol|courier|menlo|inconsolata|typewriter", re.IGNORECASE)
#: Share of junk characters above which a page's text layer is broken.
BROKEN_SHARE = 0.3


@dataclass(frozen=True)
class Placed:
    """A line or table with its place in the reading order of a page."""

    key: tuple[int, float]  # (region: 0 above the columns, 1 left, 2 right, 3 below; top)
    item: object  # Line, or a table's raw rows


def junk_share(text: str) -> float:
    """Share of a text that is glyph junk (``(cid:0)``, private-use characters, U+FFFD,
    and Latin-1 mojibake of a broken font encoding).

    Args:
        text: the page's text.

    Returns:
        0.0 to 1.0 (a ``(cid:N)`` counts as one character).
    """
    junk = _JUNK_RE.findall(text)
    visible = len("".join(text.split())) - sum(len(j) - 1 for j in junk)
    return (len(junk) + len(_MOJIBAKE_RE.findall(text))) / visible if visible > 0 else 0.0


def clean_junk(text: str) -> str:
    """The text without glyph junk, whitespace collapsed at the ends."""
    return _JUNK_RE.sub("", text).strip()


def is_data_table(rows: list[list[object]]) -> bool:
    """Whether rows found by ruling lines are a table of data rather than page layout
    (a text box, a framed paragraph, a two-column frame).

    A data table has at least two rows and two columns, most cells filled, and short
    cells; a frame holds a few long cells or mostly empty ones.

    Args:
        rows: the cells pdfplumber extracted (None for merged cells).

    Returns:
        True for a data table.
    """
    rows = [r for r in rows if any(c and str(c).strip() for c in r)]
    if len(rows) < 2 or max(len(r) for r in rows) < 2:
        return False
    cells = [str(c or "").strip() for r in rows for c in r]
    filled = [c for c in cells if c]
    if len(filled) < 0.5 * len(cells):
        return False
    return sum(len(c) for c in filled) / len(filled) <= 40


#: a cell merged down over several rows is repeated into each of them when it is a label of at
#: most this many characters (a category: 固体废物, 噪声, 建设项目管理); a longer one (a note
#: beside several rows) stays once
SPAN_LABEL = 20
# a line break inside a cell between two Chinese characters (or after a Chinese comma or
# bracket): the cell's text wrapped in its narrow column, not a break the author made
_CELL_WRAP = re.compile(r"(?<=[\u4e00-\u9fff，、；：（“])\n(?=[\u4e00-\u9fff，、；：）”])")


def spanned_rows(table) -> list[list[object]]:
    """The rows of a ruled table (a pdfplumber ``Table``) with its merged cells read: a
    cell's wrapped lines joined (no space between two Chinese characters: 「固\\n体\\n废\\n物」
    → 固体废物, 「建设项\\n目环境影响登记表」 → 建设项目环境影响登记表), and a cell merged down
    over several rows repeated into each of them when it is a label of at most
    :data:`SPAN_LABEL` characters (「噪声」 beside the 超标4-6分贝 … 超标16分贝以上 rows), so each
    row says what it is of. A cell merged across columns stays once (None after it), as the
    extraction gives it (config ``pdf_merged_cells``).

    Args:
        table: the table pdfplumber found by its ruling lines.

    Returns:
        The rows of cell texts (None where a merged cell is not repeated).
    """
    raw = table.extract()
    rows = [[_CELL_WRAP.sub("", c) if isinstance(c, str) else c for c in r] for r in raw]
    boxes = [r.cells for r in table.rows]
    if len(boxes) != len(rows):
        return rows
    out = [list(r) for r in rows]
    for i, r in enumerate(rows):
        top = table.rows[i].bbox[1]
        for j, cell in enumerate(r):
            if cell is not None or j >= len(boxes[i]) or boxes[i][j] is not None:
                continue
            above = next((k for k in range(i - 1, -1, -1)
                          if j < len(boxes[k]) and boxes[k][j] is not None), None)
            if above is None or boxes[above][j][3] <= top + 0.5:
                continue  # merged across columns, or nothing above it
            text = rows[above][j]
            if isinstance(text, str) and 0 < len("".join(text.split())) <= SPAN_LABEL:
                out[i][j] = text
    return out


@dataclass(frozen=True)
class TableHeading:
    """A table row that is a numbered heading of the document (``2 电气特性`` across a
    spec sheet's table), with its place in the reading order."""

    text: str


def split_heading_rows(rows: list[list[object]], articles: bool) -> list[object]:
    """A table's rows cut at rows that hold only a numbered heading: row lists and
    :class:`TableHeading` items in order; the header row is repeated after a heading.

    Args:
        rows: the extracted rows (None for merged cells).
        articles: the document is organised in 第X条 articles (see ``numbering.allowed``).

    Returns:
        The pieces, for the page's reading order.
    """
    from zhiku.structure.numbering import allowed, heading_like

    out: list[object] = []
    part: list[list[object]] = []
    header: list[object] | None = None
    for row in rows:
        cells = [str(c).strip() for c in row if c is not None and str(c).strip()]
        if len(row) > 1 and len(set(cells)) == 1 and allowed(heading_like(cells[0]), articles):
            if len(part) > 1:
                out.append(part)
            header = header or (part[0] if part else None)
            out.append(TableHeading(" ".join(cells[0].split())))
            part = [header] if header else []
            continue
        part.append(list(row))
    if part and (len(part) > 1 or header is None):
        out.append(part)
    return out


def _gutter(lines: list[dict], width: float) -> float | None:
    """The x of an empty strip between two text columns (at least one character wide)
    that most lines have text on both sides of and few lines cross, or None."""
    if len(lines) < 6:
        return None
    sizes = sorted(c["size"] for ln in lines for c in ln["chars"]) or [10.0]
    half = max(6.0, 0.6 * sizes[len(sizes) // 2])
    best, best_split = None, 0
    for step in range(30, 71, 2):
        gx = width * step / 100
        split = crossing = 0
        for ln in lines:
            chars = ln["chars"]
            if any(c["x0"] < gx + half and c["x1"] > gx - half for c in chars):
                crossing += 1
            elif any(c["x1"] <= gx for c in chars) and any(c["x0"] >= gx for c in chars):
                split += 1
        if split > best_split and split >= 0.5 * len(lines) and crossing <= 0.25 * len(lines):
            best, best_split = gx, split
    return best if best is not None and _columns_fill(lines, best, half) else None


def _columns_fill(lines: list[dict], gx: float, half: float) -> bool:
    """Whether a gutter found at ``gx`` separates real columns: no line crosses it between
    the lines that have text on both sides, and the right column reaches the right edge of
    the page's text (a code listing with comments on the right does neither)."""
    both = [ln for ln in lines if any(c["x1"] <= gx for c in ln["chars"])
            and any(c["x0"] >= gx for c in ln["chars"])]
    top, bottom = min(ln["top"] for ln in both), max(ln["bottom"] for ln in both)
    if any(top < ln["top"] < bottom and any(c["x0"] < gx + half and c["x1"] > gx - half
                                            for c in ln["chars"]) for ln in lines):
        return False
    right = max(c["x1"] for ln in both for c in ln["chars"])
    edge = max(c["x1"] for ln in lines for c in ln["chars"])
    left = min(c["x0"] for ln in lines for c in ln["chars"])
    return edge - right <= 0.05 * (edge - left)


def _line(ln: dict) -> Line | None:
    """A pdfplumber text line as a Line (median font size), junk removed; None if empty."""
    text = clean_junk(ln["text"])
    if not text:
        return None
    sizes = sorted(c["size"] for c in ln["chars"]) or [0.0]
    latin = [c for c in ln["chars"] if c["text"].isascii() and not c["text"].isspace()]
    mono = bool(latin) and sum(bool(_MONO_RE.search(c.get("fontname") or "")) for c in latin) \
        >= 0.8 * len(latin)
    size = sizes[len(sizes) // 2]
    return Line(text, size, ln["top"], mono, _cells(ln["chars"], size))


def _cells(chars: list[dict], size: float) -> tuple[tuple[float, float, str], ...]:
    """A line's runs of text split where the gap between two characters is at least
    :data:`CELL_GAP` font sizes wide, each (x0, x1, text); a space is kept where the gap is
    a word space (a quarter of the size)."""
    out: list[tuple[float, float, str]] = []
    run: list[dict] = []
    for c in sorted((c for c in chars if not c["text"].isspace()), key=lambda c: c["x0"]):
        if run and c["x0"] - run[-1]["x1"] >= CELL_GAP * (size or 10.0):
            out.append(_run(run, size))
            run = []
        run.append(c)
    if run:
        out.append(_run(run, size))
    return tuple((x0, x1, t) for x0, x1, t in out if t)


def _run(run: list[dict], size: float) -> tuple[float, float, str]:
    """One cell of :func:`_cells`: (x0, x1, text), junk removed."""
    text = run[0]["text"]
    for a, b in zip(run, run[1:]):
        text += (" " if b["x0"] - a["x1"] >= 0.25 * (size or 10.0) else "") + b["text"]
    return run[0]["x0"], max(c["x1"] for c in run), clean_junk(text)


#: The gap, in font sizes, that parts a line into the cells of a table printed without
#: ruling lines (a LaTeX ``tabular`` of parameters and return values); a word space is a
#: quarter of a size, a justified line's widest gap well under one.
CELL_GAP = 1.5
#: Rows under its header an unruled table needs: a single row (two words of a slide that
#: line up, 「参数 描述」 over 「无 无」) is left as text.
MIN_ROWS = 2
#: Punctuation a header cell of such a table never holds (it is a sentence then).
_SENTENCE_MARK = re.compile(r"[。，；！？：,;!?]")


def _cell_texts(item: object) -> list[str]:
    """The texts of a line's cells ([] for anything else)."""
    return [t for _, _, t in item.cells] if isinstance(item, Line) else []


def unruled_tables(items: list[object], overleaf: object = None) -> list[object]:
    """A page's items with each table printed without ruling lines (its text layer has
    no rules, so pdfplumber's ruled tables miss it) turned from lines into raw rows.

    A table starts at a header line: two to eight short cells (:func:`_cells`) with no
    sentence punctuation and none opening with a digit (a date or a value: a row whose
    header is on another page), not in a listing's monospace font. The lines under it (each
    within three sizes of the one above) belong to it while every cell of theirs lies in
    one column's band (a column reaches halfway to the next header cell): a line whose
    first cell is in the first column and that has two or more cells starts a row; a line
    whose cells start in a later column continues the row above (a wrapped cell). A line
    crossing a band's edge, a single cell under the first column (the paragraph after the
    table) or a line repeating a header cell after the first row (the next table's header)
    ends it; a header with fewer than :data:`MIN_ROWS` rows under it stays text, unless the
    page ends with it and the next page opens with the same header (its rows go on there).
    ``参数 描述`` / ``part 指向分区的指针`` / ``new_fw_size 指定擦除区域…`` / ``返回 描述`` /
    ``>= 0 实际擦除的大小`` / ``< 0 错误`` come out as two tables of two columns.

    Args:
        items: the page's items in reading order (:class:`Line`, tables' raw rows,
            :class:`TableHeading`).
        overleaf: the next page's first item (None on the last page).

    Returns:
        The items, a table's lines replaced by its rows (header first) where the first
        of them stood.
    """
    out: list[object] = []
    i = 0
    while i < len(items):
        found = _table_at(items, i)
        if found is None:
            out.append(items[i])
            i += 1
            continue
        rows, j = found
        goes_on = j == len(items) and len(rows) > 1 and _cell_texts(overleaf) == rows[0]
        if len(rows) > MIN_ROWS or goes_on:
            out.append(rows)
        else:  # too few rows to tell a table from lines that happen to line up: text
            out += items[i:j]
        i = j
    return out


def _is_header(ln: object) -> bool:
    """Whether ``ln`` may head an unruled table (:func:`unruled_tables`)."""
    return (isinstance(ln, Line) and not ln.mono and 2 <= len(ln.cells) <= 8
            and all(len(t) <= 20 and not _SENTENCE_MARK.search(t) and not t[0].isdigit()
                    for _, _, t in ln.cells))


def _table_at(items: list[object], i: int) -> tuple[list[list[str]], int] | None:
    """The rows (header first) of what may be an unruled table whose header is
    ``items[i]`` and the index after its last line, or None when ``items[i]`` is no header."""
    head = items[i]
    if not _is_header(head):
        return None
    cols = head.cells
    edges = [(a[1] + b[0]) / 2 for a, b in zip(cols, cols[1:])]
    slack = 0.5 * (head.size or 10.0)

    def band(cell: tuple[float, float, str]) -> int | None:
        lo = [float("-inf"), *edges]
        hi = [*edges, float("inf")]
        return next((j for j in range(len(cols)) if cell[0] >= lo[j] - slack and cell[1] <= hi[j] + slack),
                    None)

    rows: list[list[str]] = [[t for _, _, t in cols]]
    prev, j = head, i + 1
    while j < len(items):
        ln = items[j]
        if not isinstance(ln, Line) or not ln.cells or not 0 < ln.top - prev.top <= 3 * (prev.size or 10.0):
            break
        where = [band(c) for c in ln.cells]
        if None in where or where != sorted(set(where)):
            break
        if where[0] == 0:
            if len(where) < 2 or (len(rows) > 1 and where == list(range(len(cols))) and any(
                    t == rows[0][k] for k, (_, _, t) in enumerate(ln.cells) if k)):
                break  # a single cell: the text after the table; a header cell again: the next table
            rows.append([""] * len(cols))
        elif len(rows) < 2:
            break
        for k, (_, _, t) in zip(where, ln.cells):
            was = rows[-1][k]
            rows[-1][k] = t if not was else f"{was} {t}" if was[-1].isascii() and t[0].isascii() else was + t
        prev, j = ln, j + 1
    return rows, j


def page_lines(page) -> list[Placed]:
    """Text lines of a (table-filtered) pdfplumber page in reading order: on a two-column
    page, what spans both columns above them, the left column, the right, then what
    spans both below.

    Args:
        page: a pdfplumber page (or a filtered view of one).

    Returns:
        Placed lines; sort by ``key`` for reading order.
    """
    raw = page.extract_text_lines(return_chars=True, strip=True)
    gx = _gutter(raw, float(page.width))
    if gx is None:
        return [Placed((0, ln["top"]), line) for ln in raw if (line := _line(ln))]
    split = [ln for ln in raw if not any(c["x0"] < gx and c["x1"] > gx for c in ln["chars"])]
    first = min(ln["top"] for ln in split)
    last = max(ln["bottom"] for ln in split)
    x0, top, x1, bottom = page.bbox
    bands = ((0, (x0, top, x1, first)), (1, (x0, first, gx, last)), (2, (gx, first, x1, last)),
             (3, (x0, last, x1, bottom)))
    out: list[Placed] = []
    for region, box in bands:
        if box[2] - box[0] < 1 or box[3] - box[1] < 1:
            continue
        part = page.within_bbox(box)
        out += [Placed((region, ln["top"]), line)
                for ln in part.extract_text_lines(return_chars=True, strip=True)
                if (line := _line(ln))]
    return out


def region_of(bbox: tuple[float, float, float, float], placed: list[Placed]) -> int:
    """The reading-order region a table's box belongs to (0 on a one-column page)."""
    if not any(p.key[0] in (1, 2) for p in placed):
        return 0
    tops = [p.key[1] for p in placed if p.key[0] in (1, 2)]
    if bbox[3] < min(tops):
        return 0
    if bbox[1] > max(tops):
        return 3
    return 1
