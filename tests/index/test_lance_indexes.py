"""The LanceDB store's indexes stay usable across incremental ingests: new rows are found
before and after they join the vector, keyword and scalar indexes, deleted ones never."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from zhiku.index.store import Scope
from zhiku.index.vector_spec import VectorIndex, VectorIndexSpec

from .stores import fill, open_backend

pytestmark = pytest.mark.integration

SCALAR = {"chunks": {"seg", "id", "doc_id", "kind", "subindex"},
          "vectors": {"id", "doc_id", "subindex", "vector"}, "documents": {"doc_id", "path", "title"}}


def _indexes(store, table: str) -> dict[str, int]:
    """Indexed column → rows the index does not cover yet."""
    t = store._read(table)
    return {i.columns[0]: t.index_stats(i.name).num_unindexed_rows for i in t.list_indices()}


def _plans(store, vector, doc_id: str) -> dict[str, str]:
    """The query plans of the store's own dense, keyword and scoped reads."""
    from lancedb.query import MatchQuery

    from zhiku.index.lance_indexes import vector_query
    from zhiku.index.lance_rows import _searchable

    every, one = Scope(), Scope(doc_ids=(doc_id,))
    chunks = store._read("chunks")
    dense = vector_query(store.active.table, vector.tolist(), 5, every, every.where(store.excluded("current")),
                         replace(store.vector_spec, exact=False))
    kw = chunks.search(MatchQuery("试用期", "seg"), query_type="fts").where(_searchable(one.where()), prefilter=True)
    scoped = chunks.search().where(_searchable(one.where()))
    return {n: q.limit(5).explain_plan(True) for n, q in (("dense", dense), ("keyword", kw), ("scoped", scoped))}


def _nearest(store, chunk, laws, exact: bool = False) -> str:
    store.vector_spec = replace(store.vector_spec, exact=exact)
    hits = store.dense(laws.vectors[chunk.id], 5)
    return hits[0].chunk.id


