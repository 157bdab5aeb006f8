"""Re-ingesting a folder reads only the files whose size or times changed since they were
indexed, and a file whose times moved but whose text did not stays unchanged."""

from __future__ import annotations

import os
import time

import pytest

import zhiku.ingest
from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.index.doctor import check
from zhiku.kb import KnowledgeBase

pytestmark = pytest.mark.integration
TEXTS = {"差旅.md": "# 差旅办法\n\n第一条 住宿标准为每晚四百五十元。\n\n第二条 出差补助每天一百元。\n",
         "考勤.md": "# 考勤办法\n\n第一条 每日工作八小时。\n\n第二条 迟到三次记旷工半天。\n",
         "采购.md": "# 采购办法\n\n第一条 采购金额五万元以上需经理审批。\n"}


def _age(path, seconds: float = 600) -> None:
    """Give a file an mtime in the past (a file written just now is read again next time)."""
    t = time.time() - seconds
    os.utime(path, (t, t))


@pytest.fixture()
def folder(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    for name, text in TEXTS.items():
        (d / name).write_text(text, encoding="utf-8")
        _age(d / name)
    return d


@pytest.fixture()
def reads(monkeypatch):
    """The files each ingest actually loads (the real loader, counted)."""
    seen: list[str] = []
    real = zhiku.ingest.load_file

    def counted(path, *args, **kwargs):
        seen.append(os.path.basename(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(zhiku.ingest, "load_file", counted)  # what an ingest imports
    return seen


def _kb(tmp_path):
    return KnowledgeBase(load_config(home=tmp_path / "h", route_embedding=False))


def _ingest(kb, folder, reads, **kw):
    reads.clear()
    return kb.ingest([folder], dense=False, progress=False, **kw)


def test_unchanged_files_are_not_read_and_edits_are_found(tmp_path, folder, reads):
    kb = _kb(tmp_path)
    assert _ingest(kb, folder, reads).added == 3 and len(reads) == 3
    rep = _ingest(_kb(tmp_path), folder, reads)  # a new process: the records are on disk
    assert (rep.added, rep.unchanged, reads) == (0, 3, [])
    f = folder / "差旅.md"  # same size, other text (四 → 五: three bytes each)
    f.write_text(TEXTS["差旅.md"].replace("四百五十", "五百五十"), encoding="utf-8")
    assert f.stat().st_size == len(TEXTS["差旅.md"].encode())
    rep = _ingest(kb, folder, reads)
    assert (rep.added, rep.unchanged, reads) == (1, 2, ["差旅.md"])
    # its few new rows wait outside the keyword index (merging is a rewrite), searched exactly
    assert kb.store.unindexed_rows() > 0 and kb.store.unindexed_rows(due_only=True) == 0
    assert "五百五十" in retrieve(kb, "住宿标准", Mode.BM25).hits[0].chunk.text
    assert check(kb, progress=False).healthy
    with kb.store.transaction():  # what doctor --fix and compact do: merge them now
        kb.store.build_indexes()
    assert kb.store.unindexed_rows() == 0
    assert "五百五十" in retrieve(kb, "住宿标准", Mode.BM25).hits[0].chunk.text


def test_same_size_and_restored_mtime_is_still_found(tmp_path, folder, reads):
    kb = _kb(tmp_path)
    _ingest(kb, folder, reads)
    f = folder / "考勤.md"
    before = f.stat()
    f.write_text(TEXTS["考勤.md"].replace("八小时", "七小时"), encoding="utf-8")
    os.utime(f, ns=(before.st_atime_ns, before.st_mtime_ns))  # size and mtime as they were
    rep = _ingest(kb, folder, reads)  # the ctime moved: read, and the edit is indexed
    assert (rep.added, reads) == (1, ["考勤.md"])
    assert "七小时" in retrieve(kb, "每日工作", Mode.BM25).hits[0].chunk.text


def test_touched_unchanged_file_is_read_once_then_skipped(tmp_path, folder, reads):
    kb = _kb(tmp_path)
    _ingest(kb, folder, reads)
    _age(folder / "采购.md", 300)  # new times, same text
    rep = _ingest(kb, folder, reads)
    assert (rep.added, rep.unchanged, reads) == (0, 3, ["采购.md"])
    rep = _ingest(kb, folder, reads)  # its new times were recorded
    assert (rep.unchanged, reads) == (3, [])
    rep = _ingest(kb, folder, reads, rehash=True)  # --rehash: every file read and hashed
    assert (rep.added, rep.unchanged, sorted(reads)) == (0, 3, sorted(TEXTS))


def test_a_file_written_just_now_is_read_again(tmp_path, folder, reads):
    kb = _kb(tmp_path)
    (folder / "新.md").write_text("# 新办法\n\n第一条 本办法自发布之日起施行。\n", encoding="utf-8")
    _ingest(kb, folder, reads)
    rep = _ingest(kb, folder, reads)  # its mtime may not move on a same-second edit
    assert (rep.unchanged, reads) == (4, ["新.md"])


def test_sidecar_change_and_deleted_document_are_read_again(tmp_path, folder, reads):
    kb = _kb(tmp_path)
    _ingest(kb, folder, reads)
    side = folder / "差旅.md.meta.toml"
    side.write_text('groups = ["hr"]\n', encoding="utf-8")
    rep = _ingest(kb, folder, reads)  # its groups changed: written again
    assert reads == ["差旅.md"] and rep.added == 1
    (doc,) = [d for d in kb.store.documents() if d.path == "差旅.md"]
    assert doc.groups == ("hr",)
    with kb.store.transaction():
        kb.store.mark_deleted([doc.doc_id])
    rep = _ingest(kb, folder, reads)  # its document is gone: the file comes back
    assert reads == ["差旅.md"] and rep.added == 1
