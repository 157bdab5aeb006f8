"""Embedder interface, registry and the content-hash vector cache."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from zhiku.registry import Registry
from zhiku.types import content_hash


class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors."""

    name: str
    dim: int

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Vectors for documents, shape (n, dim)."""
        ...

    def embed_query(self, text: str) -> np.ndarray:
        """Vector for one search query, shape (dim,)."""
        ...


embedders: Registry[Embedder] = Registry("embedder")


class VectorCache:
    """SQLite table of vectors keyed by (embedder name, hash of the text).

    Re-ingesting unchanged text therefore embeds nothing, and an interrupted embed
    resumes where it stopped.
    """

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS vectors (model TEXT, hash TEXT, vec BLOB, "
            "PRIMARY KEY (model, hash))"
        )
        self._db.commit()

    @staticmethod
    def key(text: str) -> str:
        """Cache key of a passage text."""
        return content_hash(text, length=24)

    def get_many(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        """Cached vectors for the keys that are present."""
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for i in range(0, len(keys), 500):
                part = list(keys[i : i + 500])
                q = ",".join("?" * len(part))
                rows = self._db.execute(
                    f"SELECT hash, vec FROM vectors WHERE model=? AND hash IN ({q})", [model, *part]
                )
                for h, blob in rows:
                    out[h] = np.frombuffer(blob, dtype=np.float32)
        return out

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        """Store vectors (one transaction)."""
        with self._lock:
            self._db.executemany(
                "INSERT OR REPLACE INTO vectors VALUES (?, ?, ?)",
                [(model, h, np.asarray(v, dtype=np.float32).tobytes()) for h, v in items.items()],
            )
            self._db.commit()

    def close(self) -> None:
        """Close the database."""
        self._db.close()


def embed_cached(
    embedder: Embedder,
    cache: VectorCache,
    texts: Sequence[str],
    batch: int = 32,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Embed passages, reusing cached vectors and caching new ones batch by batch.

    Texts are encoded in order of length so each batch holds similar lengths.

    Args:
        embedder: the backend.
        cache: where vectors are looked up and stored.
        texts: passages.
        batch: passages per encoder call.
        progress: called with the number of passages finished after each batch.

    Returns:
        Array of shape (len(texts), dim).
    """
    keys = [VectorCache.key(t) for t in texts]
    found = cache.get_many(embedder.name, sorted(set(keys)))
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    todo: dict[str, str] = {}
    for i, k in enumerate(keys):
        if k in found:
            out[i] = found[k]
        else:
            todo.setdefault(k, texts[i])
    if progress:
        progress(len(texts) - sum(1 for k in keys if k in todo))
    order = sorted(todo, key=lambda k: len(todo[k]))
    done: dict[str, np.ndarray] = {}
    for s in range(0, len(order), batch):
        part = order[s : s + batch]
        vecs = embedder.embed_passages([todo[k] for k in part])
        new = dict(zip(part, vecs))
        cache.put_many(embedder.name, new)
        done.update(new)
        if progress:
            progress(sum(1 for k in keys if k in new))
    for i, k in enumerate(keys):
        if k in done:
            out[i] = done[k]
    return out