def test_incremental_ingest_keeps_indexes_usable(tmp_path, laws):
    store = open_backend("lancedb", tmp_path, laws)
    store.vector_spec = VectorIndexSpec(kind=VectorIndex.IVF_HNSW_SQ, min_rows=0)
    fill(store, laws, ("公司法",))
    with store.transaction():
        store.build_indexes()
    for table, cols in SCALAR.items():  # every index built, covering every row
        assert _indexes(store, table) == dict.fromkeys(cols, 0), table

    fill(store, laws, ("劳动合同法",))  # the next ingest: rows not in any index yet
    new = laws.searched(("劳动合同法",))
    assert _indexes(store, "vectors")["vector"] == len(new)
    probe = new[len(new) // 2]
    assert _nearest(store, probe, laws) == probe.id  # unindexed rows are searched exactly
    with store.transaction():
        store.build_indexes()
    for table, cols in SCALAR.items():  # the new rows joined the existing indexes
        assert set(_indexes(store, table)) == cols and not any(_indexes(store, table).values()), table

    assert _nearest(store, probe, laws) == probe.id == _nearest(store, probe, laws, exact=True)
    plans = _plans(store, laws.vectors[probe.id], laws.doc("劳动合同法").id)  # and the queries use them
    assert "ANNSubIndex" in plans["dense"], plans["dense"]
    assert "MatchQuery" in plans["keyword"] and "ScalarIndexQuery" in plans["keyword"], plans["keyword"]
    assert "doc_id_idx(BTree)" in plans["scoped"], plans["scoped"]
    assert set(store.get_chunks([c.id for c in new[:20]])) == {c.id for c in new[:20]}
    doc = laws.doc("劳动合同法")
    assert {h.chunk.doc_id for h in store.keyword(["试用期"], 5, Scope(doc_ids=(doc.id,)))} == {doc.id}
    assert any(c.article for c in store.find(Scope(doc_ids=(doc.id,), article="第十九条")))

    with store.transaction():  # a removed document leaves every index with it
        store.delete_docs([doc.id])
        store.build_indexes()
    assert not store.get_chunks([probe.id])
    hits = store.dense(laws.vectors[probe.id], 10)
    assert hits and doc.id not in {h.chunk.doc_id for h in hits}
    assert store.count()["vectors"] == len(laws.searched(("公司法",)))


def test_df_is_written_once_per_ingest(tmp_path, laws):
    """Batches of one ingest leave the term statistics to the last; an ingest killed
    half-way leaves them marked stale, and the next writer recounts them."""
    store = open_backend("lancedb", tmp_path, laws)
    items = [it for it in laws.items if "公司法" in it[0].path]
    with store.transaction(partial=True):
        store.add(items[:1], laws.roots)
    assert store.manifest.get("df_stale") and store.doc_frequency("公司") == 0
    with store.transaction():
        store.add(items[1:], laws.roots)
    assert not store.manifest.get("df_stale")
    want = sum("公司" in s.split() for _, _, _, segs in items for s in segs)
    assert store.doc_frequency("公司") == want > 0

    with store.transaction(partial=True):  # then the process dies before the last batch
        store.add([laws.item("劳动合同法")], laws.roots)
    again = open_backend("lancedb", tmp_path, laws)
    assert again.manifest.get("df_stale")
    with again.transaction():
        pass
    segs = [s for _, _, _, ss in [*items, laws.item("劳动合同法")] for s in ss]
    for tok in ("劳动", "公司"):
        assert again.doc_frequency(tok) == sum(tok in s.split() for s in segs) > 0


def test_merge_after_a_small_reingest_leaves_no_row_outside_the_indexes(tmp_path, laws):
    """A small re-ingest publishes its rows outside the keyword and scalar indexes (an
    ingest defers the merge); the merge that follows off the ask path (what the background
    merge runs) rebuilds those indexes, and the queries use them again."""
    store = open_backend("lancedb", tmp_path, laws)
    store.vector_spec = VectorIndexSpec(kind=VectorIndex.IVF_HNSW_SQ, min_rows=0)
    fill(store, laws, ("公司法",))
    with store.transaction():
        store.build_indexes()
    with store.transaction():  # the re-ingest: new rows, merge deferred
        store.add([laws.item("劳动合同法")], laws.roots)
        store.build_indexes(defer_small=True)
    new = laws.searched(("劳动合同法",))
    assert store.unindexed_rows() == _indexes(store, "chunks")["seg"] == len(laws.item("劳动合同法")[2])
    assert store.unindexed_rows(due_only=True) == 0  # few: the ingest did not merge them
    with store.transaction():
        store.add_vectors(new, np.stack([laws.vectors[c.id] for c in new]))

    before = store.path.joinpath("manifest.json").read_text()
    with store.transaction():
        assert store.merge_indexes() == len(laws.item("劳动合同法")[2])
    assert store.path.joinpath("manifest.json").read_text() != before  # published as one state
    assert store.unindexed_rows() == 0
    for table, cols in SCALAR.items():  # every keyword and scalar index covers every row
        got = _indexes(store, table)
        assert set(got) == cols and not any(v for c, v in got.items() if c != "vector"), (table, got)
    # the vector index keeps the few new vectors outside it (an exact scan of them is free)
    assert _indexes(store, "vectors")["vector"] == len(new)
    probe = new[len(new) // 2]
    assert _nearest(store, probe, laws) == probe.id
    plans = _plans(store, laws.vectors[probe.id], laws.doc("劳动合同法").id)
    assert "MatchQuery" in plans["keyword"] and "ScalarIndexQuery" in plans["keyword"], plans["keyword"]
    assert "doc_id_idx(BTree)" in plans["scoped"], plans["scoped"]
    assert "ANNSubIndex" in plans["dense"], plans["dense"]
    doc = laws.doc("劳动合同法")
    assert {h.chunk.doc_id for h in store.keyword(["试用期"], 5, Scope(doc_ids=(doc.id,)))} == {doc.id}
    with store.transaction():  # nothing left: a second merge is a no-op
        assert store.merge_indexes() == 0


def test_index_query_skips_excluded_documents_after_the_search(tmp_path, laws):
    """Through a vector index of several partitions, a whole-index query drops excluded
    (here: deleted) documents from twice as many hits, finds what the exact scan with the
    prefilter finds, and runs again with the prefilter when too few hits are left."""
    store = open_backend("lancedb", tmp_path, laws)
    fill(store, laws, ("公司法", "劳动合同法"))
    n = store.count()["vectors"]
    store.vector_spec = VectorIndexSpec(kind=VectorIndex.IVF_HNSW_SQ, min_rows=0, partition_rows=max(1, n // 4))
    with store.transaction():
        store.build_indexes()
    gone = laws.doc("劳动合同法")
    with store.transaction():
        store.mark_deleted([gone.id])
    probe = laws.searched(("劳动合同法",))[0]  # its own document, excluded, is nearest
    vec = laws.vectors[probe.id]
    skipped = set(store.excluded("current"))  # the deleted one and superseded versions
    assert gone.id in skipped
    left = n - sum(c.doc_id in skipped for c in laws.searched(("公司法", "劳动合同法")))

    def ids(k: int, exact: bool = False) -> list[str]:
        store.vector_spec = replace(store.vector_spec, exact=exact)
        hits = store.dense(vec, k)
        assert gone.id not in {h.chunk.doc_id for h in hits}
        return [h.chunk.id for h in hits]

    assert ids(5) == ids(5, exact=True) and len(ids(5)) == 5
    assert sorted(ids(n)) == sorted(ids(n, exact=True)) and len(ids(n)) == left < n  # the fallback


def test_keyword_query_drops_parents_and_excluded_documents_after_the_search(tmp_path, laws, monkeypatch):
    """A whole-index keyword query leaves parents and excluded (here: deleted) documents
    out of a slightly larger result, ranks what the full prefilter ranks, and runs again
    with the prefilter when too few rows are left."""
    from lancedb.query import MatchQuery

    from zhiku.index.lance_indexes import OVERFETCH, OVERFETCH_MIN
    from zhiku.index.lance_rows import _searchable

    store = open_backend("lancedb", tmp_path, laws)
    fill(store, laws, ("公司法", "劳动合同法"))
    with store.transaction():
        store.build_indexes()
    gone = laws.doc("劳动合同法")
    with store.transaction():
        store.mark_deleted([gone.id])
    skipped = set(store.excluded("current"))
    assert gone.id in skipped
    terms = ["劳动合同", "劳动者", "公司"]
    tbl = store._read("chunks")

    def top(k: int, where: str | None) -> list[dict]:
        q = tbl.search(MatchQuery(" ".join(terms), "seg"), query_type="fts")
        q = q.where(where, prefilter=True) if where else q
        return q.select(["id", "doc_id", "kind", "_score"]).limit(k).to_list()

    search, runs = tbl.search, []
    monkeypatch.setattr(tbl, "search", lambda *a, **kw: runs.append(1) or search(*a, **kw))
    fallbacks = 0
    for k in (3, 20, 40, 400):  # 400: more than every matching row
        many = k + int(k * (OVERFETCH - 1)) + OVERFETCH_MIN
        first = top(many, None)
        kept = [r for r in first if r["kind"] != "parent" and r["doc_id"] not in skipped]
        again = len(kept) < k and len(first) == many
        fallbacks += again
        runs.clear()
        hits = store.keyword(terms, k)
        assert len(runs) == 1 + again, k
        assert all(h.chunk.doc_id not in skipped and h.chunk.kind != "parent" for h in hits)
        want = top(k, _searchable(Scope().where(skipped)))  # the same ranking (rows of equal score in any order)
        assert [round(h.score, 4) for h in hits] == [round(r["_score"], 4) for r in want]
        assert {h.chunk.id for h in hits} == {r["id"] for r in want} or len(want) == k
    assert fallbacks  # the deleted law crowds the top: some k needed the second query
