"""Dense vectors of the Milvus store: the active collection, and another model's collection
built beside it and switched to in one publish (``zhiku reembed``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from zhiku.errors import ZhikuError
from zhiku.index.manifest import DEFAULT_TABLE, vector_table_name
from zhiku.index.milvus_conn import create, schemas
from zhiku.index.store import subindex_of
from zhiku.types import Chunk


class MilvusVectors:
    """Mixin of :class:`MilvusStore` for writing, staging and switching vectors."""

    _c: Any
    _staged: dict[str, int]
    _written: set[str]
    target: Any
    _names: dict[str, str]
    manifest: dict[str, Any]
    _G: int | None
    _wstates: dict[str, dict[str, Any]]
    _states: dict[str, dict[str, Any]]

    def add_vectors(self, chunks: Sequence[Chunk], vectors: np.ndarray, table: str | None = None) -> None:
        """Store one vector per chunk (replacing any earlier vector of the same id).

        Args:
            chunks: the chunks.
            vectors: array (len(chunks), dim).
            table: a collection from :meth:`vector_table`; default the active one (then
                call inside a transaction).

        Raises:
            ZhikuError: the vectors have another size than the collection.
        """
        if not len(chunks):
            return
        gen = 0 if table else self._writing()
        dim = self._staged[table] if table else self.dim
        if vectors.shape[1] != dim:
            raise ZhikuError(f"the embedder returned {vectors.shape[1]}-dim vectors but the index "
                             f"holds {dim}-dim ones; configure the embedder the index was built "
                             "with or run `zhiku reembed`")
        states = self._wstates if self._G is not None else self._states
        rows = [{"id": c.id, "gen": gen, "doc_id": c.doc_id, "subindex": subindex_of(c.doc_path),
                 "article": c.article, "section_id": c.section_id, "version_date": c.version_date,
                 "section_ids": list(c.section_ids),
                 "groups": list(states.get(c.doc_id, {}).get("groups") or ()),
                 "vector": np.asarray(v, dtype=np.float32).tolist()}
                for c, v in zip(chunks, vectors)]
        name = self._coll(table or self._names["vectors"])
        for i in range(0, len(rows), 500):
            self._c.upsert(name, rows[i:i + 500])
        if table:
            if self.target.is_lite:
                self._c.flush(name)
        else:
            self._written.add(name)

    def vector_table(self, embedder: str, version: str, dim: int, vector_text: str = "text") -> str:
        """Create (or reopen, to resume) the collection for ``embedder``'s vectors beside the
        active one; collections of other inactive models are dropped.

        Returns:
            The name for :meth:`add_vectors` and :meth:`switch_vectors`.
        """
        name = vector_table_name(embedder, version, dim, vector_text)
        self._refresh()
        active = self._pub.get("vectors", DEFAULT_TABLE)
        prefix = self._coll("vectors")
        for old in self._c.list_collections():
            if old.startswith(prefix) and old not in (self._coll(name), self._coll(active)):
                self._c.drop_collection(old)
        coll = self._coll(name)
        if not self._c.has_collection(coll):
            create(self._c, coll, schemas(dim)["vectors"], "vectors", self.target)
        self._c.load_collection(coll)
        self._staged[name] = dim
        return name

    def switch_vectors(self, table: str, embedder: str, version: str, dim: int,
                       vector_text: str = "text") -> None:
        """Make ``table`` the active vectors in one published transaction.

        Raises:
            ZhikuError: ``table`` was not prepared by :meth:`vector_table`.
        """
        if table not in self._staged:
            raise ZhikuError(f"vector table {table!r} was not prepared; run the re-embed again")
        with self.transaction():
            self.manifest = {**self.manifest, "embedder": embedder, "embedder_version": version,
                             "dim": dim, "vectors": table, "previous": self._names["vectors"],
                             "vector_text": vector_text}
            self._names["vectors"] = table
            self._staged.pop(table)
