"""Vector tables of the LanceDB store: the active table, and a second model's table built
beside it and switched to in one published transaction (``zhiku reembed``)."""

from __future__ import annotations

from zhiku.errors import ZhikuError
from zhiku.index.store import ActiveVectors, _vec_schema  # noqa: F401  (ActiveVectors re-exported)
from zhiku.index.manifest import vector_table_name


class VectorTables:
    """Mixin of :class:`LanceStore` for building and switching vector tables."""

    def vector_table(self, embedder: str, version: str, dim: int, vector_text: str = "text") -> str:
        """Open (or create) the table that holds vectors of ``embedder`` beside the active one.

        A table left by an interrupted re-embed of the same model is reused (resume); tables
        of other models that are not active are dropped.

        Returns:
            The table name, for :meth:`add_vectors` and :meth:`switch_vectors`.
        """
        name = vector_table_name(embedder, version, dim, vector_text)
        names = set(self._db.table_names())
        for old in names:
            if old.startswith("vectors") and old not in (name, self._names["vectors"]):
                self._db.drop_table(old)
        self._staged[name] = self._table(name, _vec_schema(dim), names)
        return name

    def vector_ids(self, table: str | None = None) -> set[str]:
        """Chunk ids that have a vector in ``table`` (default: the active one)."""
        t = self._staged[table] if table else self._read("vectors")
        return {r["id"] for r in t.search().select(["id"]).limit(None).to_list()}

    def switch_vectors(self, table: str, embedder: str, version: str, dim: int,
                       vector_text: str = "text") -> None:
        """Make ``table`` the active vectors in one published transaction.

        Raises:
            ZhikuError: ``table`` was not prepared by :meth:`vector_table`.
        """
        if table not in self._staged:
            raise ZhikuError(f"vector table {table!r} was not prepared; run the re-embed again")
        with self.transaction():
            self._staged[table].checkout_latest()
            self.manifest = {**self.manifest, "embedder": embedder, "embedder_version": version,
                             "dim": dim, "vectors": table, "previous": self._names["vectors"],
                             "vector_text": vector_text}
            self._names["vectors"] = table
            self._w["vectors"] = self._staged.pop(table)
