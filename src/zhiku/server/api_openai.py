"""The OpenAI-compatible door: ``/v1/models`` and ``/v1/chat/completions`` (JSON or SSE)."""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from zhiku.errors import ZhikuError
from zhiku import library as service
from zhiku.server.app import caller_kb, reader
from zhiku.types import Answer, AskEvent

log = logging.getLogger("zhiku.server")
router = APIRouter(tags=["openai"], dependencies=[Depends(reader)])
BASE_MODEL = "zhiku"  # the whole knowledge base; "zhiku/<sub-index>" searches one sub-index
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
REFERENCES = "参考："
CHECKED = "核验后的答案："


class Message(BaseModel):
    """One chat message; ``content`` is text or a list of parts (text parts are used)."""

    model_config = ConfigDict(extra="allow")
    role: str = Field(..., description="system, user, assistant or tool")
    content: str | list[dict[str, Any]] | None = None

    def text(self) -> str:
        """The message's text (text parts joined)."""
        if isinstance(self.content, list):
            return "".join(str(p.get("text", "")) for p in self.content if p.get("type") == "text")
        return self.content or ""


class ChatCompletionRequest(BaseModel):
    """An OpenAI chat completion request; sampling options are accepted and ignored (the
    answer is composed from the documents and verified)."""

    model_config = ConfigDict(extra="allow")
    model: str = Field(BASE_MODEL, description="zhiku, or zhiku/<sub-index> (see /v1/models)")
    messages: list[Message] = Field(..., min_length=1)
    stream: bool = False
    doc: str | None = Field(None, description="only this document: id, path or title")
    versions: str = Field("current", description="current, all, or a date YYYY-MM-DD")
    mode: str = Field("hybrid", description="bm25, dense, hybrid or full")


_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
          404: "not_found_error", 409: "conflict_error", 413: "invalid_request_error",
          422: "invalid_request_error"}


def openai_errors(app) -> None:
    """Errors under ``/v1`` in OpenAI's shape ``{"error": {"message", "type", "code"}}`` (the
    SDKs show ``message``); the app's handlers decide status and text as everywhere else."""
    def wrap(handler):
        async def shaped(request: Request, exc: Exception):
            resp = await handler(request, exc)
            if not request.url.path.startswith("/v1/"):
                return resp
            body = json.loads(bytes(resp.body))
            status = resp.status_code
            err = {"message": body.get("error", "request failed"),
                   "type": _TYPES.get(status, "server_error"), "code": status}
            out = JSONResponse({"error": err}, status_code=status)
            for k, v in resp.headers.items():
                if k.lower() not in ("content-length", "content-type"):
                    out.headers[k] = v
            return out
        return shaped

    for exc, handler in list(app.exception_handlers.items()):
        app.exception_handlers[exc] = wrap(handler)


def _model_ids(kb) -> list[str]:
    return [BASE_MODEL, *(f"{BASE_MODEL}/{s['name']}" for s in service.subindexes(kb))]


@router.get("/models", summary="the knowledge base and each sub-index as a model")
def models(request: Request) -> dict[str, Any]:
    """``zhiku`` searches everything; ``zhiku/<sub-index>`` only that sub-index."""
    created = int(time.time())
    return {"object": "list", "data": [{"id": m, "object": "model", "created": created,
                                        "owned_by": "zhiku"} for m in _model_ids(caller_kb(request))]}


def _subindexes(kb, model: str) -> list[str]:
    if model == BASE_MODEL:
        return []
    if model.startswith(BASE_MODEL + "/") and model in _model_ids(kb):
        return [model[len(BASE_MODEL) + 1:]]
    raise service.NotFound(f"no model {model!r}; valid: {', '.join(_model_ids(kb))}")


def _turns(messages: list[Message]) -> tuple[str, list[tuple[str, str]]]:
    """The last user message and the (user, assistant) exchanges before it."""
    users = [i for i, m in enumerate(messages) if m.role == "user" and m.text().strip()]
    if not users:
        raise ZhikuError("messages has no user message with text; the last user message is the question")
    last = users[-1]
    pairs: list[tuple[str, str]] = []
    for i, m in enumerate(messages[:last]):
        if m.role == "user":
            pairs.append((m.text(), ""))
        elif m.role == "assistant" and pairs:
            pairs[-1] = (pairs[-1][0], m.text())
    return messages[last].text().strip(), pairs


def _history(kb, pairs: list[tuple[str, str]]):
    from zhiku.ask.rewrite import Exchange

    turns = kb.config.history_turns
    out = [Exchange(q, a.split(REFERENCES)[0], tuple(dict.fromkeys(re.findall(r"《([^》]+)》", a))))
           for q, a in pairs]
    return tuple(out[-turns:]) if turns else ()


