"""Reading side of the Milvus store: the published state, documents, scoped searches.

Every row carries the generation that wrote it; readers filter ``gen <= published`` and
skip documents whose state at that generation is *dropped* (replaced or deleted, removed
physically by the next writer), so a transaction is seen whole or not at all.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import numpy as np

from zhiku.errors import ZhikuError
from zhiku.index.lance_rows import _doc_record, _info
from zhiku.index.milvus_conn import MilvusTarget, encode_seg
from zhiku.index.milvus_lock import is_io_error
from zhiku.index.store import (
    CHUNK_COLUMNS, ActiveVectors, DocRecord, Scope, _expr_list, _expr_str, check_versions, groups_expr,
    row_to_chunk,
)
from zhiku.index.versions import in_force
from zhiku.types import Chunk, Hit

RECHECK = 0.2  # seconds between checks of the manifest row for other writers' publishes
QUERY_MAX = 16384  # Milvus's largest limit for one query or search
SCORED_DEPTH = 1000  # how deep keyword_scores reads the keyword ranking
DOC_FIELDS = ["key", "gen", "doc_id", "path", "aliases", "title", "version_date", "subindex",
              "metadata", "sections", "n_chunks", "law_key", "effective", "expiry", "supersedes",
              "superseded_by", "source_root", "deleted", "dropped", "groups"]


F = TypeVar("F", bound=Callable[..., Any])


def reading(fn: F) -> F:
    """A read of the published state whose storage failure (server down, collection
    dropped behind zhiku's back, network) becomes one clear :class:`ZhikuError`."""

    @functools.wraps(fn)
    def wrapper(self: MilvusReads, *args: Any, **kwargs: Any) -> Any:
        try:
            return fn(self, *args, **kwargs)
        except Exception as e:
            if not is_io_error(e):
                raise
            raise ZhikuError(f"cannot read the index at {self.target.label} ({str(e)[:160]}); check that "
                             "the Milvus server is up and the collections exist (`zhiku doctor`), "
                             "then retry") from e

    return wrapper  # type: ignore[return-value]


def latest_states(rows: list[dict[str, Any]], upto: int) -> dict[str, dict[str, Any]]:
    """Each document's newest state row written at or before generation ``upto``."""
    out: dict[str, dict[str, Any]] = {}
    for r in rows:
        if r["gen"] <= upto and (r["doc_id"] not in out or r["gen"] > out[r["doc_id"]]["gen"]):
            out[r["doc_id"]] = r
    return out


def state_record(r: dict[str, Any]) -> DocRecord:
    """A document state row as a DocRecord."""
    return _doc_record({**r, "sections": "".join(r["sections"] or [])})


class MilvusReads:
    """Mixin of :class:`MilvusStore`: everything that reads the published state."""

    target: MilvusTarget
    _c: Any
    _names: dict[str, str]

    def _init_reads(self) -> None:
        self._lock = threading.RLock()
        self._pub: dict[str, Any] = {}
        self._states: dict[str, dict[str, Any]] = {}  # doc_id → state row at published gen
        self._df: Counter[str] = Counter()
        self._docs: list[DocRecord] | None = None
        self._checked = 0.0

    # -- low-level ------------------------------------------------------------------------
    def _coll(self, name: str) -> str:
        return f"{self.target.prefix}_{name}"

    def _query(self, coll: str, filt: str, fields: Sequence[str], limit: int | None = None) -> list[dict]:
        """Rows matching ``filt``; beyond one query's limit, split by the first characters of
        the primary key (hex content hashes), so any size is read without an iterator."""
        kw = {"consistency_level": self.target.consistency}
        if limit is not None:
            return self._c.query(coll, filter=filt, output_fields=list(fields), limit=limit, **kw)
        n = self._count(coll, filt)
        if n <= QUERY_MAX:
            return self._c.query(coll, filter=filt, output_fields=list(fields), limit=QUERY_MAX, **kw)
        pk = "key" if coll == self._coll("documents") else "id"
        width = 1 if n < 8 * QUERY_MAX else 2
        out: list[dict] = []
        for b in range(16 ** width):
            part = f"({filt}) and {pk} like \"{b:0{width}x}%\"" if filt else f"{pk} like \"{b:0{width}x}%\""
            out += self._c.query(coll, filter=part, output_fields=list(fields), limit=QUERY_MAX, **kw)
        return out

    def _count(self, coll: str, filt: str) -> int:
        r = self._c.query(coll, filter=filt, output_fields=["count(*)"],
                          consistency_level=self.target.consistency)
        return int(r[0]["count(*)"])

    def _read_manifest(self) -> dict[str, Any] | None:
        rows = self._c.query(self._coll("meta"), filter='key == "manifest"', output_fields=["value"],
                             consistency_level=self.target.consistency)
        return json.loads(rows[0]["value"]) if rows else None

    def _read_df(self, gen: int) -> Counter[str]:
        rows = self._query(self._coll("meta"), f'key like "df:{gen}:%"', ["key", "value"])
        rows.sort(key=lambda r: int(r["key"].rsplit(":", 1)[1]))
        text = "".join(r["value"] for r in rows)
        return Counter(json.loads(text)) if text else Counter()

    def _state_rows(self) -> list[dict[str, Any]]:
        return self._query(self._coll("documents"), "gen >= 0", DOC_FIELDS)

    # -- the published state --------------------------------------------------------------
    def _refresh(self) -> None:
        """Re-read the published state if another writer published since (checked at most
        every :data:`RECHECK` seconds; this process's own publishes are seen at once)."""
        with self._lock:
            now = time.monotonic()
            if self._pub and now - self._checked < RECHECK:
                return
            self._checked = now
            man = self._read_manifest() or {}
            if man.get("generation") == self._pub.get("generation") and self._pub:
                return
            gen = int(man.get("generation", 0))
            self._states = latest_states(self._state_rows(), gen)
            self._df = self._read_df(int(man["df"])) if man.get("df") is not None else Counter()
            self._pub, self._docs = man, None
            if getattr(self, "_G", None) is None:
                self.manifest = man
                name = man.get("vectors", self._names["vectors"])
                if name != self._names["vectors"]:  # another process switched the vectors
                    self._c.load_collection(self._coll(name))
                    self._names["vectors"] = name

    @property
    def _P(self) -> int:
        return int(self._pub.get("generation", 0))

    def _hidden(self) -> list[str]:
        return sorted(d for d, r in self._states.items() if r["dropped"])

    def _visible(self, scope_expr: str = "", searched: bool = False) -> str:
        """Filter for chunk or vector rows of the published state."""
        parts = [f"gen <= {self._P}"]
        hidden = self._hidden()
        if hidden:
            parts.append(f"doc_id not in {_expr_list(hidden)}")
        if searched:
            parts.append('kind != "parent"')
        if scope_expr:
            parts.append(f"({scope_expr})")
        return " and ".join(parts)

    @property
    @reading
    def active(self) -> ActiveVectors:
        """The published dense index (a collection name) with the embedder that made it."""
        with self._lock:
            self._refresh()
            m = self._pub
            return ActiveVectors(m["vectors"], m["embedder"], m.get("embedder_version", ""),
                                 int(m["dim"]), self._coll(m["vectors"]), m.get("vector_text", "text"))

    @property
    def dim(self) -> int:
        """Vector size of the active dense index."""
        return int(self.manifest["dim"])

    # -- documents ------------------------------------------------------------------------
    @reading
    def documents(self, groups: tuple[str, ...] | None = None) -> list[DocRecord]:
        """Every stored document (logically deleted ones flagged), read once per publish;
        with ``groups``, only those a caller in them may read (the state rows' ``groups``)."""
        with self._lock:
            self._refresh()
            if self._docs is None:
                self._docs = [state_record(r) for r in self._states.values() if not r["dropped"]]
            return [d for d in self._docs if d.readable_by(groups)]

    def get_doc(self, doc_id: str, groups: tuple[str, ...] | None = None) -> DocRecord | None:
        """One document record (readable by ``groups``; None: any), or None."""
        return next((d for d in self.documents(groups) if d.doc_id == doc_id), None)

    def doc_ids(self) -> set[str]:
        """Ids of every stored document."""
        return {d.doc_id for d in self.documents()}

    def doc_ids_at(self, path: str) -> list[str]:
        """Ids of documents stored under ``path``."""
        return [d.doc_id for d in self.documents() if d.path == path]

    def excluded(self, versions: str) -> tuple[str, ...]:
        """Documents a search with this version selector must skip."""
        check_versions(versions)
        day = dt.date.today().isoformat() if versions == "current" else versions
        out = [d.doc_id for d in self.documents()
               if d.deleted or (versions != "all" and not in_force(_info(d), day))]
        return tuple(sorted(out))

    @reading
    def doc_frequency(self, token: str) -> int:
        """How many chunks contain ``token`` (for IDF weights)."""
        self._refresh()
        return self._df.get(token, 0)

    @reading
    def term_counts(self) -> dict[str, int]:
        """Every BM25 token with how many chunks contain it (the keyword index's vocabulary)."""
        self._refresh()
        return dict(self._df)

    # -- chunks and vectors ---------------------------------------------------------------
    @reading
    def count(self, groups: tuple[str, ...] | None = None) -> dict[str, int]:
        """Row counts of documents, chunks and vectors in the published state (readable by
        ``groups``; None: all)."""
        self._refresh()
        g = "" if groups is None else groups_expr(groups)
        return {"documents": len(self.documents(groups)),
                "chunks": self._count(self._coll("chunks"), self._visible(g)),
                "vectors": self._count(self.active.table, self._visible(g))}

    @reading
    def searched_count(self, groups: tuple[str, ...] | None = None) -> int:
        """How many published chunks are searched (not parents), readable by ``groups``
        (None: all)."""
        self._refresh()
        g = "" if groups is None else groups_expr(groups)
        return self._count(self._coll("chunks"), self._visible(g, searched=True))

    @reading
    def rows(self, table: str, columns: Sequence[str], groups: tuple[str, ...] | None = None,
             kinds: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
        """Selected columns of every published row of ``chunks`` or ``vectors`` (readable
        by ``groups``; None: all), only chunks of ``kinds`` when given."""
        self._refresh()
        coll = self.active.table if table == "vectors" else self._coll(table)
        scope = [groups_expr(groups)] if groups is not None else []
        scope += [f"kind in {_expr_list(kinds)}"] if kinds else []
        filt = self._visible(" and ".join(scope))
        return [{c: r.get(c) for c in columns} for r in self._query(coll, filt, columns)]

    @reading
    def all_chunks(self) -> list[Chunk]:
        """Every searched chunk (parents are quoted, never embedded)."""
        self._refresh()
        return [row_to_chunk(r) for r in self._query(self._coll("chunks"), self._visible(searched=True),
                                                      CHUNK_COLUMNS)]

    def chunks_without_vectors(self) -> list[Chunk]:
        """Chunks that have no vector yet (ingested with ``--no-dense`` or interrupted)."""
        have = self.vector_ids()
        return [c for c in self.all_chunks() if c.id not in have]

    @reading
    def vector_ids(self, table: str | None = None) -> set[str]:
        """Chunk ids with a vector in ``table`` (default: the active, published one)."""
        if table:
            return {r["id"] for r in self._query(self._coll(table), "gen >= 0", ["id"])}
        self._refresh()
        return {r["id"] for r in self._query(self.active.table, self._visible(), ["id"])}

    @reading
    def vectors_of(self, ids: Sequence[str]) -> dict[str, np.ndarray]:
        """Stored vectors (float32) of the active, published index for these chunk ids; ids
        without a vector are absent."""
        ids = list(dict.fromkeys(ids))
        if not ids:
            return {}
        active = self.active
        out: dict[str, np.ndarray] = {}
        for i in range(0, len(ids), 1000):
            part = ids[i:i + 1000]
            rows = self._query(active.table, self._visible(f"id in {_expr_list(part)}"), ["id", "vector"],
                               limit=len(part))
            out.update({r["id"]: np.asarray(r["vector"], dtype=np.float32) for r in rows})
        return out

    @reading
    def get_chunks(self, ids: Sequence[str], groups: tuple[str, ...] | None = None) -> dict[str, Chunk]:
        """Chunks by id (published state; only those readable by ``groups``, None: any)."""
        self._refresh()
        out: dict[str, Chunk] = {}
        ids = list(dict.fromkeys(ids))
        g = "" if groups is None else f" and {groups_expr(groups)}"
        for i in range(0, len(ids), 1000):
            part = ids[i:i + 1000]
            filt = self._visible(f"id in {_expr_list(part)}{g}")
            out.update({r["id"]: row_to_chunk(r)
                        for r in self._query(self._coll("chunks"), filt, CHUNK_COLUMNS, limit=len(part))})
        return out

    @reading
    def find(self, scope: Scope, limit: int = 100) -> list[Chunk]:
        """Chunks matching a scope exactly (no ranking), e.g. an article of some documents."""
        self._refresh()
        filt = self._visible(scope.expr(self.excluded(scope.versions)), searched=True)
        rows = self._query(self._coll("chunks"), filt, CHUNK_COLUMNS, limit=min(limit, QUERY_MAX))
        return sorted((row_to_chunk(r) for r in rows), key=lambda c: (c.doc_path, c.start, c.id))

    @reading
    def keyword(self, terms: Sequence[str], k: int, scope: Scope = Scope()) -> list[Hit]:
        """BM25 over the segmented text (OR of the terms) inside ``scope``, computed by
        Milvus over the token keys of :func:`encode_seg`."""
        text = encode_seg(" ".join(t for t in terms if t.strip()))
        if not text:
            return []
        self._refresh()
        filt = self._visible(scope.expr(self.excluded(scope.versions)), searched=True)
        res = self._c.search(self._coll("chunks"), data=[text], anns_field="sparse", filter=filt,
                             limit=min(k, QUERY_MAX), output_fields=CHUNK_COLUMNS,
                             search_params={"metric_type": "BM25"},
                             consistency_level=self.target.consistency)
        # BM25 scores are positive; Milvus Lite reports them negated, a server as they are.
        hits = [(abs(float(h["distance"])), h["entity"]) for h in res[0]]
        return [Hit(row_to_chunk(e), s, "bm25", {"bm25": (i, s)}) for i, (s, e) in enumerate(hits, 1)]

    @reading
    def keyword_scores(self, terms: Sequence[str], ids: Sequence[str], scope: Scope = Scope()) -> dict[str, float]:
        """The BM25 score of ``terms`` inside ``scope`` (as :meth:`keyword` scores them) of
        each of these chunks among the :data:`SCORED_DEPTH` best; the others are absent.

        Milvus computes BM25's statistics over the rows a search's filter leaves, so the
        chunks cannot be named in the filter (their scores would be relative to themselves):
        the keyword search runs deeper instead, and a chunk below that depth counts as not
        retrieved (in rank fusion it would add less than 1 / 1000 anyway)."""
        want = set(ids)
        if not want:
            return {}
        hits = self.keyword(terms, min(max(SCORED_DEPTH, len(want)), QUERY_MAX), scope)
        return {h.chunk.id: h.score for h in hits if h.chunk.id in want}

    @reading
    def dense(self, vector: np.ndarray, k: int, scope: Scope = Scope(),
              active: ActiveVectors | None = None) -> list[Hit]:
        """Cosine nearest neighbours inside ``scope``.

        Raises:
            ZhikuError: the query vector has another size than the index.
        """
        active = active or self.active
        if len(vector) != active.dim:
            raise ZhikuError(f"the query vector has {len(vector)} dimensions but the index holds "
                             f"{active.dim}-dim vectors; configure the embedder the index was built with")
        filt = self._visible(scope.expr(self.excluded(scope.versions)))
        res = self._c.search(active.table, data=[np.asarray(vector, dtype=np.float32).tolist()],
                             anns_field="vector", filter=filt, limit=min(k, QUERY_MAX),
                             output_fields=["id"], search_params={"metric_type": "COSINE"},
                             consistency_level=self.target.consistency)
        rows = [(h["entity"]["id"], float(h["distance"])) for h in res[0]]
        chunks = self.get_chunks([i for i, _ in rows], scope.groups)
        out = []
        for i, s in rows:
            if i in chunks:
                out.append(Hit(chunks[i], s, "dense", {"dense": (len(out) + 1, s)}))
        return out

    def unindexed_rows(self, due_only: bool = False) -> int:
        """0: Milvus computes BM25 vectors as rows are inserted (the BM25 function)."""
        return 0


__all__ = ["MilvusReads", "latest_states", "state_record", "DOC_FIELDS", "_expr_str"]
