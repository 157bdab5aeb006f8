"""Routing accuracy for ``zhiku eval``: does the gold document lie in the chosen
sub-indexes, and the gold article in the chosen chapters?"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from zhiku.eval.dataset import EvalItem
from zhiku.index.store import Scope
from zhiku.types import Route


@dataclass(frozen=True)
class RoutingRow:
    """Routing accuracy of one retrieval mode on one question set.

    ``subindex_acc``: share of questions (with gold) whose gold document lies in a chosen
    sub-index (a fallback to every sub-index counts as a hit); ``routed`` the share decided
    by a tier other than the fallback; ``chapter_acc`` the share whose gold article lies in
    a chapter the chapter router picked, used or not (``Route.chapter_picks``; a pick
    widened to its whole document counts as that document), over questions with a gold
    article; ``chapter_strict`` the same counting only picks narrower than their document;
    ``chapters_used`` the share whose picks were put first (``Route.chapters``); ``tiers``
    how often each tier decided.
    """

    set: str
    mode: str
    n: int
    subindex_acc: float | None
    routed: float | None
    chapter_acc: float | None
    tiers: dict[str, int]
    chapter_strict: float | None = None
    chapters_used: float | None = None


def _gold_in_chapters(kb: Any, route: Route, item: EvalItem, ids_of: dict[str, set[str]],
                      whole: bool = True) -> bool:
    """Whether a gold article of ``item`` lies in one of the route's chapter picks (used or
    not); ``whole``: a pick without a section (its whole document) counts as holding it."""
    for g in item.gold:
        for doc_id in ids_of.get(g.doc, ()):
            picks = [c for c in route.chapter_picks if c.doc_id == doc_id and (whole or c.section_id)]
            if not picks or not g.article:
                continue
            found = kb.store.find(Scope(doc_ids=(doc_id,), article=g.article, versions="all"), limit=20)
            for p in picks:
                if not p.section_id or any(c.section_id == p.section_id or c.section_id.startswith(p.section_id + ".")
                                           or p.section_id in c.section_ids for c in found):
                    return True
    return False


def routing_row(kb: Any, name: str, mode: str, items: list[EvalItem], routes: dict[str, Route]) -> RoutingRow:
    """Score the routes recorded for ``items`` (question → Route) in one mode."""
    sub_of: dict[str, set[str]] = {}
    ids_of: dict[str, set[str]] = {}
    for d in kb.store.documents():
        for p in (d.path, *d.aliases):
            sub_of.setdefault(p, set()).add(d.subindex)
            ids_of.setdefault(p, set()).add(d.doc_id)
    for s in kb.router().subs:
        for d in kb.store.documents():
            if d.doc_id in s.doc_ids:
                for p in (d.path, *d.aliases):
                    sub_of.setdefault(p, set()).add(s.name)
    scored = [it for it in items if it.answerable and it.gold and it.question in routes]
    sub_hits, routed, ch_hits, ch_n, strict, used = 0, 0, 0, 0, 0, 0
    tiers: Counter[str] = Counter()
    for it in scored:
        r = routes[it.question]
        tiers[r.tier] += 1
        routed += r.tier != "fallback"
        gold_subs = set().union(*(sub_of.get(g.doc, set()) for g in it.gold))
        sub_hits += r.tier == "fallback" or bool(gold_subs & set(r.subindexes))
        if any(g.article for g in it.gold):
            ch_n += 1
            ch_hits += _gold_in_chapters(kb, r, it, ids_of)
            strict += _gold_in_chapters(kb, r, it, ids_of, whole=False)
            used += bool(r.chapters)
    n = len(scored)
    share = (lambda v: v / ch_n if ch_n else None)
    return RoutingRow(name, mode, n, sub_hits / n if n else None, routed / n if n else None,
                      share(ch_hits), dict(tiers), share(strict), share(used))


def format_routing(rows: list[RoutingRow]) -> str:
    """A Markdown table of routing rows."""
    def f(v: float | None) -> str:
        return "–" if v is None else f"{v:.3f}"

    out = ["| set | mode | n | gold doc in chosen sub-indexes | routed (not fallback) | "
           "gold article in chosen chapters | in a chapter, not a whole document | chapters put first | "
           "tiers |", "|:--|:--|--:|--:|--:|--:|--:|--:|:--|"]
    for r in rows:
        tiers = ", ".join(f"{k} {v}" for k, v in sorted(r.tiers.items()))
        out.append(f"| {r.set} | {r.mode} | {r.n} | {f(r.subindex_acc)} | {f(r.routed)} | "
                   f"{f(r.chapter_acc)} | {f(r.chapter_strict)} | {f(r.chapters_used)} | {tiers} |")
    return "\n".join(out)
