"""The knowledge base as one caller sees it: every store read carries the caller's groups,
so the store's own query leaves out what the caller may not read."""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.index.store import DocRecord, Scope
from zhiku.types import Chunk, Hit

# Reads that carry no document content and writes' helpers a view may pass through.
_PASS = frozenset({"manifest", "active", "dim", "doc_frequency", "excluded", "vectors_of",
                   "unindexed_rows", "path", "target"})
_VIEWS_KEPT = 64


class GroupStore:
    """A store whose reads are limited to ``groups`` (the filter is part of each query)."""

    def __init__(self, store: Any, groups: tuple[str, ...]) -> None:
        self._store, self.groups = store, tuple(groups)

    def __getattr__(self, name: str) -> Any:
        if name in _PASS:
            return getattr(self._store, name)
        raise ZhikuError(f"store.{name} is not available to a caller limited to groups; "
                         "use an admin key or the CLI without --as-groups")

    def scoped(self, scope: Scope) -> Scope:
        """``scope`` limited to this caller's groups (intersected with any it has)."""
        mine = self.groups if scope.groups is None else tuple(g for g in scope.groups if g in self.groups)
        return replace(scope, groups=mine)

    def find(self, scope: Scope, limit: int = 100) -> list[Chunk]:
        """As the store's, inside the caller's groups."""
        return self._store.find(self.scoped(scope), limit)

    def keyword(self, terms: Sequence[str], k: int, scope: Scope = Scope()) -> list[Hit]:
        """As the store's, inside the caller's groups."""
        return self._store.keyword(terms, k, self.scoped(scope))

    def keyword_scores(self, terms: Sequence[str], ids: Sequence[str], scope: Scope = Scope()) -> dict[str, float]:
        """As the store's, inside the caller's groups."""
        return self._store.keyword_scores(terms, ids, self.scoped(scope))

    def dense(self, vector: Any, k: int, scope: Scope = Scope(), active: Any = None) -> list[Hit]:
        """As the store's, inside the caller's groups."""
        return self._store.dense(vector, k, self.scoped(scope), active=active)

    def documents(self) -> list[DocRecord]:
        """The documents the caller may read."""
        return self._store.documents(self.groups)

    def get_doc(self, doc_id: str) -> DocRecord | None:
        """A document the caller may read, or None."""
        return self._store.get_doc(doc_id, self.groups)

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """Chunks the caller may read, by id."""
        return self._store.get_chunks(ids, self.groups)

    def count(self) -> dict[str, int]:
        """Counts of what the caller may read."""
        return self._store.count(self.groups)

    def searched_count(self) -> int:
        """How many searched chunks the caller may read."""
        return self._store.searched_count(self.groups)

    def rows(self, table: str, columns: Sequence[str],
             kinds: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        """Rows of ``chunks`` or ``vectors`` the caller may read (only chunks of ``kinds``)."""
        return self._store.rows(table, columns, self.groups, kinds)

    def vector_ids(self) -> set[str]:
        """Ids of the readable chunks that have a vector in the active index."""
        return {r["id"] for r in self.rows("vectors", ["id"])}

    def doc_ids(self) -> set[str]:
        """Ids of the documents the caller may read."""
        return {d.doc_id for d in self.documents()}

    def doc_ids_at(self, path: str) -> list[str]:
        """Ids of readable documents stored under ``path``."""
        return [d.doc_id for d in self.documents() if d.path == path]


class Views:
    """Per-caller views of one knowledge base, kept per groups and index generation (a
    view's title index, router and table catalog cover only what its groups may read)."""

    def __init__(self, kb: Any) -> None:
        self.kb = kb
        self._lock = threading.Lock()
        self._views: OrderedDict[tuple[str, ...], tuple[Any, Any]] = OrderedDict()

    def of(self, groups: tuple[str, ...] | None) -> Any:
        """The knowledge base limited to ``groups`` (None: the whole one).

        Args:
            groups: the caller's groups.
        """
        if groups is None:
            return self.kb
        key = tuple(sorted(set(groups)))
        gen = self.kb.generation()
        with self._lock:
            hit = self._views.get(key)
            if hit is not None and hit[0] == gen:
                self._views.move_to_end(key)
                return hit[1]
            view = copy.copy(self.kb)
            view.store = GroupStore(self.kb.store, key)
            view.forget(gen)
            view._views, view._base, view._build = None, self.kb, threading.RLock()
            view.__dict__.pop("_answer_cache", None)  # its own cache, reading through the view
            self._views[key] = (gen, view)
            while len(self._views) > _VIEWS_KEPT:
                self._views.popitem(last=False)
            return view
