"""Frozen dataclasses that cross stage boundaries."""

from __future__ import annotations

import bisect
import hashlib
from dataclasses import asdict, dataclass, field
from typing import Any


def content_hash(*parts: str, length: int = 16) -> str:
    """Return a short, stable hex id for the given string parts.

    Args:
        parts: strings joined with a separator that cannot occur in text.
        length: number of hex characters kept.

    Returns:
        A hex digest prefix (sha1), identical for identical inputs.
    """
    h = hashlib.sha1()
    for p in parts:
        h.update(p.encode("utf-8"))
        h.update(b"\x1f")
    return h.hexdigest()[:length]


@dataclass(frozen=True)
class OutlineEntry:
    """A heading a loader already knows (PDF bookmark, DOCX heading style, HTML h1-h6).

    ``start`` is the character offset of the heading line in ``Document.body``;
    ``level`` is 1 for the top.
    """

    start: int
    level: int
    label: str


@dataclass(frozen=True)
class Table:
    """A table found by a loader, kept with its place in the body.

    ``start``/``end`` span the table's Markdown rendering in ``Document.body``; ``page``
    is the 1-based page it starts on, when the format has pages.
    """

    start: int
    end: int
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    page: int | None = None


@dataclass(frozen=True)
class Document:
    """One source file after loading and cleaning.

    ``id`` is a hash of the cleaned body, so two byte-identical copies of a law in two
    folders are one document; ``path`` is the first path it was seen under and
    ``aliases`` every other path. Loaders of structured formats also fill ``outline``
    (headings they know), ``tables`` and ``pages`` (the body offset where each page
    starts, page 1 first; empty for formats without pages).
    """

    id: str
    path: str
    title: str
    body: str
    version_date: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()
    outline: tuple[OutlineEntry, ...] = ()
    tables: tuple[Table, ...] = ()
    pages: tuple[int, ...] = ()

    def page_at(self, offset: int) -> int | None:
        """The 1-based page holding body offset ``offset``, or None without pages.

        Args:
            offset: a character offset into ``body``.

        Returns:
            The page number, or None when the document has no pages.
        """
        if not self.pages:
            return None
        return max(1, bisect.bisect_right(self.pages, offset))


@dataclass(frozen=True)
class Section:
    """A node of a document's chapter tree.

    ``id`` is the dotted position (``2.3``), ``label`` the human heading
    (``第二章 劳动合同的订立``); spans are character offsets into ``Document.body``.
    """

    id: str
    label: str
    level: int
    parent_id: str | None
    start: int
    end: int


@dataclass(frozen=True)
class Chunk:
    """The unit that is indexed and cited: one article, or a piece of a section.

    ``kind`` is ``article``, ``text``, ``parent`` (a whole clause or section quoted by
    answers, not searched), ``table`` (a table's Markdown), ``table_summary`` or
    ``table_row`` (derived sentences whose span points at their table). ``page`` is the
    1-based page the chunk starts on; ``parent_id`` names the chunk answers quote
    instead of this one; ``section_ids`` lists every section a merged chunk covers.
    """

    id: str
    doc_id: str
    doc_path: str
    title: str
    section_id: str
    section_path: tuple[str, ...]
    article: str | None
    text: str
    start: int
    end: int
    version_date: str | None = None
    kind: str = "article"
    page: int | None = None
    parent_id: str | None = None
    section_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hit:
    """A chunk returned by a retriever, with where its score came from.

    ``sources`` maps a retriever name (``bm25``, ``dense``, ``clause``) to the rank
    (1-based) and raw score it gave; fusion builds new hits, never edits these.
    """

    chunk: Chunk
    score: float
    source: str
    sources: dict[str, tuple[int, float]] = field(default_factory=dict)


@dataclass(frozen=True)
class ChapterPick:
    """A chapter chosen for a question: where to search first, and how sure.

    ``section_id`` is the chapter searched (after any widening to its parent; empty
    for the whole document); ``picked`` the chapter first chosen.
    """

    doc_id: str
    doc_path: str
    section_id: str
    label: str
    confidence: float
    picked: str = ""
    widened: bool = False


