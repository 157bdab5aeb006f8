"""The LanceDB chunk rows built column by column equal the rows built one by one."""

from pathlib import Path

import pyarrow as pa
import pytest

from zhiku.chunk import chunk_document
from zhiku.index.lance_rows import _chunk_row, chunk_table
from zhiku.index.store import _chunk_schema
from zhiku.ingest import iter_files, load_file
from zhiku.retrieve.segment import segmenters
from zhiku.structure import build_tree

pytestmark = pytest.mark.unit
LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"


def test_chunk_table_matches_row_by_row():
    seg = segmenters.create("mixed")
    items, subs, groups, rows = [], [], [], []
    for i, (f, root) in enumerate(iter_files([LAWS])[:4]):
        doc = load_file(f, root)
        sections = build_tree(doc)
        chunks = chunk_document(doc, sections, size=300, overlap=0, parent_size=1200)
        segs = [" ".join(seg(c.text)) for c in chunks]
        sub, g = f"sub{i}", [f"g{i}"] * (i % 2)
        items.append((doc, sections, chunks, segs))
        subs.append(sub)
        groups.append(g)
        rows += [{**_chunk_row(c), "seg": s, "subindex": sub, "groups": g} for c, s in zip(chunks, segs)]
    assert len(rows) > 20 and any(r["parent_id"] for r in rows)
    table = chunk_table(items, subs, groups)
    assert table.equals(pa.Table.from_pylist(rows, schema=_chunk_schema()))


def test_records_parse_each_distinct_row_once():
    import json

    from zhiku.index.lance_rows import Records, _doc_record, _doc_row
    from zhiku.types import Document

    doc = Document(id="d1", path="a/法.md", title="某法", body="第一条 内容。")
    rows = [_doc_row(doc, [], 3, "a", None, ("g",)), _doc_row(doc, [], 4, "a", None)]
    rows[1]["doc_id"] = "d2"
    import pyarrow as pa

    from zhiku.index.store import _doc_schema

    def table(rs):
        return pa.Table.from_pylist(rs, schema=_doc_schema())

    records = Records()
    first = records(table(rows))
    assert first == [_doc_record(r) for r in rows]
    changed = [dict(rows[0]), {**rows[1], "metadata": json.dumps({"law": "新"})}]
    second = records(table(changed))
    assert second[0] is first[0]  # unchanged row: the same record, not parsed again
    assert second[1] == _doc_record(changed[1]) and second[1].metadata == {"law": "新"}
