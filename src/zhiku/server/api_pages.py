"""The cited page on screen: a PDF page rendered as PNG with the cited passage highlighted."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import Response

from zhiku import library as service
from zhiku.server.app import caller_kb, reader

router = APIRouter(tags=["documents"])


def _source(d) -> Path:
    """The stored PDF of a document, inside the folder it was ingested from."""
    if not d.path.lower().endswith(".pdf"):
        raise service.NotFound(f"{d.path!r} is not a PDF; only PDF pages are rendered")
    if not d.source_root:
        raise service.NotFound(f"the source folder of {d.path!r} is not known; re-ingest it")
    root = Path(d.source_root).resolve()
    path = (root / d.path).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise service.NotFound(f"the file {d.path!r} is no longer in {str(root)!r}; re-ingest it")
    return path


@router.get("/documents/{doc_id}/pages/{number}.png", summary="a PDF page as an image",
            response_class=Response, dependencies=[Depends(reader)],
            responses={200: {"content": {"image/png": {}}}})
def page_png(request: Request, doc_id: str, number: int,
             highlight: str = Query("", max_length=2000, description="passage to mark"),
             scale: float = Query(1.5, ge=0.5, le=3.0)) -> Response:
    """Page ``number`` (1-based) of a PDF document, rendered with pdfium; ``highlight``
    (a citation's quote) is marked where the page's text, or its OCR boxes, hold it."""
    from zhiku.ingest.page_image import render_png

    d = service.find_document(caller_kb(request), doc_id)  # 404 for a document the key may not read
    ocr = (d.metadata.get("ocr_pages") or {}).get(str(number))
    png = render_png(_source(d), number, highlight, scale, ocr)
    return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=300"})
