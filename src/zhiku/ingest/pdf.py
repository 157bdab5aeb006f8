"""PDF loader: pypdf for encryption and bookmarks, pdfplumber for lines, sizes and tables."""

from __future__ import annotations

import re
from itertools import takewhile
from dataclasses import dataclass, field, replace
from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder
from zhiku.ingest.pdf_clean import (
    Line, body_size, continues, drop_toc_lines, is_toc_page, join_lines, strip_running, typical_width,
)
from zhiku.ingest.guards import check_time
from zhiku.ingest.ocr import INSTALL_HINT, read_page
from zhiku.ingest.ocr import available as ocr_available
from zhiku.ingest.pdf_layout import (
    BROKEN_SHARE, SPAN_LABEL, Placed, TableHeading, is_data_table, junk_share, page_lines,
    region_of, spanned_rows, split_heading_rows, unruled_tables,
)
from zhiku.ingest import preamble
from zhiku.ingest.registry import loaders
from zhiku.structure.numbering import (
    DETECTED_LEVEL, TOC_LINE_RE, WORD_BOOKMARK_RE, allowed, clause_headings, has_articles, heading_like,
    scheme,
)
from zhiku.types import Document

#: A 第X编/章/节 heading line when the PDF has no bookmarks: (pattern, level, needs a
#: larger font). Other numbering (3.2.1, 一、, （一）) is read by ``heading_like``; a bare
#: "1 名称" only counts in a larger font (else it is too often a sentence).
_NUMBERED = (
    (re.compile(r"^第[0-9一二三四五六七八九十百零〇]+节"), 3, False),
    (re.compile(r"^第[0-9一二三四五六七八九十百零〇]+章"), 2, False),
    (re.compile(r"^第[0-9一二三四五六七八九十百零〇]+编"), 1, False),
)
_NOT_HEADING_END = re.compile(r"[。，；,;：:]$")
#: A C-style declaration opening an API reference's section: a return type, the name, its
#: parameters in brackets (``int rt_ota_erase_fw(const struct fal_partition *part, size_t
#: new_fw_size);``); the name captions the section's tables that have no 表 caption.
_DECLARATION = re.compile(r"^(?:[A-Za-z_][\w]*[\s*]+)+(?P<name>[A-Za-z_]\w*)\s*\([^()]*\)\s*;?$")


@dataclass
class _Page:
    """One page after extraction: items in reading order (lines and tables)."""

    items: list[Line | list[list[object]]] = field(default_factory=list)


