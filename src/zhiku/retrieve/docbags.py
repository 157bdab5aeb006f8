"""Whole-document keyword evidence: every document scored as one bag of its words (BM25 over
the documents), its best documents searched inside and its passages weighed by it."""

from __future__ import annotations

import math
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from zhiku.retrieve.rescore import rescored
from zhiku.types import Hit

K1 = 1.2  # BM25's term-frequency saturation (Robertson and Zaragoza 2009)


@dataclass(frozen=True)
class DocumentBags:
    """A BM25 index whose units are whole documents: each document's searched passages
    (their segmented keyword text) pooled into one bag of words.

    Built once per published generation from the stored segmented text (the chunks'
    ``seg`` column), so it costs no re-segmenting: ~1 s to read 66k passages and 5–11 s to
    count them on one core at 1556 documents (a busy machine the longer). Postings are kept
    column-wise: word ``w``'s documents are ``at[start[i]:start[i + 1]]`` with their counts
    in ``counts``, ``i = words[w]``.
    """

    docs: tuple[str, ...]  # document ids, in the order of the arrays
    lengths: np.ndarray  # words per document
    words: Mapping[str, int]  # word → its row of the postings
    start: np.ndarray  # where each word's postings start in ``at`` and ``counts`` (one more at the end)
    at: np.ndarray  # document positions
    counts: np.ndarray  # the word's count in that document

    @classmethod
    def build(cls, rows: Iterable[Mapping[str, str]], live: Iterable[str]) -> DocumentBags:
        """The bags of the ``live`` documents from stored chunk rows.

        Args:
            rows: chunk rows with ``doc_id``, ``seg`` (space-separated keyword tokens) and
                ``kind``; parents (quoted, never searched) are skipped.
            live: the ids of the documents searched (deleted ones awaiting compaction left out).
        """
        docs = tuple(sorted(set(live)))
        pos = {d: i for i, d in enumerate(docs)}
        texts: list[list[str]] = [[] for _ in docs]
        for r in rows:
            i = pos.get(r["doc_id"])
            if i is not None and r.get("kind") != "parent" and r.get("seg"):
                texts[i].append(r["seg"])
        words: dict[str, int] = {}
        ids: list[int] = []
        where: list[int] = []
        counts: list[int] = []
        lengths = np.zeros(len(docs), dtype=np.float32)
        for i, parts in enumerate(texts):
            bag = Counter(" ".join(parts).split())
            lengths[i] = sum(bag.values())
            ids.extend(words.setdefault(w, len(words)) for w in bag)
            counts.extend(bag.values())
            where.extend([i] * len(bag))
        order = np.argsort(np.asarray(ids, dtype=np.int32), kind="stable")
        rows_of = np.asarray(ids, dtype=np.int32)[order]
        start = np.searchsorted(rows_of, np.arange(len(words) + 1)).astype(np.int64)
        return cls(docs, lengths, words, start, np.asarray(where, dtype=np.int32)[order],
                   np.asarray(counts, dtype=np.float32)[order])

    def save(self, path: Path, key: str) -> None:
        """Write the bags to ``path`` (numpy ``.npz``) for the index state ``key``, atomically;
        a home that cannot be written keeps them in memory only."""
        tmp = path.with_name(f"{path.name}.{os.getpid()}.part")
        words = sorted(self.words, key=self.words.__getitem__)
        try:
            with open(tmp, "wb") as f:
                np.savez(f, key=np.array(key), docs=np.array(self.docs), lengths=self.lengths,
                         words=np.array(words), start=self.start, at=self.at, counts=self.counts)
            os.replace(tmp, path)
        except OSError:
            tmp.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path, key: str) -> DocumentBags | None:
        """The bags saved at ``path`` for the index state ``key``, or None (none saved, saved
        for another state, or unreadable)."""
        try:
            with np.load(path) as z:
                if str(z["key"]) != key:
                    return None
                words = {w: i for i, w in enumerate(z["words"].tolist())}
                return cls(tuple(z["docs"].tolist()), z["lengths"], words, z["start"], z["at"], z["counts"])
        except (OSError, KeyError, ValueError):
            return None

    @cached_property
    def positions(self) -> dict[str, int]:
        """Document id → its position in :attr:`docs` (derived once per set of bags)."""
        return {d: i for i, d in enumerate(self.docs)}

    def scores(self, terms: Sequence[str], b: float) -> np.ndarray:
        """BM25 of every document for ``terms`` (repeated terms count again, as a keyword
        query's do), ``b`` the length normalisation: 1 divides a long code's counts by its
        length in full, 0 not at all.

        Returns:
            One score per document of :attr:`docs` (zeros when none holds a term).
        """
        out = np.zeros(len(self.docs), dtype=np.float32)
        if not len(self.docs):
            return out
        n, avg = len(self.docs), float(self.lengths.mean()) or 1.0
        for t in terms:
            w = self.words.get(t)
            if w is None:
                continue
            at, tf = self.at[self.start[w]:self.start[w + 1]], self.counts[self.start[w]:self.start[w + 1]]
            idf = math.log(1.0 + (n - len(at) + 0.5) / (len(at) + 0.5))
            norm = K1 * (1.0 - b + b * self.lengths[at] / avg)
            out[at] += idf * tf * (K1 + 1.0) / (tf + norm)
        return out

    def best(self, terms: Sequence[str], b: float, skip: Iterable[str] = (),
             within: Sequence[str] = ()) -> dict[str, float]:
        """Every document holding a term with its score as a share of the best one's (1 for
        the best), ``skip`` left out, only ``within`` when given; best first."""
        s = self.scores(terms, b)
        keep = np.zeros(len(self.docs), dtype=bool)
        at = self.positions
        if within:
            keep[[at[d] for d in within if d in at]] = True
        else:
            keep[:] = True
        if skip:
            keep[[at[d] for d in skip if d in at]] = False
        s = np.where(keep, s, 0.0)
        top = float(s.max()) if len(s) else 0.0
        if top <= 0:
            return {}
        order = np.argsort(-s, kind="stable")
        return {self.docs[i]: float(s[i]) / top for i in order if s[i] > 0}


