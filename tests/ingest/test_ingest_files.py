"""Finding files and decoding them: UTF-8, BOM, GB18030, stray bytes, CRLF."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from zhiku.errors import ZhikuError
from zhiku.ingest import iter_files, read_text

pytestmark = pytest.mark.unit

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
CONTRACT = LAWS / "社会法" / "劳动合同法(2012-12-28).md"


@pytest.fixture(scope="module")
def real_text() -> str:
    """The real 劳动合同法 text (UTF-8, LF)."""
    return CONTRACT.read_text(encoding="utf-8")


def test_iter_files_walks_folders_sorted_with_root(tmp_path: Path) -> None:
    dest = tmp_path / "laws"
    shutil.copytree(LAWS, dest)
    (dest / "notes.xyz").write_bytes(b"%XYZ")
    (dest / ".hidden").mkdir()
    (dest / ".hidden" / "x.md").write_text("# 隐藏\n\n正文", encoding="utf-8")
    (dest / "plain.TXT").write_text("正文", encoding="utf-8")
    pairs = iter_files([dest])
    rels = [f.relative_to(dest).as_posix() for f, _ in pairs]
    assert rels == sorted(rels, key=lambda r: (dest / r).as_posix())
    assert "社会法/劳动合同法(2012-12-28).md" in rels
    assert "plain.TXT" in rels
    assert not any(r.endswith(".xyz") or r.startswith(".hidden") for r in rels)
    assert all(root == dest for _, root in pairs)
    assert iter_files([dest]) == pairs  # deterministic


def test_iter_files_single_file_root_is_parent_and_no_duplicates() -> None:
    pairs = iter_files([CONTRACT, LAWS / "社会法", CONTRACT])
    files = [f for f, _ in pairs]
    assert len(files) == len(set(f.resolve() for f in files))
    assert dict(pairs)[CONTRACT] == CONTRACT.parent


def test_iter_files_missing_path_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ZhikuError, match="does not exist"):
        iter_files([tmp_path / "没有这个目录"])


def test_iter_files_unsupported_file_is_an_error(tmp_path: Path) -> None:
    pdf = tmp_path / "a.xyz"
    pdf.write_bytes(b"%PDF-1.4")
    with pytest.raises(ZhikuError, match="not a supported type"):
        iter_files([pdf])


def test_read_text_utf8_bom_and_gb18030_give_the_same_text(tmp_path: Path, real_text: str) -> None:
    plain, bom, gb = tmp_path / "u.md", tmp_path / "bom.md", tmp_path / "gb.md"
    plain.write_bytes(real_text.encode("utf-8"))
    bom.write_bytes(real_text.encode("utf-8-sig"))
    gb.write_bytes(real_text.encode("gb18030"))
    assert read_text(plain) == real_text
    assert read_text(bom) == real_text
    assert not read_text(bom).startswith("\ufeff")
    assert read_text(gb) == real_text


def test_read_text_short_gb18030_snippet(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_bytes("第十九条 试用期包含在劳动合同期限内。".encode("gb18030"))
    assert read_text(path) == "第十九条 试用期包含在劳动合同期限内。"


def test_read_text_survives_stray_bytes(tmp_path: Path, real_text: str) -> None:
    data = real_text.encode("utf-8")
    mid = data.index("第十九条".encode("utf-8"))
    broken = data[:mid] + b"\xff\xfe" + data[mid:]
    path = tmp_path / "broken.md"
    path.write_bytes(broken)
    text = read_text(path)
    assert "第十九条 劳动合同期限三个月以上不满一年的" in text
    assert text.count("\ufffd") <= 2
    assert len(text) == len(real_text) + text.count("\ufffd")


def test_read_text_normalises_crlf_and_cr(tmp_path: Path) -> None:
    path = tmp_path / "crlf.txt"
    path.write_bytes("第一章 总则\r\n\r\n第一条 内容。\r第二条 内容。".encode("utf-8"))
    assert read_text(path) == "第一章 总则\n\n第一条 内容。\n第二条 内容。"


def test_read_text_unreadable_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ZhikuError, match="Cannot read"):
        read_text(tmp_path / "missing.md")


def test_read_text_survives_stray_bytes_in_gb18030(tmp_path: Path, real_text: str) -> None:
    data = real_text.encode("gb18030")
    mid = data.index("第十九条".encode("gb18030"))
    path = tmp_path / "broken_gb.md"
    path.write_bytes(data[:mid] + b"\xff" + data[mid:])
    text = read_text(path)
    assert text.startswith("# 中华人民共和国劳动合同法")
    assert "第十九条 劳动合同期限三个月以上不满一年的" in text
    assert text.count("\ufffd") <= 2


def test_read_text_utf16_with_bom(tmp_path: Path) -> None:
    path = tmp_path / "u16.txt"
    path.write_bytes("第一条 试用期包含在劳动合同期限内。".encode("utf-16"))
    assert read_text(path) == "第一条 试用期包含在劳动合同期限内。"
