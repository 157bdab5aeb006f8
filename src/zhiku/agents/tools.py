"""The one knowledge-base tool set (list_chapters, read_section, search_knowledge,
web_search): JSON-schema'd arguments and what each tool finds, wrapped by the agent mode
and the Agents SDK adapter (numbered evidence blocks to cite) and by the MCP server (JSON)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from zhiku.errors import ZhikuError
from zhiku.index.store import DocRecord
from zhiku.library import NotFound, find_document, live_documents, make_scope, search, section_chunks
from zhiku.types import Chunk, Hit, WebSource

MAX_READ = 3000  # characters of a section returned at once


class ToolError(ZhikuError):
    """A tool call the agent got wrong (unknown tool, bad arguments, nothing found)."""


class ListChapters(BaseModel):
    """List documents, or one document's chapter tree (section ids for read_section)."""

    document: str | None = Field(None, description="a document title (e.g. 劳动合同法) or doc_id; "
                                                    "omit to list every document")


class ReadSection(BaseModel):
    """Read one chapter/section of a document in full, as numbered evidence blocks."""

    document: str = Field(description="a document title (e.g. 劳动合同法) or doc_id")
    section_id: str = Field("", description="a section id from list_chapters, e.g. 2 or 3.1; "
                                            "empty for the whole document")


class SearchKnowledge(BaseModel):
    """Search the knowledge base; returns numbered evidence blocks to cite as [n]."""

    query: str = Field(description="a question or keywords in the documents' language")
    document: str | None = Field(None, description="optional: only this document (title or doc_id)")
    subindex: str | None = Field(None, description="optional: only this sub-index (top folder)")
    k: int = Field(5, ge=1, le=20, description="how many passages")


class WebSearch(BaseModel):
    """Search the web. Only when search_knowledge found nothing relevant; results are web
    content, cited [W1], [W2], never as knowledge-base blocks."""

    query: str = Field(description="what to search for")


TOOLS: dict[str, type[BaseModel]] = {"list_chapters": ListChapters, "read_section": ReadSection,
                                     "search_knowledge": SearchKnowledge, "web_search": WebSearch}


def tool_specs(web: bool) -> list[dict[str, Any]]:
    """OpenAI tool definitions (``web_search`` only when web search is enabled in config)."""
    out = []
    for name, model in TOOLS.items():
        if name == "web_search" and not web:
            continue
        schema = model.model_json_schema()
        schema.pop("title", None)
        for p in schema.get("properties", {}).values():
            p.pop("title", None)
        out.append({"type": "function", "function": {
            "name": name, "description": (model.__doc__ or "").strip(), "parameters": schema}})
    return out


