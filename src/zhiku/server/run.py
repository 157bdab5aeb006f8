"""Starting the servers: `zhiku serve` (HTTP API and web UI) and `zhiku mcp`."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from zhiku.config import Config
from zhiku.server.auth import Keys, check_bind

GRACE = 5  # seconds open requests get on SIGTERM/Ctrl-C before the server exits anyway


def _need_extra() -> None:
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        from zhiku.errors import ZhikuError

        raise ZhikuError(f"the server needs {e.name}; install it with pip install 'zhiku[server]'") from e


def serve(config: Config, host: str = "127.0.0.1", port: int = 8765, log_level: str = "info") -> None:
    """Run the HTTP API and web UI until interrupted.

    Args:
        config: the configuration.
        host: address to bind; without API keys only loopback addresses are accepted.
        port: TCP port.
        log_level: uvicorn log level (request lines never include keys).

    Raises:
        ZhikuError: no keys and a non-loopback host, or the index cannot be opened.
    """
    _need_extra()
    import uvicorn

    from zhiku.server.app import create_app
    from zhiku.server.local import new_key

    warning = check_bind(host, Keys.from_config(config))
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    # `zhiku ask` of this home asks this server, through the key of this run
    app = create_app(config, bind=host, port=port, local_key=new_key())
    _warn_stale(app.state.kb)
    print(f"zhiku serving {config.home} at http://{host}:{port}/ (API docs at /docs)", file=sys.stderr)
    uvicorn.run(app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=GRACE)


def _warn_stale(kb) -> None:
    """Say when documents were indexed under other access rules than the configured ones."""
    from zhiku.access import stale_documents

    stale = stale_documents(kb.store.documents(), kb.config.access, kb.config.access_default)
    if stale:
        print(f"warning: {len(stale)} documents (e.g. {stale[0]}) were indexed under other [[access]] "
              "rules; ingest their folders again to apply the current ones", file=sys.stderr)


def mcp(config: Config, transport: str = "stdio", host: str = "127.0.0.1", port: int = 8766) -> None:
    """Run the MCP server over stdio or streamable HTTP (at ``/mcp``).

    Raises:
        ZhikuError: an unknown transport; no keys and a non-loopback host.
    """
    from zhiku.server.mcp_server import Transport, build_mcp, http_app

    t = Transport.from_str(transport)
    server = build_mcp(config)
    if t is Transport.STDIO:
        server.run("stdio")
        return
    _need_extra()
    import uvicorn

    keys = Keys.from_config(config)
    warning = check_bind(host, keys)
    if warning:
        print(f"warning: {warning}", file=sys.stderr)
    print(f"zhiku MCP (streamable HTTP) at http://{host}:{port}/mcp", file=sys.stderr)
    uvicorn.run(http_app(server, keys, host), host=host, port=port, log_level="warning",
                timeout_graceful_shutdown=GRACE)


@contextmanager
def background(app, host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Run an ASGI app with uvicorn in a thread (tests, benchmarks); yields its base URL.

    Args:
        app: the ASGI application.
        host: a loopback address.
        port: 0 picks a free port.

    Raises:
        ZhikuError: the server did not start within 30 seconds.
    """
    import threading
    import time

    import uvicorn

    from zhiku.errors import ZhikuError

    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           access_log=False))
    thread = threading.Thread(target=server.run, name="zhiku-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise ZhikuError(f"the test server on {host} did not start")
        time.sleep(0.02)
    bound = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://{host}:{bound}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
