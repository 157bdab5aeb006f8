"""Spreadsheet loaders: every .xlsx sheet (openpyxl) and every .csv file is one table."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder
from zhiku.ingest.files import read_text
from zhiku.ingest.guards import check_time
from zhiku.ingest.registry import loaders
from zhiku.types import Document


@loaders.register(".xlsx")
def load_xlsx(path: Path, root: Path) -> Document:
    """Load a workbook: each non-empty sheet is a section holding one table.

    Args:
        path: the .xlsx file (computed values are read, not formulas).
        root: the folder it was found under.

    Returns:
        The Document; one outline heading and one Table per sheet, captioned with the
        sheet name; a cell merged down over several rows gives its value to every row it
        covers (see :func:`fill_merged`).

    Raises:
        ZhikuError: the file is not a valid workbook or every sheet is empty.
    """
    import zipfile

    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError) as exc:
        raise ZhikuError(f"File {str(path)!r} is not a valid Excel .xlsx workbook (damaged, or "
                         "another format renamed); re-save it as .xlsx or remove it.") from exc
    b = BodyBuilder()
    try:
        for ws in wb.worksheets:
            raw = []
            for r in ws.iter_rows(values_only=True):
                raw.append(list(r))
                if len(raw) % 1000 == 0:
                    check_time()
            if any(any(v is not None and str(v).strip() for v in r) for r in raw):
                fill_merged(raw, _merged_ranges(path, getattr(ws, "_worksheet_path", "")))
                b.heading(ws.title, 1)
                b.table(raw, caption=ws.title)
    finally:
        wb.close()
    if not b.tables:
        raise ZhikuError(f"File {str(path)!r} has only empty sheets; add data or remove it.")
    return b.build(path, root, fmt="xlsx")


def _merged_ranges(path: Path, sheet_xml: str) -> list[tuple[int, int, int, int]]:
    """The merged ranges of a sheet as (first column, first row, last column, last row),
    1-based, read from its XML part (openpyxl's streaming reader does not keep them)."""
    import zipfile
    from xml.etree.ElementTree import iterparse

    from openpyxl.utils import range_boundaries

    out: list[tuple[int, int, int, int]] = []
    if not sheet_xml:
        return out
    try:
        with zipfile.ZipFile(path) as z, z.open(sheet_xml.lstrip("/")) as src:
            for _, el in iterparse(src):
                if el.tag.endswith("}mergeCell") and el.get("ref"):
                    try:
                        out.append(tuple(range_boundaries(el.get("ref"))))
                    except (ValueError, TypeError):
                        pass
                if el.tag.endswith("}row"):
                    el.clear()
    except (KeyError, OSError, zipfile.BadZipFile):
        return []
    return out


def fill_merged(raw: list[list[object]], ranges: list[tuple[int, int, int, int]]) -> None:
    """Give a cell merged down (a category over the rows it groups: 「工业控制接口」 over
    串口, GPIO, I2C…) its value in every row it covers, as an HTML ``rowspan`` is read;
    the places a merge spans across stay empty, so a title merged over the whole width
    is not repeated in every column.

    Args:
        raw: the sheet's rows from row 1 and column 1, changed in place.
        ranges: merged ranges as (first column, first row, last column, last row), 1-based.
    """
    for c0, r0, _c1, r1 in ranges:
        if r1 <= r0 or r0 > len(raw) or c0 > len(raw[r0 - 1]):
            continue
        value = raw[r0 - 1][c0 - 1]
        if value is None or not str(value).strip():
            continue
        for r in range(r0, min(r1, len(raw))):
            row = raw[r]
            if c0 <= len(row) and (row[c0 - 1] is None or not str(row[c0 - 1]).strip()):
                row[c0 - 1] = value


@loaders.register(".csv")
def load_csv(path: Path, root: Path) -> Document:
    """Load a CSV file (any encoding) as one table, read with the standard dialect
    (comma, double quotes) unless another delimiter splits the rows more evenly.

    Args:
        path: the .csv file; the first row is the header.
        root: the folder it was found under.

    Returns:
        The Document holding one Table captioned with the file name.

    Raises:
        ZhikuError: the file holds no rows.
    """
    text = read_text(path, binary_check=True)
    raw = csv_rows(text)
    b = BodyBuilder()
    b.table(raw, caption=path.stem)
    if not b.tables:
        raise ZhikuError(f"File {str(path)!r} holds no rows; add data or remove it.")
    return b.build(path, root, fmt="csv")


def _evenness(rows: list[list[str]]) -> tuple[float, int]:
    """How well a split fits: the share of rows with the most common width, and the width."""
    widths = [len(r) for r in rows if any(c.strip() for c in r)]
    if not widths:
        return 0.0, 0
    common = max(set(widths), key=widths.count)
    return widths.count(common) / len(widths), common


def csv_rows(text: str) -> list[list[str]]:
    """Split CSV text into rows: the standard dialect (comma, ``"`` quotes) unless the
    file proves otherwise (a ``;``, tab or ``|`` split gives more columns at least as
    evenly). Quote characters are never guessed: a ``'`` in text is just a character.

    Args:
        text: the decoded file.

    Returns:
        The rows as lists of cells.
    """
    sample = text[:65536]
    best = csv.excel.delimiter
    share, width = _evenness(list(csv.reader(io.StringIO(sample))))
    for delim in ";\t|":
        if delim not in sample:
            continue
        s2, w2 = _evenness(list(csv.reader(io.StringIO(sample), delimiter=delim)))
        if w2 > 1 and (width <= 1 or (s2 >= share and w2 > width) or s2 > share + 0.2):
            best, share, width = delim, s2, w2
    return [list(r) for r in csv.reader(io.StringIO(text), delimiter=best)]
