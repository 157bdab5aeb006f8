"""Scanned PDFs read offline by OCR: a real page image rendered from text, then read back."""

from __future__ import annotations

import pytest

import factory

from zhiku.chunk import chunk_document
from zhiku.ingest import load_file
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit
pytest.importorskip("rapidocr")
pytest.importorskip("pypdfium2")

LINES = ["第一章 总则", "员工试用期最长为六个月。", "年休假天数按工龄计算。"]


def _scan(tmp_path):
    """Text typeset, rendered to a 150 dpi image, and only the image put in a PDF."""
    return factory.make_scanned_pdf(tmp_path / "扫描件.pdf", [LINES])


def test_scanned_page_is_read_by_ocr_with_page_and_boxes(tmp_path):
    path = _scan(tmp_path)
    doc = load_file(path, tmp_path)
    squashed = "".join(doc.body.split())
    assert "员工试用期最长为六个月" in squashed and "年休假天数按工龄计算" in squashed
    assert [s.label for s in build_tree(doc)] == ["第一章 总则"] or "第一章" in squashed
    boxes = doc.metadata["ocr_pages"]["1"]
    assert len(boxes) >= 3
    x0, top, x1, bottom, text = next(b for b in boxes if "试用期" in b[4])
    assert 0 <= x0 < x1 <= 300 and 0 <= top < bottom <= 420  # points on the A6 page
    assert top > next(b for b in boxes if "总则" in b[4])[1]  # below the heading
    chunks = chunk_document(doc, build_tree(doc))
    assert all(c.page == 1 for c in chunks)
