"""The CLI's link to a running `zhiku serve` of the same home: the discovery file the server
writes (mode 0600, with a key made for this run) and the client that asks through it."""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from zhiku.atomic import write_text
from zhiku.errors import ZhikuError

FILE = "serve.json"
# Settings only the server reads: they never change an answer, so a CLI without them
# (keys, hosts, upload limits, watched folders) still matches the server's config.
SERVER_ONLY = {"home", "api_keys", "admin_keys", "allowed_hosts", "cors_origins", "upload_max_mb",
               "ingest_roots", "watch", "watch_debounce"}


def fingerprint(cfg: Any) -> str:
    """A hash of every setting that can change an answer (the server's and the CLI's
    must be equal for the CLI to ask the server)."""
    return hashlib.sha256(cfg.model_dump_json(exclude=SERVER_ONLY).encode()).hexdigest()[:32]


def local_url(host: str, port: int) -> str | None:
    """The loopback URL a local client reaches a server bound to ``host`` at (None: the
    server listens on another single address, and is not advertised)."""
    if host in ("0.0.0.0", "", "localhost", "127.0.0.1"):
        return f"http://127.0.0.1:{port}"
    if host in ("::", "::1"):
        return f"http://[::1]:{port}"
    return None


def new_key() -> str:
    """A fresh key for one server run (never configured, never printed)."""
    return secrets.token_urlsafe(32)


@contextmanager
def advertise(cfg: Any, host: str, port: int, key: str) -> Iterator[Path | None]:
    """Write ``$ZHIKU_HOME/serve.json`` (owner-only, 0600) while the server runs, so the
    CLI of the same home can ask it; removed when the server stops.

    Args:
        cfg: the server's config.
        host: the bound address.
        port: the bound port.
        key: the run's local key (a read key seeing every document, as the CLI does).

    Yields:
        The file written, or None (a server bound to one non-loopback address only).
    """
    url = local_url(host, port)
    path = Path(cfg.home) / FILE
    if url is None or not Path(cfg.home).is_dir():
        yield None
        return
    info = {"url": url, "pid": os.getpid(), "key": key, "config": fingerprint(cfg),
            "home": str(Path(cfg.home).resolve())}
    write_text(path, json.dumps(info))  # a fresh temporary file (mkstemp: 0600, O_EXCL) renamed over it
    try:
        yield path
    finally:
        if _read(path).get("pid") == os.getpid():  # a later server of this home keeps its own
            path.unlink(missing_ok=True)


def _read(path: Path) -> dict[str, Any]:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def discover(cfg: Any) -> dict[str, Any] | None:
    """The running server of ``cfg.home`` this process may ask, or None: no file, a file
    another user could have written or read, a server that is gone, or one whose
    config differs (its answers could differ)."""
    path = Path(cfg.home) / FILE
    try:
        st = path.stat()
    except OSError:
        return None
    if st.st_uid != os.getuid() or st.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
        return None
    info = _read(path)
    url = str(info.get("url", ""))
    if not url.startswith(("http://127.0.0.1:", "http://[::1]:")) or not info.get("key"):
        return None
    if info.get("home") != str(Path(cfg.home).resolve()) or info.get("config") != fingerprint(cfg):
        return None
    try:
        os.kill(int(info["pid"]), 0)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return info


def ask_served(cfg: Any, body: dict[str, Any], timeout: float = 600.0) -> dict[str, Any] | None:
    """Ask the running server of this home (``POST /api/ask`` with its local key).

    Args:
        cfg: the CLI's config.
        body: the request (question, mode, versions, qtype, cache).
        timeout: seconds to wait for the answer.

    Returns:
        The answer as ``Answer.to_dict()`` gives it, or None when no server can answer
        (then the CLI answers in its own process).

    Raises:
        ZhikuError: the server refused the question with a sentence (bad input).
    """
    import urllib.error
    import urllib.request

    info = discover(cfg)
    if info is None:
        return None
    req = urllib.request.Request(f"{info['url']}/api/ask", json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json", "X-API-Key": info["key"]})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return json.loads(resp.read())
    except urllib.error.HTTPError as e:
        if e.code in (400, 404, 409, 422):
            raise ZhikuError(_message(e)) from None
        return None  # a stale key (the server restarted) or a server error: answer here
    except (OSError, ValueError):
        return None


def _message(e: Any) -> str:
    try:
        return str(json.loads(e.read())["error"])
    except (OSError, ValueError, KeyError, TypeError):
        return f"the local server refused the question (HTTP {e.code})"
