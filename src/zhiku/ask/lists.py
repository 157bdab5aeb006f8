"""The ranked lists of one search: the keyword list (BM25 and the levers that re-weigh it)
and the dense list inside one scope, completed with each other's candidates before fusion."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from zhiku.index.store import Scope
from zhiku.registry import Choice
from zhiku.types import Hit, TraceStep


class Mode(Choice):
    """Retrieval mode: keyword only, dense only, both fused, or the whole ask path."""

    BM25 = "bm25"
    DENSE = "dense"
    HYBRID = "hybrid"
    FULL = "full"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "mode"

    def retrievers(self) -> Mode:
        """The retrievers this mode runs (``full`` searches like ``hybrid``)."""
        return Mode.HYBRID if self is Mode.FULL else self


class _Timer:
    def __init__(self, trace: list[TraceStep], stage: str) -> None:
        self.trace, self.stage, self.detail = trace, stage, {}

    def __enter__(self) -> dict[str, Any]:
        self.t = time.perf_counter()
        return self.detail

    def __exit__(self, *exc: object) -> None:
        self.trace.append(TraceStep(self.stage, time.perf_counter() - self.t, dict(self.detail)))


def brief(hits: list[Hit], n: int = 5) -> list[dict[str, Any]]:
    """The top hits in a trace: document, article, score."""
    return [{"doc": h.chunk.doc_path, "article": h.chunk.article, "score": round(h.score, 4)} for h in hits[:n]]


_DENSE = ThreadPoolExecutor(max_workers=2, thread_name_prefix="dense")


def fuzzy(kb: Any, p: Any, scope: Scope, trace: list[TraceStep], k: int | None = None,
          terms: tuple[str, ...] | list[str] = (), asked: str = "") -> list[list[Hit]]:
    """The keyword and dense lists for ``p`` (a :class:`zhiku.ask.search.Prepared`) inside
    ``scope`` (``k`` hits each); the keyword list searches ``terms`` when given, else the
    question's keyword terms, and the dense list ``asked`` when given, else the question. With ``fusion_complete`` on, each list is completed with the
    other's candidates (see :mod:`zhiku.retrieve.complete`) before the keyword list is
    re-weighed, so the fusion reads both retrievers' scores of every candidate."""
    k = k or p.candidates
    terms = list(terms) or p.kw_terms
    asked = asked or p.question
    lists: list[list[Hit]] = []
    # dense joins only where every chunk has its vector (an index still being embedded
    # serves keyword search, sub-index by sub-index: see zhiku.retrieve.coverage)
    dense = p.mode is not Mode.BM25 and kb.vectors_cover(scope)
    # the dense side (encode the question, query the vectors, fetch the chunks) runs on
    # its own thread while the keyword search runs here: both release the GIL
    kd = max(k, kb.config.dense_candidates)  # the dense retriever may read deeper (dense_candidates)
    pending = _DENSE.submit(_dense, kb, asked, kd, scope) if dense and p.mode is not Mode.DENSE else None
    raw: list[Hit] = []
    query: list[str] = terms
    if p.mode is not Mode.DENSE:
        with _Timer(trace, "keyword") as d:
            raw, query = _keyword(kb, terms, k, scope, d, p.added)
            if p.defined[1]:
                raw = _defined(kb, raw, query, k, scope, p.defined)
            if p.structured and kb.config.doc_keyword:  # whole documents' words (retrieve/docbags.py)
                raw = _by_documents(kb, raw, query, k, scope, d)
            d.update(terms=terms, top=brief(raw))
    # the keyword candidates' stored vectors are read while the dense search still runs
    vectors = (_DENSE.submit(kb.store.vectors_of, [h.chunk.id for h in raw])
               if raw and pending is not None and kb.config.fusion_complete else None)
    if dense:
        got, step = pending.result() if pending is not None else _dense(kb, asked, kd, scope)
        trace.append(step)
        qvecs = kb.dense_vectors(asked)  # those the dense search used (cached)
        if raw and got and kb.config.dense_feedback and p.mode is not Mode.DENSE:
            got, qvecs = _feedback(kb, p, asked, raw, got, qvecs, kd, scope, trace)
        if vectors is not None and got:
            raw, got = _completed(kb, qvecs, raw, got, query, scope, vectors.result(), trace)
    if p.mode is not Mode.DENSE:
        lists.append(reweighed(kb, raw, terms, p.asks, p.structured, p.question))
    if dense:
        lists.append(got)
    return lists