@dataclass
class Toolbox:
    """The tools over one knowledge base, and the evidence they have shown so far."""

    kb: Any
    blocks: dict[int, Chunk] = field(default_factory=dict)
    web: dict[str, WebSource] = field(default_factory=dict)
    searched: int = 0

    def call(self, name: str, arguments: str | dict[str, Any]) -> str:
        """Run one tool call.

        Args:
            name: the tool's name.
            arguments: its arguments, as the model sent them (JSON text or a dict).

        Returns:
            The result text for the model.

        Raises:
            ToolError: unknown tool, malformed or invalid arguments (naming the field),
                or a document/section that does not exist.
        """
        model = TOOLS.get(name)
        if model is None:
            raise ToolError(f"unknown tool {name!r}; use one of: {', '.join(TOOLS)}")
        try:
            raw = json.loads(arguments) if isinstance(arguments, str) else arguments
            args = model.model_validate(raw or {})
        except json.JSONDecodeError as e:
            raise ToolError(f"{name}: arguments are not JSON ({e})") from e
        except ValidationError as e:
            err = e.errors()[0]
            where = ".".join(str(x) for x in err["loc"]) or "arguments"
            raise ToolError(f"{name}: field {where!r}: {err['msg']}") from e
        return getattr(self, name)(args)

    def _doc(self, ref: str) -> DocRecord:
        return find(self.kb, ref)

    def _blocks(self, chunks: list[Chunk]) -> str:
        lines = []
        for c in chunks:
            n = next((k for k, v in self.blocks.items() if v.id == c.id), None)
            if n is None:
                n = len(self.blocks) + 1
                self.blocks[n] = c
            where = " › ".join([c.title, *c.section_path, *([c.article] if c.article else [])])
            lines.append(f"[{n}] {where}\n{c.text}")
        return "\n\n".join(lines)

    def list_chapters(self, a: ListChapters) -> str:
        """Documents, or one document's chapters."""
        if not a.document:
            docs = live_documents(self.kb)[:100]
            return "\n".join(f"{d.title}（{d.version_date or '无日期'}，doc_id={d.doc_id}，子库 {d.subindex}）"
                             for d in docs) or "（知识库是空的）"
        d = self._doc(a.document)
        secs = [s for s in d.sections if s.level <= 2][:120]
        return f"{d.title} doc_id={d.doc_id}\n" + "\n".join(
            f"{'  ' * (s.level - 1)}{s.id} {s.label}" for s in secs)

    def read_section(self, a: ReadSection) -> str:
        """A section's chunks as numbered blocks."""
        chunks = [c for c in read(self.kb, a) if c.kind in ("article", "text", "table")]
        out, size = [], 0
        for c in chunks:
            if size + len(c.text) > MAX_READ and out:
                break
            out.append(c)
            size += len(c.text)
        return self._blocks(out) or "（该章节没有正文）"

    def search_knowledge(self, a: SearchKnowledge) -> str:
        """Ranked passages as numbered blocks."""
        self.searched += 1
        return self._blocks([h.chunk for h in search_hits(self.kb, a)]) or "没有找到相关段落。"

    def web_search(self, a: WebSearch) -> str:
        """Web results as ``[Wn]`` blocks (only after the knowledge base was searched)."""
        cfg = self.kb.config
        if not cfg.web_search:
            raise ToolError("web search is turned off in the configuration; answer from the "
                            "knowledge base or say it has no answer")
        if not self.searched:
            raise ToolError("search the knowledge base with search_knowledge first; the web "
                            "is only for what the documents do not cover")
        from zhiku.agents.web import web_providers

        found = web_providers.create(cfg.web_provider, cfg).search(a.query, cfg.web_results)
        lines = []
        for s in found:
            key = f"W{len(self.web) + 1}"
            self.web[key] = WebSource(key, s.title, s.url, s.snippet)
            lines.append(f"[{key}] {s.title} <{s.url}>（网络内容）\n{s.snippet}")
        return "\n\n".join(lines) or "网络搜索没有结果。"


# -- what each tool finds (the agent's Toolbox and the MCP server render it) ---------------
def find(kb: Any, ref: str) -> DocRecord:
    """The document a tool names (title, stored path or doc_id).

    Raises:
        ToolError: no document matches.
    """
    try:
        return find_document(kb, ref)
    except NotFound:
        raise ToolError(f"no document matches {ref!r}; call list_chapters without arguments") from None


def search_hits(kb: Any, a: SearchKnowledge) -> list[Hit]:
    """The search_knowledge tool: the top ``k`` passages inside the optional document
    and sub-index.

    Raises:
        ZhikuError: an empty query, or no such document or sub-index.
    """
    doc = find(kb, a.document).doc_id if a.document else None
    scope = make_scope(kb, doc, None, [a.subindex] if a.subindex else [])
    return search(kb, a.query, a.k, scope)


def read(kb: Any, a: ReadSection) -> list[Chunk]:
    """The read_section tool: the section's chunks in body order (the whole document's
    when ``section_id`` is empty).

    Raises:
        ToolError: no such document or section.
    """
    d = find(kb, a.document)
    if a.section_id and not any(s.id == a.section_id for s in d.sections):
        raise ToolError(f"{d.title} has no section {a.section_id!r}; call list_chapters "
                        f"with document={d.title!r} for the ids")
    return section_chunks(kb, d, a.section_id)
