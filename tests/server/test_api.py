"""The HTTP API against a real uvicorn server on 127.0.0.1: keys, documents, sections,
ask/chat (JSON and SSE), uploads (good, oversized, malicious), writers, concurrency."""

from __future__ import annotations

import fcntl
import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from tests.server.conftest import ADMIN_KEY, READ_KEY

pytestmark = pytest.mark.integration
R = {"X-API-Key": READ_KEY}
A = {"X-API-Key": ADMIN_KEY}
LABOR = "社会法/劳动合同法(2012-12-28).md"


@pytest.fixture(scope="module")
def url(served):
    return served[0]


@pytest.fixture(scope="module")
def app(served):
    return served[1]


def _doc_id(url: str, path: str) -> str:
    docs = httpx.get(f"{url}/api/documents", headers=R).json()
    return next(d["doc_id"] for d in docs if d["path"] == path)


def _wait(url: str, job_id: str) -> dict:
    for _ in range(600):
        job = httpx.get(f"{url}/api/jobs/{job_id}", headers=A).json()
        if job["state"] != "running":
            return job
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} still running")


def _upload(url: str, files: list[tuple[str, bytes]], headers=A, subindex: str | None = None):
    data = {"subindex": subindex} if subindex else {}
    return httpx.post(f"{url}/api/documents", headers=headers, data=data, timeout=60,
                      files=[("files", (n, b, "application/octet-stream")) for n, b in files])


def test_health_and_openapi_need_no_key(url):
    assert httpx.get(f"{url}/health").json()["status"] == "ok"
    spec = httpx.get(f"{url}/openapi.json").json()
    for path in ("/api/ask", "/api/ask/stream", "/api/chat", "/api/documents",
                 "/api/subindexes", "/api/jobs/{job_id}", "/api/documents/{doc_id}/sections/{section_id}"):
        assert path in spec["paths"], path
    assert "X-API-Key" in json.dumps(spec["components"]["securitySchemes"])
    assert "<html" in httpx.get(f"{url}/").text


@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong"}, {"Authorization": "Bearer wrong"},
                                     {"Authorization": "Basic " + READ_KEY}])
def test_missing_or_wrong_key_is_401_json(url, headers):
    r = httpx.post(f"{url}/api/ask", json={"question": "试用期最长多久？"}, headers=headers)
    assert r.status_code == 401
    assert "API key" in r.json()["error"] and r.headers["www-authenticate"] == "Bearer"


def test_read_key_cannot_write(url):
    r = _upload(url, [("a.md", "# 标题\n\n内容。".encode())], headers=R)
    assert r.status_code == 403 and "admin key" in r.json()["error"]
    doc = _doc_id(url, LABOR)
    assert httpx.delete(f"{url}/api/documents/{doc}", headers=R).status_code == 403
    assert httpx.post(f"{url}/api/ingest", json={"paths": ["/tmp"]}, headers=R).status_code == 403


def test_bearer_and_second_admin_key_work(url):
    assert httpx.get(f"{url}/api/subindexes", headers={"Authorization": f"Bearer {READ_KEY}"}).status_code == 200
    r = httpx.post(f"{url}/api/ingest", json={"paths": ["/no/such/folder"]},
                   headers={"X-API-Key": "second-admin"})
    assert r.status_code == 400 and "set ingest_roots" in r.json()["error"]  # off by default


def test_subindexes_documents_tree_and_section(url):
    subs = {s["name"]: s for s in httpx.get(f"{url}/api/subindexes", headers=R).json()}
    assert subs["社会法"]["documents"] == 2 and "summary" in subs["社会法"]
    docs = httpx.get(f"{url}/api/documents", params={"subindex": "社会法"}, headers=R).json()
    assert {d["path"] for d in docs} == {LABOR, "社会法/劳动法(2018-12-29).md"}
    doc = httpx.get(f"{url}/api/documents/{_doc_id(url, LABOR)}", headers=R).json()
    labels = [n["label"] for n in doc["tree"]]
    assert labels[0] == "第一章 总则" and "第二章 劳动合同的订立" in labels
    sec = httpx.get(f"{url}/api/documents/{doc['doc_id']}/sections/2", headers=R).json()
    assert sec["label"] == "第二章 劳动合同的订立"
    assert "第十九条" in sec["text"] and "第三十六条" not in sec["text"]
    p = sec["passages"][0]
    assert sec["text"][p["start"]:p["end"]].startswith("第七条")


def test_unknown_things_are_404_json(url):
    doc = _doc_id(url, LABOR)
    for path in (f"/api/documents/nope", f"/api/documents/{doc}/sections/99", "/api/jobs/nope",
                 "/api/chunks/nope", "/api/nothing-here"):
        r = httpx.get(url + path, headers=A if "/jobs/" in path else R)
        assert r.status_code == 404 and r.json()["error"], path


