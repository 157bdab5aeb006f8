"""Milvus backend (a cluster, or Milvus Lite in-process from a file): the same store as
LanceDB, with BM25 and cosine search done by Milvus.

Publishing: every row carries the generation ``gen`` of the transaction that wrote it,
and one ``manifest`` row names the published generation. A transaction writes at
``published + 1`` and ends by replacing that single row, so readers (which filter
``gen <= published``) see all of it or none. Replaced and deleted documents get a
*dropped* state row instead of being deleted at once; the next writer removes them and
older state rows physically, and rolls back rows a crashed writer left above the
published generation.
"""

from __future__ import annotations

import datetime as dt
import json
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any


from zhiku.errors import ZhikuError
from zhiku.index.lance_rows import _chunk_row, _doc_row
from zhiku.index.manifest import DEFAULT_TABLE, check_manifest
from zhiku.index.milvus_conn import (
    MilvusTarget, check_size, client, create, encode_seg, pieces, schemas,
)
from zhiku.index.milvus_lock import GRACE, recent_floor, is_io_error, writer_lock
from zhiku.index.milvus_read import MilvusReads, latest_states
from zhiku.index.milvus_vectors import MilvusVectors
from zhiku.index.store import SCHEMA_VERSION, _expr_list, stores, subindex_of
from zhiku.index.versions import link
from zhiku.types import Chunk, Document, Section



