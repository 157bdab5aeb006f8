"""The orchestrator: rewrite a follow-up, consult the answer cache, run the router beside
the first (unrouted) retrieval, search where it routes (sub-indexes concurrently, then
chapters; the first retrieval is the fallback), rerank, answer, and go to
the web only when the documents hold no sufficient evidence and ``web_search`` is on."""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from typing import Any

from zhiku.agents.rewrite import Exchange, RewriterRole, Turn, history_from
from zhiku.agents.roles import (AnswererRole, Evidence, Query, RerankerRole, RouterRole, Routing,
                                SearcherRole, WebFound, WebSearcherRole, perform, submit)
from zhiku.agents.web import web_text
from zhiku.errors import ZhikuError
from zhiku.index.store import Scope
from zhiku.pipeline import Mode
from zhiku.retrieve.synonyms import load_synonyms
from zhiku.types import Answer, TraceStep


class Orchestrator:
    """Runs the roles of an ask over one knowledge base, each within its timeout and with
    its fallback; a failing role never fails the ask, and the trace says what happened."""

    def __init__(self, kb: Any) -> None:
        self.kb = kb
        self.rewriter = RewriterRole(kb)
        self.router = RouterRole(kb)
        self.searcher = SearcherRole(kb)
        self.reranker = RerankerRole(kb)
        self.answerer = AnswererRole(kb)
        self.web = WebSearcherRole(kb)
        self._cache: Any = None
        self._sessions: Any = None

    # -- stores ------------------------------------------------------------------------------
    @property
    def cache(self):
        """The semantic answer cache (opened on first use)."""
        if self._cache is None:
            from zhiku.agents.cache import AnswerCache

            self._cache = AnswerCache(self.kb)
        return self._cache

    @property
    def sessions(self):
        """The chat session store (opened on first use)."""
        if self._sessions is None:
            from zhiku.server.sessions import Sessions

            self._sessions = Sessions(self.kb.config.sessions_path)
        return self._sessions

    def close(self) -> None:
        """Close the cache and session databases."""
        for s in (self._cache, self._sessions):
            if s is not None:
                s.close()

    def context(self, scope: Scope, mode: Mode) -> str:
        """What a cached answer depends on besides its question: scope, mode, settings and
        the zhiku release (an upgrade may answer differently)."""
        from zhiku import __version__

        cfg = self.kb.config.model_dump(mode="json")
        raw = json.dumps({"scope": repr(scope), "mode": mode.value, "config": cfg, "zhiku": __version__},
                         sort_keys=True, default=str, ensure_ascii=False)
        return hashlib.sha1(raw.encode()).hexdigest()

    # -- asking ------------------------------------------------------------------------------
    def ask(self, question: str, scope: Scope = Scope(), mode: Mode = Mode.HYBRID,
            history: tuple[Exchange, ...] = (), use_cache: bool | None = None) -> Answer:
        """Answer ``question`` (a follow-up of ``history`` when given), with citations.

        Args:
            question: the question as the user wrote it.
            scope: where to search.
            mode: retrieval mode.
            history: earlier turns, oldest first (see :func:`history_from`).
            use_cache: consult and fill the answer cache (default: the ``cache`` setting).

        Returns:
            The answer; its ``question`` is the standalone question that was answered, and
            its trace starts with the rewrite, the cache lookup and one ``role:*`` step
            per role (start, end, and any fallback with its reason).

        Raises:
            ZhikuError: the question is empty or the term dictionary is invalid.
        """
        question = question.strip()
        if not question:
            raise ZhikuError("the question is empty; ask something, e.g. zhiku ask \"试用期最长多久\"")
        load_synonyms(self.kb.config)  # a broken term dictionary is the user's to fix, not a fallback
        started = time.perf_counter()
        pre: list[TraceStep] = []
        standalone = question
        if history:
            rw = perform(self.rewriter, Turn(question, history), pre, started)
            standalone = rw.standalone
            pre.append(TraceStep("rewrite", 0.0, {"from": question, "to": standalone, "how": rw.how,
                                                  "carried": list(rw.carried)}))
        cache = self.kb.config.cache if use_cache is None else use_cache
        key = self.context(scope, mode) if cache else ""
        if cache:
            t0 = time.perf_counter()
            hit, detail = self.cache.lookup(standalone, key)
            pre.append(TraceStep("cache", time.perf_counter() - t0, detail))
            if hit is not None:
                return replace(hit, question=standalone, trace=tuple(pre))
        ans = self._answer(Query(standalone, scope, mode), pre, started)
        if cache:
            self.cache.store(standalone, key, ans)
        return ans

    def _answer(self, q: Query, pre: list[TraceStep], started: float) -> Answer:
        from zhiku.structured import ask_structured

        # a condition question over a structured source is answered from its rows first;
        # what the conditions leave of the question goes to the documents as below
        sa = ask_structured(self.kb, q.question,
                            lambda sub: self._documents(replace(q, question=sub), [], started), q.scope)
        if sa is not None:
            return replace(sa, trace=tuple(pre) + sa.trace)
        return self._documents(q, pre, started)

    def _documents(self, q: Query, pre: list[TraceStep], started: float) -> Answer:
        routing_f = submit(self.router, q)  # the router runs beside the first retrieval
        first_f = submit(self.searcher, q)
        routing = perform(self.router, q, pre, started, routing_f)
        first = perform(self.searcher, q, pre, started, first_f)
        ev = self._routed(routing, first, pre, started)
        ev = perform(self.reranker, ev, pre, started)
        ans = perform(self.answerer, ev, pre, started)
        post: list[TraceStep] = []
        if ans.refused and self.kb.config.web_search:  # documents first, web second
            found = perform(self.web, q, post, started)
            ans = with_web(ans, found, post)
        return replace(ans, trace=tuple(pre + list(ans.trace) + post))

    def _routed(self, routing: Routing, first: Evidence, trace: list[TraceStep],
                started: float) -> Evidence:
        """Search where the router sent the question (its sub-indexes concurrently, then
        its chapters); the default route keeps the first, unrouted retrieval."""
        route = routing.route
        if route.tier == "fallback" or not route.subindexes:
            return first
        q = replace(first.query, route=route)
        return perform(self.searcher, q, trace, started)

    def chat(self, question: str, session_id: str | None = None, scope: Scope = Scope(),
             mode: Mode = Mode.HYBRID) -> tuple[str, Answer]:
        """One chat turn: answer ``question`` as a follow-up of the session's last turns
        and remember both.

        Args:
            question: the user's question.
            session_id: the session (None starts a new one).
            scope: where to search.
            mode: retrieval mode.

        Returns:
            The session id and the answer.

        Raises:
            ZhikuError: the question is empty or the session id is malformed.
        """
        from zhiku.server.sessions import check_session_id

        turns = self.kb.config.history_turns
        history: tuple[Exchange, ...] = ()
        if session_id:
            check_session_id(session_id)
            history = history_from(self.sessions.history(session_id, 2 * turns), turns)
        ans = self.ask(question, scope, mode, history)
        return self.sessions.add_turn(session_id, question, ans.to_dict()), ans


def with_web(ans: Answer, found: WebFound, trace: list[TraceStep]) -> Answer:
    """The refusal with a labelled web part appended (``[Wn]`` markers, ``Answer.web``);
    the knowledge-base citations are untouched and the answer stays a refusal of the
    documents."""
    text = web_text(found.query, found.sources)
    trace.append(TraceStep("web", 0.0, {"results": len(found.sources), "used": bool(text),
                                        "urls": [s.url for s in found.sources]}))
    if not text:
        return ans
    return replace(ans, text=f"{ans.text}\n{text}", web=found.sources,
                   reason=f"{ans.reason}；知识库证据不足，已附网络搜索结果（已标注）")