def test_ask_json_has_citations_and_trace(url):
    r = httpx.post(f"{url}/api/ask", json={"question": "劳动合同法第十九条规定了什么？"}, headers=R, timeout=60)
    body = r.json()
    assert r.status_code == 200 and not body["refused"]
    assert "试用期" in body["answer"] and body["citations"][0]["article"] == "第十九条"
    stages = [s["stage"] for s in body["trace"]]  # the stages that ran, in order, with their details
    assert stages[:3] == ["validate", "rewrite", "cache"]
    assert [stages.index(n) for n in ("prepare", "resolve", "search", "rerank", "verify", "finish")] == \
        sorted(stages.index(n) for n in ("prepare", "resolve", "search", "rerank", "verify", "finish"))
    steps = {s["stage"]: s["detail"] for s in body["trace"]}
    assert steps["resolve"]["article"] == "第十九条" and steps["resolve"]["exact"]
    # the law is named, so the rules route it before any search and the unrouted one is skipped
    assert steps["search"]["lists"] >= 1 or (steps["search"]["skipped"] and steps["routed search"]["routed"])
    assert steps["keyword"]["top"]
    chunk = httpx.get(f"{url}/api/chunks/{body['citations'][0]['chunk_id']}", headers=R).json()
    assert chunk["doc"] == LABOR and chunk["section_id"] == "2"


def test_bad_ask_input_is_clear_json(url):
    r = httpx.post(f"{url}/api/ask", json={"question": "试用期", "mode": "magic"}, headers=R)
    assert r.status_code == 400 and "mode" in r.json()["error"] and "hybrid" in r.json()["error"]
    r = httpx.post(f"{url}/api/ask", json={"question": "试用期", "subindex": ["没有"]}, headers=R)
    assert r.status_code == 404 and "社会法" in r.json()["error"]
    r = httpx.post(f"{url}/api/ask", content=b"{not json", headers={**R, "content-type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]


def _sse(r: httpx.Response) -> list[tuple[str, dict]]:
    out = []
    for frame in r.text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in frame.splitlines())
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_ask_stream_sends_steps_deltas_then_answer(url):
    with httpx.stream("POST", f"{url}/api/ask/stream", json={"question": "试用期最长多久？"},
                      headers=R, timeout=60) as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        r.read()
    events = _sse(r)
    kinds = [e for e, _ in events]
    assert kinds[0] == "step" and "delta" in kinds and kinds[-1] == "answer"
    answer = events[-1][1]["answer"]
    assert "".join(d["text"] for e, d in events if e == "delta") == answer["answer"]
    assert answer["citations"]


def test_chat_session_history_and_clear(url):
    r = httpx.post(f"{url}/api/chat", json={"question": "结婚的法定年龄是多少？"}, headers=R, timeout=60)
    sid = r.json()["session_id"]
    with httpx.stream("POST", f"{url}/api/chat/stream", headers=R, timeout=60,
                      json={"question": "试用期最长多久？", "session_id": sid}) as s:
        s.read()
    assert _sse(s)[-1][1]["session_id"] == sid
    msgs = httpx.get(f"{url}/api/chat/{sid}", headers=R).json()["messages"]
    assert [m["role"] for m in msgs] == ["user", "assistant"] * 2
    assert msgs[2]["text"] == "试用期最长多久？" and msgs[3]["answer"]["citations"]
    assert httpx.delete(f"{url}/api/chat/{sid}", headers=R).json()["cleared"] is True
    assert httpx.get(f"{url}/api/chat/{sid}", headers=R).json()["messages"] == []
    bad = httpx.post(f"{url}/api/chat", json={"question": "x", "session_id": "../etc"}, headers=R)
    assert bad.status_code == 400 and "session id" in bad.json()["error"]


def test_chat_rewrites_a_follow_up_from_the_session(url):
    r = httpx.post(f"{url}/api/chat", json={"question": "劳动合同法规定的试用期最长多久？"}, headers=R, timeout=60)
    sid = r.json()["session_id"]
    r = httpx.post(f"{url}/api/chat", json={"question": "那它的经济补偿怎么算？", "session_id": sid},
                   headers=R, timeout=60)
    ans = r.json()["answer"]
    assert ans["question"] != "那它的经济补偿怎么算？" and "劳动合同法" in ans["question"]
    assert any("劳动合同法" in c["title"] for c in ans["citations"])


def test_upload_ingests_with_progress_and_is_searchable(url, app):
    text = "# 年假制度\n\n## 第一章 年假\n\n员工连续工作满一年的，每年享有带薪年假十五天。\n\n年假可以分两次休完。\n"
    r = _upload(url, [("员工手册.md", text.encode())], subindex="制度")
    assert r.status_code == 202, r.text
    assert r.json()["files"] == ["制度/员工手册.md"]
    job = _wait(url, r.json()["job"]["id"])
    assert job["state"] == "done" and job["done"] == job["total"] == 1 and job["report"]["added"] == 1
    # the last phase is the index update after embedding; the report counts what was embedded
    assert job["phase"] == "indexes" and job["report"]["embedded"] >= 1
    assert (app.state.config.home / "uploads" / "制度" / "员工手册.md").is_file()
    ans = httpx.post(f"{url}/api/ask", json={"question": "带薪年假有几天？", "subindex": ["制度"]},
                     headers=R, timeout=60).json()
    assert "十五天" in ans["answer"] and ans["citations"][0]["doc_path"] == "制度/员工手册.md"


def test_malicious_names_stay_inside_uploads(url, app):
    home = app.state.config.home
    r = _upload(url, [("../../逃逸.md", "# 逃逸\n\n路径穿越测试内容。".encode())], subindex="../../etc")
    assert r.status_code == 202, r.text
    assert r.json()["files"] == ["etc/逃逸.md"]
    _wait(url, r.json()["job"]["id"])
    assert (home / "uploads" / "etc" / "逃逸.md").is_file()
    assert not (home.parent / "逃逸.md").exists() and not (home / "逃逸.md").exists()
    for name in ("..", "...", ".hidden.md", "/", "a\x00b/..", "\u202e.md"):
        r = _upload(url, [(name, b"# x\n\ny")])
        assert r.status_code == 400 and "not usable" in r.json()["error"], (name, r.text)


@pytest.mark.parametrize("name", ["virus.exe", "script.sh", "page.php", "noext"])
def test_wrong_types_are_refused(url, name):
    r = _upload(url, [(name, b"MZ\x90\x00 not a document")])
    assert r.status_code == 400 and "not a supported type" in r.json()["error"] and ".md" in r.json()["error"]


def test_oversized_uploads_are_413_and_not_kept(url, app):
    big = ("很长的内容。" * 10000).encode()  # 180 KB > 50 KB limit
    r = _upload(url, [("大文件.md", big)])
    assert r.status_code == 413 and "upload limit" in r.json()["error"]
    assert not list((app.state.config.home / "uploads").rglob("大文件.md"))
    assert not list((app.state.config.home / "uploads").rglob("*.part"))
    status, body = _declare_huge(url)  # refused from the header, before any body is read
    assert status == 413 and "larger than" in json.loads(body)["error"]
    r = _upload(url, [(f"f{i}.md", b"# t\n\nx") for i in range(25)])
    assert r.status_code == 400 and "at most 20" in r.json()["error"]


def _declare_huge(url: str) -> tuple[int, str]:
    host, port = url.rsplit("/", 1)[-1].split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"POST /api/documents HTTP/1.1\r\nHost: {host}\r\nX-API-Key: {ADMIN_KEY}\r\n"
                     f"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: {10**10}\r\n"
                     "\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data or not data.rstrip().endswith(b"}"):
            chunk = sock.recv(4096)
            if not chunk:
                break
            data += chunk
    head, _, body = data.decode().partition("\r\n\r\n")
    return int(head.split()[1]), body


