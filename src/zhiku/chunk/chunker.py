"""Structure-aware chunking: articles, overlapping prose windows with parents, tables."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from zhiku.chunk.articles import ARTICLE_RE, LOOSE_ARTICLE_RE, article_label
from zhiku.chunk.numerals import cn_to_int
from zhiku.chunk.splitter import split_spans
from zhiku.chunk.tables import table_chunks
from zhiku.errors import ZhikuError
from zhiku.types import Chunk, Document, Section, content_hash

NO_SECTION = "0"


@dataclass(frozen=True)
class _Block:
    """A stretch of the body: an article, or prose between headings and articles."""

    start: int
    end: int
    article: str | None
    extra: tuple[str, ...] = ()  # ids of sections merged into this block after its own


def _minus_tables(blocks: list[_Block], tables: list[tuple[int, int]]) -> list[_Block]:
    """Cut table spans out of blocks (tables become their own chunks)."""
    if not tables:
        return blocks
    out = []
    for blk in blocks:
        pieces = [(blk.start, blk.end)]
        for a, b in tables:
            pieces = [p for s, e in pieces for p in ((s, min(e, a)), (max(s, b), e)) if p[0] < p[1]]
        out += [_Block(s, e, blk.article) for s, e in pieces]
    return out


def _within(inner: Section | None, outer: Section | None) -> bool:
    """Whether ``inner`` is ``outer`` or lies inside it (by dotted id)."""
    return inner is not None and outer is not None and (
        inner.id == outer.id or inner.id.startswith(outer.id + "."))


def _merge_small(body: str, placed: list[tuple[_Block, Section | None]],
                 min_section: int) -> list[tuple[_Block, Section | None]]:
    """Merge a prose block shorter than ``min_section`` characters (a chapter's one-line
    lead-in) into the next prose block when that one lies in a sub-section of it: the
    chunk is filed under the sub-section, whose path names both, and keeps both ids.

    A short section is never merged with a sibling: its chunk would be cited under one
    of the two labels for the other's text (5.2.2 quoted as 5.2.1).
    """
    if min_section <= 0:
        return placed
    out: list[tuple[_Block, Section | None]] = []
    i = 0
    while i < len(placed):
        blk, sec = placed[i]
        nxt = placed[i + 1] if i + 1 < len(placed) else None
        small = not blk.article and 0 < len(body[blk.start:blk.end].strip()) < min_section
        if small and nxt and not nxt[0].article and nxt[1] is not sec and sec is not None \
                and _within(nxt[1], sec):
            extra = (*nxt[0].extra, sec.id, *blk.extra)
            out.append((_Block(blk.start, nxt[0].end, None, extra), nxt[1]))
            i += 2
            continue
        out.append((blk, sec))
        i += 1
    return out


def _heading_line_end(body: str, start: int) -> int:
    """End of the heading line that starts at ``start`` (just before its newline)."""
    nl = body.find("\n", start)
    return len(body) if nl < 0 else nl


def article_starts(body: str, loose: bool = False) -> list[tuple[int, str]]:
    """Where articles start in ``body`` and their labels: every plain label (:data:`ARTICLE_RE`);
    with ``loose`` (config ``article_label_forms``) also a bold label (``**第一条** …``) and a
    label run into its text (``第一条为了…``) when it is the next article in order after the last
    one (第一条 first) — a regulation kept as Markdown wrote them so and got no article at all,
    while a line that opens with a reference (「第二十条规定的情形除外。」) is out of order.

    Args:
        body: the document body.
        loose: also read the loose forms.

    Returns:
        (offset of the label's line, normal label) in order.
    """
    found: dict[int, str] = {}
    for m in ARTICLE_RE.finditer(body):
        try:
            found[m.start()] = article_label(m["num"], m["sub"])
        except ValueError:
            continue
    if loose:
        last = 0
        for m in LOOSE_ARTICLE_RE.finditer(body):
            try:
                number = cn_to_int(m["num"])
            except (ValueError, KeyError):
                continue
            if m.start() in found or m["bold"] or (number == last + 1 and not m["sub"]):
                if m.start() not in found:
                    found[m.start()] = article_label(m["num"], m["sub"])
                last = number
    return sorted(found.items())


def _squashed(text: str) -> str:
    return "".join(text.lstrip().lstrip("#").split())


#: A heading label that is only a clause number (4.5, 4.4.4, A.2; 4．5 with a full-width point,
#: as :data:`zhiku.structure.numbering._CLAUSE_RE` reads it).
_CLAUSE_NUMBER = re.compile(r"(?:\d{1,2}|[A-Z])(?:[.．]\d{1,2}){1,4}")


def _heading_end(body: str, sec: Section) -> int:
    """End of the heading of ``sec``: its line, and the lines after it that its label goes
    on with (a run of headings on consecutive lines joined under both labels, config
    ``heading_runs``: 「应用程序无法正常启动(0xc0000142) 或者：`[Error] OCR init fail…`」), so
    that a joined heading's second line is no text of its section; a clause number heading its
    own sentence on one line ends after the number."""
    end = _heading_line_end(body, sec.start)
    label, said = _squashed(sec.label), _squashed(body[sec.start:end])
    if _CLAUSE_NUMBER.fullmatch(sec.label) and len(said) > len(label) and said.startswith(label):
        # a standard's clause headed by its number alone, its sentence on the same line
        # (「4.5 每个新建燃煤…」: :func:`zhiku.structure.numbering.clause_headings`): the sentence is text
        return body.find(sec.label, sec.start, end) + len(sec.label)
    while len(said) < len(label) and end < len(body):
        nxt = _heading_line_end(body, end + 1)
        line = _squashed(body[end + 1:nxt])
        if not line or not label.endswith(line) and f"{said}{line}" not in label:
            break
        said, end = f"{said}{line}", nxt
    return end


def _blocks(body: str, sections: list[Section], loose: bool = False) -> list[_Block]:
    """Cut the body at headings and article labels into article and prose blocks."""
    heading_spans = sorted((s.start, _heading_end(body, s)) for s in sections)
    heading_starts = [a for a, _ in heading_spans]
    events: list[tuple[int, int, str | None]] = []  # (start, content start, article)
    for start, label in article_starts(body, loose):
        idx = bisect.bisect_right(heading_starts, start) - 1
        if idx >= 0 and start < heading_spans[idx][1]:
            continue  # a heading line that happens to look like an article
        events.append((start, start, label))
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
    doc: Document, sections: list[Section], size: int = 500, overlap: float = 0.15,
    parent_size: int = 0, min_section: int = 0, gloss: bool = True, loose: bool = True,
) -> list[Chunk]:
    """Cut a document into chunks along its structure.

    Every article (a ``第X条`` paragraph plus the unlabelled paragraphs after it, up to
    the next article or heading) is one chunk, however long. Prose that holds no
    article (a chapter's preamble, an FAQ, a plain text file) is split inside its
    section into windows of at most ``size`` characters that overlap by ``overlap``.
    Every table becomes a ``table`` chunk, a ``table_summary`` and one ``table_row``
    chunk per row (see :mod:`zhiku.chunk.tables`).

    Args:
        doc: the loaded document; spans refer to ``doc.body``.
        sections: its chapter tree from ``zhiku.structure.build_tree``, in order.
        size: the largest prose window (child chunk), in characters.
        overlap: the fraction of ``size`` repeated between neighbouring windows.
        parent_size: when > ``size``, prose split into windows also gets ``parent``
            chunks of up to this many characters (the whole section when it fits); each
            window names its parent in ``parent_id``. 0 turns parents off.
        min_section: a prose lead-in shorter than this is merged with the first
            sub-section after it and the chunk keeps both ids in ``section_ids``. 0 turns
            merging off.
        gloss: a table row's sentence follows an English column name with its Chinese
            (:func:`zhiku.chunk.tables.row_sentence`; config ``table_header_gloss``).
        loose: an article label bold or run into its text is an article too when it is the
            next in order (:func:`article_starts`; config ``article_label_forms``).

    Returns:
        Chunks in document order; for article, text and parent chunks
        ``doc.body[c.start:c.end] == c.text``. Chunks whose id repeats an earlier one in
        the same document are dropped.

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
    blocks = _minus_tables(_blocks(body, ordered, loose), [(t.start, t.end) for t in doc.tables])
    placed = _merge_small(body, [(b, _section_at(ordered, starts, b.start)) for b in blocks],
                          min_section)
    chunks: list[Chunk] = []
    for block, sec in placed:
        if block.article:
            chunks.append(_make_chunk(doc, sec, paths, block, *_trimmed(body, block.start, block.end)))
            continue
        chunks += _prose(doc, sec, paths, block, size, overlap, parent_size)
    chunks = [c for c in chunks if not _headings_only(c, paths)]
    for table in doc.tables:
        sec = _section_at(ordered, starts, table.start)
        chunks += table_chunks(doc, table, sec.id if sec else NO_SECTION,
                               paths[sec.id] if sec else (), gloss)
    return _unique(chunks)


def _headings_only(chunk: Chunk, paths: dict[str, tuple[str, ...]]) -> bool:
    """Whether every line of a prose chunk is (part of) a heading of the sections it covers
    or a Markdown image: a short lead-in merged with a sub-section whose only content is a
    table (cut out into table chunks) leaves 「第二批…推广清单 / 一、知识产权保护方面（共5项）」,
    and a manual's 「2、Mipi 屏幕安装如下图」 over its picture leaves the heading and an image
    whose alt text names another product; neither says anything the chunk's section path
    does not, yet both matched questions naming what they name first."""
    if chunk.kind not in ("text", "parent"):
        return False
    labels = ["".join(lab.split()) for sid in (chunk.section_ids or (chunk.section_id,))
              for lab in paths.get(sid, ())]
    lines = ["".join(line.split()) for line in chunk.text.splitlines() if line.strip()]
    text = [line for line in lines if not _IMAGE_LINE.fullmatch(line)]
    return bool(lines) and all(any(line in lab for lab in labels) for line in text)


# a line showing a picture and nothing else: 「![alt](figures/a.png)」, bold or not, an <img>
_IMAGE_LINE = re.compile(r"[*_]*(?:!\[[^\]]*\]\([^)]*\)|<img[^<>]*>)[*_]*", re.IGNORECASE)


def _prose(doc: Document, sec: Section | None, paths: dict[str, tuple[str, ...]], block: _Block,
           size: int, overlap: float, parent_size: int) -> list[Chunk]:
    """Windows of a prose block, preceded by their parents when the block needs several
    windows and ``parent_size`` is larger than ``size``."""
    body = doc.body
    spans = split_spans(body, block.start, block.end, size, overlap)
    parents = []
    if parent_size > size and len(spans) > 1:
        parents = [_make_chunk(doc, sec, paths, block, a, b, kind="parent")
                   for a, b in split_spans(body, block.start, block.end, parent_size, 0.0)]
    out = list(parents)
    for a, b in spans:
        pid = next((p.id for p in parents if p.start <= a < p.end), None)
        out.append(_make_chunk(doc, sec, paths, block, a, b, parent_id=pid))
    return out


def _unique(chunks: list[Chunk]) -> list[Chunk]:
    """Chunks in order with repeated ids dropped (identical text in one section)."""
    seen: set[str] = set()
    out = []
    for c in chunks:
        if c.id not in seen and c.start < c.end:
            seen.add(c.id)
            out.append(c)
    return sorted(out, key=lambda c: (c.start, c.kind != "parent"))


def _make_chunk(
    doc: Document,
    sec: Section | None,
    paths: dict[str, tuple[str, ...]],
    block: _Block,
    start: int,
    end: int,
    kind: str | None = None,
    parent_id: str | None = None,
) -> Chunk:
    """Build one chunk for ``doc.body[start:end]``."""
    text = doc.body[start:end]
    section_id = sec.id if sec else NO_SECTION
    kind = kind or ("article" if block.article else "text")
    return Chunk(
        id=content_hash(doc.id, section_id, text) if kind != "parent"
        else content_hash(doc.id, section_id, "parent", text),
        doc_id=doc.id,
        doc_path=doc.path,
        title=doc.title,
        section_id=section_id,
        section_path=paths[sec.id] if sec else (),
        article=block.article,
        text=text,
        start=start,
        end=end,
        version_date=doc.version_date,
        kind=kind,
        page=doc.page_at(start),
        parent_id=parent_id,
        section_ids=(section_id, *block.extra) if block.extra else (),
    )
