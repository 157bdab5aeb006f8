"""Chapter tree from loader outlines, Markdown headings and Chinese 编/分编/章/节 markers."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from zhiku.chunk.numerals import NUMERAL_CHARS
from zhiku.structure.numbering import (
    DETECTED_LEVEL, TOC_LINE_RE, WORD_BOOKMARK_RE, allowed, clause_headings, has_articles, heading_like,
    number_of, scheme, strip_inline_tags,
)
from zhiku.types import Document, Section

MARKDOWN_SUFFIXES = (".md", ".markdown")

# Rank of a Chinese division marker: a smaller rank holds a larger one (编 > 分编 > 章 > 节).
RANKS: dict[str, int] = {"编": 0, "分编": 1, "章": 2, "节": 3}

_NUM = f"[0-9０-９{NUMERAL_CHARS}]+"
_ATX_RE = re.compile(r"^(#{1,6})[^\S\n]+(.*?)[^\S\n]*#*[^\S\n]*$")
_FENCE_RE = re.compile(r"^[ \t]{0,3}(```|~~~)")
# An FAQ entry written as a bold line, not a heading: a numbered list item that is bold as a
# whole (「2. **我是否需要安装其他的软件…？**」) or a bold line asking a question.
_BOLD_ITEM_RE = re.compile(r"^[ \t]{0,3}\d+[.、][^\S\n]+\*\*([^*\n]+)\*\*[^\S\n]*$")
_BOLD_ASK_RE = re.compile(r"^[ \t]{0,3}\*\*([^*\n]+[？?])\*\*[^\S\n]*$")
# A heading of a Word document converted to Markdown: a line bold as a whole, numbered like a
# heading inside or just before the bold (「**一、开发板详情**」, 「2、**反面外观图**」).
_BOLD_LINE_RE = re.compile(r"^[ \t]{0,3}([0-9一二三四五六七八九十]{1,3}[、.．])?[^\S\n]*\*\*([^*\n]+)\*\*[^\S\n]*$")
MARKER_RE = re.compile(rf"^第\s?{_NUM}\s?(?P<kind>分编|编|章|节)")
# A plain-text line holding only a division heading, e.g. "第一章 总则" or "　　第二节　设立".
_PLAIN_RE = re.compile(
    rf"^[^\S\n]*(第[^\S\n]?{_NUM}[^\S\n]?(?:分编|编|章|节)"
    r"(?:[^\S\n]*[^\s。；，,;：:！？!?][^。；，,;：:！？!?\n]{0,40})?)[^\S\n]*$",
    re.MULTILINE,
)
# a Markdown line bold as a whole (「**第一章 总则**」): its text
_BOLD_WHOLE_RE = re.compile(r"^([ \t]{0,3})(?:\*\*|__)([^*_\n]+)(?:\*\*|__)[^\S\n]*$")
_TOC_TITLE_RE = re.compile(r"^(?:目\s*录|contents)$", re.IGNORECASE)
# The label that opens an attachment of an official document on a line of its own (附件,
# 附件2, 附件一: GB/T 9704); the notice's own list of attachments says 附件：… and is text.
_ATTACHMENT_RE = re.compile(rf"^[^\S\n]*附[^\S\n]*件[^\S\n]*(?:{_NUM})?[^\S\n]*$", re.MULTILINE)
#: Rank of an attachment: it closes every chapter before it and holds all that follows.
ATTACHMENT_RANK = -1
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


@dataclass(frozen=True)
class Heading:
    """A heading found in the body, before it is placed in the tree."""

    start: int
    depth: int
    label: str
    rank: int | None
    kind: str | None = None  # numbering scheme (cn, paren_cn, dotted2...), see numbering.py


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


def find_headings(body: str, plain: bool = False, divisions: bool = False,
                  clauses: bool = False) -> list[Heading]:
    """Find headings in document order.

    Args:
        body: the document body.
        plain: also accept lines that hold only a ``第X章 名称`` marker (plain text).
        divisions: in Markdown (``plain`` False), a line holding only a ``第X章 名称`` marker
            (or 编/分编/节; bold or not) is a heading one level below the ``#`` heading before
            it, when the text has two or more such lines and no ``#`` heading of its own is a
            division (a regulation kept as Markdown whose chapters are plain lines; config
            ``markdown_divisions``). One such line alone is text (an amendment quoting the
            section it adds).
        clauses: in plain text written in numbered clauses in order (a standard: 1 范围, 3.1,
            5.2.1), those clauses with a title or a term are the numbered headings, and a
            numbered line out of that order or opening a sentence is text
            (:func:`zhiku.structure.numbering.clause_headings`; config ``standard_clauses``).

    Returns:
        Headings with their start offsets, Markdown depth (1-6; plain lines get 1) and
        rank. In Markdown, an FAQ entry's bold question line is a heading one level below
        the heading before it.
    """
    found: dict[int, Heading] = {}
    lines: list[Heading] = []  # Markdown lines holding only a division marker
    in_fence = False
    pos = depth = 0
    for line in body.split("\n"):
        if _FENCE_RE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            match = _ATX_RE.match(line)
            label = normalize_label(strip_inline_tags(match.group(2))) if match else ""
            if label:
                depth = len(match.group(1))
                found[pos] = Heading(pos, depth, label, rank_of(label))
            elif not plain and (entry := _BOLD_ITEM_RE.match(line) or _BOLD_ASK_RE.match(line)):
                label = normalize_label(entry.group(1))
                found[pos] = Heading(pos, min(depth + 1, 6), label, None)
            elif not plain and (label := _bold_heading(line)):
                found[pos] = Heading(pos, DETECTED_LEVEL, label, rank_of(label))
            elif not plain and divisions and (division := _PLAIN_RE.match(_BOLD_WHOLE_RE.sub(r"\2", line))):
                label = normalize_label(division.group(1))
                lines.append(Heading(pos, min(depth + 1, 6), label, rank_of(label)))
        pos += len(line) + 1
    if len(lines) >= 2 and not any(h.rank is not None for h in found.values()):
        found.update((h.start, h) for h in lines)
    if plain:
        for match in _PLAIN_RE.finditer(body):
            if match.start() not in found:
                label = normalize_label(match.group(1))
                found[match.start()] = Heading(match.start(), 1, label, rank_of(label))
        _numbered_lines(body, found, clauses)
        _attachments(body, found)
    return [found[k] for k in sorted(found)]


def _bold_heading(line: str) -> str:
    """The label of a Markdown line that is a converted Word heading: bold as a whole and
    numbered like a heading (一、 1.1 1、 （一）, a closing colon allowed), else ""."""
    match = _BOLD_LINE_RE.match(line)
    if not match:
        return ""
    label = normalize_label((match.group(1) or "") + match.group(2)).rstrip("：:")
    return label if heading_like(label) not in (None, "paren_num") else ""


def _attachments(body: str, found: dict[int, Heading]) -> None:
    """Add the 附件 lines of a plain text as headings above every other kind, labelled with
    the attachment's title when the next line is one (``附件 第二批…推广清单``)."""
    for match in _ATTACHMENT_RE.finditer(body):
        label = normalize_label(match.group())
        rest = body[match.end():].lstrip()
        title = rest.split("\n", 1)[0].strip() if rest else ""
        if title and len(title) <= 40 and not re.search(r"[。；，,;：:！？!?]$", title) \
                and heading_like(title) is None and not _ATTACHMENT_RE.match(title):
            label = f"{label} {title}"
        found[match.start()] = Heading(match.start(), 1, label, ATTACHMENT_RANK)


