"""LanceDB backend: BM25 over pre-segmented text (whitespace tokenizer) and flat vectors."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zhiku.errors import ZhikuError
from zhiku.index.store import (
    SCHEMA_VERSION, DocRecord, Scope, _chunk_schema, _doc_schema, _sql_list, _vec_schema,
    row_to_chunk, stores, subindex_of,
)
from zhiku.index.manifest import DEFAULT_TABLE, check_manifest, read_manifest, write_manifest
from zhiku.types import Chunk, Document, Hit, Section, content_hash

_FTS = dict(
    with_position=False, base_tokenizer="whitespace", lower_case=False, stem=False,
    remove_stop_words=False, ascii_folding=False, max_token_length=None,
)


@dataclass(frozen=True)
class ActiveVectors:
    """One consistent view of the dense index: a table and the embedder that filled it."""

    name: str
    embedder: str
    version: str
    dim: int
    table: Any


class LanceStore:
    """Chunks, documents and vectors in three LanceDB tables under one folder.

    A ``manifest.json`` pins the embedder and segmenter the index was built with;
    opening it with others is refused, never silently mixed.
    """

    def __init__(self, path: Path, embedder: str | None, dim: int | None, segmenter: str,
                 version: str = "") -> None:
        import lancedb

        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.manifest = self._check_manifest(embedder, dim, segmenter, version)
        self._db = lancedb.connect(str(path))
        names = set(self._db.table_names())
        self.chunks = self._table("chunks", _chunk_schema(), names)
        self.docs = self._table("documents", _doc_schema(), names)
        m = self.manifest
        self._active = ActiveVectors(m["vectors"], m["embedder"], m["embedder_version"], m["dim"],
                                     self._table(m["vectors"], _vec_schema(m["dim"]), names))
        self._staged: dict[str, Any] = {}
        self._df_path = path / "df.json"
        self._df: Counter[str] = Counter()
        if self._df_path.exists():
            self._df = Counter(json.loads(self._df_path.read_text(encoding="utf-8")))

    @property
    def active(self) -> ActiveVectors:
        """The vector table queries use now, with the embedder that made it (one snapshot)."""
        return self._active

    @property
    def vectors(self) -> Any:
        """The active vector table."""
        return self._active.table

    @property
    def dim(self) -> int:
        """Vector size of the active table."""
        return self._active.dim

    # -- set-up ---------------------------------------------------------------------------
    def _check_manifest(self, embedder: str | None, dim: int | None, segmenter: str,
                        version: str) -> dict[str, Any]:
        want = {"schema": SCHEMA_VERSION, "embedder": embedder, "embedder_version": version,
                "dim": dim, "segmenter": segmenter, "vectors": DEFAULT_TABLE}
        have = read_manifest(self.path)
        if have is None:
            if embedder is None or dim is None:
                raise ZhikuError(f"there is no index at {self.path}; run `zhiku ingest PATH` first")
            write_manifest(self.path, want)
            return want
        check_manifest(self.path, have, want)
        return have

    # -- switching models -------------------------------------------------------------------
    def vector_table(self, embedder: str, version: str, dim: int) -> str:
        """Open (or create) the table that holds vectors of ``embedder`` beside the active one.

        A table left by an interrupted re-embed of the same model is reused (resume); tables
        of other models that are not active are dropped.

        Returns:
            The table name, for :meth:`add_vectors` and :meth:`switch_vectors`.
        """
        name = "vectors_" + content_hash(f"{embedder}|{version}|{dim}", length=12)
        names = set(self._db.table_names())
        for old in names:
            if old.startswith("vectors") and old not in (name, self._active.name):
                self._db.drop_table(old)
        self._staged[name] = self._table(name, _vec_schema(dim), names)
        return name

    def vector_ids(self, table: str | None = None) -> set[str]:
        """Chunk ids that have a vector in ``table`` (default: the active one)."""
        t = self._staged[table] if table else self.vectors
        return {r["id"] for r in t.search().select(["id"]).limit(None).to_list()}

    def switch_vectors(self, table: str, embedder: str, version: str, dim: int) -> None:
        """Make ``table`` the active vectors: manifest replaced atomically, then one swap.

        Raises:
            ZhikuError: ``table`` was not prepared by :meth:`vector_table`.
        """
        if table not in self._staged:
            raise ZhikuError(f"vector table {table!r} was not prepared; run the re-embed again")
        manifest = {**self.manifest, "embedder": embedder, "embedder_version": version, "dim": dim,
                    "vectors": table, "previous": self._active.name}
        write_manifest(self.path, manifest)
        self.manifest = manifest
        self._active = ActiveVectors(table, embedder, version, dim, self._staged.pop(table))

    def _table(self, name: str, schema: Any, names: set[str]) -> Any:
        if name in names:
            return self._db.open_table(name)
        return self._db.create_table(name, schema=schema)

    # -- writing --------------------------------------------------------------------------
    def add(self, items: Sequence[tuple[Document, list[Section], list[Chunk], list[str]]]) -> None:
        """Write documents with their sections, chunks and segmented chunk texts.

        A document already stored under the same path with other content is replaced;
        one stored with identical content under another path gains an alias.
        """
        rows, drows, remove = [], [], []
        for doc, sections, chunks, segs in items:
            for old in self.doc_ids_at(doc.path):
                if old != doc.id:
                    remove.append(old)
            sub = subindex_of(doc.path)
            for c, s in zip(chunks, segs):
                rows.append({**_chunk_row(c), "seg": s, "subindex": sub})
                self._df.update(set(s.split()))
            drows.append({
                "doc_id": doc.id, "path": doc.path, "aliases": list(doc.aliases), "title": doc.title,
                "version_date": doc.version_date, "subindex": sub,
                "metadata": json.dumps(doc.metadata, ensure_ascii=False, default=str),
                "sections": json.dumps([asdict(s) for s in sections], ensure_ascii=False),
                "n_chunks": len(chunks),
            })
        if remove:
            self.delete_docs(remove)
        if rows:
            self.chunks.add(rows)
        if drows:
            self.docs.add(drows)
        self._save_df()

    def add_alias(self, doc_id: str, path: str) -> None:
        """Record that the stored document ``doc_id`` was also seen at ``path``."""
        rec = self.get_doc(doc_id)
        if rec is None or path == rec.path or path in rec.aliases:
            return
        self.docs.update(where=f"doc_id = '{doc_id}'", values={"aliases": [*rec.aliases, path]})

    def delete_docs(self, doc_ids: Sequence[str]) -> None:
        """Remove documents with their chunks and vectors."""
        if not doc_ids:
            return
        w = f"doc_id IN ({_sql_list(doc_ids)})"
        for r in self.chunks.search().where(w).select(["seg"]).limit(None).to_list():
            self._df.subtract(set(r["seg"].split()))
        self.chunks.delete(w)
        self.vectors.delete(w)
        for t in self._staged.values():
            t.delete(w)
        self.docs.delete(w)
        self._df = +self._df
        self._save_df()

    def _save_df(self) -> None:
        self._df_path.write_text(json.dumps(self._df, ensure_ascii=False), encoding="utf-8")

    def add_vectors(self, chunks: Sequence[Chunk], vectors: np.ndarray, table: str | None = None) -> None:
        """Store one vector per chunk (replacing any earlier vector of the same id).

        Args:
            chunks: the chunks.
            vectors: array (len(chunks), dim).
            table: a table from :meth:`vector_table`; default the active one.

        Raises:
            ZhikuError: the vectors have another size than the table.
        """
        if not len(chunks):
            return
        t = self._staged[table] if table else self.vectors
        dim = t.schema.field("vector").type.list_size
        if vectors.shape[1] != dim:
            raise ZhikuError(f"the embedder returned {vectors.shape[1]}-dim vectors but the index "
                             f"holds {dim}-dim ones; configure the embedder the index was built "
                             "with or run `zhiku reembed`")
        rows = [{
            "id": c.id, "doc_id": c.doc_id, "subindex": subindex_of(c.doc_path),
            "article": c.article, "section_id": c.section_id, "version_date": c.version_date,
            "vector": v.tolist(),
        } for c, v in zip(chunks, vectors)]
        t.merge_insert("id").when_matched_update_all().when_not_matched_insert_all().execute(rows)

    def build_indexes(self) -> None:
        """(Re)build the full-text index over the segmented text."""
        from lancedb.index import FTS

        if self.chunks.count_rows():
            self.chunks.create_index("seg", config=FTS(**_FTS), replace=True)

    # -- reading --------------------------------------------------------------------------
    def doc_ids_at(self, path: str) -> list[str]:
        """Ids of documents stored under ``path``."""
        w = f"path = '{path.replace(chr(39), chr(39) * 2)}'"
        return [r["doc_id"] for r in self.docs.search().where(w).select(["doc_id"]).limit(None).to_list()]

    def doc_ids(self) -> set[str]:
        """Ids of every stored document."""
        return {r["doc_id"] for r in self.docs.search().select(["doc_id"]).limit(None).to_list()}

    def get_doc(self, doc_id: str) -> DocRecord | None:
        """One document record, or None."""
        rows = self.docs.search().where(f"doc_id = '{doc_id}'").limit(1).to_list()
        return _doc_record(rows[0]) if rows else None

    def documents(self) -> list[DocRecord]:
        """Every stored document."""
        return [_doc_record(r) for r in self.docs.search().limit(None).to_list()]

    def doc_frequency(self, token: str) -> int:
        """How many chunks contain ``token`` (for IDF weights)."""
        return self._df.get(token, 0)

    def count(self) -> dict[str, int]:
        """Row counts of documents, chunks and vectors."""
        return {"documents": self.docs.count_rows(), "chunks": self.chunks.count_rows(),
                "vectors": self.vectors.count_rows()}

    def all_chunks(self) -> list[Chunk]:
        """Every stored chunk."""
        return [row_to_chunk(r) for r in self.chunks.search().limit(None).to_list()]

    def chunks_without_vectors(self) -> list[Chunk]:
        """Chunks that have no vector yet (ingested with ``--no-dense`` or interrupted)."""
        have = {r["id"] for r in self.vectors.search().select(["id"]).limit(None).to_list()}
        rows = self.chunks.search().limit(None).to_list()
        return [row_to_chunk(r) for r in rows if r["id"] not in have]

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """Chunks by id."""
        if not ids:
            return {}
        rows = self.chunks.search().where(f"id IN ({_sql_list(ids)})").limit(None).to_list()
        return {r["id"]: row_to_chunk(r) for r in rows}

    def find(self, scope: Scope, limit: int = 100) -> list[Chunk]:
        """Chunks matching a scope exactly (no ranking), e.g. an article of some documents."""
        q = self.chunks.search()
        w = scope.where()
        if w:
            q = q.where(w)
        return [row_to_chunk(r) for r in q.limit(limit).to_list()]

    def keyword(self, terms: Sequence[str], k: int, scope: Scope = Scope()) -> list[Hit]:
        """BM25 over the segmented text (OR of the terms) inside ``scope``."""
        from lancedb.query import MatchQuery

        terms = [t for t in terms if t.strip()]
        if not terms or not self.chunks.count_rows():
            return []
        q = self.chunks.search(MatchQuery(" ".join(terms), "seg"), query_type="fts")
        w = scope.where()
        if w:
            q = q.where(w, prefilter=True)
        rows = q.limit(k).to_list()
        return [Hit(row_to_chunk(r), float(r["_score"]), "bm25", {"bm25": (i, float(r["_score"]))})
                for i, r in enumerate(rows, 1)]

    def dense(self, vector: np.ndarray, k: int, scope: Scope = Scope(),
              active: ActiveVectors | None = None) -> list[Hit]:
        """Cosine nearest neighbours inside ``scope``.

        Args:
            vector: the query vector, made by the embedder of ``active``.
            k: how many hits.
            scope: where to look.
            active: the snapshot the query vector belongs to (default: the current one).

        Raises:
            ZhikuError: the query vector has another size than the table.
        """
        table = (active or self._active).table
        dim = (active or self._active).dim
        if len(vector) != dim:
            raise ZhikuError(f"the query vector has {len(vector)} dimensions but the index holds "
                             f"{dim}-dim vectors; configure the embedder the index was built with")
        if not table.count_rows():
            return []
        q = table.search(vector.tolist(), vector_column_name="vector").distance_type("cosine")
        w = scope.where()
        if w:
            q = q.where(w, prefilter=True)
        rows = q.select(["id", "_distance"]).limit(k).to_list()
        chunks = self.get_chunks([r["id"] for r in rows])
        out = []
        for r in rows:
            if r["id"] in chunks:
                s = 1.0 - float(r["_distance"])
                out.append(Hit(chunks[r["id"]], s, "dense", {"dense": (len(out) + 1, s)}))
        return out


def _chunk_row(c: Chunk) -> dict[str, Any]:
    return {
        "id": c.id, "doc_id": c.doc_id, "doc_path": c.doc_path, "title": c.title,
        "section_id": c.section_id, "section_path": list(c.section_path), "article": c.article,
        "text": c.text, "start": c.start, "end": c.end, "version_date": c.version_date,
        "kind": c.kind,
    }


def _doc_record(r: dict[str, Any]) -> DocRecord:
    secs = tuple(Section(**s) for s in json.loads(r["sections"] or "[]"))
    return DocRecord(
        doc_id=r["doc_id"], path=r["path"], aliases=tuple(r["aliases"] or ()), title=r["title"],
        version_date=r["version_date"], subindex=r["subindex"], n_chunks=int(r["n_chunks"]),
        metadata=json.loads(r["metadata"] or "{}"), sections=secs,
    )


@stores.register("lancedb")
def make_lance(path: Path, embedder: str | None, dim: int | None, segmenter: str,
               version: str = "") -> LanceStore:
    """Factory registered as ``lancedb`` (the default, embedded).

    Args:
        path: the index folder.
        embedder: full embedder name to pin or check; None accepts the stored one.
        dim: vector size to pin or check; None accepts the stored one.
        segmenter: segmenter name to pin or check.
        version: embedder version to pin or check ("" is not checked).

    Returns:
        The store.

    Raises:
        ZhikuError: the index was built with another schema, segmenter or embedder.
    """
    return LanceStore(path, embedder, dim, segmenter, version)
