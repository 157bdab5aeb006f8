"""Chapters by meaning: new candidates for a keyword-only index from the chapters whose
title and headings are nearest the question's meaning, searched inside by keyword."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from zhiku.index.store import Scope
from zhiku.types import Hit


def unit_text(title: str, section_path: Sequence[str]) -> str:
    """What a chapter is embedded as: its document's title, then its headings
    (「劳动合同法 第四章 劳动合同的解除和终止」); a chapter heading alone (第六章 解除和终止)
    is shared by many laws and says nothing of which."""
    return " ".join(p for p in (title, *section_path) if p and p.strip()).strip()


@dataclass(frozen=True)
class ChapterVectors:
    """Every chapter of the index (document id, deepest section id) with the bundled
    embedder's vector of its :func:`unit_text`, one row each of ``matrix``."""

    units: tuple[tuple[str, str], ...]
    matrix: np.ndarray  # (len(units), dim), unit length rows

    @classmethod
    def build(cls, rows: Iterable[dict[str, Any]], titles: dict[str, str],
              embed: Callable[[list[str]], np.ndarray]) -> ChapterVectors:
        """The chapters of the stored ``rows`` (``doc_id``, ``section_id``, ``section_path``,
        ``kind``; parents left out) of the documents in ``titles`` (doc id → title),
        each distinct text embedded once through ``embed``."""
        texts: dict[tuple[str, str], str] = {}
        for r in rows:
            if r["kind"] == "parent" or r["doc_id"] not in titles:
                continue
            key = (r["doc_id"], r["section_id"] or "")
            if key not in texts:
                texts[key] = unit_text(titles[r["doc_id"]], r["section_path"] or ())
        units = tuple(texts)
        if not units:
            return cls((), np.zeros((0, 1), dtype=np.float32))
        distinct = list(dict.fromkeys(texts.values()))
        vecs = np.asarray(embed(distinct), dtype=np.float32)
        row = {t: i for i, t in enumerate(distinct)}
        m = vecs[[row[texts[u]] for u in units]]
        m /= np.maximum(np.linalg.norm(m, axis=1, keepdims=True), 1e-9)
        return cls(units, m)

    def nearest(self, qvec: np.ndarray, n: int, skip: frozenset[str] | set[str] = frozenset()
                ) -> list[tuple[str, str, float]]:
        """The ``n`` chapters nearest ``qvec`` (cosine), best first, none of a document in ``skip``."""
        if n <= 0 or not self.units:
            return []
        cos = self.matrix @ np.asarray(qvec, dtype=np.float32)
        out: list[tuple[str, str, float]] = []
        for i in np.argsort(-cos, kind="stable"):
            d, s = self.units[i]
            if d not in skip:
                out.append((d, s, float(cos[i])))
                if len(out) == n:
                    break
        return out


def relaxed(terms: Sequence[str]) -> list[str]:
    """The question's keyword terms and each one's characters: inside a few chapters chosen by
    meaning, an article may say 解除 where the question says 辞退 — a shared character is
    then the only keyword evidence (over the whole index single characters only add noise)."""
    return list(dict.fromkeys([*terms, *(c for t in terms if len(t) > 1 for c in t)]))


def chapter_list(search: Callable[[list[str], int, Scope], list[Hit]], chapters: list[tuple[str, str, float]],
                 terms: Sequence[str], scope: Scope, per: int) -> list[Hit]:
    """The best ``per`` keyword hits of each chapter of ``chapters`` (best first), interleaved
    in the chapters' order (every chapter's best, then every chapter's second…): one keyword
    search inside all of them (the chapter scope chapter routing searches in), the question's
    words :func:`relaxed`.

    Args:
        search: the store's keyword search (terms, k, scope).
        chapters: (document id, section id, cosine), nearest first.
        terms: the question's keyword terms.
        scope: the caller's scope; the chapters narrow it.
        per: hits kept per chapter.

    Returns:
        New hits (source ``chapters``), each recording its place and its chapter's cosine.
    """
    if not chapters or not terms or per <= 0:
        return []
    place = {(d, s): i for i, (d, s, _) in enumerate(chapters)}
    inside = replace(scope, chapters=tuple((d, s) for d, s, _ in chapters))
    found = search(relaxed(terms), len(chapters) * per * 3, inside)
    mine: list[list[Hit]] = [[] for _ in chapters]
    for h in found:
        i = place.get((h.chunk.doc_id, h.chunk.section_id or ""))
        if i is None:  # a merged chunk or a child section: its nearest listed ancestor
            i = next((place[(h.chunk.doc_id, s)] for s in (*h.chunk.section_ids, *_ancestors(h.chunk.section_id))
                      if (h.chunk.doc_id, s) in place), None)
        if i is not None and len(mine[i]) < per:
            mine[i].append(h)
    order = [(i, j) for j in range(per) for i in range(len(chapters)) if j < len(mine[i])]
    return [Hit(mine[i][j].chunk, chapters[i][2], "chapters", {"chapters": (r, round(chapters[i][2], 4))})
            for r, (i, j) in enumerate(order, 1)]


def _ancestors(section_id: str | None) -> list[str]:
    """3.2.1 → 3.2, 3 (dotted section ids)."""
    parts = (section_id or "").split(".")
    return [".".join(parts[:i]) for i in range(len(parts) - 1, 0, -1)]


def interleaved(hits: Sequence[Hit], extra: Sequence[Hit], every: int) -> list[Hit]:
    """``hits`` with the ``extra`` hits they lack taking every ``every``-th place from place
    ``every`` on (a share of the list, not a re-ranking: the hits keep their order and
    scores; an extra hit takes the score of the hit above it, so a later blend of scores
    reads it as that hit's equal).

    Args:
        hits: the ranked list (best first).
        extra: new candidates, best first.
        every: one extra hit per this many places; ``0`` leaves ``hits`` as they are.
    """
    have = {h.chunk.id for h in hits}
    new = [h for h in dict((h.chunk.id, h) for h in extra).values() if h.chunk.id not in have]
    if every <= 0 or not new:
        return list(hits)
    out: list[Hit] = []
    rest = list(hits)
    while rest or new:
        if new and (len(out) + 1) % every == 0 or not rest:
            h = new.pop(0)
            score = out[-1].score if out else (rest[0].score if rest else h.score)
            out.append(replace(h, score=score))
        else:
            out.append(rest.pop(0))
    return out
