"""Routed search: every search goes through :func:`routed_search`, which always applies the
route's sub-index filter; several sub-indexes are searched in parallel and fused with RRF,
then the hits in the chosen chapters are put first (fused on top)."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from typing import Any

from zhiku.index.store import Scope
from zhiku.retrieve.fusion import fuse_search, rrf
from zhiku.route.chapters import pick_chapters, routed_docs, title_weight
from zhiku.types import ChapterPick, Hit, Route, TraceStep

# (scope, trace) -> ranked lists (keyword, dense) inside that scope
Searcher = Callable[[Scope, list[TraceStep]], list[list[Hit]]]


@dataclass(frozen=True)
class Routed:
    """The fused hits of a routed search, the route with its chapters, and the hits
    grouped by document (doc id → ranks, best document first)."""

    hits: list[Hit]
    route: Route
    groups: dict[str, list[int]]


def group_by_document(hits: list[Hit]) -> dict[str, list[int]]:
    """Evidence from the same document together: doc id → 1-based ranks of its hits, in
    the order of each document's best hit."""
    out: dict[str, list[int]] = {}
    for i, h in enumerate(hits, 1):
        out.setdefault(h.chunk.doc_id, []).append(i)
    return out


def _one(lists: list[list[Hit]], cfg: Any, alpha: float) -> list[Hit]:
    lists = [x for x in lists if x]
    if len(lists) <= 1:
        return lists[0] if lists else []
    return fuse_search(lists, cfg, alpha)


def routed_search(kb: Any, route: Route, scope: Scope, search: Searcher, terms: list[str],
                  named: tuple[str, ...], alpha: float, trace: list[TraceStep]) -> Routed:
    """Search where the route says, and nowhere else.

    1. Each routed sub-index is searched (in parallel) inside ``scope`` narrowed by the
       sub-index filter; the per-sub-index lists are fused with RRF.
    2. For the routed documents (``named`` first, then the best-hit ones) 1–3 chapters
       are picked; step 1's hits inside them come first (a chapter none lies in falls
       back to its whole document), fused with RRF on top of step 1 — no second search.

    Args:
        kb: the knowledge base (store, catalog, config).
        route: the router's decision (sub-indexes, question type).
        scope: the caller's scope; sub-index filters are added to it, never dropped.
        search: runs the configured retrievers inside a scope.
        terms: question words for chapter titles.
        named: document ids the question names.
        alpha: dense weight for weighted fusion (from the question type).
        trace: receives the retrievers' steps and a ``chapters`` step.

    Returns:
        The ranked hits, the route completed with chapters, the document groups.
    """
    cfg = kb.config
    router = kb.router()
    subs = [router.by_name[n] for n in route.subindexes if n in router.by_name]
    scopes = [s for s in (sub.scope(scope) for sub in subs) if s is not None]
    if route.tier == "fallback" or not scopes:
        scopes = [scope]  # every sub-index: one search over all of them
    traces: list[list[TraceStep]] = [[] for _ in scopes]
    if len(scopes) == 1:
        lists = [_one(search(scopes[0], traces[0]), cfg, alpha)]
    else:
        with ThreadPoolExecutor(max_workers=len(scopes)) as pool:
            lists = list(pool.map(lambda i: _one(search(scopes[i], traces[i]), cfg, alpha),
                                  range(len(scopes))))
    for t in traces:
        trace.extend(t)
    hits = rrf(lists, k=cfg.rrf_k) if len(lists) > 1 else lists[0]
    if cfg.route_docs:
        hits, route = _chapters(kb, route, terms, named, hits, trace)
    return Routed(hits, route, group_by_document(hits))


def _chapters(kb: Any, route: Route, terms: list[str], named: tuple[str, ...], hits: list[Hit],
              trace: list[TraceStep]) -> tuple[list[Hit], Route]:
    """The candidates of the picked chapters first: the sub-index search's hits that lie
    in a picked chapter are fused with RRF on top of all of them (one search per ask,
    re-ranked by the chapter router, instead of a second search inside the chapters)."""
    import time

    cfg = kb.config
    t0 = time.perf_counter()
    docs = [d for d in (kb.store.get_doc(i) for i in routed_docs(hits, named, cfg.route_docs)) if d]
    picks = pick_chapters(docs, terms, hits, cfg)
    detail: dict[str, Any] = {"docs": [d.path for d in docs], "picks": len(picks)}
    confident = [p for p in picks if not p.widened]
    sure = confident
    if not named:
        # documents guessed from the hits, not named: a chapter decides only when its title
        # holds the question's words (第四章 工作时间和休息休假 for 每天工作时间). One picked
        # only because its document's hits cluster in it says nothing about that document
        # (a guide's 参数说明 would push the manual holding the best hit down)
        sure = [p for p in confident if title_weight(terms, p.label) > 0]
    if picks and not sure:
        # no chapter is sure enough: putting widened scopes first would only reorder the
        # sub-index ranking by guesswork, so the picks are recorded but not used
        detail["skipped"] = ("no sure chapter's title holds the question's words" if confident
                             else "no chapter reached chapter_confidence")
        trace.append(TraceStep("chapters", time.perf_counter() - t0, detail))
        return hits, replace(route, chapters=tuple(picks), doc_ids=tuple(d.doc_id for d in docs))
    if not picks:
        trace.append(TraceStep("chapters", time.perf_counter() - t0, detail))
        return hits, route
    found = in_chapters(hits, picks)
    empty = [p for p in picks if p.section_id and not any(h.chunk.doc_id == p.doc_id for h in found)]
    if empty:  # a chapter no candidate lies in: its whole document instead
        picks = [replace(p, section_id="", label=p.label + "（全文）", widened=True) if p in empty else p
                 for p in picks]
        found = in_chapters(hits, picks)
    detail.update(found=len(found), fallback_docs=len(empty))
    trace.append(TraceStep("chapters", time.perf_counter() - t0, detail))
    fused = rrf([found, hits], k=cfg.rrf_k) if found else hits
    return fused, replace(route, chapters=tuple(picks), doc_ids=tuple(d.doc_id for d in docs))


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