def _open(path: Path):
    """Open with pypdf and check encryption; returns the reader."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
    except (PdfReadError, ValueError, OSError, KeyError) as exc:
        raise ZhikuError(f"File {str(path)!r} is not a valid PDF (damaged, truncated or another "
                         "format renamed); re-export it from its source or remove it.") from exc
    if reader.is_encrypted:
        try:
            ok = reader.decrypt("")
        except Exception:  # noqa: BLE001 - an unsupported cipher is the same problem
            ok = 0
        if not ok:
            raise ZhikuError(f"File {str(path)!r} is encrypted (password-protected); save an "
                             "unencrypted copy and ingest that instead.")
    return reader


def _bookmarks(reader) -> list[tuple[str, int, int]]:
    """(title, level, 0-based page) of every bookmark that resolves to a page (Word's own
    bookmark names such as OLE_LINK5 left out)."""
    out: list[tuple[str, int, int]] = []

    def walk(items, level: int) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item, level + 1)
                continue
            try:
                page = reader.get_destination_page_number(item)
            except Exception:  # noqa: BLE001 - a dangling bookmark is skipped
                continue
            title = " ".join(str(item.title or "").split())
            if title and page is not None and page >= 0 and not WORD_BOOKMARK_RE.match(title):
                out.append((title, level, page))

    try:
        walk(reader.outline, 1)
    except Exception:  # noqa: BLE001 - a broken outline means no outline
        return []
    return out


def _inside(obj: dict, box: tuple[float, float, float, float]) -> bool:
    """Whether the centre of a pdfplumber object lies inside a bounding box."""
    x = (obj["x0"] + obj["x1"]) / 2
    y = (obj["top"] + obj["bottom"]) / 2
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _extract(path: Path, ocr_boxes: dict[str, list[list[object]]],
             articles: bool = False, merged: bool = True, ocr_tables: bool = True) -> list[_Page]:
    """Lines (with font size) and tables of every page, in reading order; pages without
    a text layer, or with a broken one, are read by OCR (their boxes go to ``ocr_boxes``;
    with ``ocr_tables`` their ruled tables are read too, config ``ocr_tables``);
    table rows that are numbered headings become :class:`TableHeading` items; with
    ``merged`` (config ``pdf_merged_cells``) a table's merged and wrapped cells are read
    (:func:`zhiku.ingest.pdf_layout.spanned_rows`)."""
    import pdfplumber

    pages = []
    with pdfplumber.open(str(path)) as pdf:
        for idx, page in enumerate(pdf.pages):
            check_time()
            tables = [t for t in page.find_tables() if is_data_table(t.extract())]
            boxes = [t.bbox for t in tables]
            text_page = page
            if boxes:
                text_page = page.filter(
                    lambda o: o.get("object_type") != "char" or not any(_inside(o, b) for b in boxes))
            placed = page_lines(text_page)
            raw_text = "".join(c["text"] for c in page.chars)
            scanned = not placed and not tables and page.images  # text only in tables is text
            if scanned or junk_share(raw_text) > BROKEN_SHARE:
                placed, tables = _ocr(path, idx, ocr_boxes, ocr_tables, articles), []
            for t in tables:
                placed += _table_items(region_of(t.bbox, placed), t.bbox[1],
                                       spanned_rows(t) if merged else t.extract(), articles)
            placed.sort(key=lambda p: p.key)
            pages.append(_Page([p.item for p in placed]))
    return pages


def _ocr(path: Path, idx: int, ocr_boxes: dict[str, list[list[object]]], tables: bool = True,
         articles: bool = False) -> list[Placed]:
    """The lines of one page read by OCR, as placed Lines (box height as font size), and
    with ``tables`` its ruled tables as raw rows where they stand (their lines taken out:
    :func:`zhiku.ingest.ocr.read_page`; on a page with a table, specks of the scan read as
    one or two characters in less than 0.6 of a line's height are dropped); without the OCR extra the page is listed under
    ``"unread"`` and left empty."""
    if not ocr_available():
        ocr_boxes.setdefault("unread", []).append(idx + 1)
        return []
    lines, grids = read_page(path, idx, tables, SPAN_LABEL)
    ocr_boxes[str(idx + 1)] = [[round(ln.x0, 1), round(ln.top, 1), round(ln.x1, 1),
                                round(ln.bottom, 1), ln.text] for ln in lines]
    taken = {n for g in grids for n in g.taken}
    if grids:  # specks of a scan read as a character or two would stand between caption and table
        heights = sorted(ln.bottom - ln.top for ln in lines)
        small = 0.6 * heights[len(heights) // 2]
        taken |= {n for n, ln in enumerate(lines) if len(ln.text) <= 2 and ln.bottom - ln.top < small}
    placed = [Placed((0, ln.top), Line(ln.text, round(ln.bottom - ln.top, 1), ln.top))
              for n, ln in enumerate(lines) if n not in taken]
    for g in grids:
        placed += _table_items(0, g.box[1], g.rows, articles)
    return placed


def _table_items(region: int, top: float, rows: list[list[object]], articles: bool) -> list[Placed]:
    """A table's rows (numbered heading rows split out: :func:`split_heading_rows`) placed
    where the table stands, in ``region`` at ``top``, in their order."""
    return [Placed((region, top + i * 1e-3), piece)
            for i, piece in enumerate(split_heading_rows(rows, articles))]


def _heading_level(line: Line, base: float, sizes: list[float], articles: bool,
                   numbered: bool = False) -> int | None:
    """Level of a heading line found by numbering or by a larger font, else None: 第X编/章/
    节 lines by their rank, other numbered lines (一、 （一） 1.1 第X部分) at the level of
    detected headings (they nest by their numbering), large unnumbered lines by size, or
    beside the numbered ones when ``numbered`` (numbering structures the document: a
    cover's large lines must not hold its chapters)."""
    text = line.text.strip()
    if len(text) > 40 or _NOT_HEADING_END.search(text):
        return None
    larger = bool(base) and line.size > base * 1.05
    for pattern, level, needs_font in _NUMBERED:
        if pattern.match(text) and (larger or not needs_font):
            return level
    kind = heading_like(text)
    if allowed(kind, articles) and (larger or kind not in ("dotted1", "num_dun", "paren_num")):
        return DETECTED_LEVEL
    if base and line.size >= base * 1.2 and not TOC_LINE_RE.search(text):
        return DETECTED_LEVEL if numbered else 1 + sizes.index(round(line.size, 1))
    return None


def _norm(text: str) -> str:
    """Text without any whitespace, for comparing titles and header rows."""
    return "".join(text.split())


def _place_marks(pages: list[_Page], bookmarks: list[tuple[str, int, int]]
                 ) -> dict[int, list[tuple[str, int, str]]]:
    """Bookmarks by page as (normalised title, level, title); a bookmark whose heading is
    printed at the top of the next page (LaTeX anchors a heading that moved to a new page
    at the end of the one before) is moved to that page."""
    marks: dict[int, list[tuple[str, int, str]]] = {}
    for title, level, page in bookmarks:
        marks.setdefault(page, []).append((_norm(title), level, title))

    def shown(idx: int) -> set[str]:
        return {_norm(i.text) for i in pages[idx].items if isinstance(i, Line)} \
            if idx < len(pages) else set()

    for page in sorted(marks):
        here, after = shown(page), shown(page + 1)
        late = [m for m in marks[page] if not any(f.startswith(m[0]) for f in here)
                and any(f.startswith(m[0]) for f in after)]
        if late:
            marks[page] = [m for m in marks[page] if m not in late]
            marks[page + 1] = late + marks.get(page + 1, [])
    return marks


#: A top clause's line (「1 范围」, 「5 技术要求」), not a sub-clause's (「5.2」).
_TOP_CLAUSE_RE = re.compile(r"^\s*\d{1,2}(?![.．]?\d)\s*\S")


class _Assembler:
    """Turns cleaned pages into body blocks: paragraphs re-joined across lines and pages."""

    def __init__(self, pages: list[_Page], bookmarks: list[tuple[str, int, int]],
                 unruled: bool = True, merged: bool = True, clauses: bool = True,
                 cover: bool = True, cover_source: list[str] | None = None) -> None:
        self.b = BodyBuilder()
        self.pages = pages
        lines = [[i for i in p.items if isinstance(i, Line)] for p in pages]
        self.base = body_size(lines)
        self.width = typical_width(lines)
        self.sizes = sorted({round(ln.size, 1) for ls in lines for ln in ls
                             if self.base and ln.size >= self.base * 1.2 and len(ln.text) <= 40},
                            reverse=True)
        flat = [ln for ls in lines for ln in ls]
        found = clause_headings([ln.text for ln in flat]) if clauses else {}
        if bookmarks and found:  # bookmarks fewer than the top clauses (a lone 「前言」) are no tree
            tops = sum(1 for i in found if _TOP_CLAUSE_RE.match(flat[i].text))
            found, bookmarks = ({}, bookmarks) if len(bookmarks) >= tops else (found, [])
        self.marks = _place_marks(pages, bookmarks)
        self.use_marks = bool(bookmarks)
        self.articles = has_articles([ln.text for ln in flat])
        kinds = [heading_like(ln.text) for ln in flat]
        self.numbered = sum(1 for k in kinds if k in ("cn", "dotted2", "part")) >= 3
        #: a standard's numbered clauses that are headings (config ``standard_clauses``), and
        #: the term lines their number-only lines took as their labels
        self.clauses = {id(flat[i]): label for i, label in found.items()}
        self.taken = {id(flat[i + 1]) for i, label in found.items()
                      if i + 1 < len(flat) and label != " ".join(flat[i].text.split())
                      and label.endswith(" ".join(flat[i + 1].text.split()))}
        self.numbered = self.numbered or bool(self.clauses)
        first = next((ls for ls in lines if ls), [])
        #: a standard's cover page (config ``standard_cover``): what it states, its lines
        said = cover_source if cover_source is not None else [ln.text for ln in first]
        self.cover = preamble.standard_cover(said) if cover else {}
        # an older standard prints its first clauses under the cover's lines on the same page
        front = list(takewhile(lambda ln: id(ln) not in self.clauses and not _TOP_CLAUSE_RE.match(ln.text),
                               first)) if self.cover else []
        self.cover_lines = {id(ln) for ln in front}
        self.cover_texts = {_norm(ln.text) for ln in front}
        self.para = ""
        self.breaks: list[int] = []
        self.prev = ""
        self.prev_mono = False  # the previous line is a listing line: lines are not joined
        self.last = ""
        self.rows: list[list[object]] = []  # a table that may continue on the next page
        self.row_breaks: list[int] = []
        self.caption = ""
        self.declared = ""  # the name an API section's opening declaration declares
        self.opening = False  # the next line is the first under a heading
        self.unruled = unruled  # config ``pdf_unruled_tables``
        self.merged = merged  # config ``pdf_merged_cells``

    def flush(self) -> None:
        """Emit the open paragraph and the open table, if any."""
        if self.para:
            self.b.paragraph(self.para, tuple(self.breaks))
            self.last = self.para
        self.para, self.breaks, self.prev = "", [], ""
        if self.rows:
            self.b.table(self.rows, caption=self.caption, row_breaks=tuple(self.row_breaks),
                         spans=self.merged)
        self.rows, self.row_breaks = [], []

    def table(self, raw: list[list[object]], continued: bool) -> None:
        """Start a table, or append to the one before when it continues on a new page
        (same number of columns; a repeated header row is dropped, and a row broken by
        the page break, its first cell empty on the new page, is joined to the last one)."""
        if continued:
            same = [_norm(str(c or "")) for c in raw[0]] == [_norm(str(c or "")) for c in self.rows[0]]
            raw = [list(r) for r in (raw[1:] if same else raw)]
            if raw and len(self.rows) > 1 and not str(raw[0][0] or "").strip() \
                    and any(str(c or "").strip() for c in raw[0]):
                # the last row broke across the page: its first cell stays empty here
                last = self.rows[-1]
                self.rows[-1] = [f"{a or ''}{b or ''}" for a, b in zip(last, raw.pop(0))]
            self.row_breaks.append(len(self.rows))
            self.rows.extend(raw)
            return
        self.flush()
        self.caption = self.last if len(self.last) <= 40 and "表" in self.last else self.declared
        self.rows = [list(r) for r in raw]

    def page(self, idx: int, items: list) -> None:
        """Add one page's items; the page starts mid-paragraph when its text continues."""
        marks = list(self.marks.get(idx, []))
        found = {_norm(i.text) for i in items if isinstance(i, Line)}
        missing = [m for m in marks if not any(f.startswith(m[0]) for f in found)]
        first = items[0] if items else None
        more_rows = (isinstance(first, list) and not missing and bool(self.rows) and bool(first)
                     and len(first[0]) == len(self.rows[0]))
        if more_rows:
            self.table(first, continued=True)
            items = items[1:]
        elif not (isinstance(first, Line) and not missing and self.para
                  and continues(self.prev, first.text, self.width)):
            self.flush()
            self.b.new_page()
        elif self.para:
            self.breaks.append(len(self.para))
        for _, level, title in missing:
            self.b.heading(title, level)
        for item in items:
            if isinstance(item, Line):
                self.line(item, marks)
            elif isinstance(item, TableHeading):
                self.flush()
                self.b.heading(item.text, DETECTED_LEVEL)
                self.last = item.text
            else:
                self.table(item, continued=False)

    def line(self, ln: Line, marks: list[tuple[str, int, str]]) -> None:
        """Add one text line: a heading, a continuation of the paragraph, or a new one."""
        text = ln.text.strip()
        level = None
        if id(ln) in self.taken:  # a term's name, in the label of the number above it
            return
        if id(ln) in self.cover_lines:  # the cover of a standard: metadata, one line of text
            self.para = f"{self.para} {text}" if self.para else text
            return
        if self.use_marks:
            hit = next((m for m in marks if _norm(text).startswith(m[0])), None)
            if hit:
                marks.remove(hit)
                level = hit[1]
        elif id(ln) in self.clauses:
            level, text = DETECTED_LEVEL, self.clauses[id(ln)]
        elif self.clauses and (scheme(text) or "").startswith("dotted"):
            level = None  # a clause's sentence, or a number out of the clauses' order
        else:
            level = _heading_level(ln, self.base, self.sizes, self.articles, self.numbered)
            if level is not None and _norm(text) in self.cover_texts:
                return  # the cover's title printed again over the first clause: said already
        if self.rows:
            self.flush()
        if level is not None:
            self.flush()
            self.b.heading(text, level)
            self.last = text
            self.declared, self.opening = "", True
            said = ln.text.strip()
            if len(said) > len(text) and said.startswith(text):  # a clause's number over its sentence
                self.para = self.prev = said[len(text):].strip()
                self.prev_mono = self.opening = False
            return
        if self.opening:
            # the first line under a heading: an API reference's declaration names what the
            # section's parameter and return tables are of (「int rt_ota_init(void);」)
            found = _DECLARATION.match(text) if self.unruled else None
            self.declared, self.opening = (found["name"] if found else ""), False
        if self.para and not (ln.mono or self.prev_mono) and continues(self.prev, text, self.width):
            self.para = join_lines(self.para, text)
        else:
            self.flush()
            self.para = text
        if level is None:
            self.prev, self.prev_mono = text, ln.mono


@loaders.register(".pdf")
def load_pdf(path: Path, root: Path, pdf_unruled_tables: bool = True,
             pdf_merged_cells: bool = True, ocr_tables: bool = True, standard_clauses: bool = True,
             standard_cover: bool = True) -> Document:
    """Load a PDF: clean page text, bookmarks or detected headings as the tree, tables.

    Running headers/footers, page numbers and printed table-of-contents pages are
    removed; lines broken by the layout (and words split across pages) are joined.

    Args:
        path: the .pdf file.
        root: the folder it was found under.
        pdf_unruled_tables: a table printed without ruling lines (a parameter or return
            value table of a LaTeX manual) is read from its lines' column gaps
            (:func:`zhiku.ingest.pdf_layout.unruled_tables`; config ``pdf_unruled_tables``),
            and a table without a 表 caption in a section that opens with an API's
            declaration (``int rt_ota_init(void);``) is captioned with the declared name;
            False leaves such lines as text and such tables without a caption.
        pdf_merged_cells: a ruled table's cells merged down over several rows are repeated
            into them when short, its cells' wrapped lines joined, and a row under a header
            cell merged across columns is a header row only when it fills that span
            (:func:`zhiku.ingest.pdf_layout.spanned_rows`; config ``pdf_merged_cells``);
            False reads the cells as extracted.
        ocr_tables: on a page read by OCR, a ruled table is found from the ruling lines of
            the page image and its lines are put in its cells (rows, merged cells), so it
            is read as a table like a text PDF's (:func:`zhiku.ingest.ocr_grid.page_tables`;
            config ``ocr_tables``); False reads such a page as lines only.
        standard_clauses: in a PDF without bookmarks written in numbered clauses (a standard,
            a specification: 1 范围, 3.1, 5.2.1 in order), the clauses with a title or a term
            are the tree, and a numbered line out of that order or opening a sentence is text
            (:func:`zhiku.structure.numbering.clause_headings`; config ``standard_clauses``).
        standard_cover: the first page of a standard (its number and an 实施 date on it) is
            metadata, not headings: ``standard``, ``promulgated`` and ``effective`` (the 实施
            date) are kept (:func:`zhiku.ingest.preamble.standard_cover`; config
            ``standard_cover``), its lines are text, and its title printed again over the
            first clause is no heading.

    Returns:
        The Document with ``pages`` (where each page starts in the body), ``outline``
        (from bookmarks when present, else numbering such as 第X章, 3.2.1, 一、 and
        larger fonts) and ``tables``.

    Raises:
        ZhikuError: the file is damaged, encrypted, has no pages or no text layer.
    """
    reader = _open(path)
    if not len(reader.pages):
        raise ZhikuError(f"File {str(path)!r} has no pages; re-export it or remove it.")
    bookmarks = _bookmarks(reader)
    meta_title = str((reader.metadata or {}).get("/Title") or "")
    ocr_boxes: dict[str, list] = {}
    pages = _extract(path, ocr_boxes, merged=pdf_merged_cells, ocr_tables=ocr_tables)
    unread = ocr_boxes.pop("unread", [])
    title = _trusted_title(meta_title, pages)
    lines = [[i for i in p.items if isinstance(i, Line)] for p in pages]
    # the cover as printed, its boxed cells too (a standard's number is often ruled in a
    # box; and it repeats atop every page, so the running lines dropped below would take it)
    cover_source = next((_printed(p.items) for p, ls in zip(pages, lines) if ls), [])
    kept = [{id(ln) for ln in ls} for ls in strip_running(lines)]
    toc_pages = set()
    for idx, (p, keep) in enumerate(zip(pages, kept)):
        page_lines = [i for i in p.items if isinstance(i, Line) and id(i) in keep]
        toc = is_toc_page(page_lines)
        keep = {id(ln) for ln in drop_toc_lines(page_lines)}  # a contents block mid-page
        p.items = [i for i in p.items if not isinstance(i, Line) or (id(i) in keep and not toc)]
        toc_pages.update([idx] if toc else [])
    if pdf_unruled_tables:
        for p, after in zip(pages, [*pages[1:], None]):  # a table may go on under its header overleaf
            p.items = unruled_tables(p.items, after.items[0] if after and after.items else None)
    bookmarks = [b for b in bookmarks if b[2] not in toc_pages]
    asm = _Assembler(pages, bookmarks, pdf_unruled_tables, pdf_merged_cells, standard_clauses,
                     standard_cover, cover_source)
    for idx, p in enumerate(pages):
        asm.page(idx, p.items)
    asm.flush()
    if not asm.b.text().strip() or len(unread) * 2 > len(pages):
        why = ("its pages are images or its text layer is broken" if unread
               else "no text layer (scanned images?)")
        fix = INSTALL_HINT + " to read it" if unread else "run OCR on it first"
        raise ZhikuError(f"File {str(path)!r} has {why}; {fix}, or remove it.")
    doc = asm.b.build(path, root, title=title, fmt="pdf")
    extra = {"ocr_pages": ocr_boxes} if ocr_boxes else {}
    extra |= asm.cover
    extra |= {"unread_pages": unread} if unread else {}
    return replace(doc, metadata={**doc.metadata, **extra}) if extra else doc


def _printed(items: list) -> list[str]:
    """A page's items as printed lines: a text line or a heading row as it is, a table row by
    row (its cells joined by spaces)."""
    out: list[str] = []
    for item in items:
        if isinstance(item, list):  # a table's rows
            out += [" ".join(str(c or "") for c in row) for row in item]
        else:  # a Line, a TableHeading
            out.append(item.text)
    return out


def _trusted_title(meta: str, pages: list[_Page]) -> str:
    """The metadata title when the first page with text shows it (a template leaves a
    stale title behind), else "" so the file name is used."""
    if meta.strip().lower() in {"(anonymous)", "untitled", "anonymous", ""}:
        return ""
    first = next((p for p in pages if any(isinstance(i, Line) for i in p.items)), None)
    text = _norm("".join(i.text for i in first.items if isinstance(i, Line))) if first else ""
    return meta if _norm(meta) and _norm(meta) in text else ""
