"""Chunks by id through row ids: the same rows a filter on ``id`` finds, for every kind of id."""

from __future__ import annotations

import pytest

from zhiku.index.lance_import import lancedb
from zhiku.index.lance_take import RowIds, take

pytestmark = pytest.mark.unit


def _table(tmp_path, ids):
    db = lancedb().connect(str(tmp_path))
    return db.create_table("t", data=[{"id": i, "n": k} for k, i in enumerate(ids)])


def test_row_ids_find_the_rows_a_filter_finds(tmp_path):
    ids = [f"{k * 7919:016x}" for k in range(300)]
    tbl = _table(tmp_path, ids)
    tbl.add([{"id": "00000000000000aa", "n": 300}])  # a second fragment
    tbl.delete("n = 5")
    rows = RowIds(tbl)
    want = [ids[3], ids[5], ids[299], "00000000000000aa", "ffffffffffffffff", "short", "中文", "x" * 40]
    got = {r["id"]: r["n"] for r in take(tbl, rows.find(want), ["id", "n"])}
    assert got == {ids[3]: 3, ids[299]: 299, "00000000000000aa": 300}  # deleted and unknown left out
    assert rows.version == tbl.version and rows.find([]) == []


def test_row_ids_of_unicode_ids_and_of_an_empty_table(tmp_path):
    tbl = _table(tmp_path, ["条文一", "b", "条文三"])
    assert sorted(r["n"] for r in take(tbl, RowIds(tbl).find(["条文三", "b", "无"]), ["n"])) == [1, 2]
    tbl.delete("n >= 0")
    assert RowIds(tbl).find(["b"]) == []
