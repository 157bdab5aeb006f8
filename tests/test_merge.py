"""The deferred index merge: after a small re-ingest through the CLI a detached background
merge folds the new rows into the indexes (the CLI returns once they are searchable), a
writer starting meanwhile waits for it instead of failing, and `zhiku status` says it."""

from __future__ import annotations

import json
import os
import threading
import time

import pytest

from zhiku.cli import main
from zhiku.errors import BusyError
from zhiku.writer import MERGE, WriterLock, writing

pytestmark = pytest.mark.integration
TEXTS = {"差旅.md": "# 差旅办法\n\n第一条 住宿标准为每晚四百五十元。\n\n第二条 出差补助每天一百元。\n",
         "考勤.md": "# 考勤办法\n\n第一条 每日工作八小时。\n\n第二条 迟到三次记旷工半天。\n"}


def _status(home, capsys) -> dict:
    capsys.readouterr()
    assert main(["--home", str(home), "status", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_reingest_is_merged_in_the_background(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ZHIKU_ROUTE_EMBEDDING", "false")
    monkeypatch.setenv("ZHIKU_MERGE_DELAY", "0")
    home, docs = tmp_path / "h", tmp_path / "docs"
    docs.mkdir()
    for name, text in TEXTS.items():
        (docs / name).write_text(text, encoding="utf-8")
    assert main(["--home", str(home), "ingest", str(docs), "--no-dense", "--quiet"]) == 0
    assert _status(home, capsys)["awaiting_merge"] == 0
    (docs / "差旅.md").write_text(TEXTS["差旅.md"].replace("四百五十", "五百五十"), encoding="utf-8")
    capsys.readouterr()
    assert main(["--home", str(home), "ingest", str(docs), "--no-dense"]) == 0
    err = capsys.readouterr().err
    assert "background merge (pid" in err, err
    st = _status(home, capsys)
    if st["awaiting_merge"]:  # the merge may already be done: else it is said to be coming
        assert "merge" in st["index_merge"], st
    deadline = time.monotonic() + 120
    while (st := _status(home, capsys))["awaiting_merge"] and time.monotonic() < deadline:
        time.sleep(0.5)
    assert st["awaiting_merge"] == 0 and st["index_merge"].startswith("none waiting"), st
    while WriterLock(home).holder() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "merged" in (home / "merge.log").read_text(encoding="utf-8")
    capsys.readouterr()
    assert main(["--home", str(home), "ask", "住宿标准", "--local", "--json", "--no-cache"]) == 0
    assert "五百五十" in json.loads(capsys.readouterr().out)["answer"]


def test_a_writer_waits_for_a_merge_but_not_for_another_writer(tmp_path):
    merging, release = threading.Event(), threading.Event()

    def hold(who: str) -> None:
        lock = WriterLock(tmp_path)
        lock.acquire(who)
        merging.set()
        release.wait(10)
        lock.release()

    t = threading.Thread(target=hold, args=(MERGE,))
    t.start()
    merging.wait(5)
    told: list[str] = []
    assert WriterLock(tmp_path).holder() == f"{MERGE} (pid {os.getpid()})"
    threading.Timer(0.5, release.set).start()
    with writing(tmp_path, "`zhiku ingest`", told.append):  # waits, then writes
        assert WriterLock(tmp_path).holder().startswith("`zhiku ingest`")
    assert told and told[0].startswith(MERGE)
    t.join()

    merging.clear(), release.clear()
    t = threading.Thread(target=hold, args=("`zhiku sync`",))
    t.start()
    merging.wait(5)
    with pytest.raises(BusyError, match="zhiku sync"):  # another writer: refused at once
        with writing(tmp_path, "`zhiku ingest`"):
            pass
    release.set()
    t.join()
    assert WriterLock(tmp_path).holder() is None


def _server_job_of_an_edit(tmp_path):
    """A server's jobs over an indexed folder, and the running job re-ingesting one edited
    file (a small re-ingest: its rows wait for the idle merge)."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase
    from zhiku.server.jobs import Jobs

    kb = KnowledgeBase(load_config(home=tmp_path / "h", route_embedding=False, merge_delay=0.2))
    docs = tmp_path / "docs"
    docs.mkdir()
    for name, text in TEXTS.items():
        (docs / name).write_text(text, encoding="utf-8")
    kb.ingest([docs], dense=False, progress=False)
    jobs = Jobs(kb)
    f = docs / "考勤.md"
    f.write_text(TEXTS["考勤.md"].replace("八小时", "七小时"), encoding="utf-8")
    job = jobs.ingest_files([(f, docs)])
    return kb, jobs, docs, job


def test_the_server_merges_after_an_upload_once_idle(tmp_path):
    kb, jobs, docs, job = _server_job_of_an_edit(tmp_path)
    deadline = time.monotonic() + 60
    while (job.state == "running" or kb.store.unindexed_rows()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert job.state == "done" and kb.store.unindexed_rows() == 0, job.to_dict()
    jobs._merger.join(10)
    assert WriterLock(tmp_path / "h").holder() is None
    again = jobs.ingest_files([(docs / "差旅.md", docs)])  # the slot is free again
    while again.state == "running" and time.monotonic() < deadline:
        time.sleep(0.1)
    assert again.state == "done", again.to_dict()


def test_an_upload_arriving_during_the_servers_merge_waits_for_it(tmp_path):
    """The upload's early check (before the file is stored) waits for the idle merge as
    the job itself does, instead of answering 409 "another write is running"."""
    kb, jobs, docs, job = _server_job_of_an_edit(tmp_path)
    deadline = time.monotonic() + 60
    while not jobs._merging and time.monotonic() < deadline:  # the job ended; the merge holds the slot
        time.sleep(0.005)
    assert jobs._merging, job.to_dict()
    jobs.check_idle()  # waits for the merge, then finds the slot free
    assert not jobs._merging and kb.store.unindexed_rows() == 0
    with pytest.raises(BusyError):  # a job that is really writing is still refused at once
        with jobs.exclusive():
            jobs.check_idle()
