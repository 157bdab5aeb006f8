"""What the server accepts before any endpoint runs: known Host names only (no DNS
rebinding), and state-changing requests only when a browser could not have sent them
from another site (a non-simple request whose Origin, if any, is this server's or allowed)."""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

from zhiku.server.auth import is_loopback

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
MARK = "x-zhiku-request"  # any value; a custom header makes a browser request non-simple
_SIMPLE_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data", "text/plain")


def split_host(value: str) -> tuple[str, int | None]:
    """``example.com:8765`` → (``example.com``, 8765); ``[::1]:80`` → (``::1``, 80)."""
    u = urlsplit("//" + value.strip())
    try:
        return (u.hostname or "").lower(), u.port
    except ValueError:
        return "", None


class Guard:
    """ASGI middleware refusing foreign ``Host`` headers and cross-site writes.

    Args:
        app: the application.
        hosts: host names answered besides the loopback names (``allowed_hosts``, the
            bound address).
        port: the bound port; a Host naming another port is refused (None: any).
        origins: origins allowed besides this server's own (``cors_origins``).
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = (), port: int | None = None,
                 origins: Iterable[str] = ()) -> None:
        self.app, self.port = app, port
        self.hosts = {h.lower().strip("[]") for h in (*LOOPBACK_NAMES, *hosts) if h}
        self.origins = {o.rstrip("/").lower() for o in origins}

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        """Why a request is refused (status, sentence), or None to let it through."""
        host, port = split_host(headers.get("host", ""))
        if host not in self.hosts or (self.port and port not in (None, self.port)):
            return 400, (f"this server does not answer to the host {headers.get('host', '')!r}; "
                         "use http://127.0.0.1 or add the name to allowed_hosts")
        if method not in WRITE_METHODS:
            return None
        origin = headers.get("origin", "").rstrip("/").lower()
        if origin and origin not in self._own(headers) and origin not in self.origins:
            return 403, (f"cross-site request from {origin} refused; call the API from this "
                         "server's own page, or add the origin to cors_origins")
        if _simple(headers):
            return 403, ("a state-changing request needs a JSON body, an API key header or the "
                         "header X-Zhiku-Request: 1 (so another web site cannot send it)")
        return None

    @staticmethod
    def _own(headers: dict[str, str]) -> set[str]:
        host = headers.get("host", "").lower()
        return {f"http://{host}", f"https://{host}"}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        why = self.refusal(scope["method"], headers)
        if why is None:
            await self.app(scope, receive, send)
            return
        import json

        body = json.dumps({"error": why[1], "status": why[0]}, ensure_ascii=False).encode()
        await send({"type": "http.response.start", "status": why[0],
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def _simple(headers: dict[str, str]) -> bool:
    """Whether a browser could send these headers cross-site without a CORS preflight."""
    if MARK in headers or "x-api-key" in headers or "authorization" in headers:
        return False
    ctype = headers.get("content-type", "").split(";")[0].strip().lower()
    return not ctype or ctype in _SIMPLE_TYPES


def bind_hosts(host: str) -> tuple[str, ...]:
    """Host names implied by the bound address: itself unless a wildcard or loopback."""
    return () if host in ("0.0.0.0", "::", "") or is_loopback(host) else (host,)
