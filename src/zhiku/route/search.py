"""Routed search: every search goes through :func:`routed_search`. A route that decided
applies its sub-index filter (several sub-indexes are searched in parallel and merged per
retriever) and puts the hits in its sure chapters first, as one more ranked list; a route
that did not decide searches where routing off does."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

from zhiku.index.store import Scope
from zhiku.retrieve.fusion import fuse_search, rrf
from zhiku.route.chapters import pick_chapters, routed_docs, span_share, title_weight
from zhiku.types import ChapterPick, Hit, Route, TraceStep

# (scope, trace) -> ranked lists (keyword, dense) inside that scope
Searcher = Callable[[Scope, list[TraceStep]], list[list[Hit]]]


@dataclass(frozen=True)
class Routed:
    """The ranked lists of a routed search (keyword, dense; with the picked chapters' hits
    first when chapters were used), their fused order, the route with its chapters, and
    the hits grouped by document (doc id → ranks, best document first)."""

    hits: list[Hit]
    route: Route
    groups: dict[str, list[int]]
    lists: list[list[Hit]] = field(default_factory=list)


def decides(route: Route, min_confidence: float) -> bool:
    """Whether ``route`` decided where to look: a tier other than the fallback chose its
    sub-indexes with at least ``min_confidence``. A route that did not decide searches
    where routing off searches and reorders nothing (issue: routing never below off)."""
    return route.tier != "fallback" and bool(route.subindexes) and route.confidence >= min_confidence


def narrows(route: Route, cfg: Any, named: tuple[str, ...]) -> bool:
    """Whether ``route`` narrows the search to its sub-indexes: it decided, and the question
    names no document (a named document is searched on its own; ``route_named_subindex``
    adds its sub-index filter) and the law tier did not choose a law (searched on its own
    beside the unrouted search, which is reused)."""
    from zhiku.route.laws import LAWS_TIER

    return (decides(route, cfg.route_min_confidence) and route.tier != LAWS_TIER
            and (not named or cfg.route_named_subindex))


def group_by_document(hits: list[Hit]) -> dict[str, list[int]]:
    """Evidence from the same document together: doc id → 1-based ranks of its hits, in
    the order of each document's best hit."""
    out: dict[str, list[int]] = {}
    for i, h in enumerate(hits, 1):
        out.setdefault(h.chunk.doc_id, []).append(i)
    return out


def fused_order(lists: list[list[Hit]], cfg: Any, alpha: float, words: int = 0) -> list[Hit]:
    """The keyword and dense lists fused with the configured fusion (one list as it is;
    ``words``: the question's, see :func:`zhiku.retrieve.fusion.fuse_search`)."""
    lists = [x for x in lists if x]
    if len(lists) <= 1:
        return lists[0] if lists else []
    return fuse_search(lists, cfg, alpha, words=words)


def _per_retriever(found: list[list[list[Hit]]], k: int) -> list[list[Hit]]:
    """The lists of several sub-index searches merged retriever by retriever (keyword with
    keyword, dense with dense) with RRF, so the ask fuses one keyword and one dense list
    whether one sub-index was searched or several."""
    if len(found) == 1:
        return found[0]
    width = max((len(x) for x in found), default=0)
    return [rrf([x[i] for x in found if i < len(x) and x[i]], k=k) for i in range(width)]


