"""The roles of an ask as small classes with typed inputs and outputs: router, searcher,
reranker, answerer, verifier, web searcher. Each wraps a pipeline stage; :func:`perform`
runs one with its timeout, checks what it hands over and falls back when it fails."""

from __future__ import annotations

import re
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, ClassVar, Generic, TypeVar

from zhiku.agents.web import WEB_NOTE
from zhiku.errors import ZhikuError
from zhiku.index.store import Scope
from zhiku.pipeline import Mode, Retrieval, answer_from, retrieve
from zhiku.retrieve.clause import ClauseRef
from zhiku.types import Answer, Chunk, Citation, Hit, Route, TraceStep, WebSource
from zhiku.verify.citations import support, verify

_WEB_MARKED = re.compile(r"([^\[\]]+?)((?:\[W\d+\])+)")

I = TypeVar("I")
O = TypeVar("O")


class HandoverError(ZhikuError):
    """A role handed over a value that lacks a field the next role needs."""


def handover(role: str, value: Any, kind: type) -> Any:
    """Check what ``role`` hands over: a ``kind`` whose required fields are all set.

    Args:
        role: the role's name (for the message).
        value: what it returned.
        kind: the dataclass the next role expects.

    Returns:
        ``value`` unchanged.

    Raises:
        HandoverError: wrong type, or a required field is missing (None); the message
            names the role and the field.
    """
    if not isinstance(value, kind):
        raise HandoverError(f"the {role} role handed over {type(value).__name__}, not {kind.__name__}")
    for f in fields(kind):
        required = f.default is MISSING and f.default_factory is MISSING
        if required and getattr(value, f.name, None) is None:
            raise HandoverError(f"the {role} role handed over a {kind.__name__} without its "
                                f"{f.name!r} field")
    return value


# -- what roles hand each other ------------------------------------------------------------
@dataclass(frozen=True)
class Query:
    """A (standalone) question and where to look."""

    question: str
    scope: Scope = Scope()
    mode: Mode = Mode.HYBRID
    route: Route | None = None


@dataclass(frozen=True)
class Routing:
    """The router's decision and the documents/article the question names."""

    route: Route
    ref: ClauseRef


@dataclass(frozen=True)
class Evidence:
    """Ranked hits for a query, with the retrieval that found them; ``hits`` are the
    reranked ones once the reranker has run."""

    query: Query
    retrieval: Retrieval
    hits: tuple[Hit, ...] | None = None


@dataclass(frozen=True)
class Draft:
    """An answer text with ``[n]`` markers and the blocks the markers number."""

    question: str
    text: str
    blocks: dict[int, Chunk]
    web: dict[str, WebSource] = field(default_factory=dict)


@dataclass(frozen=True)
class Verified:
    """A draft after verification: unsupported sentences and unknown markers removed;
    sentences citing web results (``[Wn]``) kept apart, under the web label."""

    text: str
    citations: tuple[Citation, ...]
    removed: tuple[str, ...] = ()
    web_text: str = ""
    web: tuple[WebSource, ...] = ()


@dataclass(frozen=True)
class WebFound:
    """What the web searcher found for a query."""

    query: str
    sources: tuple[WebSource, ...] = field(default_factory=tuple)


class Role(Generic[I, O]):
    """One step of an ask: ``run`` does the work, ``fallback`` is the defined result when
    it fails or runs out of time. ``timeout_key`` names its Config setting (None: none)."""

    name: ClassVar[str] = "role"
    output: ClassVar[type] = object
    fallback_name: ClassVar[str] = ""
    timeout_key: ClassVar[str | None] = None

    def __init__(self, kb: Any) -> None:
        self.kb = kb

    def timeout(self) -> float | None:
        """Seconds this role may take (from config), or None."""
        return getattr(self.kb.config, self.timeout_key) if self.timeout_key else None

    def run(self, inp: I) -> O:  # pragma: no cover - every role overrides it
        """Do the work."""
        raise NotImplementedError

    def fallback(self, inp: I) -> O:  # pragma: no cover - roles without one re-raise
        """The defined result when ``run`` fails."""
        raise NotImplementedError


