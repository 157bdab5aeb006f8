"""`zhiku serve` as users run it: eight concurrent first asks on a fresh server all
succeed (per-generation state is built once, schema files written safely), and SIGTERM
ends the server within 10 s, a running ingest job marked interrupted."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.doors.conftest import DATA, write_config

pytestmark = pytest.mark.integration
QUESTIONS = ["试用期最长多久？", "劳动合同法第十九条规定了什么？", "扬程大于30米的泵有哪些？",
             "出差申请需要谁批准？", "华为Mate 60 手机的首发售价是多少？", "离婚冷静期是多长时间？",
             "采购审批需要谁签字？", "劳动法对每日工作时间有什么规定？"]


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _start(cfg, port: int) -> subprocess.Popen:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": os.pathsep.join(sys.path)}
    env.pop("ZHIKU_HOME", None)
    proc = subprocess.Popen([sys.executable, "-m", "zhiku.cli", "--config", str(cfg), "serve", "--port", str(port)],
                            env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
        assert proc.poll() is None, proc.stderr.read()
    proc.kill()
    raise AssertionError("zhiku serve did not start")


def test_concurrent_first_asks_then_sigterm_during_an_ingest(laws_kb, tmp_path):
    from zhiku.cli import main

    _, home, _ = laws_kb
    fresh = tmp_path / "fresh"
    shutil.copytree(home / "index", fresh / "index")
    cfg = write_config(fresh, cache=True)
    more = tmp_path / "more"  # new documents, embedded: a job that runs for a while
    cfg.write_text(f'ingest_roots = ["{more.as_posix()}"]\n{cfg.read_text(encoding="utf-8")}', encoding="utf-8")
    # documents with tables: their schema files are written on the first ask
    assert main(["--config", str(cfg), "ingest", "--no-dense", "--quiet", str(DATA / "structured/docs")]) == 0
    shutil.rmtree(fresh / "structured", ignore_errors=True)
    port = _port()
    proc = _start(cfg, port)
    try:
        url = f"http://127.0.0.1:{port}"
        # the CLI of this home finds the server here: owner-only, gone when the server stops
        assert (fresh / "serve.json").stat().st_mode & 0o777 == 0o600
        with ThreadPoolExecutor(8) as pool:
            replies = list(pool.map(lambda q: httpx.post(f"{url}/api/ask", json={"question": q}, timeout=300),
                                    QUESTIONS))
        assert [r.status_code for r in replies] == [200] * 8, [r.text[:200] for r in replies]
        assert all(r.json()["answer"] for r in replies)
        assert not list((fresh / "structured").rglob("*.tmp"))
        for src in (DATA / "criminal/刑法/刑法.md", DATA / "laws/社会法/劳动合同法(2012-12-28).md"):
            (more / src.parent.name).mkdir(parents=True, exist_ok=True)
            (more / src.parent.name / f"修订稿{src.name}").write_text(
                src.read_text(encoding="utf-8") + "\n\n附：修订稿。\n", encoding="utf-8")
        job = httpx.post(f"{url}/api/ingest", json={"paths": [str(more)]}, timeout=30).json()["job"]
        assert httpx.get(f"{url}/api/jobs/{job['id']}", timeout=10).json()["state"] == "running"
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=10)
        assert time.monotonic() - t0 < 10
        assert f"ingest job {job['id']} interrupted" in proc.stderr.read()
        assert not (fresh / "serve.json").exists()
    finally:
        if proc.poll() is None:
            proc.kill()
