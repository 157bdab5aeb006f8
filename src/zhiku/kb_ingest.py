"""The ingest path of a knowledge base: load → structure → chunk → segment → index →
embed, one published transaction per batch, unchanged files skipped."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from zhiku.errors import ZhikuError
from zhiku.progress import Progress, as_progress
from zhiku.retrieve.fields import heading_text
from zhiku.types import Document

if TYPE_CHECKING:  # loaders and chunkers are imported by an ingest, not by every reader of a knowledge base
    from zhiku.ingest.seen import SeenFiles


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
    route_seconds: float = 0.0  # sub-index summaries and titles embedded for routing, chapter headings for ranking



class Ingesting:
    """The ingest methods of :class:`zhiku.kb.KnowledgeBase` (which holds the store, the
    segmenter, the config and the per-generation state they reset)."""

    config: Any
    store: Any

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
        from zhiku.ingest import iter_files
        from zhiku.ingest.seen import SeenFiles

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
        from zhiku.prepare import chunk_params, prepare_all, workers_for

        # 「《X》同时废止」, 「适用《X》…的解释」 read but not acted on
        off = {k for k, on in (("repeals", self.config.repealed_by_name),
                               ("applies", self.config.repealed_dependents)) if not on}
        if off:
            docs = [replace(d, metadata={k: v for k, v in d.metadata.items() if k not in off})
                    if off & d.metadata.keys() else d for d in docs]
        batch: list = []
        in_batch = 0  # chunks in ``batch``
        cfg = self.config
        params = [chunk_params(cfg, d.path) for d in docs]
        workers = workers_for(len(docs), cfg.ingest_workers)
        phase = progress.phase("chunking", len(docs), "doc")
        # the chapter headings the candidates' cosine reads (heading_similarity): only a keyword
        # ingest needs them, since beside the dense list an embedded index searches it stays off
        heads: set[str] = set()
        for item in prepare_all(docs, params, self.segment, cfg.segmenter, workers):
            batch.append(item)
            if cfg.heading_similarity and not dense:
                heads.update(heading_text(c) for c in item[2])
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
        if heads:  # embedded now (and cached by content), not by the first asks that meet them
            from zhiku.embed.base import embed_through_cache

            with progress.phase("chapter headings", len(heads), "heading") as bar:
                embed_through_cache(self.embedder, cfg.cache_path, sorted(heads), cfg.embed_batch,
                                    progress=bar.update)
        if cfg.chapter_search and not dense:  # every chapter's title and headings (retrieve/chapter_meaning.py)
            self.chapter_vectors(progress)
        if cfg.term_expansion or cfg.question_expansion or cfg.rare_bridges:  # the vocabulary's words
            self.term_neighbours(progress)
        if cfg.doc_keyword:  # whole documents as bags of words, saved for the asks (retrieve/docbags.py)
            self.doc_bags()
        rep.route_seconds = time.perf_counter() - t1
        if dense:
            t1 = time.perf_counter()
            rep.embedded = self.embed_missing(progress)
            rep.embed_seconds = time.perf_counter() - t1
        rep.seconds = time.perf_counter() - t0
        return rep

    def term_neighbours(self, progress: bool | Progress = False) -> Any:
        """The neighbour table of the keyword vocabulary (see :mod:`zhiku.retrieve.expand`):
        read when it was built for this vocabulary, else built now, each word embedded once
        (the vector cache keeps them, so a later ingest embeds only its new words)."""
        from zhiku.embed.base import embed_through_cache
        from zhiku.retrieve.expand import build_expansions, table_path

        progress, cfg, emb = as_progress(progress), self.config, self.embedder

        def embed(words: list[str], done: Callable[[int], None]) -> Any:
            return embed_through_cache(emb, cfg.cache_path, words, cfg.embed_batch, progress=done)

        return build_expansions(table_path(cfg.home), self.store.term_counts(), emb.name, embed,
                                lambda name, n: progress.phase(name, n, "word"))

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
        from zhiku.ingest import load_file, loader_options
        from zhiku.ingest.seen import settled, signature

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
                doc = load_file(f, root, int(self.config.max_file_mb * 2**20), self.config.load_timeout,
                                **loader_options(self.config))
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


def _with_alias(doc: Document, path: str) -> Document:
    from dataclasses import replace

    return replace(doc, aliases=tuple(dict.fromkeys([*doc.aliases, path])))
