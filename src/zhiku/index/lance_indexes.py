"""Indexes of the LanceDB store: full-text over the segmented text, scalar indexes (BTREE,
BITMAP) on the filtered columns, and a vector index once the vector table is large enough."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from zhiku.index.vector_spec import VectorIndex, VectorIndexSpec

if TYPE_CHECKING:
    from zhiku.index.store import Scope

FTS_PARAMS = dict(
    with_position=False, base_tokenizer="whitespace", lower_case=False, stem=False,
    remove_stop_words=False, ascii_folding=False, max_token_length=None,
)
# Columns every query filters or looks up by: ids and documents by B-tree, the few
# distinct kinds and sub-indexes by bitmap.
SCALAR = {
    "chunks": (("id", "BTREE"), ("doc_id", "BTREE"), ("kind", "BITMAP"), ("subindex", "BITMAP")),
    "vectors": (("id", "BTREE"), ("doc_id", "BTREE"), ("subindex", "BITMAP")),
    "documents": (("doc_id", "BTREE"), ("path", "BTREE"), ("title", "BTREE")),
}


def _by_column(tbl: Any) -> dict[str, Any]:
    return {tuple(i.columns)[0]: i for i in tbl.list_indices()}


def _create(tbl: Any, col: str, kind: str) -> None:
    from lancedb.index import FTS, BTree, Bitmap

    config = FTS(**FTS_PARAMS) if kind == "FTS" else BTree() if kind == "BTREE" else Bitmap()
    tbl.create_index(col, config=config, replace=True)


def _kinds(table: str) -> dict[str, str]:
    """Indexed column → index kind of one table (its vector index aside)."""
    return {**({"seg": "FTS"} if table == "chunks" else {}), **dict(SCALAR.get(table, ()))}


def ensure_indexes(tbl: Any, table: str) -> int:
    """Create the missing full-text and scalar indexes of one table.

    Returns:
        How many rows the existing index covering fewest leaves uncovered (0: none; else
        :func:`refresh` them, now or once they are many).
    """
    if not tbl.count_rows():
        return 0
    have = _by_column(tbl)
    for col, kind in _kinds(table).items():
        if col not in have:
            _create(tbl, col, kind)
    return max((int(tbl.index_stats(i.name).num_unindexed_rows) for i in have.values()), default=0)


def index_vectors(tbl: Any, spec: VectorIndexSpec) -> str:
    """Build the vector index when the table reached ``spec.min_rows``, retrain it when the
    table doubled since, otherwise leave new rows to :func:`refresh` (they are searched
    exactly until then).

    Returns:
        What was done: ``flat``, ``built``, ``stale`` (new rows not covered) or ``fresh``.
    """
    n = tbl.count_rows()
    vec = _by_column(tbl).get("vector")
    if spec.kind is VectorIndex.FLAT or n < spec.min_rows:
        return "flat"
    if vec is not None:
        st = tbl.index_stats(vec.name)
        if st.num_unindexed_rows <= st.num_indexed_rows:
            return "stale" if st.num_unindexed_rows else "fresh"
    tbl.create_index(metric="cosine", vector_column_name="vector", index_type=spec.kind.name,
                     num_partitions=max(1, n // spec.partition_rows), replace=True)
    return "built"


def refresh(tbl: Any) -> None:
    """Add rows written since the indexes were built to every index (merges small data
    files too); deleted rows are already masked out."""
    tbl.optimize()


def rebuild_stale(tbl: Any, table: str) -> int:
    """Rebuild the keyword and scalar indexes of one table that miss rows, leaving its data
    files and its vector index alone: LanceDB's optimize (the only way to fold rows into
    an index without pylance) also compacts the table, which rewrites every row and, on the
    vector table, the vector index (minutes at 100k rows); a fresh full-text index of 100k
    chunks takes seconds, a scalar one a tenth of a second.

    Returns:
        How many indexes were rebuilt.
    """
    kinds, done = _kinds(table), 0
    for col, idx in _by_column(tbl).items():
        if col in kinds and tbl.index_stats(idx.name).num_unindexed_rows:
            _create(tbl, col, kinds[col])
            done += 1
    return done


def unindexed(tbl: Any, index_type: str) -> int | None:
    """Rows the index of ``index_type`` does not cover, or None when there is none."""
    st = next((tbl.index_stats(i.name) for i in tbl.list_indices() if i.index_type == index_type), None)
    return None if st is None else int(st.num_unindexed_rows)


def selective(scope: Scope) -> bool:
    """Whether a scope names documents or chapters: few enough rows that an exact scan of
    them (found through the doc_id index) beats the vector index and loses nothing."""
    return bool(scope.doc_ids or scope.chapters)


def vector_query(tbl: Any, vector: list[float], k: int, scope: Scope, where: str | None,
                 spec: VectorIndexSpec) -> Any:
    """A cosine search of ``tbl`` for ``k`` neighbours inside ``where``: through the vector index with the spec's
    probes and exact re-ranking, or an exact scan (``spec.exact``, selective scopes)."""
    q = tbl.search(vector, vector_column_name="vector").distance_type("cosine")
    if where:
        q = q.where(where, prefilter=True)
    if spec.exact or selective(scope):
        return q.bypass_vector_index()
    # the graph must hold at least every candidate the exact re-ranking reads
    return q.nprobes(spec.nprobes).ef(max(spec.ef, k * spec.refine)).refine_factor(spec.refine)


# A keyword query that drops parents and skipped documents after the search fetches this
# many rows per hit asked for (plus a few): on the 1M bench store at most 66 of the top
# rows were needed for 50 kept (1.5 % parents, 4 % superseded versions among them).
OVERFETCH, OVERFETCH_MIN = 1.5, 10


def matching(tbl: Any, text: str, k: int, scope: Scope, excluded: tuple[str, ...],
             columns: list[str]) -> list[dict[str, Any]]:
    """The ``k`` best BM25 rows (``columns`` and ``_score``) of ``tbl`` for the segmented
    ``text`` inside ``scope``, leaving out parent chunks (only quoted) and the ``excluded``
    documents.

    Only the scope's own filter goes into the query; parents and excluded documents are
    dropped from a slightly larger result afterwards: a prefilter of ``doc_id NOT IN (…)
    AND kind != 'parent'`` evaluates every row of the table first (70 of a 90 ms query at
    1M chunks, where the full-text search itself takes about 15 ms). When fewer than ``k``
    rows are left while more may match, the query runs again with the whole prefilter.
    """
    from lancedb.query import MatchQuery

    from zhiku.index.lance_rows import _searchable

    def query(where: str | None, n: int) -> list[dict[str, Any]]:
        q = tbl.search(MatchQuery(text, "seg"), query_type="fts")
        q = q.where(where, prefilter=True) if where else q
        return q.select([*columns, "_score"]).limit(n).to_list()

    many = k + int(k * (OVERFETCH - 1)) + OVERFETCH_MIN
    rows = query(scope.where(), many)
    skip = set(excluded)
    kept = [r for r in rows if r["kind"] != "parent" and r["doc_id"] not in skip]
    if len(kept) >= k or len(rows) < many:  # enough, or every matching row was seen
        return kept[:k]
    return query(_searchable(scope.where(excluded)), k)


def nearest(tbl: Any, vector: list[float], k: int, scope: Scope, excluded: tuple[str, ...],
            spec: VectorIndexSpec) -> list[dict[str, Any]]:
    """The ``k`` nearest rows (``id``, ``_distance``) of ``tbl`` inside ``scope`` minus the
    ``excluded`` documents.

    A search of the whole index that only skips documents (superseded versions, deleted
    files) asks the index for 2 × k hits and drops the excluded ones afterwards: a prefilter
    of ``doc_id NOT IN (…)`` evaluates every row first (about 9 ms of a 30 ms query at 100k
    vectors). Superseded versions resemble the current ones, so they may crowd the top;
    when fewer than ``k`` hits are left the query runs again with the prefilter.
    """
    rest = scope.where()
    where = scope.where(excluded)
    direct = spec.exact or selective(scope) or rest is not None or not excluded
    if not direct:
        q = vector_query(tbl, vector, 2 * k, scope, None, spec).where(where, prefilter=False)
        rows = q.select(["id", "_distance"]).limit(2 * k).to_list()
        if len(rows) >= k:
            return rows[:k]
    return vector_query(tbl, vector, k, scope, where, spec).select(["id", "_distance"]).limit(k).to_list()