def _completed(kb: Any, qvecs: list[Any], raw: list[Hit], got: list[Hit], query: list[str], scope: Scope,
               vectors: dict[str, Any], trace: list[TraceStep]) -> tuple[list[Hit], list[Hit]]:
    """The keyword and dense lists completed with each other's candidates (see
    :func:`zhiku.retrieve.complete.complete`; a keyword candidate's cosine is its best with
    ``qvecs``, the query vectors of the dense search), with their ``complete`` step."""
    import numpy as np

    from zhiku.retrieve.complete import complete

    with _Timer(trace, "complete") as d:
        vec = np.stack(qvecs) if len(qvecs) > 1 else qvecs[0]
        kw, de = complete(raw, got, vec, vectors, lambda ids: kb.store.keyword_scores(query, ids, scope))
        d.update(filled={"bm25": len(kw) - len(raw), "dense": len(de) - len(got)})
    return kw, de


def _feedback(kb: Any, p: Any, asked: str, raw: list[Hit], got: list[Hit], qvecs: list[Any], k: int,
              scope: Scope, trace: list[TraceStep]) -> tuple[list[Hit], list[Any]]:
    """The dense list searched again with each query vector moved towards the stored vectors
    of the first ``dense_feedback_docs`` hits of the keyword and dense lists fused as the
    search fuses them (Rocchio, see :func:`zhiku.retrieve.dense_query.rocchio`), and the
    moved vectors; its ``dense_feedback`` step."""
    from zhiku.retrieve.dense_query import rocchio
    from zhiku.retrieve.fusion import fuse_search

    cfg = kb.config
    with _Timer(trace, "dense_feedback") as d:
        fused = fuse_search([raw, got], cfg, words=len(p.terms), dense=True)
        top = [h.chunk.id for h in fused[:cfg.dense_feedback_docs]]
        stored = kb.store.vectors_of(top)
        fb = [stored[i] for i in top if i in stored]
        if not fb:
            return got, qvecs
        moved = [rocchio(v, fb, cfg.dense_feedback) for v in qvecs]
        again = kb.dense(asked, k, scope, vectors=moved)
        d.update(feedback=len(fb), top=brief(again))
    return again, moved


def _dense(kb: Any, question: str, k: int, scope: Scope) -> tuple[list[Hit], TraceStep]:
    """Dense hits and their ``dense`` step (its time includes encoding the question)."""
    t0 = time.perf_counter()
    hits = kb.dense(question, k, scope)
    return hits, TraceStep("dense", time.perf_counter() - t0, {"top": brief(hits)})


def _keyword(kb: Any, terms: list[str], k: int, scope: Scope, detail: dict[str, Any],
             added: tuple[str, ...] = ()) -> tuple[list[Hit], list[str]]:
    """BM25 hits and the query that found them: the ``added`` words of term expansion
    weighing ``expansion_weight`` of a question word, or pseudo-relevance feedback (see
    :mod:`zhiku.retrieve.prf`) when on."""
    cfg = kb.config
    if added:  # a term repeated n times in a BM25 query weighs n times
        query = [*terms] * max(1, round(1 / cfg.expansion_weight)) + list(added)
        return kb.store.keyword(query, k, scope), query
    if not cfg.feedback_terms:
        return kb.store.keyword(terms, k, scope), terms
    from zhiku.retrieve.prf import Feedback, keyword_with_feedback

    fb = Feedback(cfg.feedback_docs, cfg.feedback_terms)
    hits, extra = keyword_with_feedback(kb.store.keyword, kb.segment, kb.idf, terms, k, scope, fb)
    detail.update(feedback=extra)
    return hits, ([*terms] * fb.original_weight + extra if extra else terms)


def _by_documents(kb: Any, hits: list[Hit], query: list[str], k: int, scope: Scope,
                  detail: dict[str, Any]) -> list[Hit]:
    """The keyword hits weighed by their whole document's keyword evidence (``doc_keyword``:
    each document one bag of its words, see :mod:`zhiku.retrieve.docbags`), after the
    ``doc_keyword_top`` best documents were searched inside too, so their passages the
    whole-index list missed can be weighed in; cut to ``k``. A search already inside named
    documents or chapters is left as it is: its documents were chosen."""
    from zhiku.retrieve.docbags import merged, weigh_by_documents

    cfg = kb.config
    if scope.doc_ids or scope.chapters or scope.article or scope.section_id:
        return hits
    shares = kb.doc_bags().best(query, cfg.doc_keyword_b, skip=kb.store.excluded(scope.versions))
    top = tuple(list(shares)[:cfg.doc_keyword_top])
    if top:
        hits = merged(hits, kb.store.keyword(query, k, replace(scope, doc_ids=top)))
    paths = kb.doc_paths()
    named = {r.doc_id: p for p, r in paths.items()}
    detail.update(documents=[(named.get(d, d), round(s, 4)) for d, s in list(shares.items())[:3]],
                  searched_inside=len(top))
    return weigh_by_documents(hits, shares, cfg.doc_keyword)[:k]


