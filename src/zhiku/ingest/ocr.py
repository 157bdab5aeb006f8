"""Offline OCR of PDF pages: pypdfium2 renders, rapidocr (PP-OCR ONNX models) reads."""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass
from pathlib import Path

from zhiku.errors import ZhikuError

#: Render scale for OCR (2 = 144 dpi): small print stays readable, a page takes seconds.
SCALE = 2.0
#: Boxes read with less confidence than this are dropped.
MIN_SCORE = 0.5
INSTALL_HINT = "install the OCR extra (pip install 'zhiku[ocr]')"


@dataclass(frozen=True)
class OcrLine:
    """One line of text read from a page image, its box in PDF points (top-left origin)."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    score: float


def available() -> bool:
    """Whether the OCR extra (rapidocr with onnxruntime, pypdfium2) is installed.

    Returns:
        True when OCR can run.
    """
    try:
        import pypdfium2  # noqa: F401
        import rapidocr  # noqa: F401
    except ImportError:
        return False
    return True


@functools.lru_cache(maxsize=1)
def _engine():
    """The OCR engine, built once per process from the models its wheel ships."""
    from rapidocr import RapidOCR

    logging.getLogger("RapidOCR").setLevel(logging.WARNING)
    return RapidOCR(params={"Global.log_level": "warning"})


def render(path: Path, index: int, scale: float = SCALE):
    """Render one page of a PDF as a PIL image.

    Args:
        path: the PDF.
        index: the 0-based page.
        scale: pixels per PDF point.

    Returns:
        The RGB image.
    """
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        return pdf[index].render(scale=scale).to_pil().convert("RGB")
    finally:
        pdf.close()


@dataclass(frozen=True)
class OcrTable:
    """A ruled table read from a page image: raw rows (None where a merged cell is not
    repeated), its box in PDF points, and the indexes of the page's lines it holds."""

    rows: list[list[object]]
    box: tuple[float, float, float, float]
    taken: frozenset[int]


def read_page(path: Path, index: int, tables: bool = False, span_label: int = 20
              ) -> tuple[list[OcrLine], list[OcrTable]]:
    """Read one PDF page from its image: its lines and, with ``tables``, its ruled tables
    (ruling lines found in the same rendered image, lines put in the cells:
    :func:`zhiku.ingest.ocr_grid.page_tables`; config ``ocr_tables``).

    Args:
        path: the PDF.
        index: the 0-based page.
        tables: find ruled tables.
        span_label: the longest label of a merged cell repeated into the rows it spans.

    Returns:
        (lines in reading order, boxes in points; tables, top first).

    Raises:
        ZhikuError: the OCR extra is not installed.
    """
    if not available():
        raise ZhikuError(f"Page {index + 1} of {str(path)!r} is an image; {INSTALL_HINT} "
                         "to read it, or remove the file.")
    import numpy as np

    image = render(path, index)
    result = _engine()(np.asarray(image))
    if result is None or result.boxes is None or result.txts is None:
        return [], []
    out = []
    for box, text, score in zip(result.boxes, result.txts, result.scores):
        xs = [float(p[0]) / SCALE for p in box]
        ys = [float(p[1]) / SCALE for p in box]
        if text.strip() and score >= MIN_SCORE:
            out.append(OcrLine(text.strip(), min(xs), min(ys), max(xs), max(ys), float(score)))
    out.sort(key=lambda ln: (round(ln.top / max(ln.bottom - ln.top, 1.0)), ln.x0))
    if not tables or not out:
        return out, []
    from zhiku.ingest.ocr_grid import Box, page_tables

    boxes = [Box(ln.text, ln.x0 * SCALE, ln.top * SCALE, ln.x1 * SCALE, ln.bottom * SCALE)
             for ln in out]
    grids = page_tables(np.asarray(image.convert("L")), boxes, span_label)
    return out, [OcrTable(g.rows, tuple(v / SCALE for v in g.box), g.taken) for g in grids]