def submit(role: Role[I, O], inp: I) -> Future:
    """Start ``role`` now on a daemon thread (so it runs beside others, and a call that
    overruns its timeout is abandoned rather than awaited at exit); pass the future to
    :func:`perform`."""
    fut: Future = Future()
    fut.zhiku_start = time.perf_counter()  # type: ignore[attr-defined]

    def work() -> None:
        if not fut.set_running_or_notify_cancel():
            return
        try:
            fut.set_result(role.run(inp))
        except BaseException as e:  # noqa: BLE001 - handed to the waiting perform()
            fut.set_exception(e)

    threading.Thread(target=work, daemon=True, name=f"zhiku-{role.name}").start()
    return fut


def perform(role: Role[I, O], inp: I, trace: list[TraceStep], started: float,
            fut: Future | None = None) -> O:
    """Run ``role`` (or wait for its already submitted ``fut``) within its timeout; on an
    error, a timeout or a bad hand-over use its fallback. A ``role:NAME`` trace step
    records start/end (seconds since ``started``) and any fallback with its reason.

    Args:
        role: the role.
        inp: its input.
        trace: receives the step.
        started: ``time.perf_counter()`` at the start of the ask.
        fut: the role already started with ``inp`` by :func:`submit`.

    Returns:
        The role's output, or its fallback's.

    Raises:
        Exception: only when a role without a fallback fails.
    """
    t0 = time.perf_counter()
    fut = fut or submit(role, inp)
    timeout = role.timeout()
    detail: dict[str, Any] = {}
    try:
        out = handover(role.name, fut.result(timeout=timeout), role.output)
    except Exception as e:  # noqa: BLE001 - a failing role never fails the ask
        if not role.fallback_name:
            raise
        why = f"timed out after {timeout:g}s" if isinstance(e, FutureTimeout) else f"{type(e).__name__}: {e}"
        detail.update(fallback=role.fallback_name, error=why[:300])
        out = role.fallback(inp)
    end = time.perf_counter()
    detail.update(start=round(fut.zhiku_start - started, 4), end=round(end - started, 4))  # type: ignore[attr-defined]
    trace.append(TraceStep(f"role:{role.name}", end - t0, detail))
    return out


# -- the roles -------------------------------------------------------------------------------
class RouterRole(Role[Query, Routing]):
    """The sub-index router cascade (rules → embedding → LLM → fallback, see
    :mod:`zhiku.route`). Fallback: the default route (every sub-index)."""

    name, output, fallback_name, timeout_key = "router", Routing, "default route", "router_timeout"

    def run(self, q: Query) -> Routing:
        """Route ``q`` (the default route when routing is off)."""
        if not self.kb.config.routing:
            return self.fallback(q)
        ref = self.kb.titles().resolve(q.question)
        return Routing(self.kb.router().route(q.question, q.scope, ref), ref)

    def fallback(self, q: Query) -> Routing:
        """Every sub-index."""
        return Routing(Route(reason="default route: every sub-index", tier="fallback"),
                       ClauseRef((), (), None))


class SearcherRole(Role[Query, Evidence]):
    """Keyword + dense retrieval inside the query's scope: where ``route`` sends it (its
    sub-indexes searched in parallel, then its chapters), or everywhere without one.
    Fallback: no hits (the answer is then a refusal that says why)."""

    name, output, fallback_name = "searcher", Evidence, "no hits"

    def run(self, q: Query) -> Evidence:
        """Search for ``q``."""
        mode = Mode.HYBRID if q.mode is Mode.FULL else q.mode
        return Evidence(q, retrieve(self.kb, q.question, mode, q.scope, route=q.route or False))

    def fallback(self, q: Query) -> Evidence:
        """Nothing found."""
        return Evidence(q, Retrieval([], [], ClauseRef((), (), None), False))


class RerankerRole(Role[Evidence, Evidence]):
    """Reorders the hits with the configured reranker (``reranker``: none, dense,
    cross-encoder, llm) and keeps what the answer needs. Fallback: no rerank."""

    name, output, fallback_name, timeout_key = "reranker", Evidence, "no rerank", "rerank_timeout"

    def run(self, e: Evidence) -> Evidence:
        """Rerank ``e``'s hits (its trace gets the ``rerank`` step)."""
        from zhiku.rerank import rerank

        trace: list[TraceStep] = []
        hits = rerank(self.kb, e.query.question, e.retrieval.hits, trace)
        return Evidence(e.query, replace(e.retrieval, trace=[*e.retrieval.trace, *trace]), tuple(hits))

    def fallback(self, e: Evidence) -> Evidence:
        """The fused order."""
        return Evidence(e.query, e.retrieval, tuple(e.retrieval.hits))