def weigh_by_documents(hits: Sequence[Hit], shares: Mapping[str, float], weight: float) -> list[Hit]:
    """Keyword hits re-ranked by their whole document's keyword evidence: each hit's score
    times ``1 + weight × share``, ``share`` its document's BM25 as a bag of words over the
    best document's (0 for a document holding none of the question's words). Passages are
    ranked within the evidence of the document around them, as cluster-based retrieval
    ranks documents within their cluster's (Liu and Croft 2004, "Cluster-based retrieval
    using language models"; Kurland and Lee 2004): a stray passage of an unrelated law that
    shares a few common words with a layperson's question yields to one of the law whose
    words as a whole match the question.

    Args:
        hits: keyword hits, best first.
        shares: document id → its score share (see :meth:`DocumentBags.best`).
        weight: the gain of the best document's passages; ``0`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        ``documents`` with its new rank and its document's share.
    """
    if weight <= 0 or not shares or len(hits) < 2:
        return list(hits)
    got = [round(shares.get(h.chunk.doc_id, 0.0), 4) for h in hits]
    return rescored(hits, [h.score * (1.0 + weight * s) for h, s in zip(hits, got)], "documents", got)


def merged(first: Sequence[Hit], more: Sequence[Hit]) -> list[Hit]:
    """The keyword hits of the whole scope and those of the search inside its best
    documents as one list, best score first, each passage once (both searches score with the
    whole index's statistics, so their scores compare). Not cut: a passage found inside a
    document only scores below every hit of the whole scope, until its document's evidence
    weighs it (:func:`weigh_by_documents`)."""
    score = {h.chunk.id: h.score for h in first}
    chunks = {h.chunk.id: h.chunk for h in first}
    for h in more:
        chunks.setdefault(h.chunk.id, h.chunk)
        score[h.chunk.id] = max(score.get(h.chunk.id, 0.0), h.score)
    best = sorted(score, key=lambda c: -score[c])
    return [Hit(chunks[c], score[c], "bm25", {"bm25": (i, score[c])}) for i, c in enumerate(best, 1)]