def _numbered_lines(body: str, found: dict[int, Heading], clauses: bool = False) -> None:
    """Add plain-text lines numbered like headings (一、 （一） 1.1 第X部分); in a text
    of 第X条 articles only 第X部分 and 1.1 numbers count (the rest are list items). With
    ``clauses``, in a text of numbered clauses in order the dotted numbers that are headings
    are those :func:`clause_headings` finds (labelled with a term after a number alone)."""
    lines = body.split("\n")
    articles = has_articles(lines)
    numbered = clause_headings(lines) if clauses else {}
    pos = 0
    for i, line in enumerate(lines):
        kind = heading_like(line)
        if numbered and (i in numbered or (scheme(line.strip()) or "").startswith("dotted")):
            if i in numbered and pos not in found:
                found[pos] = Heading(pos, DETECTED_LEVEL, normalize_label(numbered[i]), None)
        elif pos not in found and kind not in (None, "num_dun", "paren_num") \
                and allowed(kind, articles):
            label = normalize_label(line)
            found[pos] = Heading(pos, DETECTED_LEVEL, label, rank_of(label))
        pos += len(line) + 1


def _kind(head: Heading) -> str | None:
    """The numbering kind of a heading: ``rank<r>`` for 编/章/节, else its scheme."""
    return f"rank{head.rank}" if head.rank is not None else scheme(head.label)