class AnswererRole(Role[Evidence, Answer]):
    """Drafts (LLM answerer when configured, else the extractive composer), verifies and
    finishes the answer, or refuses. Fallback: the offline extractive answer."""

    name, output, fallback_name, timeout_key = "answerer", Answer, "extractive answer", "answer_timeout"

    def _answer(self, e: Evidence, llm: bool) -> Answer:
        hits = list(e.hits) if e.hits is not None else list(e.retrieval.hits)
        return answer_from(self.kb, e.query.question, e.retrieval, e.query.scope, hits, llm)

    def run(self, e: Evidence) -> Answer:
        """Answer from ``e``."""
        return self._answer(e, llm=True)

    def fallback(self, e: Evidence) -> Answer:
        """The extractive composer's answer (a refusal if even that fails)."""
        try:
            return self._answer(e, llm=False)
        except Exception as err:  # noqa: BLE001 - the ask still gets an answer
            return Answer(e.query.question, self.kb.config.refusal_text, (), 0.0, True,
                          reason=f"the answer could not be composed: {err}")


class VerifierRole(Role[Draft, Verified]):
    """Checks every ``[n]`` of a draft: a marker must name a given block and its sentence
    must be supported by that block; anything else is removed (never shown as cited)."""

    name, output = "verifier", Verified

    def run(self, d: Draft) -> Verified:
        """Verify ``d``: keep cited sentences whose known blocks support them, renumbered."""
        kept: list[tuple[str, tuple[int, ...]]] = []
        removed: list[str] = []
        for c in verify(d.text, d.blocks):
            sent = c.sentence.strip().lstrip("。；，！？\n ")
            known = tuple(m for m in c.markers if m in d.blocks)
            if c.supported and known and sent:
                kept.append((sent, known))
            elif sent:
                removed.append(sent)
        renum: dict[int, int] = {}
        for _, ms in kept:
            for m in ms:
                renum.setdefault(m, len(renum) + 1)
        text = "".join(f"{s.rstrip('。；')}{''.join(f'[{renum[m]}]' for m in ms)}。" for s, ms in kept)
        cites = tuple(_cite(new, d.blocks[old]) for old, new in renum.items())
        web_lines, used_web = [], {}
        for m in _WEB_MARKED.finditer(d.text):
            sent = m.group(1).strip().lstrip("。；，！？\n ")
            keys = [k for k in re.findall(r"W\d+", m.group(2)) if k in d.web]
            if sent and keys and max(support(sent, d.web[k].snippet) for k in keys) >= 0.6:
                web_lines.append(f"{sent.rstrip('。；')}{''.join(f'[{k}]' for k in keys)}。")
                used_web.update({k: d.web[k] for k in keys})
            elif sent:
                removed.append(sent)
        web = WEB_NOTE + "\n" + "".join(web_lines) if web_lines else ""
        return Verified(text, cites, tuple(removed), web, tuple(used_web.values()))


def _cite(marker: int, c: Chunk) -> Citation:
    return Citation(marker, c.id, c.doc_path, c.title, c.section_path, c.article, c.text[:200],
                    c.version_date, c.page)


class WebSearcherRole(Role[Query, WebFound]):
    """Searches the web (only ever called when the knowledge base has no sufficient
    evidence and ``web_search`` is on). Fallback: nothing found."""

    name, output, fallback_name, timeout_key = "web", WebFound, "no web results", "web_timeout"

    def run(self, q: Query) -> WebFound:
        """Search the web for ``q``."""
        from zhiku.agents.web import web_providers  # noqa: PLC0415

        cfg = self.kb.config
        found = web_providers.create(cfg.web_provider, cfg).search(q.question, cfg.web_results)
        return WebFound(q.question, tuple(found))

    def fallback(self, q: Query) -> WebFound:
        """No web evidence."""
        return WebFound(q.question, ())
