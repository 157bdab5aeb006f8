"""Embedder interface, registry and the content-hash vector cache."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

import numpy as np

from zhiku.errors import ZhikuError
from zhiku.registry import Registry
from zhiku.types import content_hash


class Embedder(Protocol):
    """Turns text into L2-normalised float32 vectors."""

    name: str  # stable id including the model: the vector-cache key and the manifest pin
    version: str  # library or model version, pinned in the manifest ("" when unknown)
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


def normalise(vecs: np.ndarray) -> np.ndarray:
    """Rows scaled to unit L2 length (zero rows stay zero).

    Args:
        vecs: array of shape (n, dim).

    Returns:
        A float32 array of the same shape.
    """
    vecs = np.asarray(vecs, dtype=np.float32)
    norms = np.linalg.norm(vecs, axis=1, keepdims=True)
    return vecs / np.where(norms == 0, 1.0, norms)


def token_batches(texts: Sequence[str], batch: int, budget: int = 0) -> list[list[int]]:
    """Group text indices into batches of similar length under a token budget.

    Texts are ordered by length (characters stand in for tokens: one CJK character is
    about one token for e5/bge tokenisers), so padding inside a batch is small; a batch
    closes when it holds ``batch`` texts or when ``count × longest`` would pass ``budget``.

    Args:
        texts: the passages.
        batch: most texts per batch.
        budget: most padded tokens per batch; 0 means ``batch × 256``.

    Returns:
        Lists of indices into ``texts``, shortest texts first.
    """
    budget = budget or batch * 256
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out: list[list[int]] = []
    cur: list[int] = []
    for i in order:
        longest = len(texts[i]) + 2
        if cur and (len(cur) >= batch or (len(cur) + 1) * longest > budget):
            out.append(cur)
            cur = []
        cur.append(i)
    if cur:
        out.append(cur)
    return out


def embed_through_cache(embedder: Embedder, cache_path: Path, texts: Sequence[str],
                        batch: int = 32, progress: Callable[[int], None] | None = None) -> np.ndarray:
    """:func:`embed_cached` with the vector cache at ``cache_path`` opened for this call.

    Args:
        embedder: the backend.
        cache_path: the vector cache's file.
        texts: passages.
        batch: passages per encoder call.
        progress: called with the number of passages finished after each batch.

    Returns:
        Array of shape (len(texts), dim).
    """
    cache = VectorCache(cache_path)
    try:
        return embed_cached(embedder, cache, texts, batch, progress)
    finally:
        cache.close()


def cached_through(embedder: Embedder, cache_path: Path, texts: Sequence[str]) -> list[np.ndarray | None]:
    """The passage vectors of ``texts`` the vector cache at ``cache_path`` holds, None for a text
    it does not: nothing is encoded (an ask reading what an earlier phase stored).

    Args:
        embedder: the backend (its name keys the cache).
        cache_path: the vector cache's file.
        texts: passages.

    Returns:
        One vector of shape (dim,) or None per text, in order.
    """
    keys = [VectorCache.key(t) for t in texts]
    cache = VectorCache(cache_path)
    try:
        found = cache.get_many(embedder.name, sorted(set(keys)))
    finally:
        cache.close()
    return [found.get(k) for k in keys]


QUERY_FORM = "#query"  # appended to the embedder's name: the cache key of query-form vectors


def queries_through_cache(embedder: Embedder, cache_path: Path, texts: Sequence[str]) -> list[np.ndarray]:
    """Query-form vectors of fixed texts (example questions), read from the vector cache at
    ``cache_path`` and encoded, then stored, only when missing there: a process answering
    one question does not encode them again.

    Args:
        embedder: the backend.
        cache_path: the vector cache's file.
        texts: the texts, each encoded as a query.

    Returns:
        One vector of shape (dim,) per text, in order.
    """
    model, keys = embedder.name + QUERY_FORM, [VectorCache.key(t) for t in texts]
    cache = VectorCache(cache_path)
    try:
        found = cache.get_many(model, keys)
        new = {k: embedder.embed_query(t) for k, t in zip(keys, texts) if k not in found}
        if new:
            cache.put_many(model, new)
    finally:
        cache.close()
    return [found[k] if k in found else new[k] for k in keys]


def embed_cached(
    embedder: Embedder,
    cache: VectorCache,
    texts: Sequence[str],
    batch: int = 32,
    progress: Callable[[int], None] | None = None,
) -> np.ndarray:
    """Embed passages, reusing cached vectors and caching new ones batch by batch.

    Batches come from :func:`token_batches`; while the encoder works on one batch (it
    releases the GIL) the previous one is written to the cache, so both cores stay busy.

    Args:
        embedder: the backend.
        cache: where vectors are looked up and stored.
        texts: passages.
        batch: passages per encoder call.
        progress: called with the number of passages finished after each batch.

    Returns:
        Array of shape (len(texts), dim).

    Raises:
        ZhikuError: the embedder returns vectors of another size than it declares.
    """
    keys = [VectorCache.key(t) for t in texts]
    found = cache.get_many(embedder.name, sorted(set(keys)))
    todo: dict[str, str] = {}
    for i, k in enumerate(keys):
        if k not in found:
            todo.setdefault(k, texts[i])
    if progress:
        progress(len(texts) - sum(1 for k in keys if k in todo))
    tkeys = list(todo)
    per_call = batch * max(int(getattr(embedder, "concurrency", 1)), 1)  # HTTP: fill every slot
    groups = [[tkeys[i] for i in g] for g in token_batches([todo[k] for k in tkeys], per_call)]
    counts: dict[str, int] = {}
    if progress:
        for k in keys:
            if k in todo:
                counts[k] = counts.get(k, 0) + 1
    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(embedder.embed_passages, [todo[k] for k in groups[0]]) if groups else None
        for n, part in enumerate(groups):
            vecs = pending.result()
            if n + 1 < len(groups):
                pending = pool.submit(embedder.embed_passages, [todo[k] for k in groups[n + 1]])
            _check_dim(embedder, vecs)
            new = dict(zip(part, vecs))
            cache.put_many(embedder.name, new)
            found.update(new)
            if progress:
                progress(sum(counts[k] for k in part))
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    for i, k in enumerate(keys):
        out[i] = found[k]
    return out


def _check_dim(embedder: Embedder, vecs: np.ndarray) -> None:
    if vecs.ndim != 2 or vecs.shape[1] != embedder.dim:
        got = vecs.shape[1] if vecs.ndim == 2 else vecs.shape
        raise ZhikuError(f"embedder {embedder.name} returned {got}-dim vectors but declares "
                         f"{embedder.dim}; fix embed_dim or the model, then embed again")