def _defined(kb: Any, hits: list[Hit], query: list[str], k: int, scope: Scope,
             defined: tuple[tuple[str, ...], tuple[str, ...]]) -> list[Hit]:
    """The keyword hits with the documents that define a short or long form the question
    holds searched again, the other form's words added to ``query`` (the question's words
    counting round(1 / ``expansion_weight``) times, as term expansion weighs them; see
    :func:`zhiku.chunk.shortforms.counterparts`): a passage of theirs holding only the other
    form scores as if it held the question's form below the question's words; every other
    document's passages keep their scores."""
    from zhiku.ask.search import narrow

    docs, words = defined
    inside = narrow(scope, docs)
    if inside is None:
        return hits
    n = max(1, round(1 / kb.config.expansion_weight))
    found = kb.store.keyword([*query] * n + list(words), k, inside)
    score = {h.chunk.id: h.score for h in hits}
    chunks = {h.chunk.id: h.chunk for h in hits}
    for h in found:
        chunks.setdefault(h.chunk.id, h.chunk)
        score[h.chunk.id] = max(score.get(h.chunk.id, 0.0), h.score / n)
    best = sorted(score, key=lambda c: -score[c])[:k]
    return [Hit(chunks[c], score[c], "bm25", {"bm25": (i, score[c])}) for i, c in enumerate(best, 1)]


def reweighed(kb: Any, hits: list[Hit], terms: list[str], asks: tuple[Any, ...] = (),
              structured: bool = True, question: str = "") -> list[Hit]:
    """Keyword hits re-weighed by the levers that are on: the question's character bigrams
    beside its words and its words within one sentence (:mod:`zhiku.retrieve.ngrams`; ``question``
    gives the bigrams), numbered provisions before case
    reports and guides, laws before interpretations (:mod:`zhiku.retrieve.provisions`), the
    documents other laws cite most in a near tie (:func:`zhiku.retrieve.docprior.citation_prior`), the
    chapter heading weight (:mod:`zhiku.retrieve.fields`), document evidence
    (:mod:`zhiku.retrieve.docprior`) and the answer types the question asks for
    (:mod:`zhiku.retrieve.answertype`)."""
    cfg = kb.config
    if structured and question and cfg.bigram_weight:  # character bigrams beside words (retrieve/ngrams.py)
        from zhiku.retrieve.ngrams import bigram_rescore, question_bigrams

        hits = bigram_rescore(hits, question_bigrams(question, kb.words), kb.bigram_stats(), cfg.bigram_weight)
    if structured and cfg.proximity_weight:  # the question's words within one sentence (retrieve/ngrams.py)
        from zhiku.retrieve.fields import idf_words
        from zhiku.retrieve.ngrams import proximity_boost

        hits = proximity_boost(hits, idf_words(terms, kb.idf), cfg.proximity_weight)
    if structured:  # numbered provisions before case reports and guides, laws before interpretations
        from zhiku.retrieve.provisions import interpretations_down, restating_down, unnumbered_down

        hits = interpretations_down(unnumbered_down(hits, cfg.unnumbered_weight), cfg.interpretation_weight)
        hits = restating_down(hits, cfg.restated_weight)
    if cfg.citation_prior:  # documents many other laws cite first in a near tie (see zhiku.retrieve.docprior)
        from zhiku.retrieve.docprior import citation_prior

        hits = citation_prior(hits, *kb.cited_by(), cfg.citation_prior)
    if cfg.heading_weight:  # chapter headings as a field of their own (see zhiku.retrieve.fields)
        from zhiku.retrieve.fields import heading_boost

        hits = heading_boost(hits, terms, kb.idf, cfg.heading_weight)
    if cfg.doc_weight:  # the evidence of a hit's whole document (see zhiku.retrieve.docprior)
        from zhiku.retrieve.docprior import document_boost

        hits = document_boost(hits, cfg.doc_weight)
    if cfg.doc_coherence:  # the question's words a document's best hits cover together
        from zhiku.retrieve.docprior import coherence_boost

        hits = coherence_boost(hits, terms, kb.idf, cfg.doc_coherence)
    if asks:  # 多久 → passages stating a period first (see zhiku.retrieve.answertype)
        from zhiku.retrieve.answertype import answer_type_boost

        hits = answer_type_boost(hits, asks, cfg.answer_type_weight)
    return hits
