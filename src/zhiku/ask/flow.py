"""The one ask: every door (CLI, HTTP, MCP, agents, eval, benchmarks) answers through
:func:`ask_stream`; each step is a named stage of :mod:`zhiku.ask.stages` and a trace step."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from zhiku.answer.respond import pieces
from zhiku.ask import stages as s
from zhiku.ask.query import Query
from zhiku.ask.run import Run
from zhiku.types import Answer, AskEvent


def ask_stream(kb: Any, query: Query) -> Iterator[AskEvent]:
    """Answer ``query`` as events: ``step`` when a stage ends, ``delta`` pieces of text
    (an LLM's tokens as they arrive, provisional; else the answer's sentences), then the
    ``answer`` (verified, with citations, confidence and the trace of every stage).

    Steps: validate → rewrite → (encode ∥) cache → [agent] → structured → prepare → route ∥ search →
    routed search → rerank → confidence → refuse? or draft → verify → finish → join →
    web? → store. Slow or fallible stages run as roles, within their timeouts and with
    their fallbacks.

    Raises:
        ZhikuError: the query is invalid (before the first event), or a structured
            source is broken.
    """
    run = Run(kb)
    q = run.step("validate", s.validated, query)
    q = run.step("rewrite", s.rewrite, q)
    run.start(s.encode_early, q)                                        # encode ∥ the rest
    ans = run.step("cache", s.cache_lookup, q)
    cached = ans is not None
    if ans is None and q.agent:
        ans = run.step("agent", s.agent_mode, q)
    table = run.step("structured", s.structured, q) if ans is None else None
    yield from run.events()
    d = s.documents_query(q, table) if ans is None else None
    doc: Answer | None = None
    if d is not None:
        p = run.step("prepare", s.prepared, d)
        routing = run.start(s.start_route, p)                           # route ∥ search
        first = run.step("search", s.search, p, routing)
        found = run.step("routed search", s.routed_search, p, run.step("route", s.route, routing), first)
        ranked = run.step("rerank", s.rerank, found)
        conf = run.step("confidence", s.confident, ranked)
        yield from run.events()
        if conf.refuse:
            doc = run.step("refuse", s.refuse, d, ranked, conf)
        else:
            drafted = yield from run.stream("draft", s.draft, d, ranked, conf)
            doc = run.step("finish", s.finish, d, ranked, run.step("verify", s.verify, drafted), conf)
    ans = ans or run.step("join", s.joined, table, doc)
    ans = ans if cached else run.step("web", s.web, q, ans)
    if not cached:
        run.step("store", s.cache_store, q, ans)
    yield from run.events()
    yield from (AskEvent("delta", text=t) for t in ([] if run.streamed else pieces(ans.text)))
    yield AskEvent("answer", answer=s.done(run, q, ans))


def ask(kb: Any, query: Query) -> Answer:
    """:func:`ask_stream` drained: the final answer.

    Args:
        kb: the knowledge base.
        query: the question and how to answer it.

    Raises:
        ZhikuError: as :func:`ask_stream`.
    """
    ans = None
    for ev in ask_stream(kb, query):
        ans = ev.answer or ans
    assert ans is not None
    return ans