class MilvusStore(MilvusVectors, MilvusReads):
    """Chunks, documents, vectors and a manifest in four Milvus collections.

    The manifest pins the embedder and segmenter the index was built with; opening it
    with others is refused, never silently mixed.
    """

    def __init__(self, target: MilvusTarget, embedder: str | None, dim: int | None,
                 segmenter: str, version: str = "", vector_text: str = "text") -> None:
        self.target = target
        self._c = client(target)
        self._init_reads()
        self._G: int | None = None  # the generation a running transaction writes
        self._wstates: dict[str, dict[str, Any]] = {}
        self._wdf: Counter[str] = Counter()
        self._staged: dict[str, int] = {}  # staged vector collections → dim
        self._df_dirty = False
        self._unsure = True  # until this object has rolled back once (or saw a stale lease)
        self._written: set[str] = set()  # collections this transaction inserted into
        self._owner = uuid.uuid4().hex
        have = read_milvus_manifest(target)
        want = {"schema": SCHEMA_VERSION, "embedder": embedder, "embedder_version": version,
                "dim": dim, "segmenter": segmenter, "vectors": DEFAULT_TABLE, "vector_text": vector_text}
        if have is None:
            if embedder is None or dim is None:
                raise ZhikuError(f"there is no index at {target.label}; run `zhiku ingest PATH` first")
            self._create(want)
        else:
            check_manifest(Path(target.label), have, want)
        self._names = {"vectors": (have or want)["vectors"]}
        self._load()
        self.manifest: dict[str, Any] = {}
        self._refresh()

    # -- collections ----------------------------------------------------------------------
    def _create(self, manifest: dict[str, Any]) -> None:
        sch = schemas(int(manifest["dim"]))
        for kind in ("chunks", "documents", "meta", "vectors"):
            name = self._coll(kind)
            if not self._c.has_collection(name):
                create(self._c, name, sch[kind], kind, self.target)
        self._put_meta("manifest", 0, json.dumps({**manifest, "generation": 0}, ensure_ascii=False))

    def _load(self) -> None:
        for kind in ("chunks", "documents", "meta", "vectors"):
            name = self._coll(self._names["vectors"] if kind == "vectors" else kind)
            if self._c.has_collection(name):
                self._c.load_collection(name)

    def _put_meta(self, key: str, gen: int, value: str) -> None:
        self._c.upsert(self._coll("meta"), [{"key": key, "gen": gen, "value": value, "_v": [1.0, 0.0]}])

    # -- transactions ---------------------------------------------------------------------
    @contextmanager
    def transaction(self, partial: bool = False) -> Iterator[MilvusStore]:
        """One atomic write: readers see all of it after it ends, or none of it.

        ``partial`` (more batches of the same ingest follow) changes nothing here: term
        statistics are one row, written only when they changed.

        Raises:
            ZhikuError: another process is writing this index.
        """
        with self._writer_lock():
            self._checked = 0.0
            self._refresh()  # re-reads everything only if another process published
            if self._unsure:  # rows of a writer that died may lie above the published generation
                self._rollback()
                self._unsure = False
            self.purge()
            self._G = self._P + 1
            self.manifest = dict(self._pub)
            self._wstates = dict(self._states)
            self._wdf = Counter(self._df)
            self._df_dirty = False
            try:
                yield self
                self._publish()
            except BaseException as e:
                self._rollback()
                self.manifest = dict(self._pub)
                if is_io_error(e):
                    raise ZhikuError(f"cannot write the index at {self.target.label} ({str(e)[:120]}); "
                                     "searches still see the last complete state") from e
                raise
            finally:
                self._G = None
                self._wstates, self._wdf, self._written = {}, Counter(), set()

    @contextmanager
    def _writer_lock(self) -> Iterator[None]:
        with writer_lock(self._c, self.target, self._owner) as stale:
            self._unsure = self._unsure or stale
            yield

    def _rollback(self) -> None:
        """Remove rows written above the published generation (an aborted transaction)."""
        p = self._P
        for kind in ("chunks", "documents", "vectors"):
            name = self._coll(self._names["vectors"] if kind == "vectors" else kind)
            self._c.delete(name, filter=f"gen > {p}")
        self._c.delete(self._coll("meta"), filter=f'gen > {p} and key like "df:%"')

    def purge(self, force: bool = False) -> None:
        """Physically remove what no reader can see any more: dropped documents and state
        rows superseded at every generation published in the last :data:`GRACE` seconds
        (a reader may still be on one of those), or at once with ``force``."""
        p = self._P
        floor = p if force else recent_floor(self._pub, p)
        rows = self._query(self._coll("documents"), f"gen <= {p}", ["key", "doc_id", "gen", "dropped"])
        latest, at_floor = latest_states(rows, p), latest_states(rows, floor)
        dropped = sorted(d for d, r in latest.items()
                         if r["dropped"] and d in at_floor and at_floor[d]["dropped"])
        gone = set(dropped)
        old = [r["key"] for r in rows
               if r["doc_id"] in gone or r["gen"] < at_floor.get(r["doc_id"], r)["gen"]]
        for i in range(0, len(dropped), 500):
            w = f"doc_id in {_expr_list(dropped[i:i + 500])}"
            self._c.delete(self._coll("chunks"), filter=w)
            self._c.delete(self._coll(self._names["vectors"]), filter=w)
        for i in range(0, len(old), 500):
            self._c.delete(self._coll("documents"), filter=f"key in {_expr_list(old[i:i + 500])}")
        keep = {f"df:{self._pub.get('df')}:"}
        keep |= set() if force else {f"df:{e[2]}:" for e in self._pub.get("published", [])}
        stale = [r["key"] for r in self._query(self._coll("meta"), 'key like "df:%"', ["key"])
                 if r["key"][: r["key"].rindex(":") + 1] not in keep]
        if stale:
            self._c.delete(self._coll("meta"), filter=f"key in {_expr_list(stale)}")
        with self._lock:
            for d in dropped:  # gone physically; they were hidden already
                self._states.pop(d, None)

    def _publish(self) -> None:
        """Write the pending document states and term statistics, then the manifest row."""
        g = self._G
        pending = [r for r in self._wstates.values() if r["gen"] == g]
        for i in range(0, len(pending), 200):
            self._c.upsert(self._coll("documents"), pending[i:i + 200])
            self._written.add(self._coll("documents"))
        man = {**self.manifest, "generation": g, "vectors": self._names["vectors"]}
        if self._df_dirty:
            text = json.dumps(self._wdf, ensure_ascii=False)
            for i, piece in enumerate(pieces(text)):
                self._put_meta(f"df:{g}:{i}", g, piece)
            man["df"] = g
        now = time.time()  # recent publishes: readers may still be on one of them (purge)
        recent = [e for e in man.get("published", []) if e[1] >= now - GRACE]
        man["published"] = [*recent, [g, now, man.get("df")]]
        self._put_meta("manifest", g, json.dumps(man, ensure_ascii=False))
        if self.target.is_lite:  # Lite searches its in-memory buffer row by row in Python;
            for name in sorted(self._written):  # sealed segments are indexed
                self._c.flush(name)
        self._written = set()
        # what readers now see is what this writer holds: no need to read it back
        with self._lock:
            self._pub, self.manifest, self._docs = man, man, None
            self._states, self._df = dict(self._wstates), Counter(self._wdf)
        self._G = None

    def _state(self, doc_id: str, **changes: Any) -> None:
        """Record a new state of a document at the writing generation."""
        base = self._wstates[doc_id]
        self._wstates[doc_id] = {**base, **changes, "key": f"{doc_id}@{self._G}", "gen": self._G,
                                 "_v": [1.0, 0.0]}

    def _writing(self) -> int:
        if self._G is None:
            raise ZhikuError("the index can only be written inside store.transaction()")
        return self._G

    # -- writing (inside a transaction) ---------------------------------------------------
    def add(self, items: Sequence[tuple[Document, list[Section], list[Chunk], list[str]]],
            roots: dict[str, str] | None = None,
            groups: dict[str, tuple[str, ...]] | None = None) -> bool:
        """Write documents with their sections, chunks and segmented chunk texts; ``groups``
        maps a document id to the groups that may read it (stored on every row).

        A document already stored under the same path with other content is replaced;
        the replacement becomes visible with the transaction, never half-way.

        Returns:
            Whether stored documents were replaced.

        Raises:
            ZhikuError: outside a transaction, or a chunk too long for Milvus.
        """
        g = self._writing()
        ids = {d.id for d, *_ in items}
        paths = {d.path for d, *_ in items}
        live = {d: r for d, r in self._wstates.items() if not r["dropped"]}
        remove = [d for d, r in live.items() if r["path"] in paths and d not in ids]
        returning = [d for d in ids if d in self._wstates]
        if returning:  # the same ids come back: their old rows go first (same primary keys)
            self._forget([d for d in returning if d in live])
            self._physical_delete(returning)
        rows = []
        for doc, sections, chunks, segs in items:
            sub, grp = subindex_of(doc.path), tuple((groups or {}).get(doc.id, ()))
            for c, s in zip(chunks, segs):
                row = {**_chunk_row(c), "seg": s, "seg_keys": encode_seg(s), "subindex": sub, "gen": g,
                       "groups": list(grp)}
                for f in ("text", "seg"):
                    check_size(f, row[f], f"chunk {c.section_id} of {doc.path}")
                rows.append(row)
                self._wdf.update(set(s.split()))
            self._wstates[doc.id] = self._doc_state(doc, sections, len(chunks), sub,
                                                    (roots or {}).get(doc.id), grp)
        self._df_dirty = True
        for i in range(0, len(rows), 500):
            self._c.insert(self._coll("chunks"), rows[i:i + 500])
        if remove:
            self.delete_docs(remove)
        self._relink()
        return bool(remove)

    def _doc_state(self, doc: Document, sections: list[Section], n: int, sub: str,
                   root: str | None, groups: tuple[str, ...] = ()) -> dict[str, Any]:
        row = _doc_row(doc, sections, n, sub, root, groups)
        check_size("metadata", row["metadata"], doc.path)
        return {**row, "sections": pieces(row["sections"]), "key": f"{doc.id}@{self._G}",
                "gen": self._G, "dropped": False, "_v": [1.0, 0.0]}

    def _forget(self, doc_ids: Sequence[str]) -> None:
        """Take the documents' chunks out of the term statistics."""
        for i in range(0, len(doc_ids), 500):
            w = f"doc_id in {_expr_list(doc_ids[i:i + 500])}"
            for r in self._query(self._coll("chunks"), w, ["id", "seg"]):
                self._wdf.subtract(set((r["seg"] or "").split()))
        self._wdf = +self._wdf
        self._df_dirty = True

    def _physical_delete(self, doc_ids: Sequence[str]) -> None:
        colls = [self._coll("chunks"), self._coll(self._names["vectors"]),
                 *(self._coll(t) for t in self._staged)]
        for i in range(0, len(doc_ids), 500):
            w = f"doc_id in {_expr_list(doc_ids[i:i + 500])}"
            for name in colls:
                self._c.delete(name, filter=w)

    def add_alias(self, doc_id: str, path: str) -> None:
        """Record that the stored document ``doc_id`` was also seen at ``path``."""
        self._writing()
        r = self._wstates.get(doc_id)
        if r is None or r["dropped"] or path == r["path"] or path in (r["aliases"] or []):
            return
        self._state(doc_id, aliases=[*(r["aliases"] or []), path])

    def delete_docs(self, doc_ids: Sequence[str]) -> None:
        """Remove documents with their chunks and vectors (hidden with this transaction,
        physically removed by the next writer)."""
        self._writing()
        doc_ids = [d for d in doc_ids if d in self._wstates and not self._wstates[d]["dropped"]]
        if not doc_ids:
            return
        self._forget(doc_ids)
        for d in doc_ids:
            self._state(d, dropped=True)
        for t in self._staged:  # staged vectors are not generational: remove them now
            for i in range(0, len(doc_ids), 500):
                self._c.delete(self._coll(t), filter=f"doc_id in {_expr_list(doc_ids[i:i + 500])}")

    def mark_deleted(self, doc_ids: Sequence[str], day: str | None = None) -> None:
        """Logical delete: the documents stop being searched; ``compact`` removes them."""
        self._writing()
        day = day or dt.date.today().isoformat()
        for d in doc_ids:
            if d in self._wstates and not self._wstates[d]["dropped"]:
                self._state(d, deleted=day)

    def compact(self) -> int:
        """Remove logically deleted documents (physically after the next write)."""
        gone = [d for d, r in self._wstates.items() if r["deleted"] and not r["dropped"]]
        self.delete_docs(gone)
        self._relink()
        return len(gone)

    def cleanup(self) -> None:
        """Physically remove what the published state no longer shows (after a compact)."""
        with self._writer_lock():
            self._checked = 0.0
            self._refresh()
            self.purge(force=True)

    def _relink(self) -> None:
        """Recompute version links for every live document and record the ones that changed."""
        live = [r for r in self._wstates.values() if not r["dropped"] and not r["deleted"]]
        info = link((r["doc_id"], r["path"], r["title"], r["version_date"],
                     json.loads(r["metadata"] or "{}")) for r in live)
        for r in live:
            new = asdict(info[r["doc_id"]])
            if any(r.get(k) != v for k, v in new.items()):
                self._state(r["doc_id"], **new)

    def build_indexes(self, defer_small: bool = False) -> None:
        """Nothing to do: Milvus's BM25 function indexes rows as they are inserted. (On
        Milvus Lite, chunks are left in its write buffer rather than sealed: Lite keeps BM25
        statistics per sealed segment and partition, which drifts from global BM25.)"""

    def merge_indexes(self) -> int:
        """0: nothing waits for a merge (see :meth:`build_indexes`)."""
        return 0

    def delete_ids(self, table: str, ids: Sequence[str]) -> None:
        """Delete rows of ``chunks`` or ``vectors`` by chunk id (inside a transaction)."""
        self._writing()
        name = self._coll(self._names["vectors"] if table == "vectors" else table)
        for i in range(0, len(ids), 500):
            self._c.delete(name, filter=f"id in {_expr_list(ids[i:i + 500])}")


