"""LanceDB backend: BM25 over pre-segmented text (whitespace tokenizer) and flat vectors.

Readers only ever see a *published* state: ``manifest.json`` names one table version per
table, written atomically (temp file + rename) at the end of each write transaction.
Readers check those versions out, so a document swap is seen whole or not at all, and a
writer killed mid-way leaves unpublished commits that the next writer rolls back.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from zhiku.errors import BusyError, ZhikuError
from zhiku.index.store import (
    CHUNK_COLUMNS, SCHEMA_VERSION, DocRecord, Scope, _chunk_schema, _doc_schema, _sql_list, _sql_str,
    _vec_schema, check_versions, groups_sql, row_to_chunk, stores,
)
from zhiku.index.lance_indexes import matching, nearest
from zhiku.index.lance_known import KnownReads
from zhiku.index.lance_stats import TermStats
from zhiku.index.lance_take import RowIds
from zhiku.index.lance_rows import Records, _doc_record, _info, _searchable
from zhiku.index.lance_vectors import ActiveVectors, VectorTables
from zhiku.index.lance_write import TABLES, LanceWrites
from zhiku.index.manifest import DEFAULT_TABLE, check_manifest, read_manifest, write_manifest
from zhiku.index.vector_spec import VectorIndexSpec
from zhiku.index.versions import in_force
from zhiku.types import Chunk, Hit

class LanceStore(LanceWrites, VectorTables, KnownReads):
    """Chunks, documents and vectors in three LanceDB tables under one folder.

    The manifest pins the embedder and segmenter the index was built with; opening it
    with others is refused, never silently mixed.
    """

    vector_spec = VectorIndexSpec()  # how vectors are indexed and searched (set from the config)

    def __init__(self, path: Path, embedder: str | None, dim: int | None, segmenter: str,
                 version: str = "", vector_text: str = "text") -> None:
        from zhiku.index.lance_import import lancedb

        self.path = path
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ZhikuError(f"cannot create the index folder {path}: {e.strerror}; "
                             "choose a writable ZHIKU_HOME") from e
        self._mpath = path / "manifest.json"
        self.manifest = self._check_manifest(embedder, dim, segmenter, version, vector_text)
        self._db = lancedb().connect(str(path))
        names = set(self._db.table_names())
        m = self.manifest
        self._names = {"chunks": "chunks", "documents": "documents", "vectors": m["vectors"]}
        schemas = {"chunks": _chunk_schema(), "documents": _doc_schema(),
                   "vectors": _vec_schema(int(m["dim"]))}
        self._w = {n: self._table(self._names[n], schemas[n], names) for n in TABLES}
        self._r = {n: self._db.open_table(self._names[n]) for n in TABLES}
        self._staged: dict[str, Any] = {}
        self._pub: dict[str, Any] = dict(m)  # the manifest readers see (published)
        self._rname = m["vectors"]  # the table the read handle of "vectors" is open on
        self._lock = threading.RLock()  # readers and a writer may share this object
        self._seen_mtime = -1
        self._stats = TermStats(path)
        self._docs: list[DocRecord] | None = None  # published documents, read once per publish
        self._records = Records()  # rows parsed once, across publishes
        self._gdocs: dict[tuple[str, ...], list[DocRecord]] = {}
        self._excl: dict[tuple, tuple[str, ...]] = {}  # exclusions of the published state
        self._doc_map: dict[str, DocRecord] | None = None
        self._counts: dict[str, int] | None = None  # row counts of the published state
        self._rowids: dict[str, RowIds] = {}  # table name → its ids' row ids in the published version
        self._lockf: Any = None
        if "published" not in self.manifest:
            self._publish()
        self._refresh()

    # -- manifest and publishing ----------------------------------------------------------
    def _check_manifest(self, embedder: str | None, dim: int | None, segmenter: str,
                        version: str, vector_text: str) -> dict[str, Any]:
        want = {"schema": SCHEMA_VERSION, "embedder": embedder, "embedder_version": version,
                "dim": dim, "segmenter": segmenter, "vectors": DEFAULT_TABLE, "vector_text": vector_text}
        have = read_manifest(self.path)
        if have is None:
            if embedder is None or dim is None:
                raise ZhikuError(f"there is no index at {self.path}; run `zhiku ingest PATH` first")
            return want
        check_manifest(self.path, have, want)
        return have

    @property
    def active(self) -> ActiveVectors:
        """The published vector table queries use now, with the embedder that made it."""
        with self._lock:
            self._refresh()
            m = self._pub  # never the manifest a writer is preparing
            return ActiveVectors(m["vectors"], m["embedder"], m.get("embedder_version", ""),
                                 int(m["dim"]), self._r["vectors"], m.get("vector_text", "text"))

    @property
    def dim(self) -> int:
        """Vector size of the active table."""
        return int(self.manifest["dim"])

    def _table(self, name: str, schema: Any, names: set[str]) -> Any:
        if name in names:
            return self._db.open_table(name)
        return self._db.create_table(name, schema=schema)

    def _publish(self, partial: bool = False) -> None:
        """Make the writer's current table versions (and term statistics) what readers see.

        A ``partial`` publish (a batch of a longer ingest) leaves the term statistics
        to the last one and marks the published ones stale meanwhile."""
        gen = int(self.manifest.get("generation", 0)) + 1
        old_df = self.manifest.get("df")
        m = {**self.manifest, "generation": gen, "vectors": self._names["vectors"],
             "published": {n: self._w[n].version for n in TABLES}}
        if partial:
            m["df_stale"] = m.get("df_stale", False) or self._stats.pending
        elif self._stats.pending or m.get("df_stale") or not old_df:
            m["df"] = self._stats.publish(gen)
            m.pop("df_stale", None)
        self.manifest = m
        write_manifest(self.path, m)
        if old_df and old_df != m.get("df"):
            (self.path / old_df).unlink(missing_ok=True)

    def _refresh(self) -> None:
        """Point the read handles at the published versions if the manifest changed."""
        with self._lock:
            try:
                mtime = self._mpath.stat().st_mtime_ns
            except FileNotFoundError:
                return
            if mtime == self._seen_mtime:
                return
            self._apply(read_manifest(self.path) or {}, mtime)

    def _apply(self, man: dict[str, Any], mtime: int) -> None:
        """Make the published manifest ``man`` (whose file has ``mtime``) what reads see."""
        with self._lock:
            name = man.get("vectors", DEFAULT_TABLE)
            if name != self._rname:  # the index switched to another model's vectors
                self._r["vectors"] = self._db.open_table(name)
                self._rname = name
                if not self._staged and name != self._names["vectors"]:
                    self._w["vectors"] = self._db.open_table(name)
                    self._names["vectors"] = name
            for n, v in man.get("published", {}).items():
                self._r[n].checkout(v)
            self._stats.load(man.get("df"))
            self._pub, self.manifest, self._seen_mtime, self._docs = man, man, mtime, None
            self._gdocs: dict[tuple[str, ...], list[DocRecord]] = {}  # per caller groups
            self._doc_map, self._counts = None, None

    @contextmanager
    def transaction(self, partial: bool = False) -> Iterator[LanceStore]:
        """One atomic write: readers see all of it after it ends, or none of it.

        Only one writer at a time; a writer's unpublished commits left by a crash are
        rolled back when the next transaction starts.

        Args:
            partial: more transactions of the same ingest follow; term statistics are
                published with the last one (readers keep the previous ones meanwhile).

        Raises:
            ZhikuError: another process is writing this index.
        """
        self._lockf = open(self.path / "write.lock", "w")
        try:
            fcntl.flock(self._lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._lockf.close()
            raise BusyError(f"another zhiku process is writing {self.path}; wait for it to finish") from None
        try:
            self._seen_mtime = -1
            self._refresh()
            for n, t in self._w.items():
                t.checkout_latest()
                pub = self.manifest["published"][n]
                if t.version != pub:
                    t.checkout(pub)
                    t.restore()
            self._stats.begin(bool(self.manifest.get("df_stale")), self._all_segs)
            try:
                yield self
            except (OSError, RuntimeError) as e:  # disk full, permissions, I/O from LanceDB
                self._stats.abort()
                raise ZhikuError(
                    f"cannot write the index at {self.path} ({str(e)[:120]}); free disk space or "
                    "fix permissions and retry — searches still see the last complete state"
                ) from e
            except BaseException:
                self._stats.abort()
                raise
            self._publish(partial)
            self._apply(self.manifest, self._mpath.stat().st_mtime_ns)
        finally:
            fcntl.flock(self._lockf, fcntl.LOCK_UN)
            self._lockf.close()

    # -- reading (published state) --------------------------------------------------------
    def _read(self, name: str) -> Any:
        self._refresh()
        return self._r[name]

    def rows(self, table: str, columns: Sequence[str], groups: tuple[str, ...] | None = None,
             kinds: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        """Selected columns of every published row of a table (readable by ``groups``;
        None: all), only chunks of ``kinds`` when given (through the kind bitmap)."""
        parts = [groups_sql(groups)] if groups is not None else []
        parts += [f"kind IN ({_sql_list(kinds)})"] if kinds else []
        q = self._read(table).search()
        q = q.where(" AND ".join(parts)) if parts else q
        return q.select(list(columns)).limit(None).to_list()

    def doc_ids_at(self, path: str) -> list[str]:
        """Ids of documents stored under ``path``."""
        w = f"path = {_sql_str(path)}"
        return [r["doc_id"] for r in self._read("documents").search().where(w).select(["doc_id"])
                .limit(None).to_list()]

    def doc_ids(self) -> set[str]:
        """Ids of every stored document."""
        return {r["doc_id"] for r in self._read("documents").search().select(["doc_id"]).limit(None).to_list()}

    def get_doc(self, doc_id: str, groups: tuple[str, ...] | None = None) -> DocRecord | None:
        """One document record (readable by ``groups``; None: any), or None; from the
        published documents (those ``groups`` may read), read once per published state."""
        if groups is not None:
            return next((d for d in self.documents(groups) if d.doc_id == doc_id), None)
        docs = self.documents()
        with self._lock:
            if self._doc_map is None or len(self._doc_map) != len(docs):
                self._doc_map = {d.doc_id: d for d in docs}
            return self._doc_map.get(doc_id)

    def documents(self, groups: tuple[str, ...] | None = None) -> list[DocRecord]:
        """Every stored document (logically deleted ones included, flagged); with
        ``groups``, only those a caller in them may read (filtered by the query). The
        whole list is read once per published state, since every ask consults it."""
        if groups is not None:
            with self._lock:
                self._refresh()
                key = tuple(sorted(set(groups)))
                if key not in self._gdocs:
                    if len(self._gdocs) > 64:
                        self._gdocs.clear()
                    q = self._r["documents"].search().where(groups_sql(key))
                    self._gdocs[key] = [_doc_record(r) for r in q.limit(None).to_list()]
                return list(self._gdocs[key])
        with self._lock:
            self._refresh()
            if self._docs is None:
                self._docs = self._records(self._r["documents"].search().limit(None).to_arrow())
            return list(self._docs)

    def excluded(self, versions: str) -> tuple[str, ...]:
        """Documents a search with this version selector must skip."""
        check_versions(versions)
        day = dt.date.today().isoformat() if versions == "current" else versions
        docs = self.documents()  # refreshes: a new published state empties the cache
        with self._lock:
            key = (self._seen_mtime, versions, day)
            if key not in self._excl:
                self._excl = {k: v for k, v in self._excl.items() if k[0] == key[0]}
                self._excl[key] = tuple(sorted(
                    d.doc_id for d in docs
                    if d.deleted or (versions != "all" and not in_force(_info(d), day))))
            return self._excl[key]

    def doc_frequency(self, token: str) -> int:
        """How many chunks contain ``token`` (for IDF weights)."""
        self._refresh()
        return self._stats.read.get(token, 0)

    def term_counts(self) -> dict[str, int]:
        """Every BM25 token with how many chunks contain it (the keyword index's vocabulary)."""
        self._refresh()
        return dict(self._stats.read)

    def count(self, groups: tuple[str, ...] | None = None) -> dict[str, int]:
        """Row counts of documents, chunks and vectors (readable by ``groups``; None: all,
        counted once per published state: every search asks whether there are rows)."""
        if groups is not None:
            w = groups_sql(groups)
            return {n: self._read(n).count_rows(w) for n in TABLES}
        with self._lock:
            self._refresh()
            if self._counts is None:
                self._counts = {n: self._r[n].count_rows() for n in TABLES}
            return dict(self._counts)

    def searched_count(self, groups: tuple[str, ...] | None = None) -> int:
        """How many published chunks are searched (not parents), readable by ``groups``
        (None: all), through the kind bitmap."""
        return self._read("chunks").count_rows(_searchable(groups_sql(groups) if groups is not None else None))

    def all_chunks(self) -> list[Chunk]:
        """Every searched chunk (parents are quoted, never embedded)."""
        return [row_to_chunk(r) for r in self._read("chunks").search().where(_searchable(None))
                .limit(None).to_list()]

    def chunks_without_vectors(self) -> list[Chunk]:
        """Chunks that have no vector yet (ingested with ``--no-dense`` or interrupted), in
        table order. Only the ids of both tables are read, then the missing chunks by id
        (``zhiku status`` at 100k chunks read every whole row to count none)."""
        def ids(name: str, where: str | None = None) -> list[str]:
            q = self._read(name).search()
            q = q.where(where) if where else q
            return q.select(["id"]).limit(None).to_arrow()["id"].to_pylist()

        have = set(ids("vectors"))
        missing = [i for i in ids("chunks", _searchable(None)) if i not in have]
        got = self.get_chunks(missing) if missing else {}
        return [got[i] for i in missing if i in got]

    def find(self, scope: Scope, limit: int = 100) -> list[Chunk]:
        """Chunks matching a scope exactly (no ranking), e.g. an article of some documents."""
        q = self._read("chunks").search()
        q = q.where(_searchable(scope.where(self.excluded(scope.versions))))
        return [row_to_chunk(r) for r in q.select(CHUNK_COLUMNS).limit(limit).to_list()]

    def keyword(self, terms: Sequence[str], k: int, scope: Scope = Scope()) -> list[Hit]:
        """BM25 over the segmented text (OR of the terms) inside ``scope``."""
        terms = [t for t in terms if t.strip()]
        tbl = self._read("chunks")
        if not terms or not self.count()["chunks"]:
            return []
        rows = matching(tbl, " ".join(terms), k, scope, self.excluded(scope.versions), CHUNK_COLUMNS)
        return [Hit(row_to_chunk(r), float(r["_score"]), "bm25", {"bm25": (i, float(r["_score"]))})
                for i, r in enumerate(rows, 1)]

    def dense(self, vector: np.ndarray, k: int, scope: Scope = Scope(),
              active: ActiveVectors | None = None) -> list[Hit]:
        """Cosine nearest neighbours inside ``scope``.

        Args:
            vector: the query vector, made by the embedder of ``active``.
            k: how many hits.
            scope: where to look.
            active: the snapshot the query vector belongs to (default: the current one).

        Raises:
            ZhikuError: the query vector has another size than the table.
        """
        active = active or self.active
        tbl = active.table
        if len(vector) != active.dim:
            raise ZhikuError(f"the query vector has {len(vector)} dimensions but the index holds "
                             f"{active.dim}-dim vectors; configure the embedder the index was built with")
        if not (self.count()["vectors"] if tbl is self._r["vectors"] else tbl.count_rows()):
            return []
        rows = nearest(tbl, vector.tolist(), k, scope, self.excluded(scope.versions), self.vector_spec)
        chunks = self.get_chunks([r["id"] for r in rows], scope.groups)
        out = []
        for r in rows:
            if r["id"] in chunks:
                s = 1.0 - float(r["_distance"])
                out.append(Hit(chunks[r["id"]], s, "dense", {"dense": (len(out) + 1, s)}))
        return out


@stores.register("lancedb")
def make_lance(path: Path, embedder: str | None, dim: int | None, segmenter: str,
               version: str = "", vector_text: str = "text") -> LanceStore:
    """Factory registered as ``lancedb`` (the default, embedded).

    Args:
        path: the index folder.
        embedder: full embedder name to pin or check; None accepts the stored one.
        dim: vector size to pin or check; None accepts the stored one.
        segmenter: segmenter name to pin or check.
        version: embedder version to pin or check ("" is not checked).
        vector_text: the vector text recipe a new index pins (an existing one keeps its own).

    Raises:
        ZhikuError: the index was built with another schema, segmenter or embedder.
    """
    return LanceStore(path, embedder, dim, segmenter, version, vector_text)