def test_second_writer_gets_409(url, app):
    doc = _doc_id(url, "民法典/婚姻家庭编.md")
    with app.state.jobs.exclusive():  # a write in progress in this server
        r = _upload(url, [("busy.md", "# b\n\n内容。".encode())])
        assert r.status_code == 409 and "another write" in r.json()["error"]
        assert not list((app.state.config.home / "uploads").rglob("busy.md"))  # not stored
        assert httpx.delete(f"{url}/api/documents/{doc}", headers=A).status_code == 409
    lock = app.state.config.store_path / "write.lock"
    with open(lock, "w") as f:  # another process holding the index's writer lock
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        r = httpx.delete(f"{url}/api/documents/{doc}", headers=A)
        fcntl.flock(f, fcntl.LOCK_UN)
    assert r.status_code == 409 and "another zhiku process" in r.json()["error"]
    assert any(d["doc_id"] == doc for d in httpx.get(f"{url}/api/documents", headers=R).json())


def test_delete_and_reingest(url):
    r = _upload(url, [("临时.md", "# 临时\n\n临时文件的内容，删除测试。".encode())], subindex="tmp")
    _wait(url, r.json()["job"]["id"])
    doc = _doc_id(url, "tmp/临时.md")
    re_job = httpx.post(f"{url}/api/documents/{doc}/reingest", headers=A).json()["job"]
    assert _wait(url, re_job["id"])["report"]["unchanged"] == 1
    assert httpx.delete(f"{url}/api/documents/{doc}", headers=A).json()["deleted"] == doc
    assert all(d["doc_id"] != doc for d in httpx.get(f"{url}/api/documents", headers=R).json())
    assert httpx.post(f"{url}/api/documents/{doc}/reingest", headers=A).status_code == 404


def test_concurrent_asks_all_answer_the_same(url):
    questions = ["试用期最长多久？", "结婚的法定年龄是多少？", "劳动合同法第三十九条", "公司法第一条"] * 4

    def one(q: str) -> tuple[str, int, str]:
        r = httpx.post(f"{url}/api/ask", json={"question": q}, headers=R, timeout=120)
        return q, r.status_code, r.json()["answer"]

    with ThreadPoolExecutor(8) as pool:
        results = list(pool.map(one, questions))
    assert all(code == 200 for _, code, _ in results)
    by_q: dict[str, set[str]] = {}
    for q, _, a in results:
        by_q.setdefault(q, set()).add(a)
    assert all(len(a) == 1 for a in by_q.values()), by_q
