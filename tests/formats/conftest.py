"""Real documents of every format, built once per session in a temp folder."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

import factory  # noqa: E402


@pytest.fixture(scope="session")
def docs_dir(tmp_path_factory) -> Path:
    """A folder with the law as .pdf, .docx, .html and a pump table as .xlsx and .csv."""
    d = tmp_path_factory.mktemp("formats")
    factory.make_pdf(d / "劳动合同法.pdf")
    factory.make_docx(d / "劳动合同法.docx")
    factory.make_html(d / "劳动合同法.html")
    factory.make_xlsx(d / "设备参数.xlsx")
    rows = [factory.COLUMNS, *factory.ROWS]
    (d / "泵.csv").write_text("\n".join(",".join(r) for r in rows), encoding="utf-8")
    return d
