"""The knowledge base: one object that owns the store, segmenter and embedder, and the
ingest path (load → structure → chunk → segment → index → embed)."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from zhiku.config import Config
from zhiku.embed import VectorCache, embed_cached, embedders
from zhiku.errors import ZhikuError
from zhiku.index.select import open_store, peek_manifest
from zhiku.index.store import Scope
from zhiku.prepare import ChunkParams, prepare_all, workers_for
from zhiku.progress import Progress, as_progress
from zhiku.ingest import iter_files, load_file
from zhiku.ingest.seen import SeenFiles, settled, signature
from zhiku.retrieve.clause import TitleIndex
from zhiku.retrieve.segment import segmenters
from zhiku.types import Chunk, Document, Hit


@dataclass
class IngestReport:
    """What an ingest did."""

    files: int = 0
    added: int = 0
    unchanged: int = 0
    aliased: int = 0
    chunks: int = 0
    embedded: int = 0
    pruned: int = 0
    failed: list[tuple[str, str]] = field(default_factory=list)
    seen: set[tuple[str, str]] = field(default_factory=set)
    seconds: float = 0.0
    embed_seconds: float = 0.0
    route_seconds: float = 0.0  # sub-index summaries and titles embedded for routing


@dataclass
class ReembedReport:
    """What a re-embed did."""

    old: str
    new: str
    old_dim: int
    new_dim: int
    embedded: int = 0
    switched: bool = False
    seconds: float = 0.0


# encodes questions ahead of their dense search (see KnowledgeBase.encode_soon)
_ENCODE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="encode")

class KnowledgeBase:
    """Everything under one ``ZHIKU_HOME``: the store, its segmenter and its embedder."""

    def __init__(self, config: Config, pin_embedder: bool = True) -> None:
        """Open (or create) the knowledge base under ``config.home``.

        Args:
            config: the configuration.
            pin_embedder: check the index against the configured embedder; off only for
                ``reembed``, which accepts whatever the index holds and replaces it.

        Raises:
            ZhikuError: the index was built with another segmenter, schema or embedder.
        """
        self.config = config
        self.segment = segmenters.create(config.segmenter)
        # Words (not single characters) for answer composition and confidence.
        self.words = segmenters.create("words")
        self._embedders: dict[str, Any] = {}
        self._qvecs: OrderedDict[tuple[str, str], Any] = OrderedDict()
        self._qlock = threading.Lock()
        name, dim, version = self._embedder_identity() if pin_embedder else (None, None, "")
        self.store = open_store(config, name, dim, version=version)
        self._n_chunks: int | None = None
        self._titles: TitleIndex | None = None
        self._router: Any = None
        self._gen: Any = None  # the published generation the three above were built on
        self._build = threading.RLock()  # guards the per-generation state above
        self._views: Any = None

    def for_groups(self, groups: tuple[str, ...] | None) -> KnowledgeBase:
        """This knowledge base as a caller in ``groups`` sees it (None: all of it): every
        store read of the returned object carries the groups into the store's query.

        Args:
            groups: the caller's groups (from its API key, or ``--as-groups``).
        """
        if groups is None:
            return self
        mine = getattr(self.store, "groups", None)
        if mine is not None:  # a view narrows, never widens
            return self._base.for_groups(tuple(g for g in groups if g in mine))
        if self._views is None:
            from zhiku.access.view import Views

            self._views = Views(self)
        return self._views.of(groups)

    def _embedder_identity(self) -> tuple[str, int | None, str]:
        """Name, dim and version of the configured embedder, loading or probing it only
        when the index does not already pin them."""
        emb = self.embedder
        have = peek_manifest(self.config)
        if have is not None and have.get("embedder") != emb.name:
            return emb.name, None, ""  # the store refuses with a clear message
        if have is not None and not self.config.embed_dim:
            return emb.name, int(have["dim"]), emb.version
        return emb.name, emb.dim, emb.version

    @property
    def embedder(self):
        """The embedder whose vectors the index holds (created on first use; keyword-only
        work loads a model only to embed the routing summaries, when routing by embedding)."""
        return self._embedder_named(getattr(self, "store", None) and self.store.active.embedder)

    def _embedder_named(self, name: str | None):
        configured = self._embedders.get("")
        if configured is None:
            configured = self._embedders[""] = embedders.create(self.config.embedder, self.config)
            self._embedders[configured.name] = configured
        if not name or name == configured.name:
            return configured
        if name not in self._embedders:
            raise ZhikuError(f"the index holds vectors of {name!r} but the configured embedder is "
                             f"{configured.name!r}; configure {name!r} or run `zhiku reembed`")
        return self._embedders[name]

    def query_vector(self, question: str, embedder: str | None = None):
        """The question's vector from ``embedder`` (default: the model of the active
        vectors), remembered for the last few hundred questions, so the router, the dense
        search, the reranker and the answer cache of one ask encode it once; a caller
        asking while another thread encodes the same question waits for that encoding."""
        emb = self._embedder_named(embedder if embedder is not None else self.store.active.embedder)
        key = (emb.name, question)
        with self._qlock:
            got = self._qvecs.get(key)
            if got is None:
                mine = self._qvecs[key] = Future()
            else:
                self._qvecs.move_to_end(key)
        if got is not None:
            return got.result() if isinstance(got, Future) else got
        try:
            vec = emb.embed_query(question)
        except BaseException as e:
            with self._qlock:
                self._qvecs.pop(key, None)
            mine.set_exception(e)
            raise
        mine.set_result(vec)
        with self._qlock:
            self._qvecs[key] = vec
            while len(self._qvecs) > 256:
                self._qvecs.popitem(last=False)
        return vec

    def encode_soon(self, question: str) -> None:
        """Start encoding ``question`` on a background thread when dense search will need
        it (the index has vectors), so the encoding overlaps the work before the search."""
        if self.has_vectors():
            _ENCODE.submit(self.query_vector, question, self.store.active.embedder or "")

    def dense(self, question: str, k: int, scope: Scope = Scope()) -> list[Hit]:
        """Dense hits for a question: the query is embedded by the model of the vectors it
        is compared with (one snapshot, so a concurrent re-embed never mixes models)."""
        active = self.store.active
        vec = self.query_vector(question, active.embedder or "")
        return self.store.dense(vec, k, scope, active=active)

    def dense_query(self, question: str):
        """The question's vector from the model of the active vectors (for reranking)."""
        return self.query_vector(question)

    # -- ingest ---------------------------------------------------------------------------
    def ingest(self, paths: Iterable[str | Path], dense: bool = True, progress: bool | Progress = True,
               on_error: Callable[[str, str], None] | None = None,
               prune: bool = False, rehash: bool = False) -> IngestReport:
        """Load, structure, chunk and index files; embed chunks unless ``dense`` is off.

        Files that cannot be read are reported (``on_error`` and ``report.failed``) and
        skipped; nothing already indexed is touched by a bad file. Unchanged files are
        skipped: without being read when their size, mtime and ctime (and their sidecar's)
        are those recorded when they were last ingested, else after reading them finds
        the content stored (``rehash`` reads and hashes every file, for file systems whose
        timestamps cannot be trusted); a changed file replaces its old version atomically.
        With ``prune``, documents that came from a given folder but are no longer in it are deleted
        (logically; ``compact`` removes them for good). ``progress`` shows every phase
        (reading, chunking, index writes, keyword index, summaries, embedding) as bars, or
        reports it to a :class:`~zhiku.progress.Progress` callback.

        Raises:
            ZhikuError: a path does not exist, or another process is writing the index.
        """
        t0 = time.perf_counter()
        rep, progress = IngestReport(), as_progress(progress)
        pairs = iter_files(list(paths))
        rep.files = len(pairs)
        seen = SeenFiles(self.config.home / "files.sqlite")
        docs, roots, sigs = self._load(pairs, rep, progress, on_error, None if rehash else seen)
        if prune:
            rep.pruned = self._prune(paths, {(roots[d.id], p) for d in docs for p in (d.path, *d.aliases)}
                                     | rep.seen)
        self._index(self._dedupe(docs, rep), rep, dense, progress, t0, roots)
        seen.record(sigs)  # only now: every document they name is published
        return rep

    def ingest_documents(self, docs: Iterable[Document], dense: bool = True,
                         progress: bool | Progress = True) -> IngestReport:
        """Index already-loaded documents (e.g. a JSONL corpus); same rules as :meth:`ingest`."""
        t0 = time.perf_counter()
        rep, progress = IngestReport(), as_progress(progress)
        docs = list(docs)
        rep.files = len(docs)
        return self._index(self._dedupe(docs, rep), rep, dense, progress, t0, {})

    def _index(self, docs: list[Document], rep: IngestReport, dense: bool, progress: Progress,
               t0: float, roots: dict[str, str]) -> IngestReport:
        batch: list = []
        in_batch = 0  # chunks in ``batch``
        cfg = self.config
        params = [ChunkParams(cfg.chunk_size_for(d.path), cfg.chunk_overlap, cfg.parent_size,
                              cfg.min_section) for d in docs]
        workers = workers_for(len(docs), cfg.ingest_workers)
        phase = progress.phase("chunking", len(docs), "doc")
        for item in prepare_all(docs, params, self.segment, cfg.segmenter, workers):
            batch.append(item)
            rep.chunks += len(item[2])
            in_batch += len(item[2])
            phase.update(1)
            if in_batch >= self.config.ingest_batch:
                self._commit(batch, roots, final=False)
                batch, in_batch = [], 0
        phase.close()
        if batch or self.store.unindexed_rows(due_only=True):
            self._commit(batch, roots, final=True, progress=progress)
        rep.added = len(docs)
        self._titles, self._n_chunks, self._router = None, None, None
        if self.config.routing:  # sub-index summaries are drafted at ingest time
            from zhiku.route.subindex import load_catalog

            with progress.phase("sub-index summaries"):
                load_catalog(self.config, self.store.documents())
        t1 = time.perf_counter()
        if self.config.routing and self.config.route_embedding:
            # embedded now (and cached by content), also for a keyword-only index: its asks
            # route by embedding too, and the first one must not embed every title
            try:  # a phase with a bar: embedding every title takes a while on a fresh cache
                self.router().summary_vectors(progress)
            except ZhikuError:
                pass  # a bad rules file: the first ask says so
        rep.route_seconds = time.perf_counter() - t1
        if dense:
            t1 = time.perf_counter()
            rep.embedded = self.embed_missing(progress)
            rep.embed_seconds = time.perf_counter() - t1
        rep.seconds = time.perf_counter() - t0
        return rep

    def groups_of(self, doc: Document) -> tuple[str, ...]:
        """Who may read ``doc``: its sidecar's groups, the ``[[access]]`` rules, the default."""
        from zhiku.access import document_groups

        return document_groups(doc.path, doc.metadata, self.config.access, self.config.access_default)

    def _commit(self, batch: list, roots: dict[str, str], final: bool,
                progress: Progress | None = None) -> None:
        """Write one batch of documents as one published transaction.

        New rows are searched (exactly) as soon as they are published; the last batch
        brings the keyword, scalar and vector indexes up to date, once per ingest."""
        groups = {doc.id: self.groups_of(doc) for doc, *_ in batch}
        progress = progress or Progress(bars=False)
        with self.store.transaction(partial=not final):
            if batch:
                with progress.phase("writing index"):
                    self.store.add(batch, roots, groups)
            if final:
                self.index(progress)

    def index(self, progress: bool | Progress = False) -> None:
        """Bring the store's indexes up to date (call inside a transaction): keyword and
        scalar indexes, and the vector index once there are enough vectors; a few rows
        written since stay outside them, searched exactly, until they are many (so one
        changed file is published in seconds however large the index)."""
        with as_progress(progress).phase("indexes"):
            self.store.build_indexes(defer_small=True)

    def _prune(self, paths: Iterable[str | Path], present: set[tuple[str, str]]) -> int:
        folders = {str(Path(p).resolve()) for p in paths if Path(p).is_dir()}
        gone = [d.doc_id for d in self.store.documents()
                if d.source_root in folders and not d.deleted
                and not any((d.source_root, p) in present for p in (d.path, *d.aliases))]
        if gone:
            with self.store.transaction():
                self.store.mark_deleted(gone)
            self._titles, self._router = None, None
        return len(gone)

    def _load(self, pairs, rep: IngestReport, progress: Progress, on_error, seen: SeenFiles | None):
        """Load the files, skipping those ``seen`` knows unchanged; returns the documents,
        their roots and each loaded file's (root, path, signature, document id)."""
        from zhiku.access import document_groups

        docs, roots, sigs, resolved = [], {}, [], {}
        cfg = self.config
        stored = {d.doc_id: d for d in self.store.documents()} if seen is not None else {}
        phase = progress.phase("reading", len(pairs), "file", min_total=20)
        for f, root in pairs:
            phase.update(1)
            top = resolved.get(root) or resolved.setdefault(root, str(Path(root).resolve()))
            read_ns, rel = time.time_ns(), Path(f).relative_to(root).as_posix()
            sig = signature(Path(f))
            if seen is not None and seen.unchanged(top, rel, sig, stored, lambda p, meta: document_groups(
                    p, meta, cfg.access, cfg.access_default)):
                rep.unchanged += 1
                rep.seen.add((top, rel))
                continue
            try:
                doc = load_file(f, root, int(self.config.max_file_mb * 2**20))
            except ZhikuError as e:
                rep.failed.append((str(f), str(e)))
                rep.seen.add((str(Path(root).resolve()), Path(f).relative_to(root).as_posix()))
                if on_error:
                    on_error(str(f), str(e))
                continue
            docs.append(doc)
            roots.setdefault(doc.id, top)
            sigs.append((top, doc.path, settled(sig, read_ns), doc.id))
        phase.close()
        return docs, roots, sigs

    def _dedupe(self, docs: list[Document], rep: IngestReport) -> list[Document]:
        """Drop documents already stored (recording new paths as aliases) and merge
        byte-identical copies within the batch into one document with aliases; a stored
        document whose groups changed (rules, sidecar) is written again."""
        seen: dict[str, Document] = {}
        stored = {d.doc_id: d for d in self.store.documents()}
        aliases: list[tuple[str, str]] = []
        for doc in docs:
            first = seen.get(doc.id)
            if first is not None:
                if doc.path != first.path:
                    seen[doc.id] = _with_alias(first, doc.path)
                    rep.aliased += 1
                continue
            old = stored.get(doc.id)
            if old is not None and not old.deleted and old.groups == self.groups_of(doc):
                if doc.path != old.path and doc.path not in old.aliases:
                    aliases.append((doc.id, doc.path))
                rep.unchanged += 1
                continue
            seen[doc.id] = doc
        if aliases:
            with self.store.transaction():
                for doc_id, path in aliases:
                    self.store.add_alias(doc_id, path)
        return list(seen.values())

    def _embed(self, chunks: list[Chunk], progress: bool | Progress, emb=None,
               table: str | None = None) -> int:
        cache = VectorCache(self.config.cache_path)
        emb = emb or self.embedder
        step = self.config.ingest_batch  # vectors are published every this many chunks
        try:
            with as_progress(progress).phase(f"embedding ({emb.name})", len(chunks), "chunk") as bar:
                for s in range(0, len(chunks), step):
                    part = chunks[s : s + step]
                    vecs = embed_cached(emb, cache, [c.text for c in part], self.config.embed_batch,
                                        progress=bar.update)
                    if table:  # a re-embed's staged table: published by the switch
                        self.store.add_vectors(part, vecs, table=table)
                        continue
                    with self.store.transaction():
                        self.store.add_vectors(part, vecs)
        finally:
            cache.close()
        if not table:
            with self.store.transaction():
                self.index(progress)
        return len(chunks)

    def embed_chunks(self, chunks: list[Chunk], progress: bool = True) -> int:
        """Embed these stored chunks with the active embedder (cached by content hash).

        Returns:
            How many chunks were given.

        Raises:
            ZhikuError: the embedder fails or returns vectors of the wrong size.
        """
        return self._embed(chunks, progress) if chunks else 0

    def embed_missing(self, progress: bool = True) -> int:
        """Embed every chunk that has no vector yet; returns how many were embedded."""
        todo = self.store.chunks_without_vectors()
        if todo:
            self._embed(todo, progress)
        return len(todo)

    def reembed(self, config: Config, progress: bool = True) -> ReembedReport:
        """Build vectors of another embedder beside the active ones, then switch atomically.

        Queries keep using the old vectors (with the old model) until every chunk has a new
        vector; then the manifest is replaced in one ``os.replace`` and this object swaps to
        the new table in one assignment. Interrupted runs resume from the vector cache and
        the partly filled table.

        Args:
            config: configuration whose ``embedder`` and ``embed_*`` settings pick the model.
            progress: show a progress bar with rate and ETA.

        Returns:
            What was done.

        Raises:
            ZhikuError: the embedder cannot be created or reached, or returns bad vectors.
        """
        t0 = time.perf_counter()
        old = self.store.active
        emb = embedders.create(config.embedder, config)
        rep = ReembedReport(old.embedder, emb.name, old.dim, emb.dim)
        if (emb.name, emb.version, emb.dim) == (old.embedder, old.version, old.dim):
            rep.seconds = time.perf_counter() - t0
            return rep
        table = self.store.vector_table(emb.name, emb.version, emb.dim)
        have = self.store.vector_ids(table)
        todo = [c for c in self.store.all_chunks() if c.id not in have]
        rep.embedded = self._embed(todo, progress, emb=emb, table=table) if todo else 0
        self._embedders[emb.name] = emb
        self.store.switch_vectors(table, emb.name, emb.version, emb.dim)
        with self.store.transaction():
            self.index(progress)
        self.config = config
        self._embedders[""] = emb
        rep.switched = True
        rep.seconds = time.perf_counter() - t0
        return rep

    # -- reading helpers ------------------------------------------------------------------
    def generation(self) -> int:
        """The published generation readers see now (re-read when any process published)."""
        self.store.documents()  # re-reads the manifest when a writer published
        return int(self.store.manifest.get("generation", 0))

    def _current(self) -> None:
        """Drop the per-generation state when another process (a CLI ingest beside a
        running server) published since it was built."""
        gen = self.generation()
        with self._build:
            if gen != self._gen:
                self._titles, self._n_chunks, self._router, self._gen = None, None, None, gen

    def chunk_count(self) -> int:
        """How many chunks the store holds (at least 1; remembered per published generation)."""
        self._current()
        if self._n_chunks is None:
            self._n_chunks = max(self.store.count()["chunks"], 1)
        return self._n_chunks

    def idf(self, term: str) -> float:
        """Robertson–Spärck Jones IDF of a term over chunks: ln(1 + (N - df + .5)/(df + .5))."""
        n = self.chunk_count()
        df = self.store.doc_frequency(term)
        return math.log(1.0 + (n - df + 0.5) / (df + 0.5))

    def titles(self) -> TitleIndex:
        """Index of document titles for resolving named laws (rebuilt after each publish)."""
        self._current()
        with self._build:  # built once per generation, however many asks arrive at once
            if self._titles is None:
                self._titles = TitleIndex(self.store.documents())
            return self._titles

    def router(self):
        """The sub-index router of this knowledge base (rebuilt after each publish).

        Raises:
            ZhikuError: the routing rules file is invalid.
        """
        self._current()
        with self._build:
            if self._router is None:
                from zhiku.route.router import Router

                self._router = Router(self)
            return self._router

    def has_vectors(self) -> bool:
        """Whether any chunk has a vector (dense search is possible)."""
        return self.store.count()["vectors"] > 0


def _with_alias(doc: Document, path: str) -> Document:
    from dataclasses import replace

    return replace(doc, aliases=tuple(dict.fromkeys([*doc.aliases, path])))
