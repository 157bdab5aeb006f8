"""A scripted OpenAI-compatible chat server on 127.0.0.1, so tests run the real ``openai``
client against real HTTP: plain replies, tool calls, streaming, delays and error statuses."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted response. ``status`` other than 200 sends an OpenAI-style error body;
    ``delay`` sleeps first (for timeout tests); ``tool_calls`` are (name, arguments) pairs."""

    content: str | None = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    status: int = 200
    delay: float = 0.0


Script = Callable[[dict[str, Any]], Reply | str]


@dataclass
class FakeLLM:
    """The running server: its base URL and every request body it received."""

    base_url: str
    requests: list[dict[str, Any]]

    def last_user(self) -> str:
        """Text of the last user message of the last request."""
        msgs = self.requests[-1]["messages"]
        return next(m["content"] for m in reversed(msgs) if m["role"] == "user")


def _completion(body: dict[str, Any], r: Reply) -> dict[str, Any]:
    msg: dict[str, Any] = {"role": "assistant", "content": r.content}
    if r.tool_calls:
        msg["tool_calls"] = [
            {"id": f"call_{i}", "type": "function",
             "function": {"name": n, "arguments": json.dumps(a, ensure_ascii=False)}}
            for i, (n, a) in enumerate(r.tool_calls)]
    return {"id": "cmpl-fake", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": msg,
                         "finish_reason": "tool_calls" if r.tool_calls else "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}


def _chunks(body: dict[str, Any], text: str) -> Iterator[bytes]:
    base = {"id": "cmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": body.get("model", "fake")}
    pieces = [text[i : i + 4] for i in range(0, len(text), 4)] or [""]
    for p in pieces:
        ev = {**base, "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]}
        yield f"data: {json.dumps(ev, ensure_ascii=False)}\n\n".encode()
    end = {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
    yield f"data: {json.dumps(end)}\n\n".encode()
    yield b"data: [DONE]\n\n"


@contextmanager
def fake_llm(script: Script | list[Reply | str]) -> Iterator[FakeLLM]:
    """Serve ``/v1/chat/completions`` from ``script`` on a free loopback port.

    Args:
        script: a function of the request body returning a Reply (or plain text), or a
            list of replies used in turn (the last one repeats).

    Yields:
        The server's base URL and request log.
    """
    requests: list[dict[str, Any]] = []
    lock = threading.Lock()

    def pick(body: dict[str, Any]) -> Reply:
        with lock:
            requests.append(body)
            n = len(requests)
        r = script(body) if callable(script) else script[min(n, len(script)) - 1]
        return Reply(content=r) if isinstance(r, str) else r

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a: Any) -> None:  # quiet
            pass

        def _send(self, code: int, payload: dict[str, Any]) -> None:
            raw = json.dumps(payload, ensure_ascii=False).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def do_GET(self) -> None:
            self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            r = pick(body)
            if r.delay:
                time.sleep(r.delay)
            if r.status != 200:
                self._send(r.status, {"error": {"message": f"scripted {r.status}",
                                                "type": "server_error", "code": None}})
                return
            if body.get("stream"):
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for part in _chunks(body, r.content or ""):
                    self.wfile.write(f"{len(part):x}\r\n".encode() + part + b"\r\n")
                self.wfile.write(b"0\r\n\r\n")
                return
            self._send(200, _completion(body, r))

    srv = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    srv.daemon_threads = True
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield FakeLLM(f"http://127.0.0.1:{srv.server_address[1]}/v1", requests)
    finally:
        srv.shutdown()
        srv.server_close()
