"""Row conversions and small file helpers of the LanceDB store."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from operator import attrgetter
from typing import Any

import pyarrow as pa

from zhiku.index.store import CHUNK_COLUMNS, DocRecord, _chunk_schema
from zhiku.index.versions import VersionInfo, law_key
from zhiku.types import Chunk, Document, Section




def _searchable(where: str | None) -> str:
    """``where`` limited to chunks that are searched (parents are only quoted)."""
    base = "kind != 'parent'"
    return f"({where}) AND {base}" if where else base


def _chunk_row(c: Chunk) -> dict[str, Any]:
    return {
        "id": c.id, "doc_id": c.doc_id, "doc_path": c.doc_path, "title": c.title,
        "section_id": c.section_id, "section_path": list(c.section_path), "article": c.article,
        "text": c.text, "start": c.start, "end": c.end, "version_date": c.version_date,
        "kind": c.kind, "page": c.page, "parent_id": c.parent_id,
        "section_ids": list(c.section_ids),
    }


def chunk_table(items: Sequence[tuple[Any, Any, Sequence[Chunk], Sequence[str]]],
                subs: Sequence[str], groups: Sequence[list[str]]) -> pa.Table:
    """The chunk rows of a batch as one Arrow table, built column by column (no dict per row).

    Args:
        items: (document, sections, chunks, segmented texts) per document.
        subs: each document's sub-index.
        groups: each document's groups.

    Returns:
        A table with the chunk schema: the columns of :func:`_chunk_row` plus ``seg``,
        ``subindex`` and ``groups``.
    """
    chunks = [c for _, _, cs, _ in items for c in cs]
    cols: dict[str, list[Any]] = {f: list(map(attrgetter(f), chunks)) for f in CHUNK_COLUMNS}
    cols["seg"] = [s for *_, segs in items for s in segs]
    cols["subindex"] = [sub for (_, _, cs, _), sub in zip(items, subs) for _ in cs]
    cols["groups"] = [g for (_, _, cs, _), g in zip(items, groups) for _ in cs]
    return pa.Table.from_pydict(cols, schema=_chunk_schema())


def _doc_row(doc: Document, sections: list[Section], n: int, sub: str, root: str | None,
             groups: tuple[str, ...] = ()) -> dict:
    return {
        "doc_id": doc.id, "path": doc.path, "aliases": list(doc.aliases), "title": doc.title,
        "version_date": doc.version_date, "subindex": sub,
        "metadata": json.dumps(doc.metadata, ensure_ascii=False, default=str),
        "sections": json.dumps([_section_dict(s) for s in sections], ensure_ascii=False),
        "n_chunks": n, "law_key": _key(doc), "effective": None, "expiry": None, "supersedes": None,
        "superseded_by": None, "source_root": root, "deleted": None, "groups": list(groups),
    }


_SECTION_FIELDS = tuple(f.name for f in fields(Section))


def _section_dict(s: Section) -> dict[str, Any]:
    """What ``asdict`` gives for a section (its fields are plain values), without its
    recursive deep copy: a tenth of writing the document rows of a large ingest."""
    return {f: getattr(s, f) for f in _SECTION_FIELDS}


def _key(doc: Document) -> str:
    """The version-group key :func:`link` gives the document (so that linking a new
    document reads only the stored versions of the same law)."""
    meta = doc.metadata if isinstance(doc.metadata, dict) else {}
    return law_key(doc.path, doc.title, bool(doc.version_date), meta.get("law"))


class Sections(Sequence[Section]):
    """A stored document's sections, parsed from their JSON on first use: listing the
    documents (once per published state) parsed every section of every document, most
    of them never read (6 s and 130k objects for 23k documents at 1M chunks); an ask
    reads the chapter tree of the few documents it routes to."""

    __slots__ = ("_raw", "_items")

    def __init__(self, raw: str | None) -> None:
        self._raw: str | None = raw
        self._items: tuple[Section, ...] | None = None

    def _all(self) -> tuple[Section, ...]:
        items = self._items
        if items is None:  # two threads at once parse the same text: either result is kept
            items = self._items = tuple(Section(**s) for s in json.loads(self._raw or "[]"))
        return items

    def __getitem__(self, i):  # type: ignore[override]
        return self._all()[i]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self):
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


def _doc_record(r: dict[str, Any]) -> DocRecord:
    secs = Sections(r["sections"])
    return DocRecord(
        doc_id=r["doc_id"], path=r["path"], aliases=tuple(r["aliases"] or ()), title=r["title"],
        version_date=r["version_date"], subindex=r["subindex"], n_chunks=int(r["n_chunks"]),
        metadata=json.loads(r["metadata"] or "{}"), sections=secs, law_key=r["law_key"] or "",
        effective=r["effective"], expiry=r["expiry"], supersedes=r["supersedes"],
        superseded_by=r["superseded_by"], source_root=r["source_root"], deleted=r["deleted"],
        groups=tuple(r.get("groups") or ()),
    )


class Records:
    """Document rows to records, each distinct row parsed once: a new published state
    re-reads every row, but an ingest changes few of them, and parsing the sections of
    every document again made the first read after an ingest grow with the corpus."""

    def __init__(self) -> None:
        self._seen: dict[tuple, DocRecord] = {}

    def __call__(self, table: pa.Table) -> list[DocRecord]:
        """The records of the rows of ``table`` (as read from the documents table), read
        column by column (a dict per row only for rows not seen before)."""
        names = table.column_names
        cols = [table[c].to_pylist() for c in names]
        seen, out = {}, []
        for row in zip(*cols):
            key = tuple(tuple(v) if isinstance(v, list) else v for v in row)
            rec = self._seen.get(key) or _doc_record(dict(zip(names, row)))
            seen[key] = rec
            out.append(rec)
        self._seen = seen  # only the rows of the latest read are kept
        return out


def _info(d: DocRecord) -> VersionInfo:
    return VersionInfo(d.law_key, d.effective, d.expiry, d.supersedes, d.superseded_by)
