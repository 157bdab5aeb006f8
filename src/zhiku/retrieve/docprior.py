"""Document evidence in keyword ranking: hits of a document that many strong hits point to move up,
and hits of a document that many other laws cite (its citation in-degree) as a prior."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

from zhiku.index.store import DocRecord
from zhiku.retrieve.fields import idf_words
from zhiku.retrieve.rescore import rescored
from zhiku.retrieve.segment import normalise
from zhiku.types import Hit

DEPTH = 3  # a document's evidence: the sum of its best this-many hit scores


def document_boost(hits: Sequence[Hit], weight: float, depth: int = DEPTH) -> list[Hit]:
    """Keyword hits re-ranked with their document's evidence added to their own score.

    A question in everyday words often matches a stray passage of an unrelated document
    as well as several passages of the right one. This scores each document by the sum
    of its best ``depth`` hit scores among ``hits`` and adds to every hit ``weight`` times
    its document's share of the best document's evidence, on the scale of the best hit's
    score: the passage-plus-document combination of Callan (1994, "Passage-level evidence
    in document retrieval"), applied to the candidates only.

    Args:
        hits: keyword hits, best first.
        weight: document evidence weight relative to the best hit's score; ``0`` leaves
            ``hits`` as they are.
        depth: how many of a document's best hits make its evidence, at least 1.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        ``document`` with its new rank and its document's evidence share.
    """
    if weight <= 0 or len(hits) < 2:
        return list(hits)
    top = max(h.score for h in hits)
    by_doc: dict[str, list[float]] = defaultdict(list)
    for h in hits:
        by_doc[h.chunk.doc_id].append(h.score)
    evidence = {d: sum(sorted(s, reverse=True)[:max(1, depth)]) for d, s in by_doc.items()}
    best = max(evidence.values())
    if top <= 0 or best <= 0:
        return list(hits)
    shares = [evidence[h.chunk.doc_id] / best for h in hits]
    return rescored(hits, [h.score + weight * s * top for h, s in zip(hits, shares)], "document",
                    [round(s, 4) for s in shares])


# 《中华人民共和国劳动合同法》, 《最高人民法院关于适用〈中华人民共和国民事诉讼法〉的解释》
_CITED_TITLE = re.compile(r"《([^《》\n]{2,80})》")
_PREFIX = "中华人民共和国"


def cited_titles(text: str) -> list[str]:
    """The titles a passage cites between 《》, as a title index looks names up (inner 〈〉
    read as 《》, spaces and the 中华人民共和国 prefix dropped)."""
    out = []
    for t in _CITED_TITLE.findall(text):
        t = normalise(t.replace("〈", "《").replace("〉", "》")).replace(" ", "")
        out.append(t.removeprefix(_PREFIX) or t)
    return out


def citation_counts(cites: Iterable[tuple[str, Sequence[str]]], resolve: Callable[[str], Sequence[DocRecord]],
                    law: Callable[[DocRecord], str], docs: Mapping[str, DocRecord]) -> dict[str, int]:
    """How many other laws cite each document by title: its citation in-degree.

    Every 《title》 of a passage is resolved to the documents so named (all versions of a
    law, every part of a code named as a whole); a document's count is the number of
    distinct laws (``law``: a document's identity across versions and copies) whose
    passages cite it, its own law left out. A corpus's central statutes (a civil code, a
    labour contract law) are cited by the regulations, rules and interpretations built on
    them; a narrow regulation by few — the link-based document prior of web search
    (in-degree; Kraaij, Westerveld and Hiemstra 2002, "The importance of prior probabilities
    for entry page search"), read from the collection itself.

    Args:
        cites: (document id, the titles its passage cites: :func:`cited_titles`) of every
            searched passage citing one.
        resolve: a normalised title → the documents it names (empty when none).
        law: a document's law identity.
        docs: every document by id.

    Returns:
        Document id → the count (documents nobody cites are absent).
    """
    citing: dict[str, set[str]] = defaultdict(set)
    for doc_id, titles in cites:
        src = docs.get(doc_id)
        if src is None:
            continue
        for title in titles:
            for d in resolve(title):
                citing[d.doc_id].add(law(src))
    return {d: n for d, ids in citing.items()
            if d in docs and (n := len(ids - {law(docs[d])}))}


def citation_prior(hits: Sequence[Hit], counts: Mapping[str, int], laws: int, weight: float) -> list[Hit]:
    """Keyword hits re-ranked with their document's citation in-degree as a prior.

    Each hit's score is multiplied by ``1 + weight × ln(1 + c) / ln(1 + laws)``, ``c`` its
    document's in-degree out of the collection's ``laws`` (log-scaled, as link priors are:
    a document cited by 100 laws is not fifty times as likely as one cited by 2), so a
    near tie between a passage of a much-cited statute and one of a document nobody cites
    goes to the statute, and a clearly better match keeps its place.

    Args:
        hits: keyword hits, best first.
        counts: document id → in-degree (see :func:`citation_counts`).
        laws: how many laws the collection holds (the most a document can be cited by).
        weight: the gain of a document every other law cites, a share of a hit's score;
            ``0`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        ``cited_by`` with its new rank and its document's in-degree.
    """
    if weight <= 0 or not counts or laws < 2 or len(hits) < 2:
        return list(hits)
    scale = math.log1p(laws)
    gains = [1.0 + weight * math.log1p(counts.get(h.chunk.doc_id, 0)) / scale for h in hits]
    return rescored(hits, [h.score * g for h, g in zip(hits, gains)], "cited_by",
                    [counts.get(h.chunk.doc_id, 0) for h in hits])


def coherence_boost(hits: Sequence[Hit], terms: Sequence[str], idf: Callable[[str], float],
                    weight: float, depth: int = DEPTH) -> list[Hit]:
    """Keyword hits re-ranked by how much of the question their document's best hits cover
    together.

    A document's coverage is the IDF share of the question's distinct words (two or more
    characters) that its best ``depth`` hits among ``hits`` hold between them; its surplus
    is that coverage less the best any one of those hits holds alone. Every hit of the
    document gains ``weight`` times the surplus, on the scale of the best hit's score, so
    the order inside a document stays. The law a question is about may answer its several
    points in several articles (试用期 in one, 违约金 in the next), where a stray match in
    an unrelated document holds the words of one article only. Unlike
    :func:`document_boost`, which sums hit scores, many middling hits repeating one word
    add nothing: only distinct words count.

    Args:
        hits: keyword hits, best first.
        terms: the question's keyword terms.
        idf: IDF of a term over chunks.
        weight: gain of the whole question's coverage, relative to the best hit's score;
            ``0`` leaves ``hits`` as they are.
        depth: how many of a document's best hits cover it together, at least 1.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        ``coherence`` with its new rank and its document's surplus.
    """
    if weight <= 0 or len(hits) < 2:
        return list(hits)
    words = idf_words(terms, idf)
    total = sum(words.values())
    top = max(h.score for h in hits)
    if total <= 0 or top <= 0:
        return list(hits)
    held = [frozenset(t for t in words if t in h.chunk.text) for h in hits]
    best: dict[str, list[int]] = defaultdict(list)
    for i in sorted(range(len(hits)), key=lambda i: -hits[i].score):
        if len(best[hits[i].chunk.doc_id]) < max(1, depth):
            best[hits[i].chunk.doc_id].append(i)
    together = {d: frozenset().union(*(held[i] for i in ix)) for d, ix in best.items()}
    alone = {d: max(sum(words[t] for t in held[i]) for i in ix) for d, ix in best.items()}
    gains = [(sum(words[t] for t in together[h.chunk.doc_id]) - alone[h.chunk.doc_id]) / total for h in hits]
    return rescored(hits, [h.score + weight * g * top for h, g in zip(hits, gains)], "coherence",
                    [round(g, 4) for g in gains])

