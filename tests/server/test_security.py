"""Safe by default: foreign Host names and cross-site writes refused, CORS off, ingest only
under ingest_roots (no symlink out), sessions per key, one writer for CLI and server,
API docs served offline."""

from __future__ import annotations

import os
import subprocess
import sys

import httpx
import pytest

from zhiku.index.store import Scope

from tests.server.conftest import ADMIN_KEY, READ_KEY, copy_kb

pytestmark = pytest.mark.integration
DOC = "# 制度\n\n## 第一章 总则\n\n第一条 本制度适用于全体员工。\n"


@pytest.fixture(scope="module")
def open_server(kb, tmp_path_factory):
    """(url, app, kb, allowed folder, outside folder) of a server without keys."""
    from zhiku.server.app import create_app
    from zhiku.server.run import background

    tmp = tmp_path_factory.mktemp("open")
    allowed, outside = tmp / "allowed", tmp / "outside"
    for d in (allowed, outside):
        d.mkdir()
    (outside / "secret.md").write_text("# 机密\n\n第一条 保险柜密码是七七四九。\n", encoding="utf-8")
    (allowed / "ok.md").write_text("# 考勤\n\n第一条 员工应当按时打卡。\n", encoding="utf-8")
    cfg, skb = copy_kb(kb, tmp / "home", ingest_roots=str(allowed))
    app = create_app(cfg, skb)
    with background(app) as url:
        yield url, app, skb, allowed, outside


def _wait(url: str, job: dict, headers=None) -> dict:
    import time

    for _ in range(600):
        got = httpx.get(f"{url}/api/jobs/{job['id']}", headers=headers).json()
        if got["state"] != "running":
            return got
        time.sleep(0.1)
    raise AssertionError("job did not finish")


def test_a_foreign_host_is_refused(open_server):
    url = open_server[0]
    for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example"):
        r = httpx.get(f"{url}/api/documents", headers={"Host": host})
        assert r.status_code == 400 and "allowed_hosts" in r.json()["error"] and "doc_id" not in r.text
    port = url.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"):
        assert httpx.get(f"{url}/api/documents", headers={"Host": host}).status_code == 200


