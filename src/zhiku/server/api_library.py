"""The library: documents with search, paging and status (chunks, vectors, version, in
force), a document's chunks, and the last folder sync."""

from __future__ import annotations

from collections import Counter
from typing import Any

from fastapi import APIRouter, Depends, Query, Request

from zhiku import library as service
from zhiku.server.app import admin, caller_kb, reader

router = APIRouter(tags=["library"], dependencies=[Depends(reader)])


def _vector_counts(kb) -> tuple[Counter, Counter]:
    """Searchable chunks and chunks with a vector, per document."""
    st = kb.store
    vec = {r["id"] for r in st.rows("vectors", ["id"])}
    chunks, vectors = Counter(), Counter()
    for r in st.rows("chunks", ["id", "doc_id", "kind"]):
        if r["kind"] != "parent":  # parents are quoted, never searched or embedded
            chunks[r["doc_id"]] += 1
            vectors[r["doc_id"]] += r["id"] in vec
    return chunks, vectors


def _matches(d, q: str) -> bool:
    q = q.lower()
    return any(q in (x or "").lower() for x in (d.title, d.path, d.doc_id, d.subindex, *d.aliases))


@router.get("/library", summary="documents with search, paging and status")
def library(request: Request, q: str = Query("", max_length=200, description="part of a title, path or id"),
            subindex: str | None = None, offset: int = Query(0, ge=0),
            limit: int = Query(20, ge=1, le=200)) -> dict[str, Any]:
    """A page of live documents matching ``q``: each with its chunk and vector counts, its
    version date and whether it is in force today; ``total`` counts all matches (only
    documents the caller's key may read)."""
    kb = caller_kb(request)
    docs = [d for d in service.live_documents(kb)
            if (subindex is None or d.subindex == subindex) and (not q.strip() or _matches(d, q.strip()))]
    page = docs[offset: offset + limit]
    chunks, vectors = _vector_counts(kb) if page else (Counter(), Counter())
    not_in_force = set(kb.store.excluded("current"))
    items = [{**service.doc_dict(d), "searchable_chunks": chunks[d.doc_id], "vectors": vectors[d.doc_id],
              "in_force": d.doc_id not in not_in_force, "source_root": d.source_root} for d in page]
    return {"total": len(docs), "offset": offset, "limit": limit, "items": items}


@router.get("/documents/{doc_id}/chunks", summary="a document's chunks, in order")
def chunks(request: Request, doc_id: str, offset: int = Query(0, ge=0),
           limit: int = Query(50, ge=1, le=500)) -> dict[str, Any]:
    """The document's chunks in body order (parents and table rows included), each with
    its section, article, page, kind and whether it has a vector."""
    from zhiku.index.store import Scope

    kb = caller_kb(request)
    d = service.find_document(kb, doc_id)
    got = kb.store.find(Scope(doc_ids=(d.doc_id,), versions="all"), limit=max(d.n_chunks, 1) * 2)
    got.sort(key=lambda c: (c.start, c.kind == "parent", -c.end))
    page = got[offset: offset + limit]
    have = kb.store.vector_ids() if page else set()
    return {"doc_id": d.doc_id, "title": d.title, "path": d.path, "total": len(got),
            "offset": offset, "limit": limit,
            "items": [{"chunk_id": c.id, "section_id": c.section_id, "section": list(c.section_path),
                       "article": c.article, "page": c.page, "kind": c.kind, "start": c.start,
                       "end": c.end, "vector": c.id in have, "text": c.text} for c in page]}


@router.get("/sync", summary="the last folder sync and the folders watched (admin)",
            dependencies=[Depends(admin)])
def last_sync(request: Request) -> dict[str, Any]:
    """The report of the last ``zhiku sync`` / watch run (null before the first) and the
    folders the server watches (the ``watch`` config); admin only, since it names files."""
    from zhiku.sync import last_sync as read

    cfg = request.app.state.config
    return {"last": read(cfg.home), "watch": [str(p) for p in cfg.watch],
            "debounce": cfg.watch_debounce}