def routed_search(kb: Any, route: Route, scope: Scope, search: Searcher, terms: list[str],
                  named: tuple[str, ...], alpha: float, trace: list[TraceStep],
                  evidence: list[Hit] | None = None) -> Routed:
    """Search where the route says, and nowhere else — when the route decided.

    1. A route that did not decide (see :func:`decides`) searches ``scope`` as routing
       off does and picks no chapters: it neither narrows nor reorders.
    2. A decided route of a question naming documents searches ``scope`` too (the ask
       searches inside the named documents and ranks them first); otherwise each routed
       sub-index is searched (in parallel) inside ``scope`` narrowed by the sub-index
       filter, the per-sub-index lists merged retriever by retriever with RRF.
    3. For the routed documents (``named`` first, then the best-hit ones) 1–3 chapters
       are picked (for every route: ``Route.chapter_picks``); when the route decided,
       step 2's hits inside a sure pick become one more ranked list, put first (a lift in
       the ask's fusion, not a filter) — no second search.

    Args:
        kb: the knowledge base (store, catalog, config).
        route: the router's decision (sub-indexes, question type).
        scope: the caller's scope; sub-index filters are added to it, never dropped.
        search: runs the configured retrievers inside a scope.
        terms: question words for chapter titles.
        named: document ids the question names.
        alpha: dense weight for weighted fusion (from the question type).
        trace: receives the retrievers' steps and a ``chapters`` step.
        evidence: the ranking inside the named documents, which picks their chapters
            (default: the routed search's own).

    Returns:
        The ranked lists and their fused order, the route completed with chapters, the
        document groups.
    """
    cfg = kb.config
    decided = decides(route, cfg.route_min_confidence)
    if narrows(route, cfg, named):
        lists = _in_subindexes(kb, route, scope, search, trace)
    else:
        # undecided: where routing off searches. Named documents: the ask searches inside
        # them anyway (their own list, their hits first); the sub-index filter on top would
        # only shrink the ranks of the weaker list inside the named law and so lift its noise
        lists = [x for x in search(scope, trace) if x]
    hits = fused_order(lists, cfg, alpha, len(terms))
    if cfg.route_docs:  # picked for every route (routing accuracy reads them), used as below
        use = decided or cfg.chapters_within_documents
        first, route = _chapters(kb, route, terms, named, evidence or hits, trace, use)
        if first and decided:
            lists = [first, *lists]
            hits = rrf([first, hits], k=cfg.rrf_k)
        elif first:  # no route chose documents: their places stay, a chapter orders its own
            hits = within_documents(hits, first)
            lists = [hits]
    return Routed(hits, route, group_by_document(hits), lists)


def within_documents(hits: list[Hit], first: list[Hit]) -> list[Hit]:
    """``hits`` with each document's hits in ``first`` moved ahead of its other hits, into
    the places (and scores) that document held: the documents' order is left as it was.

    Args:
        hits: ranked hits.
        first: the hits to put first within their documents (a sure chapter's).
    """
    lead = {h.chunk.id for h in first}
    slots: dict[str, list[int]] = {}
    for i, h in enumerate(hits):
        slots.setdefault(h.chunk.doc_id, []).append(i)
    out = list(hits)
    for places in slots.values():
        mine = [hits[i] for i in places]
        order = [h for h in mine if h.chunk.id in lead] + [h for h in mine if h.chunk.id not in lead]
        for i, h in zip(places, order):
            out[i] = replace(h, score=hits[i].score)
    return out


def _in_subindexes(kb: Any, route: Route, scope: Scope, search: Searcher,
                   trace: list[TraceStep]) -> list[list[Hit]]:
    """The lists of a search in each routed sub-index (in parallel), merged per retriever."""
    router = kb.router()
    subs = [router.by_name[n] for n in route.subindexes if n in router.by_name]
    scopes = [s for s in (sub.scope(scope) for sub in subs) if s is not None] or [scope]
    traces: list[list[TraceStep]] = [[] for _ in scopes]
    if len(scopes) == 1:
        found = [search(scopes[0], traces[0])]
    else:
        with ThreadPoolExecutor(max_workers=len(scopes)) as pool:
            found = list(pool.map(lambda i: search(scopes[i], traces[i]), range(len(scopes))))
    for t in traces:
        trace.extend(t)
    return [x for x in _per_retriever(found, kb.config.rrf_k) if x]


