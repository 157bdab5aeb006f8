"""Each kind of bad file gets one sentence naming the file and what to do."""

from __future__ import annotations

import pytest

import factory
from zhiku.errors import ZhikuError
from zhiku.ingest import load_file

pytestmark = pytest.mark.unit


def _image_only_pdf(path):
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path))
    c.rect(100, 100, 300, 400, fill=1)  # a "scanned" page: shapes, no text layer
    c.showPage()
    c.save()
    return path


@pytest.mark.parametrize("name, make, why", [
    ("扫描件.pdf", _image_only_pdf, "no text layer"),
    ("截断.pdf", lambda p: p.write_bytes(factory.make_pdf(p).read_bytes()[:400]) or p, "PDF"),
    ("表.xlsx", lambda p: p.write_bytes(b"PK\x03\x04 not really a zip") or p, "not a valid Excel"),
    ("空白.html", lambda p: p.write_text("<nav>菜单</nav><script>x()</script>", encoding="utf-8") or p,
     "no text outside navigation"),
])
def test_bad_files_raise_one_clear_sentence(tmp_path, name, make, why):
    path = tmp_path / name
    make(path)
    with pytest.raises(ZhikuError) as err:
        load_file(path, tmp_path)
    msg = str(err.value)
    assert name in msg and why in msg and msg.count("\n") == 0


def test_oversized_file_is_refused_before_parsing(tmp_path):
    path = factory.make_docx(tmp_path / "大文件.docx")
    with pytest.raises(ZhikuError, match="too large .* raise max_file_mb"):
        load_file(path, tmp_path, max_bytes=1000)
