"""Documents, sub-indexes, chapter trees, sections, uploads and ingest jobs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from pydantic import BaseModel, Field

from zhiku.errors import ZhikuError
from zhiku import library as service
from zhiku.server.app import MAX_FILES, admin, caller_kb, reader
from zhiku.server.jobs import Jobs
from zhiku.server.uploads import DEFAULT_SUBINDEX, save, upload_root

router = APIRouter(tags=["documents"])


def _kb(request: Request):
    """The knowledge base the caller may read (admin endpoints get all of it)."""
    return caller_kb(request)


def _jobs(request: Request) -> Jobs:
    return request.app.state.jobs


@router.get("/status", summary="what is indexed", dependencies=[Depends(reader)])
def status(request: Request) -> dict[str, Any]:
    """Document, chunk and vector counts, the embedder, what its vectors were computed from
    (``vector_text``) and the segmenter."""
    kb = _kb(request)
    m = kb.store.manifest
    return {**kb.store.count(), "embedder": m.get("embedder"), "dim": m.get("dim"),
            "vector_text": m.get("vector_text", "text"), "segmenter": m.get("segmenter"),
            "subindexes": len(service.subindexes(kb))}


@router.get("/subindexes", summary="sub-indexes with counts", dependencies=[Depends(reader)])
def subindexes(request: Request) -> list[dict[str, Any]]:
    """Every sub-index (top folder): name, documents, chunks, summary (null until routing
    summaries exist)."""
    return service.subindexes(_kb(request))


@router.get("/documents", summary="list documents", dependencies=[Depends(reader)])
def documents(request: Request, subindex: str | None = None) -> list[dict[str, Any]]:
    """Documents that are not deleted, optionally of one sub-index."""
    return [service.doc_dict(d) for d in service.live_documents(_kb(request))
            if subindex is None or d.subindex == subindex]


@router.get("/documents/{doc_id}", summary="a document with its chapter tree",
            dependencies=[Depends(reader)])
def document(request: Request, doc_id: str) -> dict[str, Any]:
    """The document record and its chapter tree (nested ``children``)."""
    d = service.find_document(_kb(request), doc_id)
    return {**service.doc_dict(d), "tree": service.chapter_tree(d)}


@router.get("/documents/{doc_id}/text", summary="a document's whole text",
            dependencies=[Depends(reader)])
def document_text(request: Request, doc_id: str) -> dict[str, Any]:
    """The whole text rebuilt from chunks, with each chunk's offsets."""
    kb = _kb(request)
    return service.section_text(kb, service.find_document(kb, doc_id)).to_dict()


@router.get("/documents/{doc_id}/sections/{section_id}", summary="a section's text",
            dependencies=[Depends(reader)])
def section(request: Request, doc_id: str, section_id: str) -> dict[str, Any]:
    """A section (with its subsections) by its dotted id from the chapter tree."""
    kb = _kb(request)
    return service.section_text(kb, service.find_document(kb, doc_id), section_id).to_dict()


@router.get("/chunks/{chunk_id}", summary="one chunk and where it is", dependencies=[Depends(reader)])
def chunk(request: Request, chunk_id: str) -> dict[str, Any]:
    """A chunk (e.g. a citation's ``chunk_id``) with its document and section ids; a
    chunk the key may not read does not exist for it."""
    got = _kb(request).store.get_chunks([chunk_id]).get(chunk_id)
    if got is None:
        raise service.NotFound(f"no chunk {chunk_id!r}; it may have been replaced by a re-ingest")
    return {"chunk_id": got.id, "doc_id": got.doc_id, "doc": got.doc_path, "title": got.title,
            "section_id": got.section_id, "section": list(got.section_path),
            "article": got.article, "page": got.page, "kind": got.kind, "text": got.text,
            "parent_id": got.parent_id}


@router.post("/documents", status_code=202, summary="upload files (admin)",
             dependencies=[Depends(admin)])
def upload(request: Request, files: list[UploadFile] = File(..., description="documents to ingest"),
           subindex: str = Form(DEFAULT_SUBINDEX, description="sub-index (folder) to file them under")
           ) -> dict[str, Any]:
    """Store the files under ``ZHIKU_HOME/uploads/<subindex>/`` and ingest them in the
    background; poll ``/api/jobs/{id}`` for progress."""
    cfg = request.app.state.config
    if len(files) > MAX_FILES:
        raise ZhikuError(f"{len(files)} files in one upload; send at most {MAX_FILES} per request")
    _jobs(request).check_idle()
    saved: list[tuple[Path, Path]] = []
    root = upload_root(cfg.home)
    for f in files:
        saved.append((save(cfg.home, subindex, f.filename or "", f.file,
                           int(cfg.upload_max_mb * 2**20)), root))
    job = _jobs(request).ingest_files(saved)
    return {"job": job.to_dict(), "files": [p.relative_to(root).as_posix() for p, _ in saved]}


class IngestRequest(BaseModel):
    """Server-side files or folders to ingest."""

    paths: list[str] = Field(..., min_length=1, description="files or folders on the server")
    prune: bool = Field(False, description="remove documents gone from these folders")


@router.post("/ingest", status_code=202, summary="ingest server-side paths (admin)",
             dependencies=[Depends(admin)])
def ingest(request: Request, body: IngestRequest) -> dict[str, Any]:
    """Ingest files and folders on the server, in the background; only under the
    configured ``ingest_roots``, never through a symlink that leads out of them."""
    from zhiku.ingest.roots import check_roots

    paths = check_roots(body.paths, request.app.state.config.ingest_roots)
    return {"job": _jobs(request).ingest_paths(paths, body.prune).to_dict()}


@router.get("/jobs/{job_id}", summary="progress of an ingest job (admin)", dependencies=[Depends(admin)])
def job(request: Request, job_id: str) -> dict[str, Any]:
    """State (``running``/``done``/``failed``), files done of total, the report, errors
    (admin only: file names are document names, which groups may hide)."""
    got = _jobs(request).get(job_id)
    if got is None:
        raise service.NotFound(f"no job {job_id!r}; jobs are kept until the server restarts")
    return got.to_dict()


@router.delete("/documents/{doc_id}", summary="delete a document (admin)",
               dependencies=[Depends(admin)])
def delete(request: Request, doc_id: str) -> dict[str, Any]:
    """Stop searching the document (logical delete; ``zhiku compact`` removes it for
    good); an uploaded copy under ``ZHIKU_HOME/uploads`` is removed."""
    kb, cfg = _kb(request), request.app.state.config
    d = service.find_document(kb, doc_id)
    with _jobs(request).exclusive():
        with kb.store.transaction():
            kb.store.mark_deleted([d.doc_id])
    root = upload_root(cfg.home)
    if not d.source_root:
        copy = (root / d.path).resolve()
        if root in copy.parents and copy.is_file():
            copy.unlink()
    return {"deleted": d.doc_id, "path": d.path}


@router.post("/documents/{doc_id}/reingest", status_code=202, summary="re-read a document (admin)",
             dependencies=[Depends(admin)])
def reingest(request: Request, doc_id: str) -> dict[str, Any]:
    """Read the document's file again; a changed file replaces the stored version."""
    kb, cfg = _kb(request), request.app.state.config
    d = service.find_document(kb, doc_id)
    root = Path(d.source_root) if d.source_root else upload_root(cfg.home)
    src = root / d.path
    if not src.is_file():
        raise service.NotFound(f"the file of {d.path} is no longer at {src}; upload it again")
    return {"job": _jobs(request).ingest_files([(src, root)]).to_dict()}
