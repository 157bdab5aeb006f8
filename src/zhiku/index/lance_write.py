"""Writing side of the LanceDB store: documents, chunks and vectors in and out, version
links, and keeping the keyword, scalar and vector indexes up to date. A mixin of
:class:`zhiku.index.lancedb_store.LanceStore`, called inside its write transaction."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

import numpy as np
import pyarrow as pa

from zhiku.errors import ZhikuError
from zhiku.index.lance_indexes import ensure_indexes, index_vectors, rebuild_stale, refresh, unindexed
from zhiku.index.lance_rows import _doc_row, chunk_table
from zhiku.index.store import _doc_schema, _sql_list, _sql_str, subindex_of
from zhiku.index.versions import link
from zhiku.ingest.repeals import title_key
from zhiku.types import Chunk, Document, Section

TABLES = ("chunks", "documents", "vectors")


class LanceWrites:
    """Mixin of :class:`LanceStore` for everything a write transaction does."""

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
            keys = keys | self._repeal_keys(new_rows)
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

    def _repeal_keys(self, new_rows: Sequence[dict[str, Any]]) -> set[str]:
        """The law keys a relink must also cover when one document repeals another by name
        (「《X》同时废止」, either may be stored already): every repealer's, every document
        titled as one of the repealed titles, and every document applying one of them (an
        interpretation of X, X's 实施细则: metadata ``applies``). Titles are looked up by the
        title index, never by reading every document's title."""
        stored = [(r["law_key"], json.loads(r["metadata"] or "{}")) for r in self._w["documents"].search()
                  .where("deleted IS NULL AND (metadata LIKE '%\"repeals\"%' OR metadata LIKE '%\"applies\"%')")
                  .select(["law_key", "metadata"]).limit(None).to_list()]
        said = [(key, meta) for key, meta in [*stored, *((r["law_key"], json.loads(r["metadata"] or "{}"))
                                                          for r in new_rows)] if "repeals" in meta]
        names = {title_key(str(t)) for _, meta in said for t in meta["repeals"] or ()}
        if not names:
            return set()
        return ({key for key, _ in said} | {key for key, meta in stored if meta.get("applies") in names}
                | {r["law_key"] for r in [*self._titled(names), *new_rows] if title_key(r["title"]) in names})

    def _titled(self, names: set[str]) -> list[dict[str, Any]]:
        """The stored documents whose title is one of ``names`` as :func:`title_key` writes
        them: looked up as written, with and without 中华人民共和国, in full- or half-width
        brackets (a title that differs from them in inner spaces or mixed brackets is not)."""
        spelt = sorted({p + s for n in names for s in (n, n.replace("（", "(").replace("）", ")"))
                        for p in ("", "中华人民共和国")})
        out: list[dict[str, Any]] = []
        for i in range(0, len(spelt), 500):
            out += (self._w["documents"].search().where(
                f"title IN ({_sql_list(spelt[i:i + 500])}) AND deleted IS NULL")
                .select(["law_key", "title"]).limit(None).to_list())
        return out

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

    def delete_ids(self, table: str, ids: Sequence[str]) -> None:
        """Delete rows of ``chunks`` or ``vectors`` by chunk id (inside a transaction)."""
        for i in range(0, len(ids), 500):
            self._w[table].delete(f"id IN ({_sql_list(ids[i:i + 500])})")


# Rows outside the indexes are merged in once they pass this many (or this share of the
# table), or once a table has this many small data files (every write adds one).
DEFER_ROWS, DEFER_SHARE, DEFER_FILES = 10_000, 0.02, 64


def _due(tbl: Any, uncovered: int) -> bool:
    """Whether ``uncovered`` rows of ``tbl`` are worth merging into its indexes now."""
    if uncovered > max(DEFER_ROWS, DEFER_SHARE * tbl.count_rows()):
        return True
    return int(tbl.stats()["fragment_stats"]["num_small_fragments"]) > DEFER_FILES