def _chapters(kb: Any, route: Route, terms: list[str], named: tuple[str, ...], hits: list[Hit],
              trace: list[TraceStep], use: bool = True) -> tuple[list[Hit], Route]:
    """The candidates of the picked chapters (none unless ``use`` and a pick is sure, see
    :func:`_unsure`), and the route with its picks (``chapter_picks``, used or not) and the
    chapters used (``chapters``): ``hits`` that lie in the picks, in their order (one search
    per ask, re-ranked by the chapter router, instead of a second search inside the
    chapters)."""
    import time

    cfg = kb.config
    t0 = time.perf_counter()
    docs = [d for d in (kb.store.get_doc(i) for i in routed_docs(hits, named, cfg.route_docs)) if d]
    picks = pick_chapters(docs, terms, hits, cfg)
    route = replace(route, chapter_picks=tuple(picks))
    detail: dict[str, Any] = {"docs": [d.path for d in docs], "picks": [p.label for p in picks]}
    why = _unsure(picks, docs, terms, named, cfg) if use else "the route did not decide"
    if why is not None:
        # putting unsure scopes first would only reorder the search's ranking by guesswork,
        # so the picks are recorded (trace, chapter_picks), not used
        detail.update({"skipped": why} if picks else {})
        trace.append(TraceStep("chapters", time.perf_counter() - t0, detail))
        return [], route
    found = in_chapters(hits, picks)
    empty = [p for p in picks if p.section_id and not any(h.chunk.doc_id == p.doc_id for h in found)]
    if empty:  # a chapter no candidate lies in: its whole document instead
        picks = [replace(p, section_id="", label=p.label + "（全文）", widened=True) if p in empty else p
                 for p in picks]
        found = in_chapters(hits, picks)
    detail.update(found=len(found), fallback_docs=len(empty))
    trace.append(TraceStep("chapters", time.perf_counter() - t0, detail))
    return found, replace(route, chapters=tuple(picks), doc_ids=tuple(d.doc_id for d in docs))


def _unsure(picks: list[ChapterPick], docs: list[Any], terms: list[str], named: tuple[str, ...],
            cfg: Any) -> str | None:
    """Why no pick is sure enough to re-rank, or None when one is: a pick at or above
    ``chapter_confidence`` (not widened), for a question of at most ``chapter_max_words``
    words (a case narrative's names and places meet chapter titles by chance: a chapter its
    hits cluster in, picked by one such word, put 刑法's 第二百八十条 out of the top five); in
    documents guessed from the hits, not named, one
    whose title holds the question's words (第四章 工作时间和休息休假 for 每天工作时间: one
    picked only because its document's hits cluster in it says nothing about that document,
    and a guide's 参数说明 would push the manual holding the best hit down); and one spanning
    at most ``chapter_max_share`` of its document (刑法's 第二编 分则 is no choice)."""
    confident = [p for p in picks if not p.widened]
    if not confident:
        return "no chapter reached chapter_confidence"
    if cfg.chapter_max_words and len(terms) > cfg.chapter_max_words:
        return "a narrative's words meet chapter titles by chance (chapter_max_words)"
    titled = confident if named else [p for p in confident if title_weight(terms, p.label) > 0]
    if not titled:
        return "no sure chapter's title holds the question's words"
    by_id = {d.doc_id: d for d in docs}
    if not any(span_share(by_id[p.doc_id], p.section_id) <= cfg.chapter_max_share for p in titled):
        return "every sure chapter spans most of its document (chapter_max_share)"
    return None


def in_chapters(hits: list[Hit], picks: list[ChapterPick]) -> list[Hit]:
    """The hits that lie in one of the picked chapters (a pick without a section: its
    whole document), in their order.

    Args:
        hits: ranked hits.
        picks: the chapter router's picks.
    """
    from zhiku.route.chapters import under

    want: dict[str, list[str]] = {}
    for p in picks:
        want.setdefault(p.doc_id, []).append(p.section_id)
    out = []
    for h in hits:
        secs = want.get(h.chunk.doc_id)
        if secs is not None and any(not s or under(s, (h.chunk.section_id, *h.chunk.section_ids)) for s in secs):
            out.append(h)
    return out


def note_route(trace: list[TraceStep], route: Route, groups: dict[str, list[int]]) -> None:
    """Complete the trace's ``route`` step with the chapters picked and the document groups."""
    for i, t in enumerate(trace):
        if t.stage == "route":
            trace[i] = replace(t, detail={**t.detail, **route.to_dict(),
                                          "groups": dict(list(groups.items())[:5])})
