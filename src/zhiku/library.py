"""The library of a knowledge base, below every door: finding documents, chapter trees,
section chunks and text, sub-indexes, scopes and searches (HTTP API, MCP, agent tools)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from zhiku.errors import NotFoundError, ZhikuError
from zhiku.index.store import DocRecord, Scope, check_versions
from zhiku.kb import KnowledgeBase
from zhiku.types import Chunk, Hit, Section

# Derived sentences (table rows, table summaries) repeat text that is in the body already.
_DERIVED = ("table_row", "table_summary")
WHOLE = ""  # section id meaning the whole document


class NotFound(NotFoundError):
    """A document, section, chunk, job or session that does not exist."""


@dataclass(frozen=True)
class SectionText:
    """A section's text rebuilt from its chunks, with where each chunk sits in it.

    ``passages`` are (chunk id, start, end) offsets into ``text``, so a client can
    highlight the chunk a citation points at.
    """

    doc_id: str
    path: str
    title: str
    section_id: str
    label: str
    section_path: tuple[str, ...]
    text: str
    passages: tuple[tuple[str, int, int], ...]

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form."""
        return {"doc_id": self.doc_id, "path": self.path, "title": self.title,
                "section_id": self.section_id, "label": self.label,
                "section_path": list(self.section_path), "text": self.text,
                "passages": [{"chunk_id": c, "start": s, "end": e} for c, s, e in self.passages]}


def doc_dict(d: DocRecord) -> dict[str, Any]:
    """A document record as JSON (without its chapter tree)."""
    return {"doc_id": d.doc_id, "path": d.path, "aliases": list(d.aliases), "title": d.title,
            "version_date": d.version_date, "subindex": d.subindex, "chunks": d.n_chunks,
            "effective": d.effective, "expiry": d.expiry, "superseded_by": d.superseded_by,
            "deleted": d.deleted}


def hit_dict(h: Hit) -> dict[str, Any]:
    """A search hit as JSON: where the chunk is, its score and its text."""
    c = h.chunk
    return {"chunk_id": c.id, "doc_id": c.doc_id, "doc": c.doc_path, "title": c.title,
            "section_id": c.section_id, "section": list(c.section_path), "article": c.article,
            "page": c.page, "kind": c.kind, "score": round(h.score, 6), "text": c.text}


def live_documents(kb: KnowledgeBase) -> list[DocRecord]:
    """Documents that are not deleted, sorted by sub-index and path."""
    return sorted(kb.live_documents(), key=lambda d: (d.subindex, d.path))


def find_document(kb: KnowledgeBase, ref: str) -> DocRecord:
    """The document named by id, path, alias or title.

    Args:
        kb: the knowledge base.
        ref: a document id (``d2ff927284e9a0e6``), a stored path (``社会法/劳动法.md``) or a
            title such as ``劳动合同法``; a title with several versions gives the one in
            force today.

    Raises:
        NotFound: nothing matches.
    """
    ref = (ref or "").strip()
    docs = live_documents(kb)
    for d in docs:
        if ref in (d.doc_id, d.path, *d.aliases):
            return d
    matches = [d for _, ds in kb.titles().match(ref) for d in ds if not d.deleted] if ref else []
    if matches:
        current = set(kb.store.excluded("current"))
        return next((d for d in matches if d.doc_id not in current), matches[0])
    raise NotFound(f"no document matches {ref!r}; list documents to see ids, paths and titles")


def chapter_tree(d: DocRecord) -> list[dict[str, Any]]:
    """The document's sections nested by ``parent_id``: id, label, level, children."""
    nodes = {s.id: {"id": s.id, "label": s.label, "level": s.level, "children": []} for s in d.sections}
    roots: list[dict[str, Any]] = []
    for s in d.sections:
        parent = nodes.get(s.parent_id or "")
        (parent["children"] if parent else roots).append(nodes[s.id])
    return roots


def _section(d: DocRecord, section_id: str) -> Section | None:
    if section_id == WHOLE:
        return None
    for s in d.sections:
        if s.id == section_id:
            return s
    raise NotFound(f"{d.title or d.path} has no section {section_id!r}; "
                   "see its chapter tree for the valid ids")


def _path_of(d: DocRecord, sec: Section | None) -> tuple[str, ...]:
    by_id = {s.id: s for s in d.sections}
    out: list[str] = []
    while sec is not None:
        out.insert(0, sec.label)
        sec = by_id.get(sec.parent_id or "")
    return tuple(out)


def _merge(chunks: list[Chunk]) -> tuple[str, tuple[tuple[str, int, int], ...]]:
    """Join chunk texts in body order, dropping the overlap between windows."""
    parts: list[str] = []
    passages: list[tuple[str, int, int]] = []
    cursor, length = -1, 0
    for c in sorted(chunks, key=lambda c: (c.start, -c.end)):
        whole = len(c.text) == c.end - c.start
        if c.end <= cursor or (c.start < cursor and not whole):
            continue
        piece = c.text[cursor - c.start:] if c.start < cursor else c.text
        sep = "\n\n" if parts and c.start >= cursor else ""
        at = length + len(sep) - (cursor - c.start if c.start < cursor else 0)
        parts.append(sep + piece)
        length += len(sep) + len(piece)
        passages.append((c.id, max(at, 0), length))
        cursor = c.end
    return "".join(parts), tuple(passages)