def read_milvus_manifest(target: MilvusTarget) -> dict[str, Any] | None:
    """The published manifest of the knowledge base at ``target``, or None if there is none.

    Raises:
        ZhikuError: pymilvus is missing or the server cannot be reached.
    """
    c = client(target)
    meta = f"{target.prefix}_meta"
    if not c.has_collection(meta):
        return None
    c.load_collection(meta)
    rows = c.query(meta, filter='key == "manifest"', output_fields=["value"],
                   consistency_level=target.consistency)
    return json.loads(rows[0]["value"]) if rows else None


@stores.register("milvus")
def make_milvus(target: MilvusTarget, embedder: str | None, dim: int | None, segmenter: str,
                version: str = "", vector_text: str = "text") -> MilvusStore:
    """Factory registered as ``milvus`` (a server URI or a Milvus Lite file).

    Args:
        target: where the knowledge base lives (see :func:`zhiku.index.select.locate`).
        embedder: full embedder name to pin or check; None accepts the stored one.
        dim: vector size to pin or check; None accepts the stored one.
        segmenter: segmenter name to pin or check.
        version: embedder version to pin or check ("" is not checked).
        vector_text: the vector text recipe a new index pins (an existing one keeps its own).

    Raises:
        ZhikuError: unreachable server, missing pymilvus, or an index built otherwise.
    """
    if isinstance(target, (str, Path)):
        target = MilvusTarget.lite_file(Path(target))
    return MilvusStore(target, embedder, dim, segmenter, version, vector_text)
