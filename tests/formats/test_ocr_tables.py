"""Ruled tables on scanned pages (config ``ocr_tables``): rows and columns read from the page image."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.ingest import load_file

pytestmark = pytest.mark.unit
pytest.importorskip("rapidocr")
pytest.importorskip("pypdfium2")

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
ODOUR = REAL / "scans" / "GB-14554-93恶臭污染物排放标准.pdf"
TEXT_PDF = REAL / "网络工具集应用笔记.pdf"


def _page(tmp_path: Path, index: int) -> Path:
    """One page of the scanned odour-pollutant standard as a PDF of its own."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.add_page(PdfReader(str(ODOUR)).pages[index])
    out = tmp_path / f"恶臭标准第{index + 1}页.pdf"
    writer.write(str(out))
    return out


def _row(table, first: str, second: str) -> dict[str, str]:
    """The row of a table whose cells hold ``first`` and ``second``, by column name."""
    row = next(r for r in table.rows if first in r and second in r)
    return dict(zip(table.columns, row))


def test_scanned_limit_tables_keep_rows_columns_and_merged_cells(tmp_path):
    path = _page(tmp_path, 2)  # 表1 厂界标准值 (grades merged over two columns) and 表2 by stack height
    doc = load_file(path, tmp_path)
    assert len(doc.tables) == 2
    boundary, emission = doc.tables
    assert "表1" in "".join(boundary.caption.split())
    hydrogen = _row(boundary, "3", "硫化氢")
    assert [v for k, v in hydrogen.items() if "二级" in k] == ["0.06", "0.10"]  # 新扩改建, 现有
    assert [v for k, v in hydrogen.items() if "三级" in k] == ["0.32", "0.60"]
    assert hydrogen[next(k for k in hydrogen if "一级" in k)] == "0.03"
    assert "无量纲" in _row(boundary, "9", "臭气浓度").values()
    # 表2: the pollutant cell is merged down over stack heights drawn without inner rules
    methyl = [r for r in emission.rows if "甲硫醇" in r]
    assert [r[-2:] for r in methyl] == [("15", "0.04"), ("20", "0.08"), ("25", "0.12"), ("30", "0.17")]
    assert all(r[0] == "2" for r in methyl)
    # the cells are no longer lines of prose: no value stands alone as a line of the body
    assert "\n0.12\n" not in doc.body and "0.12" in doc.body
    # the text above the tables stays prose, in reading order
    body = "".join(doc.body.split())
    assert body.index("4.2.1恶臭污染物厂界标准值") < body.index("|1|氨|")


def test_scanned_tables_off_reads_lines_only(tmp_path):
    doc = load_file(_page(tmp_path, 2), tmp_path, ocr_tables=False)
    assert doc.tables == ()
    assert "甲硫醇" in doc.body and "0.12" in doc.body


def test_scanned_page_without_a_table_reads_the_same(tmp_path):
    path = _page(tmp_path, 1)  # scope, references and terms: prose only
    on = load_file(path, tmp_path)
    off = load_file(path, tmp_path, ocr_tables=False)
    assert on.tables == () and off.tables == ()
    assert on.body == off.body
    assert "恶臭污染物" in on.body


def test_text_layer_pdf_unchanged(tmp_path):
    on = load_file(TEXT_PDF, REAL)
    off = load_file(TEXT_PDF, REAL, ocr_tables=False)
    assert on.body == off.body and on.tables == off.tables
    assert on.tables and "ocr_pages" not in on.metadata