def ask_events(request: Request, body: ChatCompletionRequest) -> Iterator[AskEvent]:
    """The one ask, as the HTTP ask door runs it: the last user message with the earlier
    turns as its history (the ask rewrites a follow-up from them); the first event is
    computed before the stream starts, so bad input is an error response."""
    from itertools import chain

    from zhiku.ask import Mode, Query, ask_stream

    kb = caller_kb(request)
    question, pairs = _turns(body.messages)
    scope = service.make_scope(kb, body.doc, None, _subindexes(kb, body.model), body.versions)
    gen = ask_stream(kb, Query(question, _history(kb, pairs), scope, Mode.from_str(body.mode)))
    first = next(gen)
    return chain([first], gen)


def citation_dicts(ans: Answer) -> list[dict[str, Any]]:
    """The structured citations: marker, document, chapter, article, page, chunk id, quote."""
    return [{"marker": c.marker, "document": c.title or c.doc_path, "path": c.doc_path,
             "chapter": " › ".join(s for s in c.section_path if s), "section_path": list(c.section_path),
             "article": c.article, "page": c.page, "chunk_id": c.chunk_id, "quote": c.quote,
             "version_date": c.version_date, "label": c.label()} for c in ans.citations]


def references(ans: Answer) -> str:
    """The reference list appended to the answer text (empty without citations)."""
    if not ans.citations and not ans.web:
        return ""
    lines = [f"[{c.marker}] {c.label()}" for c in ans.citations]
    lines += [f"[{w.marker}] {w.title} <{w.url}>" for w in ans.web]
    return f"\n\n{REFERENCES}\n" + "\n".join(lines)


def _content(ans: Answer) -> str:
    text = ans.text
    if ans.refused and ans.searched and ans.searched not in text:
        text += f"\n\n{ans.searched}"
    return text + references(ans)


def _extra(ans: Answer) -> dict[str, Any]:
    return {"citations": citation_dicts(ans),
            "zhiku": {"question": ans.question, "refused": ans.refused, "reason": ans.reason,
                      "confidence": round(ans.confidence, 4), "low_confidence": ans.low_confidence,
                      "searched": ans.searched, "generator": ans.generator,
                      "conflicts": [{"kind": c.kind, "markers": list(c.markers), "note": c.note}
                                    for c in ans.conflicts],
                      "removed": [{"kind": r.kind, "sentence": r.sentence, "reason": r.reason,
                                   "action": r.action} for r in ans.removed]}}


def _final(events: Iterator[AskEvent]) -> Answer:
    for e in events:
        if e.type == "answer" and e.answer is not None:
            return e.answer
    raise ZhikuError("the answer stream ended without an answer; retry")


def _head(model: str, kind: str) -> dict[str, Any]:
    return {"id": f"chatcmpl-{uuid.uuid4().hex[:24]}", "object": kind, "created": int(time.time()),
            "model": model}


@router.post("/chat/completions", summary="answer the last user message (OpenAI format)")
def chat_completions(request: Request, body: ChatCompletionRequest):
    """The answer with ``[n]`` markers and a reference list as the assistant message;
    ``citations`` (structured) and ``zhiku`` (confidence, refusal, conflicts, removed
    statements) are extra fields. A refusal is a normal message with the refusal text.
    With ``stream`` the chunks come as Server-Sent Events ending in ``data: [DONE]``."""
    events = ask_events(request, body)
    if body.stream:
        return StreamingResponse(_sse(events, body.model), media_type="text/event-stream",
                                 headers=SSE_HEADERS)
    ans = _final(events)
    return {**_head(body.model, "chat.completion"),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": _content(ans)}}],
            **_extra(ans)}


def _chunk(head: dict[str, Any], delta: dict[str, Any], finish: str | None = None, **extra) -> str:
    data = {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}], **extra}
    return f"data: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def _sse(events: Iterator[AskEvent], model: str) -> Iterator[str]:
    """Chunks: the role, the text as it is written, what verification changed, the
    reference list; the last chunk carries ``finish_reason`` and the extra fields."""
    head = _head(model, "chat.completion.chunk")
    yield _chunk(head, {"role": "assistant", "content": ""})
    shown: list[str] = []
    try:
        for e in events:
            if e.type == "delta" and e.text:
                shown.append(e.text)
                yield _chunk(head, {"content": e.text})
            elif e.type == "answer" and e.answer is not None:
                ans, streamed = e.answer, "".join(shown)
                full = _content(ans)
                if ans.text == streamed or (ans.refused and not streamed):
                    tail = full[len(streamed):] if full.startswith(streamed) else full
                else:  # the streamed text was provisional: say what was verified
                    tail = f"\n\n{CHECKED}{full}"
                if tail:
                    yield _chunk(head, {"content": tail})
                yield _chunk(head, {}, "stop", **_extra(ans))
    except Exception as e:  # the stream has started: report in-band, as OpenAI does
        log.exception("openai stream failed")
        msg = str(e) if isinstance(e, ZhikuError) else f"internal error ({type(e).__name__})"
        yield f"data: {json.dumps({'error': {'message': msg, 'type': 'server_error'}}, ensure_ascii=False)}\n\n"
    yield "data: [DONE]\n\n"
