"""The FastAPI application: one knowledge base, API keys, JSON errors, the web UI."""

from __future__ import annotations

import logging
import threading
from contextlib import asynccontextmanager, nullcontext
from dataclasses import replace
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import APIKeyHeader, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from zhiku import __version__
from zhiku.access import Caller
from zhiku.config import Config
from zhiku.errors import BusyError, NotFoundError, ZhikuError
from zhiku.kb import KnowledgeBase
from zhiku.server.apidocs_offline import offline_docs
from zhiku.server.auth import Access, Keys, presented_key
from zhiku.server.guard import Guard, bind_hosts
from zhiku.server.jobs import Jobs
from zhiku.ask.sessions import Sessions
from zhiku.server.uploads import TooLarge

log = logging.getLogger("zhiku.server")
STATIC = Path(__file__).parent / "static"
MAX_FILES = 20  # files per upload request

_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="read-only or admin key")
_bearer = HTTPBearer(auto_error=False, description="the same key as `Authorization: Bearer KEY`")


class ApiError(Exception):
    """An HTTP error with a message for people."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _access(request: Request, _k=Depends(_key_header), _b=Depends(_bearer)) -> Access:
    keys: Keys = request.app.state.keys
    got, request.state.caller = keys.caller(presented_key(request.headers))
    if got is Access.NONE:
        raise ApiError(401, "missing or unknown API key; send it as X-API-Key: KEY "
                            "or Authorization: Bearer KEY")
    return got


def caller(request: Request) -> Caller:
    """Who is asking (set by the key check every /api endpoint runs first)."""
    return getattr(request.state, "caller", None) or Caller((), "")


def caller_kb(request: Request) -> KnowledgeBase:
    """The knowledge base as the caller may see it (every store read filtered by its
    groups; admin keys and the no-key mode see all of it)."""
    return request.app.state.kb.for_groups(caller(request).groups)


def reader(access: Access = Depends(_access)) -> Access:
    """Dependency: any valid key."""
    return access


def admin(access: Access = Depends(_access)) -> Access:
    """Dependency: an admin key (uploads, ingest, delete)."""
    if access is not Access.ADMIN:
        raise ApiError(403, "this key is read-only; uploading, ingesting and deleting need an admin key")
    return access


def _error(status: int, message: str, **extra) -> JSONResponse:
    return JSONResponse({"error": message, "status": status, **extra}, status_code=status)


def _handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api(_: Request, e: ApiError):
        headers = {"WWW-Authenticate": "Bearer"} if e.status == 401 else None
        resp = _error(e.status, str(e))
        if headers:
            resp.headers.update(headers)
        return resp

    @app.exception_handler(ZhikuError)
    async def _zhiku(_: Request, e: ZhikuError):
        status = 404 if isinstance(e, NotFoundError) else 409 if isinstance(e, BusyError) \
            else 413 if isinstance(e, TooLarge) else 400
        return _error(status, str(e))

    @app.exception_handler(HTTPException)
    async def _http(_: Request, e: HTTPException):
        msg = e.detail if isinstance(e.detail, str) else "request failed"
        if e.status_code == 404 and msg == "Not Found":
            msg = "no such endpoint; see /docs for the API"
        return _error(e.status_code, msg)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_: Request, e: RequestValidationError):
        errs = e.errors()
        first = errs[0] if errs else {"loc": (), "msg": "invalid request"}
        where = ".".join(str(x) for x in first.get("loc", ()) if x != "body") or "request"
        return _error(422, f"invalid {where}: {first.get('msg')}",
                      details=[{"loc": list(x.get("loc", ())), "msg": x.get("msg")} for x in errs])

    @app.exception_handler(Exception)
    async def _bug(_: Request, e: Exception):
        log.exception("unhandled error")
        return _error(500, f"internal error ({type(e).__name__}); see the server log")


def _limit_body(app: FastAPI, max_bytes: int) -> None:
    @app.middleware("http")
    async def limit(request: Request, call_next):
        size = request.headers.get("content-length")
        if size and size.isdigit() and int(size) > max_bytes:
            return _error(413, f"the request is larger than {max_bytes / 2**20:g} MB; upload fewer "
                               "or smaller files (upload_max_mb)")
        return await call_next(request)


def create_app(config: Config, kb: KnowledgeBase | None = None, bind: str = "127.0.0.1",
               port: int | None = None, local_key: str = "") -> FastAPI:
    """Build the HTTP application.

    Args:
        config: the configuration (home, keys, upload limit, allowed hosts and origins).
        kb: an open knowledge base to serve; opened from ``config`` when None.
        bind: the address the server listens on (a specific one is an allowed Host).
        port: the port it listens on; a Host header naming another port is refused.
        local_key: this run's key for the CLI of the same home (see :mod:`zhiku.server.local`),
            advertised in ``$ZHIKU_HOME/serve.json`` while the app runs when ``port`` is known.

    Returns:
        The FastAPI app; run it with uvicorn (see :func:`zhiku.server.run.serve`).

    Raises:
        ZhikuError: the knowledge base cannot be opened.
    """
    from zhiku.server import api_ask, api_docs, api_library, api_openai, api_pages

    kb = kb or KnowledgeBase(config)
    sessions = Sessions(config.home / "sessions.sqlite")

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        from zhiku.server.local import advertise

        stop = app.state.jobs.watch(config.watch, config.watch_debounce) if config.watch else None
        # serve.json for the CLI of this home, removed here on shutdown (uvicorn then
        # re-raises SIGTERM, so nothing after it would run)
        threading.Thread(target=warm, args=(kb,), name="zhiku-warm", daemon=True).start()
        with advertise(config, bind, port, local_key) if local_key and port else nullcontext():
            yield
        if stop is not None:
            stop.set()
        app.state.jobs.interrupt()  # a running ingest is resumable: indexed files are skipped
        sessions.close()

    app = FastAPI(title="zhiku 知库", version=__version__, lifespan=lifespan,
                  docs_url=None, redoc_url=None,
                  description="Answers from your documents with checked citations. Every "
                              "endpoint under /api needs a key (X-API-Key or Bearer) when keys "
                              "are configured; errors are JSON `{error, status}`.")
    app.state.config, app.state.kb = config, kb
    keys = replace(Keys.from_config(config), local=local_key)
    app.state.keys, app.state.jobs, app.state.sessions = keys, Jobs(kb), sessions
    _handlers(app)
    _limit_body(app, int(config.upload_max_mb * 2**20) * MAX_FILES + 2**20)
    app.include_router(api_docs.router, prefix="/api")
    app.include_router(api_ask.router, prefix="/api")
    app.include_router(api_pages.router, prefix="/api")
    app.include_router(api_library.router, prefix="/api")
    app.include_router(api_openai.router, prefix="/v1")
    api_openai.openai_errors(app)

    @app.get("/health", tags=["meta"], summary="liveness (no key needed, no data)")
    def health() -> dict:
        return {"status": "ok", "version": __version__}

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    offline_docs(app, STATIC)
    _protect(app, config, bind, port)
    return app


def warm(kb: KnowledgeBase) -> None:
    """Build what the first ask would otherwise build (documents, title index, table
    catalog, router and its summary vectors, the question encoder), so the first ask a
    fresh server gets (often a one-shot `zhiku ask`) is as fast as the next; a failure
    here is left for that ask to report."""
    from zhiku.structured.sources import catalog_for

    steps = (kb.store.documents, lambda: kb.store.excluded("current"), kb.titles,
             lambda: catalog_for(kb))
    if kb.config.routing:
        steps += (lambda: kb.router().summary_vectors() if kb.config.route_embedding else kb.router(),)
    if kb.has_vectors() or kb.config.routing and kb.config.route_embedding:
        steps += (lambda: kb.query_vector("预热"),)
    for step in steps:
        try:
            step()
        except Exception:  # noqa: BLE001 - the first ask reports it with its own sentence
            log.debug("warm-up step failed", exc_info=True)


def _protect(app: FastAPI, config: Config, bind: str, port: int | None) -> None:
    """CORS only for configured origins; then the Host and cross-site write guard, outermost."""
    if config.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(config.cors_origins),
                           allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Content-Type", "X-API-Key", "Authorization", "X-Zhiku-Request"])
    app.add_middleware(Guard, hosts=(*config.allowed_hosts, *bind_hosts(bind)), port=port,
                       origins=config.cors_origins)
