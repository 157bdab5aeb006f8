"""The FastAPI application: one knowledge base, API keys, JSON errors, the web UI."""

from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import APIKeyHeader, HTTPBearer
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from zhiku import __version__
from zhiku.config import Config
from zhiku.errors import BusyError, ZhikuError
from zhiku.kb import KnowledgeBase
from zhiku.server.auth import Access, Keys, presented_key
from zhiku.server.jobs import Jobs
from zhiku.library import NotFound
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
    got = keys.access(presented_key(request.headers))
    if got is Access.NONE:
        raise ApiError(401, "missing or unknown API key; send it as X-API-Key: KEY "
                            "or Authorization: Bearer KEY")
    return got


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
        status = 404 if isinstance(e, NotFound) else 409 if isinstance(e, BusyError) \
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


def create_app(config: Config, kb: KnowledgeBase | None = None) -> FastAPI:
    """Build the HTTP application.

    Args:
        config: the configuration (home, keys, upload limit).
        kb: an open knowledge base to serve; opened from ``config`` when None.

    Returns:
        The FastAPI app; run it with uvicorn (see :func:`zhiku.server.run.serve`).

    Raises:
        ZhikuError: the knowledge base cannot be opened.
    """
    from zhiku.server import api_ask, api_docs

    kb = kb or KnowledgeBase(config)
    sessions = Sessions(config.home / "sessions.sqlite")

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        app.state.jobs.interrupt()  # a running ingest is resumable: indexed files are skipped
        sessions.close()

    app = FastAPI(title="zhiku 知库", version=__version__, lifespan=lifespan,
                  description="Answers from your documents with checked citations. Every "
                              "endpoint under /api needs a key (X-API-Key or Bearer) when keys "
                              "are configured; errors are JSON `{error, status}`.")
    app.state.config, app.state.kb = config, kb
    app.state.keys, app.state.jobs, app.state.sessions = Keys.from_config(config), Jobs(kb), sessions
    _handlers(app)
    _limit_body(app, int(config.upload_max_mb * 2**20) * MAX_FILES + 2**20)
    app.include_router(api_docs.router, prefix="/api")
    app.include_router(api_ask.router, prefix="/api")

    @app.get("/health", tags=["meta"], summary="liveness (no key needed, no data)")
    def health() -> dict:
        return {"status": "ok", "version": __version__}

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app
