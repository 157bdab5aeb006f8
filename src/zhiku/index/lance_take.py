"""Chunks by id through their row ids: one sorted id array per published table version."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

# a content-hash id (:func:`zhiku.types.content_hash`): 16 lowercase hex digits
_HEX_ID = re.compile(r"[0-9a-f]{16}")
_HEX = np.full(256, 255, dtype=np.uint8)
_HEX[np.frombuffer(b"0123456789abcdef", dtype=np.uint8)] = np.arange(16, dtype=np.uint8)


def _hex_keys(ids: Any) -> np.ndarray | None:
    """The ids (an Arrow string array) as unsigned 64-bit numbers when every one is 16
    lowercase hex digits (a content hash, see :func:`zhiku.types.content_hash`), in the
    same order as the strings; None otherwise. Read straight from the Arrow buffers: a
    million Python strings and their sort took seconds of the first ask at 1M chunks."""
    import pyarrow as pa
    import pyarrow.compute as pc

    ids = ids.combine_chunks() if isinstance(ids, pa.ChunkedArray) else ids
    if not len(ids) or ids.null_count or not pc.all(pc.equal(pc.binary_length(ids), 16)).as_py():
        return None
    start = ids.offset
    offsets = np.frombuffer(ids.buffers()[1], dtype=np.int32, count=start + len(ids) + 1)
    raw = np.frombuffer(ids.buffers()[2], dtype=np.uint8)[offsets[start] : offsets[start + len(ids)]]
    nib = _HEX[raw].reshape(-1, 16)
    if (nib == 255).any():
        return None
    return ((nib[:, 0::2] << 4) | nib[:, 1::2]).copy().view(">u8").ravel().astype(np.uint64)


class RowIds:
    """Where each id of one table version lies (its row id), so that reading rows by id is
    a take of those rows instead of a filtered scan through the id index: on the 100k bench
    store a lookup of 50 chunks by ``id IN (…)`` costs about 20 ms of CPU, the take half.

    Content-hash ids (16 hex digits) are kept as one sorted array of 64-bit numbers (8 MB
    at a million chunks); other ids as one sorted fixed-width array (bytes for ASCII ids);
    built once per published version.
    """

    def __init__(self, tbl: Any) -> None:
        got = tbl.search().select(["id"]).with_row_id(True).limit(None).to_arrow()
        keys = _hex_keys(got["id"])
        self._hex = keys is not None
        if keys is None:
            keys = np.array(got["id"].to_pylist() or [""])
            try:
                keys = keys.astype(np.bytes_)  # a quarter of the memory of unicode strings
            except UnicodeEncodeError:
                pass
        rows = got["_rowid"].to_numpy() if got.num_rows else np.zeros(1, dtype=np.uint64)
        order = np.argsort(keys, kind="stable")
        self.version = tbl.version
        self._keys, self._rows = keys[order], rows[order]
        self._empty = not got.num_rows

    def _wanted(self, ids: Sequence[str]) -> np.ndarray:
        """``ids`` as keys comparable with the stored ones (those that cannot be stored
        are left out)."""
        if self._hex:
            return np.array([int(i, 16) for i in ids if _HEX_ID.fullmatch(i)], dtype=np.uint64)
        width = self._keys.dtype.itemsize // (4 if self._keys.dtype.kind == "U" else 1)
        ids = [i for i in ids if len(i) <= width]  # longer than every stored id: not stored
        try:
            return np.array(ids, dtype=self._keys.dtype)
        except UnicodeEncodeError:  # not ASCII, while every stored id is: not stored
            return np.array([i for i in ids if i.isascii()], dtype=self._keys.dtype)

    def find(self, ids: Sequence[str]) -> list[int]:
        """Row ids of those ``ids`` the version holds (unknown ids are left out)."""
        if self._empty or not ids:
            return []
        want = self._wanted(ids)
        if not len(want):
            return []
        pos = np.minimum(np.searchsorted(self._keys, want), len(self._keys) - 1)
        hit = self._keys[pos] == want
        return [int(r) for r in self._rows[pos[hit]]]


def take(tbl: Any, row_ids: list[int], columns: list[str]) -> list[dict[str, Any]]:
    """The ``columns`` of the rows at ``row_ids`` of ``tbl`` (in no particular order)."""
    if not row_ids:
        return []
    return tbl.take_row_ids(row_ids).select(columns).to_arrow().to_pylist()
