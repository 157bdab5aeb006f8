"""Chapter routing (先查目录再找书架): for the routed documents, pick 1–3 chapters by
matching the question against chapter titles and against where the text hits fall,
loading the chapter tree level by level; widen low-confidence picks to the parent."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhiku.index.store import DocRecord
from zhiku.route.subindex import _heading
from zhiku.types import ChapterPick, Hit, Section

RRF_K = 60  # rank weight of a hit, as in RRF (Cormack et al. 2009)
TEXT_HITS = 50  # hits whose chapters count as "text under the chapter"


def routed_docs(hits: Sequence[Hit], named: Sequence[str], n: int) -> list[str]:
    """The documents whose chapters are routed: when the question names documents, only
    those (by their best hit: 民法典 names seven parts, and the hits say which); otherwise
    the documents of the best hits in rank order (a long document with many middling hits
    does not crowd out the one holding the best hit).

    Args:
        hits: the first ranked hits of the routed sub-indexes.
        named: document ids the question names (already resolved).
        n: how many documents.
    """
    best = list(dict.fromkeys(h.chunk.doc_id for h in hits))
    if named:
        rank = {d: i for i, d in enumerate(best)}
        order = sorted(named, key=lambda d: rank.get(d, len(rank)))
    else:
        order = best[:20]
    return order[:n]


def title_weight(terms: Sequence[str], label: str) -> float:
    """How much of the question a chapter's title holds: the characters of the question's
    words (two or more characters) found in the title without its numbering."""
    head = _heading(label)
    return float(sum(len(t) for t in terms if len(t) > 1 and t in head))


def span_share(doc: DocRecord, sec_id: str) -> float:
    """The share of ``doc``'s text that chapter ``sec_id`` spans (1.0 for the whole
    document, an empty id, or a chapter the tree does not hold)."""
    sec = next((s for s in doc.sections if s.id == sec_id), None)
    total = max((s.end for s in doc.sections), default=0) - min((s.start for s in doc.sections), default=0)
    if sec is None or total <= 0:
        return 1.0
    return (sec.end - sec.start) / total


def under(sec_id: str, chunk_sections: Sequence[str]) -> bool:
    """Whether a chunk in ``chunk_sections`` lies in section ``sec_id`` or below it."""
    return any(s == sec_id or s.startswith(sec_id + ".") for s in chunk_sections)


def _shares(cands: list[Section], terms: Sequence[str], hits: list[tuple[int, Hit]]) -> dict[str, float]:
    """Confidence of each sibling chapter: its share of the title matches and of the
    rank-weighted text hits among the siblings (text only when no title matches)."""
    title = {s.id: title_weight(terms, s.label) for s in cands}
    text = {s.id: 0.0 for s in cands}
    for rank, h in hits:
        secs = (h.chunk.section_id, *h.chunk.section_ids)
        for s in cands:
            if under(s.id, secs):
                text[s.id] += 1.0 / (RRF_K + rank)
    tt, tx = sum(title.values()), sum(text.values())
    out = {}
    for s in cands:
        ts = title[s.id] / tt if tt else 0.0
        xs = text[s.id] / tx if tx else 0.0
        out[s.id] = 0.5 * ts + 0.5 * xs if tt and tx else (ts or xs)
    return out


def _descend(tree: dict[str | None, list[Section]], start: Section, conf: float, terms: Sequence[str],
             hits: list[tuple[int, Hit]], threshold: float) -> tuple[Section, float]:
    """Expand the chosen branch one level at a time while a child is clearly the one."""
    node = start
    while tree.get(node.id):
        kids = tree[node.id]
        sh = _shares(kids, terms, hits)
        best = max(kids, key=lambda s: sh[s.id])
        if sh[best.id] < threshold:
            break
        node, conf = best, min(conf, sh[best.id])
    return node, conf


def pick_doc_chapters(doc: DocRecord, terms: Sequence[str], hits: Sequence[Hit], cfg: Any) -> list[ChapterPick]:
    """Chapters of one document for a question, best first.

    The top two levels are scored first (sibling shares of title matches and of hits);
    the chosen branch is then expanded level by level. A pick whose confidence is under
    ``cfg.chapter_confidence`` is widened to its parent chapter (the whole document
    for a top-level chapter).

    Args:
        doc: the document with its chapter tree.
        terms: question words (segmented).
        hits: ranked hits; those of this document say where its text matched.
        cfg: the Config (``route_chapters``, ``chapter_confidence``).

    Returns:
        Up to ``cfg.route_chapters`` picks (none when the document has no chapters).
    """
    tree: dict[str | None, list[Section]] = {}
    for s in doc.sections:
        tree.setdefault(s.parent_id, []).append(s)
    roots = tree.get(None, [])
    if len(roots) < 2:
        return []
    by_id = {s.id: s for s in doc.sections}
    mine = [(r, h) for r, h in enumerate(hits[:TEXT_HITS], 1) if h.chunk.doc_id == doc.doc_id]
    sh = _shares(roots, terms, mine)
    ranked = sorted(roots, key=lambda s: -sh[s.id])
    top = sh[ranked[0].id]
    if top <= 0:
        return []
    picks = []
    for s in ranked[: cfg.route_chapters]:
        if sh[s.id] <= 0 or sh[s.id] < 0.5 * top:
            break
        node, conf = _descend(tree, s, sh[s.id], terms, mine, cfg.chapter_confidence)
        picks.append(_widen(doc, node, conf, by_id, cfg.chapter_confidence))
    return picks


def _widen(doc: DocRecord, node: Section, conf: float, by_id: dict[str, Section],
           threshold: float) -> ChapterPick:
    if conf >= threshold:
        return ChapterPick(doc.doc_id, doc.path, node.id, node.label, round(conf, 4), node.id)
    parent = by_id.get(node.parent_id or "")
    if parent is not None:
        return ChapterPick(doc.doc_id, doc.path, parent.id, parent.label, round(conf, 4), node.id, True)
    return ChapterPick(doc.doc_id, doc.path, "", doc.title, round(conf, 4), node.id, True)


def pick_chapters(docs: Sequence[DocRecord], terms: Sequence[str], hits: Sequence[Hit],
                  cfg: Any) -> list[ChapterPick]:
    """Chapters across the routed documents: at most ``cfg.route_chapters``, by
    confidence, one whole-document pick per document at most."""
    picks, whole = [], []
    for d in docs:
        got = pick_doc_chapters(d, terms, hits, cfg)
        picks += got
        if not got:  # no chapter tree (or no chapter matched): the document is searched whole
            whole.append(ChapterPick(d.doc_id, d.path, "", d.title, 0.0, "", True))
    picks.sort(key=lambda p: -p.confidence)
    out, seen = [], set()
    for p in picks:
        key = (p.doc_id, p.section_id)
        if key in seen:
            continue
        seen.add(key)
        out.append(p)
    return out[: cfg.route_chapters] + whole if out else []
