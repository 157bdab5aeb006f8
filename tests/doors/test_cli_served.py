"""`zhiku ask` through a running server of the same home: the same answer as the local ask,
only through the owner-only discovery file and the run's key, and a local answer whenever
the server cannot be trusted to give the same one."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

pytestmark = pytest.mark.integration
QUESTION = "劳动合同法第十九条规定了什么？"


@contextmanager
def served(cfg_file: Path, **overrides):
    """A real uvicorn on 127.0.0.1 serving the home of ``cfg_file``, advertised as
    `zhiku serve` does; yields (base URL, the run's key, the /api/ask requests seen)."""
    from zhiku.config import load_config
    from zhiku.server.app import create_app
    from zhiku.server.local import advertise, new_key
    from zhiku.server.run import background

    cfg = load_config(cfg_file, **overrides)
    key, asks = new_key(), []
    app = create_app(cfg, local_key=key)

    async def counted(scope, receive, send):
        if scope["type"] == "http" and scope["path"] == "/api/ask":
            asks.append(scope["path"])
        await app(scope, receive, send)

    with background(counted) as url:
        with advertise(cfg, "127.0.0.1", int(url.rsplit(":", 1)[1]), key) as path:
            assert path is not None and path.stat().st_mode & 0o777 == 0o600
            yield url, key, asks
        assert not path.exists()  # removed when the server stops


def ask(capsys, cfg_file: Path, *flags: str) -> str:
    from zhiku.cli import main

    capsys.readouterr()
    assert main(["--config", str(cfg_file), "ask", *flags, QUESTION]) == 0
    return capsys.readouterr().out


def test_served_answer_equals_the_local_one(laws_kb, capsys):
    cfg, _, _ = laws_kb
    local = ask(capsys, cfg, "--local")
    with served(cfg) as (_, _, asks):
        assert ask(capsys, cfg) == local and len(asks) == 1
        assert json.loads(ask(capsys, cfg, "--json"))["citations"][0]["article"] == "第十九条"
        assert ask(capsys, cfg, "--local") == local and len(asks) == 2  # --local: not asked
        ask(capsys, cfg, "--no-route")  # other settings than the server's: answered here
        ask(capsys, cfg, "--doc", "劳动合同法")  # options only the local ask has
        assert len(asks) == 2


def test_bad_input_is_the_same_sentence_through_the_server(laws_kb, capsys):
    from zhiku.cli import main

    cfg, _, _ = laws_kb
    with served(cfg) as (_, _, asks):
        capsys.readouterr()
        assert main(["--config", str(cfg), "ask", "--type", "poem", QUESTION]) == 2
        err = capsys.readouterr().err
        assert len(asks) == 1 and "poem" in err and "fact" in err and "Traceback" not in err


def test_untrusted_or_stale_discovery_files_are_ignored(laws_kb, capsys, monkeypatch):
    cfg, home, _ = laws_kb
    local = ask(capsys, cfg, "--local")
    with served(cfg) as (_, _, asks):
        path = home / "serve.json"
        os.chmod(path, 0o644)  # readable by others: the key may be known, do not use it
        assert ask(capsys, cfg) == local and not asks
        os.chmod(path, 0o600)
        info = json.loads(path.read_text())
        path.write_text(json.dumps({**info, "url": "http://example.com:80"}))
        assert ask(capsys, cfg) == local and not asks  # never sends the key off this machine
        path.write_text(json.dumps({**info, "pid": 2**22 + 1}))  # a server that is gone
        assert ask(capsys, cfg) == local and not asks
        path.write_text(json.dumps({**info, "key": "wrong"}))  # 401: answered here
        assert ask(capsys, cfg) == local and len(asks) == 1
        path.write_text(json.dumps(info))
        monkeypatch.setenv("ZHIKU_ANSWER_CHUNKS", "2")  # settings the server does not have
        ask(capsys, cfg)
        assert len(asks) == 1


def test_the_run_key_reads_but_never_writes(laws_kb, capsys):
    cfg, _, _ = laws_kb
    with served(cfg, api_keys="r1", admin_keys="a1") as (url, key, asks):
        body = {"question": QUESTION}
        assert httpx.post(f"{url}/api/ask", json=body).status_code == 401
        r = httpx.post(f"{url}/api/ask", json=body, headers={"X-API-Key": key})
        assert r.status_code == 200 and r.json()["citations"]
        r = httpx.post(f"{url}/api/ingest", json={"paths": ["/tmp"]}, headers={"X-API-Key": key})
        assert r.status_code == 403
        ask(capsys, cfg)  # keys are server settings: the CLI without them is still served
        assert len(asks) == 3
