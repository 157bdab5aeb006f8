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


def test_row_ids_of_content_hashes_beside_other_ids(tmp_path):
    """Content-hash ids are kept as numbers: ids of another form (upper case, not hex, too
    short) are never found among them, and a table holding one id of another form is read
    as strings."""
    from zhiku.types import content_hash

    ids = [content_hash(str(k)) for k in range(200)]
    tbl = _table(tmp_path, ids)
    rows = RowIds(tbl)
    want = [ids[7], ids[0], ids[199], ids[3].upper(), "g" * 16, ids[5][:15], "中文"]
    assert sorted(r["n"] for r in take(tbl, rows.find(want), ["n"])) == [0, 7, 199]
    tbl.add([{"id": "ABCDEF0123456789", "n": 200}])
    mixed = RowIds(tbl)
    assert sorted(r["n"] for r in take(tbl, mixed.find(["ABCDEF0123456789", ids[9]]), ["n"])) == [9, 200]
