"""Reads of the LanceDB store by chunk id: the chunks themselves, and for candidates already
found their stored vectors and their BM25 scores for a query (see
:mod:`zhiku.retrieve.complete`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from zhiku.index.lance_take import RowIds, take
from zhiku.index.store import CHUNK_COLUMNS, Scope, _sql_list, groups_sql, row_to_chunk
from zhiku.types import Chunk


class KnownReads:
    """Mixin of :class:`LanceStore`: given chunks, their vectors and keyword scores."""

    _lock: Any
    _rowids: dict[str, RowIds]

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
        """Where the rows of ``tbl``'s published version lie by id (once per table name and version)."""
        with self._lock:
            got = self._rowids.get(tbl.name)
            if got is None or got.version != tbl.version:
                got = self._rowids[tbl.name] = RowIds(tbl)
            return got


    def vectors_of(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors (float32) of the active table for these chunk ids; ids without
        a vector are absent. Read by row id (the store's ``_row_ids``, kept per table and
        published version): about 2 ms for 50 vectors at 66k chunks, half a filtered scan."""
        if not ids:
            return {}
        tbl = self._read("vectors")
        found = self._row_ids(tbl).find(list(ids))
        got = tbl.take_row_ids(found).select(["id", "vector"]).to_arrow() if found else None
        if got is None or not got.num_rows:
            return {}
        flat = np.asarray(got["vector"].combine_chunks().flatten(), dtype=np.float32)
        return dict(zip(got["id"].to_pylist(), flat.reshape(got.num_rows, -1)))

    def keyword_scores(self, terms: Sequence[str], ids: Sequence[str], scope: Scope = Scope()) -> dict[str, float]:
        """The BM25 score of ``terms`` (as :meth:`keyword` scores them, with the whole
        index's statistics, which a filter leaves as they are) of each of these chunks that
        holds one of them; the others are absent. ``ids`` lie in ``scope`` already (the
        candidates of a search inside it), so only they are filtered."""
        terms = [t for t in terms if t.strip()]
        if not terms or not ids:
            return {}
        from lancedb.query import MatchQuery

        q = self._read("chunks").search(MatchQuery(" ".join(terms), "seg"), query_type="fts")
        rows = q.where(f"id IN ({_sql_list(ids)})", prefilter=True).select(["id", "_score"]).limit(len(ids))
        return {r["id"]: float(r["_score"]) for r in rows.to_list()}
