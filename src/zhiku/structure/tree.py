"""Chapter tree from loader outlines, Markdown headings and Chinese 编/分编/章/节 markers."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath

from zhiku.chunk.numerals import NUMERAL_CHARS
from zhiku.types import Document, Section

MARKDOWN_SUFFIXES = (".md", ".markdown")

# Rank of a Chinese division marker: a smaller rank holds a larger one (编 > 分编 > 章 > 节).
RANKS: dict[str, int] = {"编": 0, "分编": 1, "章": 2, "节": 3}

_NUM = f"[0-9０-９{NUMERAL_CHARS}]+"
_ATX_RE = re.compile(r"^(#{1,6})[^\S\n]+(.*?)[^\S\n]*#*[^\S\n]*$")
_FENCE_RE = re.compile(r"^[ \t]{0,3}(```|~~~)")
MARKER_RE = re.compile(rf"^第\s?{_NUM}\s?(?P<kind>分编|编|章|节)")
# A plain-text line holding only a division heading, e.g. "第一章 总则" or "　　第二节　设立".
_PLAIN_RE = re.compile(
    rf"^[^\S\n]*(第[^\S\n]?{_NUM}[^\S\n]?(?:分编|编|章|节)"
    r"(?:[^\S\n]*[^\s。；，,;：:！？!?][^。；，,;：:！？!?\n]{0,40})?)[^\S\n]*$",
    re.MULTILINE,
)
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Heading:
    """A heading found in the body, before it is placed in the tree."""

    start: int
    depth: int
    label: str
    rank: int | None


def normalize_label(text: str) -> str:
    """Normalise heading text: one space after a 第X章 marker, none inside Chinese words.

    ``第一章  一般规定`` -> ``第一章 一般规定``; ``第一章 总 则`` -> ``第一章 总则``;
    ``第三分编 准 合 同`` -> ``第三分编 准合同``.

    Args:
        text: the raw heading text without ``#`` marks.

    Returns:
        The label.
    """
    text = " ".join(text.split())
    match = MARKER_RE.match(text)
    if match:
        marker = re.sub(r"\s+", "", text[: match.end()])
        rest = _join_spaced(text[match.end() :].strip())
        return f"{marker} {rest}" if rest else marker
    return _join_spaced(text)


def _join_spaced(text: str) -> str:
    """Drop spaces that letter-space Chinese words (``总 则``, ``准 合 同``)."""
    tokens = text.split(" ")
    out = [tokens[0]]
    last_len = len(tokens[0])
    for token in tokens[1:]:
        single = last_len == 1 or len(token) == 1
        if single and out[-1] and _CJK_RE.match(out[-1][-1]) and _CJK_RE.match(token[:1]):
            out[-1] += token
        else:
            out.append(token)
        last_len = len(token)
    return " ".join(out)


def rank_of(label: str) -> int | None:
    """Rank of a label's Chinese division marker (0 编 .. 3 节), None if it has none.

    Args:
        label: a normalised heading label.

    Returns:
        The rank, or None.
    """
    match = MARKER_RE.match(label)
    return RANKS[match["kind"]] if match else None


def find_headings(body: str, plain: bool = False) -> list[Heading]:
    """Find headings in document order.

    Args:
        body: the document body.
        plain: also accept lines that hold only a ``第X章 名称`` marker (plain text).

    Returns:
        Headings with their start offsets, Markdown depth (1-6; plain lines get 1) and
        rank.
    """
    found: dict[int, Heading] = {}
    in_fence = False
    pos = 0
    for line in body.split("\n"):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            match = _ATX_RE.match(line)
            if match and match.group(2).strip():
                label = normalize_label(match.group(2))
                found[pos] = Heading(pos, len(match.group(1)), label, rank_of(label))
        pos += len(line) + 1
    if plain:
        for match in _PLAIN_RE.finditer(body):
            if match.start() not in found:
                label = normalize_label(match.group(1))
                found[match.start()] = Heading(match.start(), 1, label, rank_of(label))
    return [found[k] for k in sorted(found)]


def _holds(parent: Heading, child: Heading) -> bool:
    """Whether ``parent`` can contain ``child``: shallower, or same depth and higher rank."""
    if parent.depth != child.depth:
        return parent.depth < child.depth
    return parent.rank is not None and child.rank is not None and parent.rank < child.rank


def is_markdown(doc: Document) -> bool:
    """Whether the document came from a Markdown file (by its path suffix).

    Args:
        doc: the document.

    Returns:
        True for ``.md``/``.markdown`` paths.
    """
    return PurePosixPath(doc.path).suffix.lower() in MARKDOWN_SUFFIXES


def build_tree(doc: Document) -> list[Section]:
    """Build the chapter tree of a document.

    Headings a loader already knows (``doc.outline``: PDF bookmarks or detected
    headings, DOCX heading styles, HTML h1-h6) are used when present. Otherwise
    Markdown headings (``#``..``######``) nest by depth, and by 编 > 分编 > 章 > 节 when
    depth is equal. In non-Markdown files, a line holding only ``第X章 名称`` (or 编/
    分编/节) is a heading too. Text before the first heading belongs to no section.

    Args:
        doc: the loaded document.

    Returns:
        Sections in document order. ``id`` is the dotted position (``2.3``), ``level``
        the depth in the tree (1 = top), ``start`` the offset of the heading line and
        ``end`` the start of the next section at the same or a higher level (or the
        body's length).
    """
    if doc.outline:
        labels = [normalize_label(e.label) for e in doc.outline]
        headings = [Heading(e.start, e.level, lab, rank_of(lab)) for e, lab in zip(doc.outline, labels)]
    else:
        headings = find_headings(doc.body, plain=not is_markdown(doc))
    stack: list[tuple[Heading, str]] = []  # open headings with their ids
    counters: dict[str | None, int] = {}
    opened: list[tuple[Heading, str, str | None]] = []
    ends: dict[str, int] = {}
    for head in headings:
        while stack and not _holds(stack[-1][0], head):
            ends[stack.pop()[1]] = head.start
        parent_id = stack[-1][1] if stack else None
        counters[parent_id] = counters.get(parent_id, 0) + 1
        sid = f"{parent_id}.{counters[parent_id]}" if parent_id else str(counters[parent_id])
        stack.append((head, sid))
        opened.append((head, sid, parent_id))
    for _, sid in stack:
        ends[sid] = len(doc.body)
    return [
        Section(
            id=sid,
            label=head.label,
            level=sid.count(".") + 1,
            parent_id=parent_id,
            start=head.start,
            end=ends[sid],
        )
        for head, sid, parent_id in opened
    ]
