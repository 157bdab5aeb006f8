"""The knowledge base: one object that owns the store, segmenter and embedder; its ingest
path is in :mod:`zhiku.kb_ingest`."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from zhiku.chunk.context import vector_text
from zhiku.config import Config
from zhiku.embed import VectorCache, embed_cached, embedders
from zhiku.errors import ZhikuError
from zhiku.index.select import open_store, peek_manifest
from zhiku.index.store import DocRecord, Scope
from zhiku.kb_ingest import IngestReport, Ingesting  # noqa: F401 (IngestReport: part of this API)
from zhiku.progress import Progress, as_progress
from zhiku.retrieve.clause import TitleIndex
from zhiku.retrieve.segment import segmenters
from zhiku.types import Chunk, Hit, content_hash


@dataclass
class ReembedReport:
    """What a re-embed did."""

    old: str
    new: str
    old_dim: int
    new_dim: int
    old_text: str = "text"  # the vector text recipes (config ``vector_text``) before and after
    new_text: str = "text"
    embedded: int = 0
    switched: bool = False
    seconds: float = 0.0


# encodes questions ahead of their dense search (see KnowledgeBase.encode_soon)
_ENCODE = ThreadPoolExecutor(max_workers=1, thread_name_prefix="encode")

class KnowledgeBase(Ingesting):
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
        self._offences: Any = None
        self._cited: tuple[dict[str, int], int] | None = None
        self._bags: Any = None  # whole-document keyword index (see doc_bags)
        self._bigrams: Any = None  # character-bigram statistics (see bigram_stats)
        self._chapter_vecs: Any = None  # every chapter's vector (see chapter_vectors)
        self._short_forms: dict[str, dict[str, str]] | None = None
        self._citing: list[tuple[str, list[str]]] | None = None
        self._quoted: frozenset[str] | None = None
        self._router: Any = None
        self._paths: dict[str, Any] | None = None  # document path → record
        self._idf: dict[str, float] = {}  # term → IDF
        self._coverage: tuple[int, Any] | None = None  # (vectors, VectorCoverage)
        self._gen: Any = None  # the published generation the six above were built on
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

    def dense(self, question: str, k: int, scope: Scope = Scope(), vectors: list | None = None) -> list[Hit]:
        """Dense hits for a question: the query is embedded by the model of the vectors it
        is compared with (one snapshot, so a concurrent re-embed never mixes models). With
        ``dense_clauses`` the lists of its clauses' vectors are joined with the whole
        question's (see :mod:`zhiku.retrieve.dense_query`); ``vectors`` (default:
        :meth:`dense_vectors` of ``question``) are the query vectors searched."""
        from zhiku.retrieve.dense_query import ClauseMerge, merged

        active = self.store.active
        vecs = self.dense_vectors(question) if vectors is None else vectors
        merge = ClauseMerge.from_str(self.config.dense_clauses)
        return merged([self.store.dense(v, k, scope, active=active) for v in vecs], merge, k)

    def dense_vectors(self, question: str) -> list:
        """The query vectors dense search compares with the stored ones for ``question``
        (model of the active vectors): the vector of its dense text (``dense_focus``: its
        asking phrases cut), then its clauses' (``dense_clauses`` max or rrf), or their
        mean alone (``dense_clauses`` mean); each text encoded once (cached)."""
        from zhiku.retrieve.dense_query import ClauseMerge, DenseFocus, dense_texts, mean_vector

        merge = ClauseMerge.from_str(self.config.dense_clauses)
        focus = DenseFocus.from_str(self.config.dense_focus)
        name = self.store.active.embedder or ""
        vecs = [self.query_vector(t, name) for t in dense_texts(question, focus, merge)]
        return [mean_vector(vecs)] if merge is ClauseMerge.MEAN and len(vecs) > 1 else vecs

    def dense_query(self, question: str):
        """The question's vector from the model of the active vectors (for reranking)."""
        return self.query_vector(question)

    def _embed(self, chunks: list[Chunk], progress: bool | Progress, emb=None,
               table: str | None = None, recipe: str | None = None) -> int:
        """Embed ``chunks`` (their :func:`zhiku.chunk.context.vector_text` under ``recipe``,
        default the recipe the index pins) with ``emb`` (default the active embedder) into
        the active vectors, or into a re-embed's staged ``table``."""
        cache = VectorCache(self.config.cache_path)
        emb = emb or self.embedder
        recipe = recipe or self.store.active.vector_text
        step = self.config.ingest_batch  # vectors are published every this many chunks
        try:
            with as_progress(progress).phase(f"embedding ({emb.name})", len(chunks), "chunk") as bar:
                for s in range(0, len(chunks), step):
                    part = chunks[s : s + step]
                    texts = [vector_text(c, recipe) for c in part]
                    vecs = embed_cached(emb, cache, texts, self.config.embed_batch, progress=bar.update)
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
        """Embed every chunk that has no vector yet; returns how many were embedded.

        The smallest sub-index goes first and each is finished before the next, so that
        during a long run dense search joins one sub-index after another (see
        :meth:`vectors_cover`) while keyword search serves the rest."""
        todo = [c for group in self._by_subindex(self.store.chunks_without_vectors()) for c in group]
        if todo:
            self._embed(todo, progress)
        return len(todo)

    def _by_subindex(self, chunks: list[Chunk]) -> list[list[Chunk]]:
        """``chunks`` grouped by their sub-index, the smallest group (among them) first."""
        sub = {d.doc_id: d.subindex for d in self.store.documents()}
        groups: dict[str, list[Chunk]] = {}
        for c in chunks:
            groups.setdefault(sub.get(c.doc_id, ""), []).append(c)
        return [groups[s] for s in sorted(groups, key=lambda s: (len(groups[s]), s))]

    def embed_short_forms(self, progress: bool | Progress = True) -> int:
        """Encode the short form (:func:`zhiku.retrieve.passages.short_form`) of every searched
        chunk into the vector cache, where ``passage_similarity`` reads them at ask time without
        encoding; the index stays keyword-only. The smallest sub-index goes first and each is
        finished before the next (its asks get the cosine while the rest wait); forms already
        cached are skipped, so an interrupted run resumes. Returns how many chunks were covered.

        Raises:
            ZhikuError: the embedder fails or returns vectors of the wrong size.
        """
        from zhiku.retrieve.passages import short_form

        groups = self._by_subindex(self.store.all_chunks())
        total = sum(map(len, groups))
        cache, chars = VectorCache(self.config.cache_path), self.config.passage_chars
        try:
            with as_progress(progress).phase(f"short forms ({self.embedder.name})", total, "chunk") as bar:
                for group in groups:  # one sub-index per call: each finished before the next
                    embed_cached(self.embedder, cache, [short_form(c, chars) for c in group],
                                 self.config.embed_batch, progress=bar.update)
        finally:
            cache.close()
        return total

    def reembed(self, config: Config, progress: bool = True) -> ReembedReport:
        """Build vectors of another embedder, or of another vector text recipe (config
        ``vector_text``), beside the active ones, then switch atomically.

        Queries keep using the old vectors (with the old model) until every chunk has a new
        vector; then the manifest is replaced in one ``os.replace`` and this object swaps to
        the new table in one assignment. Interrupted runs resume from the vector cache and
        the partly filled table.

        Args:
            config: configuration whose ``embedder`` and ``embed_*`` settings pick the model,
                and ``vector_text`` what of each chunk it embeds.
            progress: show a progress bar with rate and ETA.

        Returns:
            What was done.

        Raises:
            ZhikuError: the embedder cannot be created or reached, or returns bad vectors.
        """
        t0 = time.perf_counter()
        old = self.store.active
        emb = embedders.create(config.embedder, config)
        recipe = config.vector_text
        rep = ReembedReport(old.embedder, emb.name, old.dim, emb.dim, old.vector_text, recipe)
        if (emb.name, emb.version, emb.dim, recipe) == (old.embedder, old.version, old.dim, old.vector_text):
            rep.seconds = time.perf_counter() - t0
            return rep
        table = self.store.vector_table(emb.name, emb.version, emb.dim, recipe)
        have = self.store.vector_ids(table)
        todo = [c for c in self.store.all_chunks() if c.id not in have]
        rep.embedded = self._embed(todo, progress, emb=emb, table=table, recipe=recipe) if todo else 0
        self._embedders[emb.name] = emb
        self.store.switch_vectors(table, emb.name, emb.version, emb.dim, recipe)
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
                self.forget(gen)

    def forget(self, gen: Any) -> None:
        """Drop the state built on an earlier generation (titles, router, counts, IDF
        weights, the path map).

        Args:
            gen: the generation the next builds belong to.
        """
        self._titles = self._n_chunks = self._router = self._paths = self._coverage = self._offences = self._cited = None
        self._short_forms = self._citing = self._quoted = self._bags = self._chapter_vecs = None
        self._bigrams = None
        self._idf = {}
        self._gen = gen

    def live_documents(self) -> list[DocRecord]:
        """The searched documents: every stored one but those deleted and awaiting compaction."""
        return [d for d in self.store.documents() if not d.deleted]

    def chunk_count(self) -> int:
        """How many chunks the store holds (at least 1; remembered per published generation)."""
        self._current()
        if self._n_chunks is None:
            self._n_chunks = max(self.store.count()["chunks"], 1)
        return self._n_chunks

    def idf(self, term: str) -> float:
        """Robertson–Spärck Jones IDF of a term over chunks: ln(1 + (N - df + .5)/(df + .5)).

        N is the count of the generation the ask started on (each ask's title lookup checks
        for a newer one): a confidence or verification step calls this for every term of
        every passage (hundreds of calls per ask for a few terms), so the weight is kept
        per generation and the store's document frequency read once per term."""
        cache = self._idf  # a publish meanwhile replaces it: a weight is kept where it was made
        got = cache.get(term)
        if got is None:
            n = self._n_chunks or self.chunk_count()
            df = self.store.doc_frequency(term)
            got = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
            if len(cache) > 200_000:  # a long-running server meets many terms
                cache.clear()
            cache[term] = got
        return got

    def doc_paths(self) -> dict[str, Any]:
        """Every document record by its path (built once per generation: every answer's
        version notes look its citations up here)."""
        self._current()
        with self._build:
            if self._paths is None:
                self._paths = {d.path: d for d in self.store.documents()}
            return self._paths

    def titles(self) -> TitleIndex:
        """Index of the searched documents' titles for resolving named laws (rebuilt after each
        publish; a deleted document awaiting compaction is not named)."""
        self._current()
        with self._build:  # built once per generation, however many asks arrive at once
            if self._titles is None:
                searched = self.live_documents()
                self._titles = TitleIndex(searched, self.words if self.config.short_names else None)
            return self._titles

    def offences(self):
        """The offence names of the corpus's 罪名 regulations (see
        :class:`zhiku.retrieve.offences.OffenceTable`; rebuilt after each publish)."""
        from zhiku.retrieve.offences import OffenceTable

        self._current()
        with self._build:
            if self._offences is None:
                self._offences = OffenceTable.build(self.store, self.segment)
            return self._offences

    def short_forms(self) -> dict[str, dict[str, str]]:
        """The short forms each document defines for itself (「权限控制（ACL）」, 「（以下简称“细则”）」:
        :func:`zhiku.chunk.shortforms.definitions`), document id → short form → long form; read
        at each document's ingest and kept with it (:func:`zhiku.chunk.shortforms.stored`),
        gathered once per published generation. A document ingested before they were kept,
        or by other readings, has them read from its searched passages here, as every
        document's were before (a scan of the stored passages after each publish, 2.8 s over
        66k; an index built anew keeps them all)."""
        from zhiku.chunk.shortforms import definitions, read_stored

        self._current()
        with self._build:
            if self._short_forms is None:
                found: dict[str, dict[str, str]] = {}
                unread: set[str] = set()
                for d in self.store.documents():
                    got = read_stored(d.metadata) if not d.deleted else {}
                    if got is None:
                        unread.add(d.doc_id)
                    elif got:
                        found[d.doc_id] = got
                if unread:
                    texts: dict[str, list[str]] = {}
                    for r in self.store.rows("chunks", ["doc_id", "text", "kind"]):
                        if r["kind"] != "parent" and r["doc_id"] in unread:
                            texts.setdefault(r["doc_id"], []).append(r["text"])
                    found.update((d, f) for d, ts in texts.items() if (f := definitions(ts)))
                self._short_forms = found
            return self._short_forms

    def _cited_titles(self) -> list[tuple[str, list[str]]]:
        """(document id, the titles its passage cites between 《》:
        :func:`zhiku.retrieve.docprior.cited_titles`) of every searched passage citing one — a
        passage of a document still searched, not of one deleted and awaiting compaction; read
        from the stored passages once per published generation, for :meth:`cited_by` to count
        and :meth:`holds_document` to look up."""
        from zhiku.retrieve.docprior import cited_titles

        with self._build:
            if self._citing is None:
                live = {d.doc_id for d in self.live_documents()}
                self._citing = [(r["doc_id"], ts) for r in self.store.rows("chunks", ["doc_id", "text", "kind"])
                                if r["kind"] != "parent" and r["doc_id"] in live and "《" in r["text"]
                                and (ts := cited_titles(r["text"]))]
            return self._citing

    def holds_document(self, name: str) -> bool:
        """Whether the knowledge base holds a document of ``name`` (a title a question cites,
        normalised as :func:`zhiku.verify.pins.cited_documents` gives it): one bears it
        (:meth:`zhiku.retrieve.clause.TitleIndex.bears`), or a passage quotes it between 《》
        (a law a regulation cites: its rules are read there; :meth:`_cited_titles`)."""
        if self.titles().bears(name):
            return True
        with self._build:
            if self._quoted is None:
                self._quoted = frozenset(t for _, ts in self._cited_titles() for t in ts)
            return any(name in t for t in self._quoted)

    def cited_by(self) -> tuple[dict[str, int], int]:
        """Each document's citation in-degree, how many other laws cite it by title (see
        :func:`zhiku.retrieve.docprior.citation_counts`), and how many laws there are; read
        from the titles every searched passage cites (:meth:`_cited_titles`) once per published
        generation (~1 s for 66k passages)."""
        from zhiku.retrieve.clause import law_of
        from zhiku.retrieve.docprior import citation_counts

        titles = self.titles()
        with self._build:
            if self._cited is None:
                docs = {d.doc_id: d for d in self.live_documents()}
                self._cited = (citation_counts(self._cited_titles(), titles.named, law_of, docs),
                               len({law_of(d) for d in docs.values()}))
            return self._cited

    def doc_bags(self):
        """Every searched document as one bag of its words for keyword search over whole
        documents (see :class:`zhiku.retrieve.docbags.DocumentBags`): built from the stored
        segmented text once per published generation (6–12 s at 66k passages) and kept in
        ``docbags.npz`` under the home, so another process reads it back (~0.2 s); a caller
        limited to groups gets bags of the documents it may read, in a file of its own."""
        from zhiku.retrieve.docbags import DocumentBags

        self._current()
        with self._build:
            if self._bags is None:
                live = [d.doc_id for d in self.live_documents()]
                self._bags = self._home_cached(
                    "docbags", ".npz", f"{self._gen}:{len(live)}:{self.chunk_count()}", DocumentBags.load,
                    lambda: DocumentBags.build(self.store.rows("chunks", ["doc_id", "seg", "kind"]), live))
            return self._bags

    def _home_cached(self, stem: str, suffix: str, key: str, load: Any, build: Any) -> Any:
        """What ``load(path, key)`` reads back from the home's ``<stem><suffix>`` (a caller
        limited to groups: a file of its own, ``<stem>-<hash of the groups><suffix>``), else
        what ``build()`` makes, saved there under ``key`` (the published generation)."""
        groups = getattr(self.store, "groups", None)  # a caller's view counts what it may read
        path = self.config.home / (f"{stem}-{content_hash(*sorted(groups))}{suffix}" if groups is not None
                                   else f"{stem}{suffix}")
        found = load(path, key)
        if found is None:
            found = build()
            found.save(path, key)
        return found

    def bigram_stats(self):
        """How many searched chunks hold each character bigram (``bigram_weight``, see
        :class:`zhiku.retrieve.ngrams.BigramStats`): counted over the stored text once per
        published generation (~8 s at 66k passages) and kept in ``bigrams.json`` under the home
        (3 MB there), so another process reads it back."""
        from zhiku.retrieve.ngrams import BigramStats

        self._current()
        with self._build:
            if self._bigrams is None:
                self._bigrams = self._home_cached(
                    "bigrams", ".json", f"{self._gen}:{self.chunk_count()}", BigramStats.load,
                    lambda: BigramStats.build(r["text"] for r in self.store.rows("chunks", ["text", "kind"])
                                              if r.get("kind") != "parent"))
            return self._bigrams

    def chapter_vectors(self, progress: bool | Progress = False):
        """Every searched chapter's vector by the bundled embedder, its document's title and
        headings as one text (see :class:`zhiku.retrieve.chapter_meaning.ChapterVectors`): a
        matrix built once per published generation from the stored rows, each distinct text
        embedded once (the vector cache keeps them; an ingest embeds them, ``chapter_search``)."""
        from zhiku.embed.base import embed_through_cache
        from zhiku.retrieve.chapter_meaning import ChapterVectors

        self._current()
        with self._build:
            if self._chapter_vecs is None:
                titles = {d.doc_id: d.title or d.path for d in self.live_documents()}
                rows = self.store.rows("chunks", ["doc_id", "section_id", "section_path", "kind"])
                cfg = self.config

                def embed(texts: list[str]):
                    with as_progress(progress).phase("chapters by meaning", len(texts), "chapter") as bar:
                        return embed_through_cache(self.embedder, cfg.cache_path, texts, cfg.embed_batch,
                                                   progress=bar.update)

                self._chapter_vecs = ChapterVectors.build(rows, titles, embed)
            return self._chapter_vecs

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

    def vectors_cover(self, scope: Scope) -> bool:
        """Whether every chunk ``scope`` may find has a vector, so that dense search can
        join the keyword search there (see :class:`zhiku.retrieve.coverage.VectorCoverage`;
        worked out once per published generation and vector count)."""
        from zhiku.retrieve.coverage import VectorCoverage

        self._current()
        n = self.store.count()["vectors"]
        if not n:
            return False
        with self._build:
            if self._coverage is None or self._coverage[0] != n:
                if n >= self.store.searched_count():  # every searched chunk has one: no scan
                    self._coverage = (n, VectorCoverage(True, any=True))
                    return True
                rows = self.store.rows("chunks", ["id", "doc_id", "subindex", "kind"])
                searched = (r for r in rows if r["kind"] != "parent")
                self._coverage = (n, VectorCoverage.of(searched, self.store.vector_ids()))
            return self._coverage[1].covers(scope)
