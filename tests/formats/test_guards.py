"""Files that must never hang or pollute a batch: zip bombs, binary text files, slow loads."""

from __future__ import annotations

import time
import zipfile

import pytest

import factory
from zhiku.errors import ZhikuError
from zhiku.ingest import load_file
from zhiku.ingest.guards import check_time, time_limit

pytestmark = pytest.mark.unit


def _bomb_docx(path, mb: int = 24):
    """A real .docx whose document.xml is padded to ``mb`` MB of whitespace (packs to ~1 MB)."""
    src = factory.make_docx(path.with_name("src.docx"))
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "word/document.xml":
                with zout.open(item.filename, "w", force_zip64=True) as fh:
                    fh.write(data[:-len(b"</w:document>")])
                    chunk = b" " * 2**20
                    for _ in range(mb):
                        fh.write(chunk)
                    fh.write(b"</w:document>")
            else:
                zout.writestr(item, data)
    return path


def test_zip_bomb_docx_is_refused_by_its_declared_size(tmp_path):
    path = _bomb_docx(tmp_path / "炸弹.docx")
    assert path.stat().st_size < 5 * 2**20
    began = time.monotonic()
    with pytest.raises(ZhikuError) as err:
        load_file(path, tmp_path)
    msg = str(err.value)
    assert time.monotonic() - began < 2  # refused before any XML is parsed
    assert "炸弹.docx" in msg and "zip bomb" in msg and msg.count("\n") == 0


@pytest.mark.parametrize("name", ["说明.md", "记录.txt", "导出.csv", "页面.html"])
def test_binary_content_in_a_text_file_is_refused(tmp_path, name):
    path = tmp_path / name
    png = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40)
    path.write_bytes(png)
    with pytest.raises(ZhikuError, match="binary data, not text"):
        load_file(path, tmp_path)


def test_gbk_and_utf16_text_still_load(tmp_path):
    (tmp_path / "a.txt").write_bytes("第一条 员工试用期为三个月。".encode("gbk"))
    (tmp_path / "b.txt").write_bytes("第一条 员工试用期为三个月。".encode("utf-16"))
    for name in ("a.txt", "b.txt"):
        assert "试用期" in load_file(tmp_path / name, tmp_path).body


def test_a_slow_load_is_given_up_with_one_sentence(tmp_path):
    path = tmp_path / "慢.pdf"
    with pytest.raises(ZhikuError, match="慢.pdf.*longer than") as err:
        with time_limit(path, 0.2):
            while True:  # a parser stuck inside one page: the alarm interrupts it
                sum(range(1000))
    assert err.value.args[0].count("\n") == 0
    with time_limit(path, 5):  # far above the sleep, so a loaded machine cannot cross it
        time.sleep(0.01)
        check_time()  # within the limit: nothing happens


def test_cooperative_check_outside_the_main_thread(tmp_path):
    import threading

    seen = []

    def work():
        try:
            with time_limit(tmp_path / "x.docx", 0.05):
                time.sleep(0.1)
                check_time()
        except ZhikuError as exc:
            seen.append(str(exc))

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen and "x.docx" in seen[0]


def test_a_time_limit_a_parser_wrapped_is_still_a_time_limit(tmp_path):
    """pdfplumber wraps whatever stops pdfminer in its own ``PdfminerException``: a time limit
    passing inside it must still be reported as the time limit, naming load_timeout, not as a
    damaged file; a parser's own error is not taken for one (the twin)."""
    from pdfplumber.utils.exceptions import PdfminerException

    from zhiku.ingest.guards import LoadTimeout, timed_out

    late = LoadTimeout("File 'a.pdf' took longer than 1 s to load; split it, raise load_timeout "
                       "(ZHIKU_LOAD_TIMEOUT) or remove it.")
    try:
        try:
            raise late
        except Exception as inner:  # noqa: BLE001 - as pdfplumber does
            raise PdfminerException(inner) from None
    except PdfminerException as wrapped:
        assert timed_out(wrapped) is late
    assert timed_out(PdfminerException(ValueError("bad xref"))) is None
