"""Real documents of every format end to end through `zhiku ingest` and `zhiku ask`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import factory

pytestmark = pytest.mark.integration


def zhiku(home, *args):
    env = {**os.environ, "ZHIKU_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "zhiku.cli", *args], capture_output=True,
                          text=True, env=env, timeout=600)


@pytest.fixture(scope="module")
def home(tmp_path_factory, docs_dir):
    h = tmp_path_factory.mktemp("home")
    p = zhiku(h, "ingest", "--no-dense", "--quiet", str(docs_dir))
    assert p.returncode == 0, p.stderr
    assert "5 files: 5 indexed" in p.stdout
    return h


def test_table_rows_answer_a_numeric_question(home):
    p = zhiku(home, "ask", "--json", "--mode", "bm25", "扬程大于30米的泵有哪些")
    ans = json.loads(p.stdout)
    assert ans["hits"][0]["kind"] == "table_row"
    rows = [h["text"] for h in ans["hits"] if h["kind"] == "table_row"]
    assert any("IS100-65-200" in t for t in rows) and any("IS65-40-250" in t for t in rows)
    p = zhiku(home, "ask", "--json", "--mode", "bm25", "--doc", "劳动合同法.pdf",
              "扬程大于30米的泵有哪些")
    hits = json.loads(p.stdout)["hits"]
    pdf_rows = [h for h in hits[:5] if h["kind"] == "table_row"]
    assert len(pdf_rows) == 3 and all(h["page"] >= 5 for h in pdf_rows)
    assert pdf_rows[0]["section"] == [factory.APPENDIX]


def test_clause_from_pdf_is_cited_with_its_page(home):
    p = zhiku(home, "ask", "--doc", "劳动合同法.pdf", "劳动合同法第十九条规定了什么")
    assert p.returncode == 0, p.stderr
    assert "第十九条" in p.stdout and "劳动合同期限三个月以上不满一年的" in p.stdout
    assert "第二章 劳动合同的订立 › 第十九条（第 " in p.stdout
    ans = json.loads(zhiku(home, "ask", "--json", "--doc", "劳动合同法.pdf",
                           "劳动合同法第十九条规定了什么").stdout)
    assert ans["citations"][0]["page"] >= 3


def test_bad_files_are_reported_one_by_one_and_the_rest_indexed(tmp_path):
    from pypdf import PdfReader, PdfWriter

    good = factory.make_pdf(tmp_path / "good.pdf")
    bad = tmp_path / "batch"
    bad.mkdir()
    (bad / "损坏.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage\n")
    writer = PdfWriter(clone_from=PdfReader(good))
    writer.encrypt(user_password="secret", algorithm="RC4-128")
    with open(bad / "加密.pdf", "wb") as f:
        writer.write(f)
    (bad / "空.txt").write_bytes(b"")
    (bad / "伪装.docx").write_bytes(bytes(range(256)) * 8)
    factory.make_docx(bad / "正常.docx")
    home = tmp_path / "h"
    assert zhiku(home, "ingest", "--no-dense", "--quiet", str(good)).returncode == 0
    p = zhiku(home, "ingest", "--no-dense", "--quiet", str(bad))
    assert p.returncode == 1
    errors = [ln for ln in p.stderr.splitlines() if ln.startswith("skipped")]
    assert len(errors) == 4, p.stderr
    for name, why in [("损坏.pdf", "not a valid PDF"), ("加密.pdf", "encrypted"),
                      ("空.txt", "empty"), ("伪装.docx", "not a valid Word .docx")]:
        assert any(name in e and why in e for e in errors), (name, p.stderr)
    assert "Traceback" not in p.stderr and "1 indexed, 0 unchanged, 0 duplicates, 4 failed" in p.stdout
    st = json.loads(zhiku(home, "status", "--json").stdout)
    assert st["documents"] == 2


def test_row_answer_cites_the_sheet(home):
    p = zhiku(home, "ask", "--doc", "设备参数.xlsx", "IS80-50-160 的扬程是多少")
    assert p.returncode == 0, p.stderr
    assert "扬程 28 m" in p.stdout and "[1]" in p.stdout
    assert "设备参数 › 水泵性能参数表" in p.stdout
