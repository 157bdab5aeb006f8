"""The MCP server (official ``mcp`` SDK): search, browse and ask the knowledge base from an
agent, over stdio or streamable HTTP."""

from __future__ import annotations

import threading
from typing import Annotated, Any

import anyio
from pydantic import Field

from zhiku.config import Config
from zhiku.errors import ZhikuError
from zhiku.registry import Choice
from zhiku import library as service
from zhiku.server.auth import Access, Keys, presented_key

INSTRUCTIONS = (
    "zhiku is a knowledge base of Chinese-first documents (laws, regulations, manuals). "
    "Use search_knowledge to find passages, list_chapters to see which documents exist and "
    "how one is organised, read_section to read a chapter in full, and ask for a composed "
    "answer with verified citations. Cite documents by title and article as returned."
)


class Transport(Choice):
    """How the MCP server talks: stdio (a subprocess of the agent) or streamable HTTP."""

    STDIO = "stdio"
    HTTP = "http"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "MCP transport"


class _Lazy:
    """Opens the knowledge base on first use (a tool error, not a crash, if it fails)."""

    def __init__(self, config: Config) -> None:
        self.config, self._kb, self._lock = config, None, threading.Lock()

    def __call__(self):
        with self._lock:
            if self._kb is None:
                from zhiku.kb import KnowledgeBase

                self._kb = KnowledgeBase(self.config)
            return self._kb


Doc = Annotated[str | None, Field(description=(
    "optional: limit to one document, given as its title (e.g. 劳动合同法), stored path "
    "(社会法/劳动合同法(2012-12-28).md) or doc_id from list_chapters"))]
Sub = Annotated[str | None, Field(description=(
    "optional: limit to one sub-index (top folder such as 社会法); list_chapters without "
    "arguments lists them"))]


def _search(kb, query: str, k: int, subindex: str | None, document: str | None) -> dict[str, Any]:
    from zhiku.agents.tools import SearchKnowledge, search_hits

    hits = search_hits(kb, SearchKnowledge(query=query, k=k, subindex=subindex, document=document))
    return {"query": query, "hits": [service.hit_dict(h) for h in hits]}


def _chapters(kb, document: str | None) -> dict[str, Any]:
    from zhiku.agents.tools import find

    if not document:
        return {"subindexes": service.subindexes(kb),
                "documents": [service.doc_dict(d) for d in service.live_documents(kb)]}
    d = find(kb, document)
    return {**service.doc_dict(d), "tree": service.chapter_tree(d)}


def _read(kb, document: str, section_id: str) -> dict[str, Any]:
    from zhiku.agents.tools import ReadSection, read

    a = ReadSection(document=document, section_id=section_id)
    out = service.section_text(kb, service.find_document(kb, document), section_id, read(kb, a)).to_dict()
    out.pop("passages", None)
    return out


def _ask(kb, question: str, subindex: str | None, document: str | None) -> dict[str, Any]:
    from zhiku.ask import Query, ask

    scope = service.make_scope(kb, document, None, [subindex] if subindex else [])
    out = ask(kb, Query(question, scope=scope)).to_dict()
    out.pop("hits", None)  # agents need the answer, its citations and which steps ran
    out["trace"] = [{"stage": t["stage"], "seconds": t["seconds"]} for t in out.get("trace", [])]
    return out


SEARCH_DOC = (
    "Search the knowledge base for passages relevant to a query (keyword + semantic). "
    "Returns up to k passages, best first, each with doc_id, title, section_id, section "
    "path, article (e.g. 第三十九条), score and the passage text. Use it to gather "
    "evidence; pass doc_id and section_id to read_section for the surrounding text.")
CHAPTERS_DOC = (
    "List what is in the knowledge base or how one document is organised. Without "
    "`document`: every sub-index (name, documents) and every document (doc_id, title, "
    "path, sub-index). With `document`: its chapter tree, each node with a section id "
    "(dotted, e.g. 2 or 3.1), label (e.g. 第二章 劳动合同的订立) and children.")
READ_DOC = (
    "Read the full text of one section of a document (its subsections included), or the "
    "whole document when section_id is empty. Get section ids from list_chapters or from "
    "the section_id of a search_knowledge hit.")
ASK_DOC = (
    "Answer a question from the knowledge base. Returns the answer text with [n] "
    "markers, the citations (document, section path, article, quoted sentence) each "
    "checked against its source, a confidence 0-1, and refused=true with the reason when "
    "the knowledge base does not contain the answer (then say so; do not guess).")
Query = Annotated[str, Field(description="what to look for: a question or key words, Chinese or English")]
K = Annotated[int, Field(ge=1, le=20, description="how many passages to return (1-20)")]
Question = Annotated[str, Field(description="the question, in Chinese or English")]
DocName = Annotated[str, Field(description="the document: title, stored path or doc_id")]
SectionId = Annotated[str, Field(description="dotted section id such as 2 or 3.1; empty for the whole document")]


def build_mcp(config: Config, kb=None):
    """The MCP server with its four tools.

    Args:
        config: the configuration (home of the knowledge base).
        kb: an open knowledge base; opened from ``config`` on first use when None.

    Returns:
        An ``mcp.server.mcpserver.MCPServer``.
    """
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    get_kb = (lambda: kb) if kb is not None else _Lazy(config)
    server = MCPServer("zhiku", instructions=INSTRUCTIONS, log_level="WARNING")

    async def run(fn, *args):
        try:
            return await anyio.to_thread.run_sync(lambda: fn(get_kb(), *args))
        except ZhikuError as e:  # the agent sees the sentence saying what to do
            raise ToolError(str(e)) from e

    @server.tool(description=SEARCH_DOC)
    async def search_knowledge(query: Query, k: K = 5, subindex: Sub = None,
                               document: Doc = None) -> dict[str, Any]:
        return await run(_search, query, k, subindex, document)

    @server.tool(description=CHAPTERS_DOC)
    async def list_chapters(document: Doc = None) -> dict[str, Any]:
        return await run(_chapters, document)

    @server.tool(description=READ_DOC)
    async def read_section(document: DocName, section_id: SectionId = "") -> dict[str, Any]:
        return await run(_read, document, section_id)

    @server.tool(description=ASK_DOC)
    async def ask(question: Question, subindex: Sub = None, document: Doc = None) -> dict[str, Any]:
        return await run(_ask, question, subindex, document)

    return server


def http_app(server, keys: Keys, host: str = "127.0.0.1"):
    """The streamable-HTTP ASGI app at ``/mcp``, behind the API keys (any valid key).

    Args:
        server: the MCP server from :func:`build_mcp`.
        keys: the configured keys; none configured means open (loopback only).
        host: the bound host (the SDK's DNS-rebinding protection checks it).

    Returns:
        An ASGI application.
    """
    inner = server.streamable_http_app(host=host)

    async def app(scope, receive, send):
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            if keys.access(presented_key(headers)) is Access.NONE:
                body = b'{"error": "missing or unknown API key; send X-API-Key or Authorization: Bearer", "status": 401}'
                await send({"type": "http.response.start", "status": 401,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"www-authenticate", b"Bearer")]})
                await send({"type": "http.response.body", "body": body})
                return
        await inner(scope, receive, send)

    return app
