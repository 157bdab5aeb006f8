"""LanceDB backend: BM25 over pre-segmented text (whitespace tokenizer) and flat vectors.

Readers only ever see a *published* state: ``manifest.json`` names one table version per
table, written atomically (temp file + rename) at the end of each write transaction.
Readers check those versions out, so a document swap is seen whole or not at all, and a
writer killed mid-way leaves unpublished commits that the next writer rolls back.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from zhiku.errors import BusyError, ZhikuError
from zhiku.index.store import (
    CHUNK_COLUMNS, SCHEMA_VERSION, DocRecord, Scope, _chunk_schema, _doc_schema, _sql_list, _sql_str,
    _vec_schema, check_versions, groups_sql, row_to_chunk, stores, subindex_of,
)
from zhiku.index.lance_indexes import (ensure_indexes, index_vectors, matching, nearest, rebuild_stale,
                                      refresh, unindexed)
from zhiku.index.lance_stats import TermStats
from zhiku.index.lance_take import RowIds, take
from zhiku.index.lance_rows import Records, _doc_record, _doc_row, _info, _searchable, chunk_table
from zhiku.index.lance_vectors import ActiveVectors, VectorTables
from zhiku.index.manifest import DEFAULT_TABLE, check_manifest, read_manifest, write_manifest
from zhiku.index.vector_spec import VectorIndexSpec
from zhiku.index.versions import in_force, link
from zhiku.types import Chunk, Document, Hit, Section

TABLES = ("chunks", "documents", "vectors")


class LanceStore(VectorTables):
    """Chunks, documents and vectors in three LanceDB tables under one folder.

    The manifest pins the embedder and segmenter the index was built with; opening it
    with others is refused, never silently mixed.
    """

    vector_spec = VectorIndexSpec()  # how vectors are indexed and searched (set from the config)

    def __init__(self, path: Path, embedder: str | None, dim: int | None, segmenter: str,
                 version: str = "") -> None:
        from zhiku.index.lance_import import lancedb

        self.path = path
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise ZhikuError(f"cannot create the index folder {path}: {e.strerror}; "
                             "choose a writable ZHIKU_HOME") from e
        self._mpath = path / "manifest.json"
        self.manifest = self._check_manifest(embedder, dim, segmenter, version)
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
        self._rowids: RowIds | None = None  # chunk ids → row ids of the published chunks
        self._lockf: Any = None
        if "published" not in self.manifest:
            self._publish()
        self._refresh()

    # -- manifest and publishing ----------------------------------------------------------
    def _check_manifest(self, embedder: str | None, dim: int | None, segmenter: str,
                        version: str) -> dict[str, Any]:
        want = {"schema": SCHEMA_VERSION, "embedder": embedder, "embedder_version": version,
                "dim": dim, "segmenter": segmenter, "vectors": DEFAULT_TABLE}
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
                                 int(m["dim"]), self._r["vectors"])

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

    # -- writing (inside a transaction) ---------------------------------------------------
    def add(self, items: Sequence[tuple[Document, list[Section], list[Chunk], list[str]]],
            roots: dict[str, str] | None = None,
            groups: dict[str, tuple[str, ...]] | None = None) -> bool:
        """Write documents with their sections, chunks and segmented chunk texts; ``groups``
        maps a document id to the groups that may read it (stored on every row).

        A document already stored under the same path with other content is replaced;
        the replacement becomes visible with the transaction, never half-way.

        Returns:
            Whether stored documents were replaced (then the keyword index must be
            rebuilt before publishing, or the document would vanish from keyword search).
        """
        drows = []
        paths = {d.path for d, *_ in items}
        ids = {d.id for d, *_ in items}
        # stored documents at these paths (replaced) or with these ids: a logically deleted
        # document whose file came back is stored afresh, not twice
        found = self._w["documents"].search().where(
            f"path IN ({_sql_list(sorted(paths))}) OR doc_id IN ({_sql_list(sorted(ids))})"
        ).select(["doc_id", "path"]).limit(None).to_list() if items else []
        remove = [r["doc_id"] for r in found if r["path"] in paths and r["doc_id"] not in ids]
        returning = [r["doc_id"] for r in found if r["doc_id"] in ids]
        subs = [subindex_of(d.path) for d, *_ in items]
        gs = [list((groups or {}).get(d.id, ())) for d, *_ in items]
        for (doc, sections, chunks, _), sub, g in zip(items, subs, gs):
            drows.append(_doc_row(doc, sections, len(chunks), sub, (roots or {}).get(doc.id), tuple(g)))
        self._stats.change(s for *_, segs in items for s in segs)
        keys = {r["law_key"] for r in drows}
        if remove or returning:
            keys |= self._keys_of(remove + returning)
            self.delete_docs(remove + returning)
        self._relink(keys, drows)  # the new rows are written linked, not rewritten after
        if any(chunks for _, _, chunks, _ in items):
            self._w["chunks"].add(chunk_table(items, subs, gs))
        if drows:
            self._w["documents"].add(pa.Table.from_pylist(drows, schema=_doc_schema()))
        return bool(remove)

    def add_alias(self, doc_id: str, path: str) -> None:
        """Record that the stored document ``doc_id`` was also seen at ``path``."""
        rec = self.get_doc(doc_id)
        if rec is None or path == rec.path or path in rec.aliases:
            return
        self._w["documents"].update(where=f"doc_id = {_sql_str(doc_id)}",
                                    values={"aliases": [*rec.aliases, path]})

    def delete_docs(self, doc_ids: Sequence[str]) -> None:
        """Remove documents with their chunks and vectors (physically)."""
        if not doc_ids:
            return
        w = f"doc_id IN ({_sql_list(doc_ids)})"
        segs = self._w["chunks"].search().where(w).select(["seg"]).limit(None).to_arrow()["seg"]
        self._stats.change(segs.to_pylist(), -1)
        for n in TABLES:
            self._w[n].delete(w)
        for t in self._staged.values():
            t.delete(w)

    def mark_deleted(self, doc_ids: Sequence[str], day: str | None = None) -> None:
        """Logical delete: the documents stop being searched; ``compact`` removes them."""
        if doc_ids:
            day = day or dt.date.today().isoformat()
            self._w["documents"].update(where=f"doc_id IN ({_sql_list(doc_ids)})", values={"deleted": day})

    def compact(self) -> int:
        """Physically remove logically deleted documents and old table versions."""
        gone = [r["doc_id"] for r in self._w["documents"].search().where("deleted IS NOT NULL")
                .select(["doc_id"]).limit(None).to_list()]
        self.delete_docs(gone)
        self._relink()
        return len(gone)

    def cleanup(self) -> None:
        """Merge small data files and drop every older table version (call last inside the
        compacting transaction, which then publishes the optimised versions; readers in
        other processes pick them up on their next query)."""
        for t in self._w.values():
            t.optimize(cleanup_older_than=dt.timedelta(seconds=0))

    def _keys_of(self, doc_ids: Sequence[str]) -> set[str]:
        w = f"doc_id IN ({_sql_list(doc_ids)})"
        return {r["law_key"] for r in self._w["documents"].search().where(w).select(["law_key"])
                .limit(None).to_list()}

    def _relink(self, keys: set[str] | None = None, new_rows: Sequence[dict[str, Any]] = ()) -> None:
        """Recompute version links (of the documents sharing one of ``keys``, or of all) and
        store the ones that changed.

        Args:
            keys: the law keys to relink; None: every document.
            new_rows: document rows about to be written (their keys among ``keys``): linked
                with the stored ones and given their version fields in place, so a new
                document is written once, not written and then rewritten linked.
        """
        q = self._w["documents"].search().where("deleted IS NULL")
        if keys is not None:
            if not keys:
                return
            q = q.where(f"deleted IS NULL AND law_key IN ({_sql_list(sorted(keys))})")
        live = q.limit(None).to_list()
        info = link((r["doc_id"], r["path"], r["title"], r["version_date"],
                     json.loads(r["metadata"] or "{}")) for r in [*live, *new_rows])
        for r in new_rows:
            r.update(asdict(info[r["doc_id"]]))
        changed = []
        for r in live:
            new = asdict(info[r["doc_id"]])
            if any(r.get(k) != v for k, v in new.items()):
                changed.append({**r, **new})
        if changed:
            (self._w["documents"].merge_insert("doc_id").when_matched_update_all()
             .when_not_matched_insert_all().execute(changed))

    def add_vectors(self, chunks: Sequence[Chunk], vectors: np.ndarray, table: str | None = None) -> None:
        """Store one vector per chunk (replacing any earlier vector of the same id).

        Args:
            chunks: the chunks.
            vectors: array (len(chunks), dim).
            table: a table from :meth:`vector_table`; default the active one (then call
                inside a transaction).

        Raises:
            ZhikuError: the vectors have another size than the table.
        """
        if not len(chunks):
            return
        t = self._staged[table] if table else self._w["vectors"]
        dim = t.schema.field("vector").type.list_size
        if vectors.shape[1] != dim:
            raise ZhikuError(f"the embedder returned {vectors.shape[1]}-dim vectors but the index "
                             f"holds {dim}-dim ones; configure the embedder the index was built "
                             "with or run `zhiku reembed`")
        owners = self._groups_of({c.doc_id for c in chunks})
        rows = [{
            "id": c.id, "doc_id": c.doc_id, "subindex": subindex_of(c.doc_path),
            "article": c.article, "section_id": c.section_id, "version_date": c.version_date,
            "section_ids": list(c.section_ids), "groups": owners.get(c.doc_id, []), "vector": v.tolist(),
        } for c, v in zip(chunks, vectors)]
        t.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(rows)

    def _groups_of(self, doc_ids: set[str]) -> dict[str, list[str]]:
        """The stored groups of these documents (as the writer sees them)."""
        rows = (self._w["documents"].search().where(f"doc_id IN ({_sql_list(sorted(doc_ids))})")
                .select(["doc_id", "groups"]).limit(None).to_list())
        return {r["doc_id"]: list(r["groups"] or ()) for r in rows}

    def build_indexes(self, defer_small: bool = False) -> None:
        """Bring every index up to date (inside a transaction): create the missing keyword
        and scalar indexes, build the vector index once the table is large enough (see
        :attr:`vector_spec`), and add rows written since to the existing indexes.

        Args:
            defer_small: add rows written since only once they are many (:func:`_due`):
                until then they are searched exactly, and merging them (LanceDB's optimize
                rewrites small files and every index, seconds at 100k rows) would make
                re-ingesting one file cost as much as the whole table.
        """
        for name in TABLES:
            t = self._w[name]
            if not t.list_indices() and t.count_rows() and _due(t, 0):
                # a first build over the many small files of a large ingest: merge them
                # first (no index to update yet), or the next small re-ingest pays it
                refresh(t)
            stale = ensure_indexes(t, name)
            if name == "vectors":  # builds or retrains it; rows it leaves out are in ``stale``
                index_vectors(t, self.vector_spec)
            if stale and (not defer_small or _due(t, stale)):
                refresh(t)

    def merge_indexes(self) -> int:
        """Fold rows written since the indexes were built into the keyword and scalar
        indexes now (inside a transaction): what a deferred merge does after a small
        re-ingest, off the ask path (see :mod:`zhiku.merge`). The vector index keeps a few
        new rows outside it (an exact scan of them costs nothing) until they are due.

        Returns:
            How many chunks were waiting (0: nothing to do).
        """
        waiting = self._unindexed(self._w["chunks"])
        for name in TABLES:
            ensure_indexes(self._w[name], name)
            rebuild_stale(self._w[name], name)
        return waiting

    def unindexed_rows(self, due_only: bool = False) -> int:
        """Published chunks the keyword index does not cover yet (0 when up to date).

        Args:
            due_only: count them only when they are many enough for the next ingest to
                merge them (see :meth:`build_indexes`); fewer are searched exactly.
        """
        tbl = self._read("chunks")
        left = self._unindexed(tbl)
        return left if left and (not due_only or _due(tbl, left)) else 0

    @staticmethod
    def _unindexed(tbl: Any) -> int:
        n = tbl.count_rows()
        left = unindexed(tbl, "FTS") if n else 0
        return n if left is None else left

    def _all_segs(self) -> list[str]:
        return self._w["chunks"].search().select(["seg"]).limit(None).to_arrow()["seg"].to_pylist()

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

    def delete_ids(self, table: str, ids: Sequence[str]) -> None:
        """Delete rows of ``chunks`` or ``vectors`` by chunk id (inside a transaction)."""
        for i in range(0, len(ids), 500):
            self._w[table].delete(f"id IN ({_sql_list(ids[i:i + 500])})")

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

    def get_chunks(self, ids: Sequence[str], groups: tuple[str, ...] | None = None) -> dict[str, Chunk]:
        """Chunks by id (only those readable by ``groups``; None: any)."""
        if not ids:
            return {}
        tbl = self._read("chunks")
        if groups is None:  # by row id (see RowIds); a caller's groups filter in the query
            rows = take(tbl, self._row_ids(tbl).find(ids), CHUNK_COLUMNS)
            return {r["id"]: row_to_chunk(r) for r in rows}
        w = f"id IN ({_sql_list(ids)}) AND {groups_sql(groups)}"
        rows = tbl.search().where(w).select(CHUNK_COLUMNS).limit(None).to_list()
        return {r["id"]: row_to_chunk(r) for r in rows}

    def _row_ids(self, tbl: Any) -> RowIds:
        """Where the chunks of the published version lie (built once per version)."""
        with self._lock:
            if self._rowids is None or self._rowids.version != tbl.version:
                self._rowids = RowIds(tbl)
            return self._rowids

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


# Rows outside the indexes are merged in once they pass this many (or this share of the
# table), or once a table has this many small data files (every write adds one).
DEFER_ROWS, DEFER_SHARE, DEFER_FILES = 10_000, 0.02, 64


def _due(tbl: Any, uncovered: int) -> bool:
    """Whether ``uncovered`` rows of ``tbl`` are worth merging into its indexes now."""
    if uncovered > max(DEFER_ROWS, DEFER_SHARE * tbl.count_rows()):
        return True
    return int(tbl.stats()["fragment_stats"]["num_small_fragments"]) > DEFER_FILES


@stores.register("lancedb")
def make_lance(path: Path, embedder: str | None, dim: int | None, segmenter: str,
               version: str = "") -> LanceStore:
    """Factory registered as ``lancedb`` (the default, embedded).

    Args:
        path: the index folder.
        embedder: full embedder name to pin or check; None accepts the stored one.
        dim: vector size to pin or check; None accepts the stored one.
        segmenter: segmenter name to pin or check.
        version: embedder version to pin or check ("" is not checked).

    Raises:
        ZhikuError: the index was built with another schema, segmenter or embedder.
    """
    return LanceStore(path, embedder, dim, segmenter, version)