def section_text(kb: KnowledgeBase, d: DocRecord, section_id: str = WHOLE,
                 chunks: list[Chunk] | None = None) -> SectionText:
    """A section's text (its subsections included), or the whole document's.

    The body is not stored; it is rebuilt from the document's chunks in order.

    Args:
        kb: the knowledge base.
        d: the document.
        section_id: a dotted section id from the chapter tree; empty for the whole document.
        chunks: its chunks, when already read (see :func:`section_chunks`).

    Returns:
        The text with the offsets of every chunk in it.

    Raises:
        NotFound: the document has no such section.
    """
    sec = _section(d, section_id)
    text, passages = _merge(section_chunks(kb, d, section_id) if chunks is None else chunks)
    label = sec.label if sec else d.title
    return SectionText(d.doc_id, d.path, d.title, section_id, label, _path_of(d, sec), text, passages)


def section_chunks(kb: KnowledgeBase, d: DocRecord, section_id: str = WHOLE) -> list[Chunk]:
    """The chunks of a section (its subsections included) or of the whole document, in
    body order, derived chunks (table rows, summaries) left out.

    Raises:
        NotFound: the document has no such section.
    """
    sec = _section(d, section_id)
    chunks = kb.store.find(Scope(doc_ids=(d.doc_id,), versions="all"), limit=max(d.n_chunks, 1) * 2)
    lo, hi = (sec.start, sec.end) if sec else (0, 1 << 62)
    return sorted((c for c in chunks if c.kind not in _DERIVED and lo <= c.start < hi),
                  key=lambda c: (c.start, -c.end))


def subindexes(kb: KnowledgeBase) -> list[dict[str, Any]]:
    """Sub-indexes (top folders) with their document and chunk counts.

    ``summary`` is None until the router stores sub-index summaries.
    """
    docs: dict[str, int] = defaultdict(int)
    chunks: dict[str, int] = defaultdict(int)
    for d in live_documents(kb):
        docs[d.subindex] += 1
        chunks[d.subindex] += d.n_chunks
    return [{"name": n, "documents": docs[n], "chunks": chunks[n], "summary": None} for n in sorted(docs)]


def make_scope(kb: KnowledgeBase, doc: str | None = None, section: str | None = None,
               subindex: list[str] | tuple[str, ...] = (), versions: str = "current") -> Scope:
    """A search scope from request parameters, limited to what the caller may read.

    Args:
        kb: the knowledge base as the caller sees it (:meth:`KnowledgeBase.for_groups`);
            its groups go into the scope, so every store query the ask makes carries them.
        doc: a document id, path or title (see :func:`find_document`); all its versions
            with the same title are searched.
        section: a section id of that document (needs ``doc``).
        subindex: sub-index names to search.
        versions: ``current``, ``all`` or a date ``YYYY-MM-DD``.

    Raises:
        ZhikuError: a bad version selector, or a section without a document.
        NotFound: the document or a sub-index does not exist.
    """
    doc_ids: tuple[str, ...] = ()
    if doc:
        d = find_document(kb, doc)
        same = [x.doc_id for x in live_documents(kb) if x.title == d.title and x.subindex == d.subindex]
        doc_ids = tuple(dict.fromkeys([d.doc_id, *same]))
        if section:
            _section(d, section)
    elif section:
        raise ZhikuError("a section id needs a document; pass doc as well")
    known = {s["name"] for s in subindexes(kb)}
    for s in subindex:
        if s not in known:
            raise NotFound(f"no sub-index {s!r}; valid: {', '.join(sorted(known)) or '(none)'}")
    return Scope(doc_ids=doc_ids, subindexes=tuple(subindex), section_id=section or None,
                 versions=check_versions(versions), groups=caller_groups(kb))


def caller_groups(kb: KnowledgeBase) -> tuple[str, ...] | None:
    """The groups a caller's view of the knowledge base is limited to (None: all)."""
    return getattr(kb.store, "groups", None)


def search(kb: KnowledgeBase, query: str, k: int = 5, scope: Scope = Scope(),
           mode: str = "hybrid") -> list[Hit]:
    """Ranked passages for a query, without composing an answer, best first with scores
    that never rise down the list: a hit a later stage moved up without rescoring it (a
    named clause, the version in force) reports the best score of those it passed, so a
    caller that sorts or cuts by score (a Haystack or LangChain pipeline) keeps the order.

    Raises:
        ZhikuError: the query is empty or the mode is unknown.
    """
    from dataclasses import replace

    from zhiku.ask.query import check_question
    from zhiku.ask.search import Mode, retrieve

    q = check_question(query, "query", "pass a few words or a question")
    hits = retrieve(kb, q, Mode.from_str(mode), scope, candidates=max(k, 1)).hits[:k]
    out, floor = [], float("-inf")
    for h in reversed(hits):  # from the last up: each at least the best of those below it
        floor = max(floor, h.score)
        out.append(h if h.score >= floor else replace(h, score=floor))
    return out[::-1]
