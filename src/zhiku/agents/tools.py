"""The knowledge-base tools an agent calls (list_chapters, read_section, search_knowledge,
web_search): JSON-schema'd arguments, agent-oriented descriptions, and numbered evidence
blocks the agent's final answer must cite."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from zhiku.errors import ZhikuError
from zhiku.index.store import DocRecord, Scope
from zhiku.pipeline import Mode, retrieve
from zhiku.server.service import NotFound, caller_groups, find_document, live_documents
from zhiku.types import Chunk, WebSource

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
    section_id: str = Field(description="a section id from list_chapters, e.g. 2 or 3.1")


class SearchKnowledge(BaseModel):
    """Search the knowledge base; returns numbered evidence blocks to cite as [n]."""

    query: str = Field(description="a question or keywords in the documents' language")
    document: str | None = Field(None, description="optional: only this document (title or doc_id)")
    k: int = Field(5, ge=1, le=10, description="how many passages")


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
        try:
            return find_document(self.kb, ref)
        except NotFound:
            raise ToolError(f"no document matches {ref!r}; call list_chapters without arguments") from None

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
        d = self._doc(a.document)
        if not any(s.id == a.section_id for s in d.sections):
            raise ToolError(f"{d.title} has no section {a.section_id!r}; call list_chapters "
                            f"with document={d.title!r} for the ids")
        chunks = self.kb.store.find(Scope(doc_ids=(d.doc_id,), section_id=a.section_id, versions="all",
                                          groups=caller_groups(self.kb)))
        chunks = sorted((c for c in chunks if c.kind in ("article", "text", "table")), key=lambda c: c.start)
        out, size = [], 0
        for c in chunks:
            if size + len(c.text) > MAX_READ and out:
                break
            out.append(c)
            size += len(c.text)
        return self._blocks(out) or "（该章节没有正文）"

    def search_knowledge(self, a: SearchKnowledge) -> str:
        """Ranked passages as numbered blocks."""
        doc_ids = (self._doc(a.document).doc_id,) if a.document else ()
        scope = Scope(doc_ids=doc_ids, groups=caller_groups(self.kb))
        self.searched += 1
        hits = retrieve(self.kb, a.query, Mode.HYBRID, scope).hits[: a.k]
        return self._blocks([h.chunk for h in hits]) or "没有找到相关段落。"

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
