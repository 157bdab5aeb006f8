"""The embedded store (LanceDB): chunks with segmented text for BM25, vectors, documents."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from zhiku.errors import ZhikuError
from zhiku.registry import Registry
from zhiku.types import Chunk, Section

if TYPE_CHECKING:  # pyarrow is imported by the schemas' users, not by every import of Scope
    import pyarrow as pa

# 3: BM25 text carries the chunk's title and section header; 4: versions and publishing;
# 5: chunks carry page, parent_id and section_ids (tables, PDFs); 6: BM25 text has English
# words stemmed and English stop words dropped; 7: chunk, vector and document rows carry
# the groups that may read them
SCHEMA_VERSION = 7
stores: Registry[Any] = Registry("store")


@dataclass(frozen=True)
class Scope:
    """Where a search may look. Every query goes through :meth:`Scope.where`.

    ``chapters`` lists ``(doc_id, section_id)`` pairs searched together (a section and
    its children; an empty section id is the whole document), as chapter routing picks.
    ``groups`` are the caller's groups: None searches everything (admin, CLI); a tuple
    limits every query to rows whose ``groups`` column shares one of them or is public.
    """

    doc_ids: tuple[str, ...] = ()
    subindexes: tuple[str, ...] = ()
    article: str | None = None
    section_id: str | None = None
    version_date: str | None = None
    versions: str = "current"
    chapters: tuple[tuple[str, str], ...] = ()
    groups: tuple[str, ...] | None = None

    def where(self, exclude: Iterable[str] = ()) -> str | None:
        """SQL filter for LanceDB, or None for the whole knowledge base.

        Args:
            exclude: document ids not to search (versions not in force, deleted files);
                the store computes them from ``versions``.
        """
        parts = []
        exclude, doc_ids = tuple(exclude), self.doc_ids
        if exclude and doc_ids:  # named documents: drop the excluded ones from the list
            skip = set(exclude)
            left = tuple(d for d in doc_ids if d not in skip)
            doc_ids, exclude = (left, ()) if left else (doc_ids, exclude)
        if exclude:
            parts.append(f"doc_id NOT IN ({_sql_list(exclude)})")
        if doc_ids:
            parts.append(f"doc_id IN ({_sql_list(doc_ids)})")
        if self.subindexes:
            parts.append(f"subindex IN ({_sql_list(self.subindexes)})")
        if self.article:
            parts.append(f"article = {_sql_str(self.article)}")
        if self.version_date:
            parts.append(f"version_date = {_sql_str(self.version_date)}")
        if self.section_id:
            parts.append(_section_sql(self.section_id))
        if self.chapters:
            parts.append("(" + " OR ".join(_chapter_sql(d, c) for d, c in self.chapters) + ")")
        if self.groups is not None:
            parts.append(groups_sql(self.groups))
        return " AND ".join(parts) or None

    def expr(self, exclude: Iterable[str] = ()) -> str:
        """The same filter as :meth:`where`, as a Milvus boolean expression ("" for all).

        Args:
            exclude: document ids not to search, as for :meth:`where`.
        """
        parts = []
        exclude = tuple(exclude)
        if exclude:
            parts.append(f"doc_id not in {_expr_list(exclude)}")
        if self.doc_ids:
            parts.append(f"doc_id in {_expr_list(self.doc_ids)}")
        if self.subindexes:
            parts.append(f"subindex in {_expr_list(self.subindexes)}")
        if self.article:
            parts.append(f"article == {_expr_str(self.article)}")
        if self.version_date:
            parts.append(f"version_date == {_expr_str(self.version_date)}")
        if self.section_id:
            parts.append(_section_expr(self.section_id))
        if self.chapters:
            parts.append("(" + " or ".join(
                f"(doc_id == {_expr_str(d)}" + (f" and {_section_expr(c)})" if c else ")")
                for d, c in self.chapters) + ")")
        if self.groups is not None:
            parts.append(groups_expr(self.groups))
        return " and ".join(parts)


def groups_sql(groups: Iterable[str]) -> str:
    """LanceDB filter: rows readable by a caller in ``groups`` (public rows included)."""
    from zhiku.access import PUBLIC

    names = dict.fromkeys([PUBLIC, *groups])
    return "(" + " OR ".join(f"array_has(groups, {_sql_str(g)})" for g in names) + ")"


def groups_expr(groups: Iterable[str]) -> str:
    """:func:`groups_sql` as a Milvus expression."""
    from zhiku.access import PUBLIC

    return f"array_contains_any(groups, {_expr_list(dict.fromkeys([PUBLIC, *groups]))})"


def _expr_str(v: str) -> str:
    """A Milvus string literal (double quotes, backslash escapes)."""
    return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _expr_list(vs: Iterable[str]) -> str:
    return "[" + ", ".join(_expr_str(v) for v in vs) + "]"


def _section_sql(section_id: str) -> str:
    """A section and everything under it (dotted ids), or a merged chunk covering it."""
    s = _sql_str(section_id)
    return (f"(section_id = {s} OR section_id LIKE {_sql_str(section_id + '.%')}"
            f" OR array_has(section_ids, {s}))")


def _section_expr(section_id: str) -> str:
    """:func:`_section_sql` as a Milvus expression."""
    s = _expr_str(section_id)
    return (f"(section_id == {s} or section_id like {_expr_str(section_id + '.%')}"
            f" or array_contains(section_ids, {s}))")


def _chapter_sql(doc_id: str, section_id: str) -> str:
    d = f"doc_id = {_sql_str(doc_id)}"
    return f"({d} AND {_section_sql(section_id)})" if section_id else f"({d})"


def _sql_str(v: str) -> str:
    return "'" + v.replace("'", "''") + "'"


def _sql_list(vs: Iterable[str]) -> str:
    return ", ".join(_sql_str(v) for v in vs)


def _chunk_schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema([
        ("id", pa.string()), ("doc_id", pa.string()), ("doc_path", pa.string()),
        ("title", pa.string()), ("section_id", pa.string()),
        ("section_path", pa.list_(pa.string())), ("article", pa.string()),
        ("text", pa.string()), ("seg", pa.string()), ("start", pa.int32()),
        ("end", pa.int32()), ("version_date", pa.string()), ("kind", pa.string()),
        ("subindex", pa.string()), ("page", pa.int32()), ("parent_id", pa.string()),
        ("section_ids", pa.list_(pa.string())), ("groups", pa.list_(pa.string())),
    ])


def _doc_schema() -> pa.Schema:
    import pyarrow as pa

    return pa.schema([
        ("doc_id", pa.string()), ("path", pa.string()), ("aliases", pa.list_(pa.string())),
        ("title", pa.string()), ("version_date", pa.string()), ("subindex", pa.string()),
        ("metadata", pa.string()), ("sections", pa.string()), ("n_chunks", pa.int32()),
        ("law_key", pa.string()), ("effective", pa.string()), ("expiry", pa.string()),
        ("supersedes", pa.string()), ("superseded_by", pa.string()),
        ("source_root", pa.string()), ("deleted", pa.string()), ("groups", pa.list_(pa.string())),
    ])


def _vec_schema(dim: int) -> pa.Schema:
    import pyarrow as pa

    return pa.schema([
        ("id", pa.string()), ("doc_id", pa.string()), ("subindex", pa.string()),
        ("article", pa.string()), ("section_id", pa.string()), ("version_date", pa.string()),
        ("section_ids", pa.list_(pa.string())), ("groups", pa.list_(pa.string())),
        ("vector", pa.list_(pa.float32(), dim)),
    ])


def subindex_of(path: str) -> str:
    """Default sub-index of a document: its top-level folder, or ``default``."""
    return path.split("/", 1)[0] if "/" in path else "default"


# The columns a Chunk is rebuilt from (:func:`row_to_chunk`; not the segmented text, the
# sub-index or the groups, which only filters and the keyword index read), alike in every store.
CHUNK_COLUMNS = ["id", "doc_id", "doc_path", "title", "section_id", "section_path", "article", "text",
                 "start", "end", "version_date", "kind", "page", "parent_id", "section_ids"]


def row_to_chunk(r: dict[str, Any]) -> Chunk:
    """Rebuild a Chunk from a stored row."""
    return Chunk(
        id=r["id"], doc_id=r["doc_id"], doc_path=r["doc_path"], title=r["title"],
        section_id=r["section_id"], section_path=tuple(r["section_path"] or ()),
        article=r["article"], text=r["text"], start=int(r["start"]), end=int(r["end"]),
        version_date=r["version_date"], kind=r["kind"],
        page=None if r.get("page") is None else int(r["page"]), parent_id=r.get("parent_id"),
        section_ids=tuple(r.get("section_ids") or ()),
    )


@dataclass(frozen=True)
class ActiveVectors:
    """One consistent view of the dense index: a table, the embedder that filled it and the
    recipe of the texts it embedded.

    ``table`` is the backend's handle (a LanceDB table, a Milvus collection name).
    """

    name: str
    embedder: str
    version: str
    dim: int
    table: Any
    vector_text: str = "text"  # what its vectors were computed from (config ``vector_text``)


@dataclass(frozen=True)
class DocRecord:
    """A document as the store lists it."""

    doc_id: str
    path: str
    aliases: tuple[str, ...]
    title: str
    version_date: str | None
    subindex: str
    n_chunks: int
    metadata: dict[str, Any]
    sections: Sequence[Section]  # parsed on first use (see lance_rows.Sections)
    law_key: str = ""
    effective: str | None = None
    expiry: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    source_root: str | None = None
    deleted: str | None = None
    groups: tuple[str, ...] = ()

    def readable_by(self, groups: tuple[str, ...] | None) -> bool:
        """Whether a caller in ``groups`` (None: everything) may read this document."""
        from zhiku.access import PUBLIC

        return groups is None or bool(set(self.groups) & {PUBLIC, *groups})


def check_versions(value: str) -> str:
    """Validate a version selector: ``current``, ``all`` or a date ``YYYY-MM-DD``.

    Raises:
        ZhikuError: anything else.
    """
    import re

    if value in ("current", "all"):
        return value
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", value or ""):
        return check_date(value)
    raise ZhikuError(f"bad version selector {value!r}; use current, all or a date like 2019-01-01")


def check_date(value: str, what: str = "date") -> str:
    """Validate a calendar date ``YYYY-MM-DD`` (2019-02-30 is refused).

    Raises:
        ZhikuError: not a date of the calendar.
    """
    import datetime as dt
    import re

    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value or ""):
            raise ValueError(value)
        dt.date.fromisoformat(value)
    except ValueError:
        raise ZhikuError(f"{what} {value!r} is not a calendar date; write an existing day as "
                         "YYYY-MM-DD, e.g. 2019-02-28") from None
    return value
