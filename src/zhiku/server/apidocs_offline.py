"""API docs that work offline: Swagger UI and ReDoc served from the installed package
(fastapi-offline ships their files), never from a CDN."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles


def _assets() -> Path | None:
    try:
        import fastapi_offline
    except ImportError:
        return None
    folder = Path(fastapi_offline.__file__).parent / "static"
    return folder if (folder / "swagger-ui-bundle.js").is_file() else None


def offline_docs(app: FastAPI, static: Path) -> None:
    """Serve ``/docs`` (Swagger UI) and ``/redoc`` from local files under ``/docs-assets``.

    Args:
        app: the application (created with ``docs_url=None, redoc_url=None``).
        static: the web UI's folder (its favicon is reused when the assets lack one).
    """
    folder = _assets()
    if folder is None:  # the server extra is incomplete: say so instead of a blank page
        @app.get("/docs", include_in_schema=False)
        def missing() -> HTMLResponse:
            return HTMLResponse("<p>API docs need fastapi-offline: pip install 'zhiku[server]'. "
                                "The schema is at <a href='/openapi.json'>/openapi.json</a>.</p>")
        return
    app.mount("/docs-assets", StaticFiles(directory=folder), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    def swagger() -> HTMLResponse:
        return get_swagger_ui_html(openapi_url="/openapi.json", title=f"{app.title} API",
                                   swagger_js_url="/docs-assets/swagger-ui-bundle.js",
                                   swagger_css_url="/docs-assets/swagger-ui.css",
                                   swagger_favicon_url="/docs-assets/favicon.png")

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return get_redoc_html(openapi_url="/openapi.json", title=f"{app.title} API",
                              redoc_js_url="/docs-assets/redoc.standalone.js",
                              redoc_favicon_url="/docs-assets/favicon.png", with_google_fonts=False)
