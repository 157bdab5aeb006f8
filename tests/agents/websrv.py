"""A SearXNG/Tavily-style JSON search server on 127.0.0.1 for web-fallback tests."""

from __future__ import annotations

import json
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

RESULTS = [
    {"title": "华为 Mate 60 发布", "url": "https://example.com/mate60",
     "content": "华为 Mate 60 于 2023 年 8 月 29 日开售。首发售价为 5499 元起。"},
    {"title": "手机价格汇总", "url": "https://example.com/prices",
     "content": "多款手机在秋季发布。价格区间较大。"},
]


@dataclass
class FakeSearch:
    """The server's URL and the queries it received (query text, method)."""

    url: str
    queries: list[tuple[str, str]]


@contextmanager
def fake_search(results: list[dict[str, Any]] | None = None, delay: float = 0.0) -> Iterator[FakeSearch]:
    """Serve ``/search`` (GET ?q=&format=json, or POST {"query"}) on a free loopback port."""
    queries: list[tuple[str, str]] = []
    results = RESULTS if results is None else results

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a: Any) -> None:
            pass

        def _reply(self) -> None:
            if delay:
                time.sleep(delay)
            raw = json.dumps({"results": results}, ensure_ascii=False).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:
            q = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
            queries.append((q.get("q", [""])[0], "GET"))
            self._reply()

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            queries.append((body.get("query", ""), "POST"))
            self._reply()

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield FakeSearch(f"http://127.0.0.1:{srv.server_address[1]}/search", queries)
    finally:
        srv.shutdown()
        srv.server_close()
