"""Spreadsheet loaders: every .xlsx sheet (openpyxl) and every .csv file is one table."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.ingest.builder import BodyBuilder
from zhiku.ingest.files import read_text
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
        sheet name.

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
            raw = [list(r) for r in ws.iter_rows(values_only=True)]
            if any(any(v is not None and str(v).strip() for v in r) for r in raw):
                b.heading(ws.title, 1)
                b.table(raw, caption=ws.title)
    finally:
        wb.close()
    if not b.tables:
        raise ZhikuError(f"File {str(path)!r} has only empty sheets; add data or remove it.")
    return b.build(path, root, fmt="xlsx")


@loaders.register(".csv")
def load_csv(path: Path, root: Path) -> Document:
    """Load a CSV file (any encoding; delimiter sniffed among , ; tab |) as one table.

    Args:
        path: the .csv file; the first row is the header.
        root: the folder it was found under.

    Returns:
        The Document holding one Table captioned with the file name.

    Raises:
        ZhikuError: the file holds no rows.
    """
    text = read_text(path)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t|")
    except csv.Error:
        dialect = csv.excel
    raw = [list(r) for r in csv.reader(io.StringIO(text), dialect)]
    b = BodyBuilder()
    b.table(raw, caption=path.stem)
    if not b.tables:
        raise ZhikuError(f"File {str(path)!r} holds no rows; add data or remove it.")
    return b.build(path, root, fmt="csv")
