"""Structure-aware chunking: one chunk per article, overlapping windows for prose."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from zhiku.chunk.articles import ARTICLE_RE, article_label
from zhiku.chunk.splitter import split_spans
from zhiku.errors import ZhikuError
from zhiku.types import Chunk, Document, Section, content_hash

NO_SECTION = "0"


@dataclass(frozen=True)
class _Block:
    """A stretch of the body: an article, or prose between headings and articles."""

    start: int
    end: int
    article: str | None


def _heading_line_end(body: str, start: int) -> int:
    """End of the heading line that starts at ``start`` (just before its newline)."""
    nl = body.find("\n", start)
    return len(body) if nl < 0 else nl


def _blocks(body: str, sections: list[Section]) -> list[_Block]:
    """Cut the body at headings and article labels into article and prose blocks."""
    heading_spans = sorted((s.start, _heading_line_end(body, s.start)) for s in sections)
    heading_starts = [a for a, _ in heading_spans]
    events: list[tuple[int, int, str | None]] = []  # (start, content start, article)
    for match in ARTICLE_RE.finditer(body):
        idx = bisect.bisect_right(heading_starts, match.start()) - 1
        if idx >= 0 and match.start() < heading_spans[idx][1]:
            continue  # a heading line that happens to look like an article
        try:
            label = article_label(match["num"], match["sub"])
        except ValueError:
            continue
        events.append((match.start(), match.start(), label))
    for a, b in heading_spans:
        events.append((a, b, ""))  # "" marks a heading: prose may follow it
    events.sort(key=lambda e: e[0])
    blocks: list[_Block] = []
    first = events[0][0] if events else len(body)
    blocks.append(_Block(0, first, None))
    for i, (start, content, label) in enumerate(events):
        stop = events[i + 1][0] if i + 1 < len(events) else len(body)
        blocks.append(_Block(content if not label else start, stop, label or None))
    return blocks


def _section_paths(sections: list[Section]) -> dict[str, tuple[str, ...]]:
    """Map section id to its labels from the top ancestor down to itself."""
    by_id = {s.id: s for s in sections}
    paths: dict[str, tuple[str, ...]] = {}
    for sec in sections:
        labels: list[str] = []
        node: Section | None = sec
        while node is not None:
            labels.append(node.label)
            node = by_id.get(node.parent_id) if node.parent_id else None
        paths[sec.id] = tuple(reversed(labels))
    return paths


def _section_at(sections: list[Section], starts: list[int], pos: int) -> Section | None:
    """The innermost section containing ``pos`` (the last one starting at or before it)."""
    idx = bisect.bisect_right(starts, pos) - 1
    while idx >= 0:
        sec = sections[idx]
        if sec.start <= pos < sec.end:
            return sec
        idx -= 1
    return None


def _trimmed(body: str, start: int, end: int) -> tuple[int, int]:
    """Shrink [start, end) to exclude surrounding whitespace."""
    text = body[start:end]
    lead = len(text) - len(text.lstrip())
    return start + lead, start + len(text.rstrip())


def chunk_document(
    doc: Document, sections: list[Section], size: int = 500, overlap: float = 0.15
) -> list[Chunk]:
    """Cut a document into chunks along its structure.

    Every article (a ``第X条`` paragraph plus the unlabelled paragraphs after it, up to
    the next article or heading) is one chunk, however long. Prose that holds no
    article (a chapter's preamble, an FAQ, a plain text file) is split inside its
    section into windows of at most ``size`` characters that overlap by ``overlap``.

    Args:
        doc: the loaded document; spans refer to ``doc.body``.
        sections: its chapter tree from ``zhiku.structure.build_tree``, in order.
        size: the largest prose window, in characters.
        overlap: the fraction of ``size`` repeated between neighbouring windows.

    Returns:
        Chunks in document order; ``doc.body[c.start:c.end] == c.text``. Chunks whose
        id repeats an earlier one in the same document are dropped.

    Raises:
        ZhikuError: when ``size`` or ``overlap`` is out of range.
    """
    if size < 20:
        raise ZhikuError(f"Chunk size {size} is too small; use at least 20 characters.")
    if not 0 <= overlap < 0.5:
        raise ZhikuError(f"Chunk overlap {overlap} is out of range; use 0 to 0.5 (e.g. 0.15).")
    body = doc.body
    ordered = sorted(sections, key=lambda s: (s.start, s.level))
    starts = [s.start for s in ordered]
    paths = _section_paths(ordered)
    chunks: list[Chunk] = []
    seen: set[str] = set()
    for block in _blocks(body, ordered):
        sec = _section_at(ordered, starts, block.start)
        if block.article:
            spans = [_trimmed(body, block.start, block.end)]
        else:
            spans = split_spans(body, block.start, block.end, size, overlap)
        for a, b in spans:
            if a >= b:
                continue
            chunk = _make_chunk(doc, sec, paths, block.article, a, b)
            if chunk.id not in seen:
                seen.add(chunk.id)
                chunks.append(chunk)
    return chunks


def _make_chunk(
    doc: Document,
    sec: Section | None,
    paths: dict[str, tuple[str, ...]],
    article: str | None,
    start: int,
    end: int,
) -> Chunk:
    """Build one chunk for ``doc.body[start:end]``."""
    text = doc.body[start:end]
    section_id = sec.id if sec else NO_SECTION
    return Chunk(
        id=content_hash(doc.id, section_id, text),
        doc_id=doc.id,
        doc_path=doc.path,
        title=doc.title,
        section_id=section_id,
        section_path=paths[sec.id] if sec else (),
        article=article,
        text=text,
        start=start,
        end=end,
        version_date=doc.version_date,
        kind="article" if article else "text",
    )
