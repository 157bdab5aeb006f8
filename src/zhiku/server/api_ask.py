"""Ask and chat, as JSON or as Server-Sent Events; search; chat history."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from itertools import chain
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from zhiku.errors import ZhikuError
from zhiku import library as service
from zhiku.ask.sessions import Sessions, check_session_id
from zhiku.server.app import caller, caller_kb, reader
from zhiku.types import AskEvent

log = logging.getLogger("zhiku.server")
router = APIRouter(tags=["ask"], dependencies=[Depends(reader)])
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


class AskRequest(BaseModel):
    """A question and where to look."""

    question: str = Field(..., min_length=1, max_length=2000, description="the question")
    mode: str = Field("hybrid", description="bm25, dense, hybrid or full")
    doc: str | None = Field(None, description="only this document: id, path or title (劳动合同法)")
    section: str | None = Field(None, description="only this section id of `doc`, e.g. 2 or 5.1")
    subindex: list[str] = Field(default_factory=list, description="only these sub-indexes")
    versions: str = Field("current", description="current, all, or a date YYYY-MM-DD")
    qtype: str | None = Field(None, description="question type instead of the router's: fact, "
                                                "process, comparison or synthesis")
    cache: bool = Field(True, description="false: neither use nor fill the answer cache")


class ChatRequest(AskRequest):
    """A chat turn: the question plus the session it belongs to."""

    session_id: str | None = Field(None, description="omit to start a new session")


class SearchRequest(BaseModel):
    """A search for passages, no answer composed."""

    query: str = Field(..., min_length=1, max_length=2000)
    k: int = Field(5, ge=1, le=50, description="how many passages")
    mode: str = Field("hybrid", description="bm25, dense or hybrid")
    doc: str | None = None
    subindex: list[str] = Field(default_factory=list)
    versions: str = "current"


def _events(request: Request, body: AskRequest, history: tuple = (), stream: bool = False) -> Iterator[AskEvent]:
    """The ask events; the first is computed here so bad input is a JSON error, not a stream."""
    from zhiku.ask import Mode, Query, ask_stream

    kb = caller_kb(request)
    scope = service.make_scope(kb, body.doc, body.section, body.subindex, body.versions)
    gen = ask_stream(kb, Query(body.question, history, scope, Mode.from_str(body.mode), body.qtype,
                               None if body.cache else False, stream=stream))
    first = next(gen)
    return chain([first], gen)


def _answer(events: Iterator[AskEvent]) -> dict[str, Any]:
    for e in events:
        if e.type == "answer" and e.answer is not None:
            return e.answer.to_dict()
    raise ZhikuError("the answer stream ended without an answer; retry")


def _sse(events: Iterator[AskEvent], on_answer=None) -> Iterator[str]:
    """Events as ``event: TYPE`` / ``data: JSON`` frames; failures become an ``error`` event."""
    try:
        for e in events:
            data = e.to_dict()
            if e.type == "answer" and on_answer is not None:
                data.update(on_answer(data["answer"]))
            yield f"event: {e.type}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"
    except Exception as e:  # the stream has started: report in-band
        log.exception("ask stream failed")
        msg = str(e) if isinstance(e, ZhikuError) else f"internal error ({type(e).__name__})"
        yield f"event: error\ndata: {json.dumps({'type': 'error', 'error': msg}, ensure_ascii=False)}\n\n"


@router.post("/ask", summary="answer a question (JSON)")
def ask(request: Request, body: AskRequest) -> dict[str, Any]:
    """The answer with citations, confidence, the passages considered and the trace."""
    return _answer(_events(request, body))


@router.post("/ask/stream", summary="answer a question (Server-Sent Events)",
             response_class=StreamingResponse)
def ask_stream(request: Request, body: AskRequest) -> StreamingResponse:
    """Events ``step`` (a stage finished), ``delta`` (answer text), then ``answer`` (the
    same JSON as /api/ask); ``error`` if something fails mid-way."""
    return StreamingResponse(_sse(_events(request, body, stream=True)), media_type="text/event-stream",
                             headers=SSE_HEADERS)


def _sessions(request: Request) -> Sessions:
    return request.app.state.sessions


def _history(request: Request, body: ChatRequest) -> tuple:
    """The session's last turns, which a follow-up (「那它的试用期呢？」) is rewritten from
    inside the ask; the answer's ``question`` is the rewrite."""
    from zhiku.ask.sessions import history_for

    return history_for(_sessions(request), body.session_id, request.app.state.kb.config.history_turns)


@router.post("/chat", summary="a chat turn (JSON)")
def chat(request: Request, body: ChatRequest) -> dict[str, Any]:
    """Like /api/ask, remembered under ``session_id`` (a new one is made when omitted); a
    follow-up is first rewritten into a standalone question from the session's history."""
    owner = caller(request).owner
    if body.session_id:
        _sessions(request).check_owner(check_session_id(body.session_id), owner)
    ans = _answer(_events(request, body, _history(request, body)))
    sid = _sessions(request).add_turn(body.session_id, body.question, ans, owner)
    return {"session_id": sid, "answer": ans}


@router.post("/chat/stream", summary="a chat turn (Server-Sent Events)",
             response_class=StreamingResponse)
def chat_stream(request: Request, body: ChatRequest) -> StreamingResponse:
    """Events as /api/ask/stream; the ``answer`` event also carries ``session_id``."""
    sid = check_session_id(body.session_id) if body.session_id else None
    store, owner = _sessions(request), caller(request).owner
    if sid:
        store.check_owner(sid, owner)
    events = _events(request, body, _history(request, body), stream=True)

    def remember(ans: dict[str, Any]) -> dict[str, Any]:
        return {"session_id": store.add_turn(sid, body.question, ans, owner)}

    return StreamingResponse(_sse(events, remember), media_type="text/event-stream",
                             headers=SSE_HEADERS)


@router.get("/chat/{session_id}", summary="a session's history")
def history(request: Request, session_id: str) -> dict[str, Any]:
    """Messages oldest first (``answer`` holds the full answer JSON of assistant turns)."""
    store, owner = _sessions(request), caller(request).owner
    store.check_owner(check_session_id(session_id), owner)
    return {"session_id": session_id, "messages": store.history(session_id, owner=owner)}


@router.delete("/chat/{session_id}", summary="clear a session")
def clear(request: Request, session_id: str) -> dict[str, Any]:
    """Forget the session's history."""
    store, owner = _sessions(request), caller(request).owner
    store.check_owner(check_session_id(session_id), owner)
    return {"session_id": session_id, "cleared": store.clear(session_id, owner)}


@router.post("/search", summary="ranked passages, no answer")
def search(request: Request, body: SearchRequest) -> dict[str, Any]:
    """The top ``k`` passages for a query inside the scope."""
    kb = caller_kb(request)
    scope = service.make_scope(kb, body.doc, None, body.subindex, body.versions)
    return {"query": body.query, "hits": [service.hit_dict(h) for h in
                                          service.search(kb, body.query, body.k, scope, body.mode)]}