def test_cross_site_and_simple_writes_are_refused(open_server):
    url, app, kb = open_server[:3]
    before = kb.store.count()
    files = {"files": ("x.md", DOC.encode(), "text/markdown")}
    r = httpx.post(f"{url}/api/documents", files=files)  # what a no-cors form post looks like
    assert r.status_code == 403 and "X-Zhiku-Request" in r.json()["error"]
    r = httpx.post(f"{url}/api/ingest", content=b'{"paths": []}', headers={"Content-Type": "text/plain"})
    assert r.status_code == 403
    evil = {"Origin": "http://localhost:1", "X-Zhiku-Request": "1"}
    assert httpx.post(f"{url}/api/documents", files=files, headers=evil).status_code == 403
    assert httpx.post(f"{url}/api/ask", json={"question": "试用期"}, headers=evil).status_code == 403
    d = next(iter(kb.store.documents()))
    assert httpx.delete(f"{url}/api/documents/{d.doc_id}", headers={"Origin": "http://evil.example"}).status_code == 403
    assert kb.store.count() == before
    own = {"Origin": url, "X-Zhiku-Request": "1"}  # the server's own page, and CLI clients (no Origin)
    assert httpx.post(f"{url}/api/ask", json={"question": "试用期最长多久？"}, headers={"Origin": url},
                      timeout=60).status_code == 200
    assert httpx.post(f"{url}/api/ask", json={"question": "试用期最长多久？"}, timeout=60).status_code == 200
    r = httpx.options(f"{url}/api/ask", headers={"Origin": "http://evil.example",
                                                  "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in r.headers  # CORS is off unless configured
    job = httpx.post(f"{url}/api/documents", files=files, headers=own, timeout=60).json()["job"]
    assert _wait(url, job)["state"] == "done"


def test_ingest_only_under_its_roots_and_never_through_a_symlink_out(open_server):
    url, _, kb, allowed, outside = open_server
    h = {"X-Zhiku-Request": "1"}
    link = allowed / "link.md"
    link.symlink_to(outside / "secret.md")
    try:
        for paths, says in (([str(outside)], "is outside ingest_roots"),
                            ([str(allowed / ".." / "outside")], "is outside ingest_roots"),
                            (["relative/folder"], "is outside ingest_roots"),
                            ([str(allowed)], "is a symbolic link"), ([str(link)], "outside ingest_roots")):
            r = httpx.post(f"{url}/api/ingest", json={"paths": paths}, headers=h)
            err = r.json()["error"]
            assert r.status_code == 400 and says in err and err.count(". ") == 0, err
        assert not any("七七四九" in c.text for c in kb.store.find(Scope(versions="all"), limit=100000))
    finally:
        link.unlink()
    job = httpx.post(f"{url}/api/ingest", json={"paths": [str(allowed)]}, headers=h).json()["job"]
    assert _wait(url, job)["state"] == "done"
    assert any(d.path == "ok.md" for d in kb.store.documents())


def test_sessions_belong_to_the_key_that_made_them(kb, tmp_path):
    from zhiku.server.app import create_app
    from zhiku.server.run import background

    cfg, skb = copy_kb(kb, tmp_path, api_keys=f"{READ_KEY},other-read-key:hr", admin_keys=ADMIN_KEY)
    with background(create_app(cfg, skb)) as url:
        mine, theirs = {"X-API-Key": READ_KEY}, {"X-API-Key": "other-read-key"}
        sid = httpx.post(f"{url}/api/chat", json={"question": "试用期最长多久？"}, headers=mine,
                         timeout=60).json()["session_id"]
        assert httpx.get(f"{url}/api/chat/{sid}", headers=mine).json()["messages"]
        for r in (httpx.get(f"{url}/api/chat/{sid}", headers=theirs),
                  httpx.delete(f"{url}/api/chat/{sid}", headers=theirs),
                  httpx.get(f"{url}/api/chat/{sid}", headers={"X-API-Key": ADMIN_KEY}),
                  httpx.post(f"{url}/api/chat", json={"question": "那它呢？", "session_id": sid},
                             headers=theirs, timeout=60)):
            assert r.status_code == 404 and "试用期" not in r.text
        assert len(httpx.get(f"{url}/api/chat/{sid}", headers=mine).json()["messages"]) == 2


def _cli(home, *args):
    env = {**os.environ, "ZHIKU_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "zhiku.cli", *args], capture_output=True, text=True,
                          env=env, timeout=600)


def test_cli_ingest_during_a_server_write_is_refused_and_the_reverse_is_409(open_server, tmp_path):
    from zhiku.writer import writing

    url, app, kb, allowed, _ = open_server
    folder = tmp_path / "more"
    folder.mkdir()
    (folder / "新制度.md").write_text("# 新制度\n\n第一条 新制度自发布之日起施行。\n", encoding="utf-8")
    before = {d.doc_id for d in kb.store.documents()}
    with app.state.jobs.exclusive():  # the server is writing (as during an upload job)
        p = _cli(kb.config.home, "ingest", "--quiet", str(folder))
    assert p.returncode == 2 and "the zhiku server (pid" in p.stderr and "retry" in p.stderr
    assert p.stderr.strip().count("\n") == 0
    assert {d.doc_id for d in kb.store.documents()} == before  # nothing lost, nothing half-written
    with writing(kb.config.home, "`zhiku ingest`"):  # a CLI ingest is running
        files = {"files": ("y.md", DOC.encode(), "text/markdown")}
        r = httpx.post(f"{url}/api/documents", files=files, headers={"X-Zhiku-Request": "1"})
        assert r.status_code == 409 and "`zhiku ingest` (pid" in r.json()["error"]
        r = httpx.post(f"{url}/api/ingest", json={"paths": [str(allowed)]})
        assert r.status_code == 409
    p = _cli(kb.config.home, "ingest", "--quiet", str(folder))
    assert p.returncode == 0, p.stderr


def test_api_docs_are_served_offline(open_server):
    url = open_server[0]
    for path, asset in (("/docs", "/docs-assets/swagger-ui-bundle.js"), ("/redoc", "/docs-assets/redoc.standalone.js")):
        page = httpx.get(url + path).text
        assert asset in page and "cdn" not in page.lower() and "googleapis" not in page
        r = httpx.get(url + asset)
        assert r.status_code == 200 and len(r.content) > 100_000
    assert httpx.get(f"{url}/docs-assets/swagger-ui.css").status_code == 200