@dataclass(frozen=True)
class Route:
    """Where a question was sent: sub-indexes, chapters, question type.

    ``tier`` names the router tier that decided (``rules``, ``embedding``, ``llm``,
    ``fallback``); ``scores`` keeps each tier's score per sub-index (or its error) so a
    misroute can be reviewed; ``rule`` is the keyword rule that fired, if any.
    ``chapters`` are the chapters the search used (their hits put first);
    ``chapter_picks`` every chapter the chapter router picked in the routed documents,
    used or not (what routing accuracy scores: a pick can be right and still unused).
    """

    subindexes: tuple[str, ...] = ()
    doc_ids: tuple[str, ...] = ()
    article: str | None = None
    qtype: str = "fact"
    confidence: float = 0.0
    reason: str = ""
    tier: str = "fallback"
    rule: str | None = None
    chapters: tuple[ChapterPick, ...] = ()
    scores: dict[str, Any] = field(default_factory=dict)
    chapter_picks: tuple[ChapterPick, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (trace, routing log, ``--json``)."""
        return {**asdict(self), "subindexes": list(self.subindexes), "doc_ids": list(self.doc_ids),
                "chapters": [asdict(c) for c in self.chapters],
                "chapter_picks": [asdict(c) for c in self.chapter_picks]}


@dataclass(frozen=True)
class Citation:
    """A pointer from an answer sentence to the chunk (or table row) that supports it.

    A row of a structured source also names its ``table`` and the row's ``key_column``
    and ``row_key`` value; ``title`` is then the source (a document title or a configured
    source name) and ``chunk_id`` the row's chunk, or a hash for external sources.
    """

    marker: int
    chunk_id: str
    doc_path: str
    title: str
    section_path: tuple[str, ...]
    article: str | None
    quote: str
    version_date: str | None = None
    page: int | None = None
    table: str | None = None
    key_column: str | None = None
    row_key: str | None = None

    def label(self) -> str:
        """Human form: document › chapter › article, or source › table › row (key
        column value), then the page when known."""
        parts = [self.title or self.doc_path, *[s for s in self.section_path if s]]
        if self.row_key is not None:
            parts = [self.title or self.doc_path, self.table or "",
                     f"{self.key_column or ''} {self.row_key}".strip()]
            parts = [p for p in parts if p]
        if self.article:
            parts.append(self.article)
        text = " › ".join(parts)
        if self.page is not None:
            text += f"（第 {self.page} 页）"
        if self.version_date:
            text += f"（{self.version_date} 版）"
        return text


@dataclass(frozen=True)
class TraceStep:
    """What one pipeline stage did, and how long it took."""

    stage: str
    seconds: float
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class WebSource:
    """A web search result used as evidence, cited ``[W1]`` — kept apart from the
    knowledge base's citations and labelled as web content."""

    marker: str
    title: str
    url: str
    snippet: str


@dataclass(frozen=True)
class Removal:
    """Something verification took out of (or flagged in) an answer, and why.

    ``kind`` is ``unknown_marker`` (a citation number naming no evidence block),
    ``unsupported`` (the sentence is not backed by the block it cites), ``clause`` (an
    article number the cited document does not have), ``uncited`` (a sentence with no
    citation that no block supports) or ``judge`` (the LLM judge rejected it);
    ``action`` is ``dropped`` or ``flagged``.
    """

    kind: str
    sentence: str
    markers: tuple[int, ...] = ()
    reason: str = ""
    action: str = "dropped"


@dataclass(frozen=True)
class Conflict:
    """Two (or more) evidence blocks that disagree: two versions of one document, or two
    documents (departments) giving different values for the same point."""

    kind: str
    markers: tuple[int, ...]
    note: str


@dataclass(frozen=True)
class Answer:
    """The result of an ask: text with markers, citations, confidence and trace.

    ``removed`` lists what verification took out; ``conflicts`` evidence that
    disagrees; ``low_confidence`` is set when ``confidence`` is below the configured
    ``low_confidence`` mark (shown, never hidden); ``searched`` says, for a refusal,
    what was searched; ``generator`` is ``extractive`` or ``llm``.
    """

    question: str
    text: str
    citations: tuple[Citation, ...]
    confidence: float
    refused: bool
    hits: tuple[Hit, ...] = ()
    trace: tuple[TraceStep, ...] = ()
    reason: str = ""
    removed: tuple[Removal, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    low_confidence: bool = False
    searched: str = ""
    generator: str = "extractive"
    web: tuple[WebSource, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form, shared by the CLI, the HTTP API and the MCP server."""
        return {
            "question": self.question, "answer": self.text, "refused": self.refused,
            "confidence": round(self.confidence, 4), "reason": self.reason,
            "low_confidence": self.low_confidence, "generator": self.generator,
            "searched": self.searched,
            "removed": [asdict(r) for r in self.removed],
            "conflicts": [asdict(c) for c in self.conflicts],
            "citations": [{**asdict(c), "label": c.label()} for c in self.citations],
            "web": [asdict(w) for w in self.web],
            "hits": [{"chunk_id": h.chunk.id, "doc": h.chunk.doc_path, "title": h.chunk.title,
                      "article": h.chunk.article, "section": list(h.chunk.section_path),
                      "section_id": h.chunk.section_id, "page": h.chunk.page,
                      "kind": h.chunk.kind, "score": h.score,
                      "sources": {k: list(v) for k, v in h.sources.items()}, "text": h.chunk.text}
                     for h in self.hits],
            "trace": [asdict(t) for t in self.trace],
        }


@dataclass(frozen=True)
class AskEvent:
    """One event of a streamed ask: ``delta`` (a piece of answer text), ``step`` (a
    pipeline stage finished, in ``detail``) or ``answer`` (the final, verified Answer;
    always last). Streamed text is provisional: the final answer's text is what was
    verified and may differ."""

    type: str
    text: str = ""
    answer: Answer | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form."""
        out: dict[str, Any] = {"type": self.type}
        if self.text:
            out["text"] = self.text
        if self.detail:
            out["detail"] = self.detail
        if self.answer is not None:
            out["answer"] = self.answer.to_dict()
        return out
