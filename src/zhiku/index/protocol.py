"""The store interface: what the knowledge base, the pipeline, eval, the CLI and the doctor
call on ``kb.store``. Every backend (LanceDB, Milvus) implements it and passes one shared
test suite (tests/index/store_suite.py)."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, runtime_checkable

import numpy as np

from zhiku.index.store import ActiveVectors, DocRecord, Scope
from zhiku.types import Chunk, Document, Hit, Section

# One document to write: the document, its sections, its chunks and their segmented texts
# (space-separated tokens; BM25 indexes exactly these tokens on every backend).
Item = tuple[Document, list[Section], list[Chunk], list[str]]


@runtime_checkable
class Store(Protocol):
    """A knowledge base's storage: chunks, documents, vectors, term statistics, versions.

    Readers only ever see a *published* state; writes happen inside :meth:`transaction`
    and become visible together when it ends, or not at all.
    """

    manifest: dict[str, Any]
    """Segmenter, embedder (name, version, dim) and vector table the index was built with."""

    # -- publishing -----------------------------------------------------------------------
    def transaction(self, partial: bool = False) -> AbstractContextManager[Any]:
        """One atomic write; raises ZhikuError if another writer holds the index.
        ``partial``: more batches of the same ingest follow (statistics may wait for the last)."""

    @property
    def active(self) -> ActiveVectors:
        """The published dense index and the embedder that filled it."""

    @property
    def dim(self) -> int:
        """Vector size of the active dense index."""

    # -- writing (inside a transaction) ---------------------------------------------------
    def add(self, items: Sequence[Item], roots: dict[str, str] | None = None,
            groups: dict[str, tuple[str, ...]] | None = None) -> bool:
        """Write documents (``groups``: who may read each, by document id, stored on every
        row); returns whether stored documents (same path) were replaced."""

    def add_alias(self, doc_id: str, path: str) -> None:
        """Record that a stored document was also seen at ``path``."""

    def delete_docs(self, doc_ids: Sequence[str]) -> None:
        """Remove documents with their chunks and vectors."""

    def mark_deleted(self, doc_ids: Sequence[str], day: str | None = None) -> None:
        """Logical delete: the documents stop being searched until ``compact``."""

    def compact(self) -> int:
        """Physically remove logically deleted documents; returns how many."""

    def cleanup(self) -> None:
        """Drop storage older than the published state (after a compact)."""

    def add_vectors(self, chunks: Sequence[Chunk], vectors: np.ndarray, table: str | None = None) -> None:
        """Store one vector per chunk, in the active index or a staged ``table``."""

    def build_indexes(self, defer_small: bool = False) -> None:
        """Make every written chunk keyword-searchable before publishing (``defer_small``:
        a few new rows may stay outside the indexes, searched exactly, until there are many)."""

    def merge_indexes(self) -> int:
        """Fold rows written since into the keyword and scalar indexes now (inside a
        transaction; see :mod:`zhiku.merge`); returns how many chunks were waiting."""

    def unindexed_rows(self, due_only: bool = False) -> int:
        """Published chunks the keyword index does not cover yet (``due_only``: 0 unless
        there are enough for the next ingest to merge)."""

    def delete_ids(self, table: str, ids: Sequence[str]) -> None:
        """Delete ``chunks`` or ``vectors`` rows by chunk id (doctor's repairs)."""

    # -- re-embedding ---------------------------------------------------------------------
    def vector_table(self, embedder: str, version: str, dim: int, vector_text: str = "text") -> str:
        """Prepare (or resume) a staged dense index for another embedder or vector text recipe;
        returns its name."""

    def vector_ids(self, table: str | None = None) -> set[str]:
        """Chunk ids with a vector in ``table`` (default the active one)."""

    def vectors_of(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors of the active index for these chunk ids (ids without one are absent)."""

    def switch_vectors(self, table: str, embedder: str, version: str, dim: int,
                       vector_text: str = "text") -> None:
        """Make a staged dense index (its vectors computed from ``vector_text``) the active one,
        atomically."""

    # -- reading (published state) --------------------------------------------------------
    def rows(self, table: str, columns: Sequence[str], groups: tuple[str, ...] | None = None,
             kinds: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        """Selected columns of every row of ``chunks`` or ``vectors`` readable by ``groups``
        (``kinds``: only chunks of those kinds, filtered in the query; None: every kind)."""

    def doc_ids_at(self, path: str) -> list[str]:
        """Ids of documents stored under ``path``."""

    def doc_ids(self) -> set[str]:
        """Ids of every stored document."""

    def get_doc(self, doc_id: str, groups: tuple[str, ...] | None = None) -> DocRecord | None:
        """One document record readable by ``groups`` (None: any), or None."""

    def documents(self, groups: tuple[str, ...] | None = None) -> list[DocRecord]:
        """Every stored document readable by ``groups`` (None: all; deleted ones flagged)."""

    def excluded(self, versions: str) -> tuple[str, ...]:
        """Documents a search with this version selector must skip."""

    def doc_frequency(self, token: str) -> int:
        """How many chunks contain ``token``."""

    def term_counts(self) -> dict[str, int]:
        """Every BM25 token with how many chunks contain it (the keyword index's vocabulary)."""

    def count(self, groups: tuple[str, ...] | None = None) -> dict[str, int]:
        """Row counts readable by ``groups`` (None: all): ``documents``, ``chunks``, ``vectors``."""

    def searched_count(self, groups: tuple[str, ...] | None = None) -> int:
        """How many published chunks readable by ``groups`` (None: all) are searched (not
        parents): as many vectors mean every one has its vector."""

    def all_chunks(self) -> list[Chunk]:
        """Every searched chunk (not parents)."""

    def chunks_without_vectors(self) -> list[Chunk]:
        """Searched chunks with no vector yet."""

    def get_chunks(self, ids: Sequence[str], groups: tuple[str, ...] | None = None) -> dict[str, Chunk]:
        """Chunks by id (parents included) readable by ``groups`` (None: any)."""

    def find(self, scope: Scope, limit: int = 100) -> list[Chunk]:
        """Chunks matching a scope exactly (``scope.groups`` included), unranked."""

    def keyword(self, terms: Sequence[str], k: int, scope: Scope = Scope()) -> list[Hit]:
        """BM25 (k1=1.2, b=0.75) over the segmented text, OR of ``terms``, inside ``scope``."""

    def keyword_scores(self, terms: Sequence[str], ids: Sequence[str], scope: Scope = Scope()) -> dict[str, float]:
        """The BM25 score of ``terms`` of each of these chunks of ``scope`` that holds one
        of them, as :meth:`keyword` inside ``scope`` scores it; the others are absent."""

    def dense(self, vector: np.ndarray, k: int, scope: Scope = Scope(),
              active: ActiveVectors | None = None) -> list[Hit]:
        """Cosine nearest neighbours inside ``scope``; scores are cosine similarities."""