def _order(kind: str, first_seen: dict[str, int]) -> tuple[int, int]:
    """Nesting order of a kind: 编/章/节 above numbered schemes, which nest in the order
    the document first uses them; 1 above 1.1 above 1.1.1 always."""
    if kind.startswith("rank"):
        return (-10 + int(kind[4:]), 0)
    if kind.startswith("dotted"):
        return (first_seen["dotted"], int(kind[6:]))
    return (first_seen[kind], 0)


def _holds(parent: Heading, child: Heading, first_seen: dict[str, int]) -> bool:
    """Whether ``parent`` can contain ``child``: shallower; or at the same depth, a
    higher 编/章/节 rank, or (for headings found by numbering alone) a numbering kind
    that nests above the child's."""
    if parent.depth != child.depth:
        return parent.depth < child.depth
    if parent.rank is not None and child.rank is not None:
        return parent.rank < child.rank
    if parent.kind is None or child.kind is None or parent.depth < DETECTED_LEVEL:
        return False
    return _order(parent.kind, first_seen) < _order(child.kind, first_seen)


def _family(kind: str) -> str:
    return "dotted" if kind.startswith("dotted") else kind


def _dotted_parent(stack: list[tuple[Heading, str]], head: Heading) -> int | None:
    """Index in the stack of the heading a dotted number belongs under (9.2.1 under 9.2)."""
    number = number_of(head.label)
    if "." not in number:
        return None
    prefix = number.rsplit(".", 1)[0]
    for i in range(len(stack) - 1, -1, -1):
        if stack[i][0].kind and stack[i][0].kind.startswith("dotted") \
                and number_of(stack[i][0].label) == prefix:
            return i
    return None


def _clean(headings: list[Heading], body: str) -> list[Heading]:
    """Drop headings that are not chapters: Word bookmark names (OLE_LINK5) and the
    lines of a printed table of contents (a page number after a leader, or an empty
    run of headings whose labels come again later)."""
    kept = [h for h in headings if not WORD_BOOKMARK_RE.match(h.label)
            and not TOC_LINE_RE.search(h.label)]
    ends = [kept[i + 1].start if i + 1 < len(kept) else len(body) for i in range(len(kept))]
    toc = [not body[_line_end(body, h.start):end].strip()
           and any(_same(o.label, h.label) for o in kept[i + 1:])
           for i, (h, end) in enumerate(zip(kept, ends))]
    drop = {i for i, t in enumerate(toc)
            if t and ((i > 0 and toc[i - 1]) or (i + 1 < len(toc) and toc[i + 1]))}
    drop |= {i for i, h in enumerate(kept) if _TOC_TITLE_RE.match(h.label)
             and i + 1 in drop and not body[_line_end(body, h.start):ends[i]].strip()}
    return [h for i, h in enumerate(kept) if i not in drop]


def _line_end(body: str, start: int) -> int:
    nl = body.find("\n", start)
    return len(body) if nl < 0 else nl


def _same(a: str, b: str) -> bool:
    return "".join(a.split()) == "".join(b.split())


def is_markdown(doc: Document) -> bool:
    """Whether the document came from a Markdown file (by its path suffix).

    Args:
        doc: the document.

    Returns:
        True for ``.md``/``.markdown`` paths.
    """
    return PurePosixPath(doc.path).suffix.lower() in MARKDOWN_SUFFIXES


