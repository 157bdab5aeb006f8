"""The roles of the ask (router, searcher, reranker, answerer, web searcher), each a
stage that may be slow or fail, with typed hand-overs and a defined fallback."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from zhiku.answer.respond import Draft
from zhiku.ask.roles import Role
from zhiku.ask.search import Prepared, Retrieval, fused, fuzzy, route_question, routed
from zhiku.retrieve.clause import ClauseRef
from zhiku.route.search import note_route
from zhiku.types import Hit, Route, TraceStep, WebSource


@dataclass(frozen=True)
class Routing:
    """The router's decision; ``decided`` is False for the role's fallback (routing off,
    the router failed or ran out of time): the first search then stands."""

    route: Route
    ref: ClauseRef
    decided: bool = True


@dataclass(frozen=True)
class SearchJob:
    """A search to run: the prepared question, the route (None: unrouted) and the lists
    of the unrouted search, which the default route reuses."""

    prepared: Prepared
    route: Route | None
    reuse: tuple[list[Hit], ...] = ()


@dataclass(frozen=True)
class Searched:
    """The ranked lists of one search, fused into a retrieval, and the search's steps."""

    lists: tuple[list[Hit], ...]
    retrieval: Retrieval | None = None  # set by a routed search
    trace: tuple[TraceStep, ...] = ()


@dataclass(frozen=True)
class Ranked:
    """A retrieval and its hits in the reranked order."""

    retrieval: Retrieval
    hits: tuple[Hit, ...]
    trace: tuple[TraceStep, ...] = ()


@dataclass(frozen=True)
class Drafting:
    """What the answerer writes from: the question, its terms, the evidence blocks."""

    question: str
    terms: tuple[str, ...]
    evidence: tuple[Hit, ...]
    exact: bool
    qtype: str
    stream: bool = True
    composed: str = ""  # the offline answer already composed from this evidence (empty: none)


@dataclass(frozen=True)
class WebFound:
    """What the web searcher found for a query."""

    query: str
    sources: tuple[WebSource, ...] = field(default_factory=tuple)


class RouterRole(Role[Prepared, Routing]):
    """The sub-index router cascade (rules → embedding → LLM → its own fallback, see
    :mod:`zhiku.route`). Fallback: the first, unrouted search stands."""

    name, output, fallback_name, timeout_key = "router", Routing, "default route", "router_timeout"

    def run(self, p: Prepared) -> Routing:
        """Route ``p`` (the fallback when routing is off)."""
        if not self.kb.config.routing:
            return Routing(Route(reason="routing is off", tier="fallback"), p.ref, False)
        return Routing(route_question(self.kb, p), p.ref)

    def fallback(self, p: Prepared) -> Routing:
        """Every sub-index, searched by the first search."""
        return Routing(Route(reason="default route: every sub-index", tier="fallback"), p.ref, False)


class SearcherRole(Role[SearchJob, Searched]):
    """Keyword + dense retrieval inside the query's scope: where the route sends it (its
    sub-indexes in parallel, then its chapters), or everywhere without one. Fallback: no
    hits (the answer is then a refusal that says why)."""

    name, output, fallback_name = "searcher", Searched, "no hits"

    def run(self, job: SearchJob) -> Searched:
        """Search for ``job``."""
        p, trace = job.prepared, []
        if job.route is None:
            lists = fuzzy(self.kb, p, p.scope, trace)
            return Searched(tuple(lists), None, tuple(trace))
        r = routed(self.kb, p, job.route, list(job.reuse), trace)
        trace = list(r.trace)
        note_route(trace, r.route, r.groups)
        return Searched((list(r.hits),), r, tuple(trace))

    def fallback(self, job: SearchJob) -> Searched:
        """Nothing found."""
        p = job.prepared
        return Searched((), Retrieval([], p.terms, p.ref, False, question=p.question), ())


class RerankerRole(Role[Retrieval, Ranked]):
    """Reorders the hits with the configured reranker (``reranker``: a registered name)
    and keeps what the answer needs. Fallback: the fused order."""

    name, output, fallback_name, timeout_key = "reranker", Ranked, "no rerank", "rerank_timeout"

    def run(self, r: Retrieval) -> Ranked:
        """Rerank ``r``'s hits (the ``rerank`` step goes into the trace)."""
        from zhiku.rerank import rerank

        trace: list[TraceStep] = []
        hits = rerank(self.kb, r.question, r.hits, trace)
        return Ranked(r, tuple(hits), tuple(trace))

    def fallback(self, r: Retrieval) -> Ranked:
        """The fused order."""
        return Ranked(r, tuple(r.hits))


class AnswererRole(Role[Drafting, Any]):
    """Writes the answer (the LLM answerer when configured, else the extractive
    composer). Its ``run`` yields the LLM's tokens as they arrive. Fallback: the
    extractive composer's draft."""

    name, output, fallback_name, timeout_key = "answerer", Draft, "extractive answer", "answer_timeout"

    def run(self, d: Drafting):
        """Write the draft; yields ``delta`` events while an LLM streams."""
        from zhiku.answer.respond import draft

        return draft(self.kb, d.question, d.terms, d.evidence, d.exact, d.qtype, d.stream, composed=d.composed)

    def fallback(self, d: Drafting) -> Draft:
        """The extractive composer's draft."""
        from zhiku.answer.respond import draft

        gen = draft(self.kb, d.question, d.terms, d.evidence, d.exact, d.qtype, False, llm=False,
                    composed=d.composed)
        try:
            while True:
                next(gen)
        except StopIteration as stop:
            return stop.value


class WebSearcherRole(Role[str, WebFound]):
    """Searches the web (only ever called when the knowledge base has no sufficient
    evidence and ``web_search`` is on). Fallback: nothing found."""

    name, output, fallback_name, timeout_key = "web", WebFound, "no web results", "web_timeout"

    def run(self, question: str) -> WebFound:
        """Search the web for ``question``."""
        from zhiku.agents.web import web_providers

        cfg = self.kb.config
        found = web_providers.create(cfg.web_provider, cfg).search(question, cfg.web_results)
        return WebFound(question, tuple(found))

    def fallback(self, question: str) -> WebFound:
        """No web evidence."""
        return WebFound(question, ())