def build_tree(doc: Document, divisions: bool = True, runs: bool = True,
               clauses: bool = True) -> list[Section]:
    """Build the chapter tree of a document.

    Headings a loader already knows (``doc.outline``: PDF bookmarks or detected
    headings, DOCX heading styles, HTML h1-h6) are used when present. Otherwise
    Markdown headings (``#``..``######``) nest by depth, and by 编 > 分编 > 章 > 节 when
    depth is equal. In non-Markdown files, a line holding only ``第X章 名称`` (or 编/
    分编/节) is a heading too; in Markdown with ``divisions``, such lines are when there are
    two or more and no ``#`` heading is a division (:func:`find_headings`). Text before the
    first heading belongs to no section.

    Args:
        doc: the loaded document.
        divisions: Markdown's plain division lines are headings (config
            ``markdown_divisions``).
        runs: sibling headings on consecutive lines, the first with no text of its own, are
            one section under both labels (config ``heading_runs``: :func:`_runs`).
        clauses: a plain text written in numbered clauses (a standard) has those clauses as
            its numbered headings (config ``standard_clauses``: :func:`find_headings`).

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
        headings = find_headings(doc.body, plain=not is_markdown(doc), divisions=divisions, clauses=clauses)
    headings = [replace(h, kind=_kind(h)) for h in _clean(headings, doc.body)]
    sections = _placed(headings, doc.body)
    if runs and (joined := _runs(headings, sections, doc.body)) is not None:
        sections = _placed(joined, doc.body)
    return sections


def _runs(headings: list[Heading], sections: list[Section], body: str) -> list[Heading] | None:
    """``headings`` with each run of sibling headings on consecutive lines joined into its
    first, under both labels; None when there is no such run. A troubleshooting page titles
    one fix by each message it cures, one heading a line (「# 应用程序无法正常启动(0xc0000142)」
    「# 或者：`[Error] OCR init fail…`」; an FAQ's two ``<h4>`` exceptions over one answer): the
    first heading has no text of its own, and its words — the message asked about — were
    in no chunk. A heading with text, children or a blank line before the next (an empty
    release of a changelog, a chapter with no articles yet) is its own section as before."""
    keep: list[Heading] = []
    for i, head in enumerate(headings):
        prev = sections[i - 1] if i else None
        sec = sections[i]
        if (keep and prev is not None and sec.parent_id == prev.parent_id and sec.level == prev.level
                and prev.end == sec.start and body[_line_end(body, prev.start):sec.start].strip(" \t\r") == "\n"):
            keep[-1] = replace(keep[-1], label=f"{keep[-1].label} {head.label}")
            continue
        keep.append(head)
    return keep if len(keep) < len(headings) else None


def _placed(headings: list[Heading], body: str) -> list[Section]:
    """The sections of ``headings`` placed in the tree (:func:`build_tree`)."""
    first_seen: dict[str, int] = {}
    for h in headings:
        if h.kind:
            first_seen.setdefault(_family(h.kind), len(first_seen))
    stack: list[tuple[Heading, str]] = []  # open headings with their ids
    counters: dict[str | None, int] = {}
    opened: list[tuple[Heading, str, str | None]] = []
    ends: dict[str, int] = {}
    for head in headings:
        keep = _dotted_parent(stack, head)
        if keep is None and head.kind:  # a kind already open: this is its sibling (9.2 after 9.1)
            keep = next((i - 1 for i in range(len(stack) - 1, -1, -1)
                         if stack[i][0].kind == head.kind), None)
        if keep is not None:
            while len(stack) > keep + 1:
                ends[stack.pop()[1]] = head.start
        while stack and not _holds(stack[-1][0], head, first_seen) and keep is None:
            ends[stack.pop()[1]] = head.start
        parent_id = stack[-1][1] if stack else None
        counters[parent_id] = counters.get(parent_id, 0) + 1
        sid = f"{parent_id}.{counters[parent_id]}" if parent_id else str(counters[parent_id])
        stack.append((head, sid))
        opened.append((head, sid, parent_id))
    for _, sid in stack:
        ends[sid] = len(body)
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
