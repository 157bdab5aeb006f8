"""A learned re-ranker over the first candidates of a search: a logistic model weighs together
the signals the search already computed (each list's rank and score, meaning, the question's
words in a candidate, its headings and its law's title, answer type, document evidence, ...)."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from zhiku.retrieve.fields import idf_words
from zhiku.types import Hit

WEIGHTS = Path(__file__).with_name("data") / "learned_rank.json"
ABSENT = 100  # the rank a candidate a list did not return is given (the candidate count's order)
# every feature :func:`features` computes, in order; the model file names the ones it reads
FEATURES = ("rank", "score", "bm25", "dense", "meaning", "words", "title", "heading", "typed", "same_law",
            "length", "interpretation", "cited", "named", "provision", "statute", "opening")
SEARCHED = "searched"  # a reordered candidate's source: its place and score in the search's own order
OPENING = 5  # a law's first articles state its purpose, scope and principles (第一条 为了…, 制定本法)
# a statute's title: it ends in 法 or 法典 (a code's book after a space: 中华人民共和国民法典 婚姻家庭编),
# a bracketed note after it (（2020修正）); a regulation (条例, 办法), rule or interpretation does not
_STATUTE = re.compile(r"(?<![办方做说])法典?(\s+\S{1,8})?(（[^）]*）|\([^)]*\))*$")


def _rank(h: Hit, key: str) -> float:
    """log2(1 + the rank list ``key`` gave ``h``), :data:`ABSENT`'s when it gave none."""
    got = h.sources.get(key)
    return math.log2(1 + (got[0] if got else ABSENT))


def _cosine(h: Hit) -> float | None:
    """The question↔candidate cosine the search read: the dense list's, else the keyword
    candidates' passage or heading cosine (``passage_similarity``, ``heading_similarity``)."""
    for key in ("dense", "passages", "headings"):
        got = h.sources.get(key)
        if got and isinstance(got[1], (int, float)):
            return float(got[1])
    return None


def _ordinal(article: str | None) -> int | None:
    """The number of an article label (第十五条 → 15), None for none or an unreadable one."""
    from zhiku.chunk.numerals import cn_to_int

    m = re.match(r"第(.+?)条", article or "")
    try:
        return cn_to_int(m.group(1)) if m else None
    except ValueError:
        return None


def _share(words: dict[str, float], total: float, text: str) -> float:
    """The IDF-weighed share of the question's words ``text`` holds."""
    return sum(v for t, v in words.items() if t in text) / total if total > 0 else 0.0


def features(hits: Sequence[Hit], terms: Sequence[str], idf: Callable[[str], float], asks: Sequence[Any] = (),
             named: Sequence[str] = (), cited: dict[str, int] | None = None) -> list[list[float]]:
    """One row of :data:`FEATURES` per candidate, in the order of ``hits``.

    Args:
        hits: the candidates, best first (the search's order).
        terms: the question's terms (their words of two or more characters are weighed by IDF).
        idf: IDF of a term over chunks.
        asks: the answer types the question asks for (:mod:`zhiku.retrieve.answertype`).
        named: the documents the question names.
        cited: document id → how many other laws cite it (:meth:`zhiku.kb.KnowledgeBase.cited_by`).

    Returns:
        Rows of floats: log2(1 + rank); the score over the best one; log2(1 + keyword rank) and
        log2(1 + dense rank); the cosine below the best one; the question's words (IDF share) in
        the text, the document's title and the chapter headings; the text states a value of a
        type asked for; the share of the other candidates from the same document; log of the
        text's length; an interpretation; log(1 + citation in-degree); a named document; a
        numbered provision (第X条, not a guide or a case report); a statute's (a title ending in
        法); one of a document's first :data:`OPENING` articles.
    """
    from zhiku.retrieve.answertype import states
    from zhiku.retrieve.provisions import interprets

    if not hits:
        return []
    words = idf_words(terms, idf)
    total = sum(words.values())
    top = max(h.score for h in hits) or 1.0
    cos = [_cosine(h) for h in hits]
    best = max((c for c in cos if c is not None), default=0.0)
    docs = Counter(h.chunk.doc_id for h in hits)
    n = max(len(hits) - 1, 1)
    cited = cited or {}
    rows = []
    for i, (h, c) in enumerate(zip(hits, cos), 1):
        ch = h.chunk
        rows.append([
            math.log2(1 + i), h.score / top, _rank(h, "bm25"), _rank(h, "dense"),
            (c - best) if c is not None else 0.0,
            _share(words, total, ch.text), _share(words, total, ch.title),
            _share(words, total, " ".join(ch.section_path)),
            float(any(states(t, ch.text) for t in asks)), (docs[ch.doc_id] - 1) / n,
            math.log(1 + len(ch.text)), float(interprets(ch.title)),
            math.log1p(cited.get(ch.doc_id, 0)), float(ch.doc_id in named),
            float(ch.article is not None), float(bool(_STATUTE.search(ch.title.strip()))),
            float((_ordinal(ch.article) or OPENING + 1) <= OPENING),
        ])
    return rows


@lru_cache(maxsize=4)
def load_model(path: str = str(WEIGHTS)) -> dict[str, Any]:
    """The fitted model: ``features`` (names of :data:`FEATURES`), ``mean``, ``scale``,
    ``weights`` and ``bias`` (written by benchmarks/fit_rank.py)."""
    model = json.loads(Path(path).read_text(encoding="utf-8"))
    unknown = [f for f in model["features"] if f not in FEATURES]
    if unknown:
        raise ValueError(f"the learned ranking model {path} reads unknown features {unknown}; "
                         f"known: {', '.join(FEATURES)}")
    return model


def model_scores(model: dict[str, Any], rows: Sequence[Sequence[float]]) -> list[float]:
    """The model's log-odds per row of :func:`features`."""
    at = [FEATURES.index(f) for f in model["features"]]
    return [model["bias"] + sum(w * (r[j] - m) / s for j, w, m, s in
                                zip(at, model["weights"], model["mean"], model["scale"])) for r in rows]


def learned_order(kb: Any, p: Any, hits: list[Hit], depth: int, detail: dict[str, Any],
                  model: dict[str, Any] | None = None) -> list[Hit]:
    """The first ``depth`` of ``hits`` in the order of the learned model's scores (ties keep
    the search's order), the rest after them as they were.

    Args:
        kb: the knowledge base (IDF, citation in-degrees).
        p: the prepared question (:class:`zhiku.ask.search.Prepared`).
        hits: the candidates after the search's own re-orderings, best first.
        depth: how many of the first candidates the model reorders.
        detail: the ``fuse`` step's detail; gets ``learned`` (how many moved).
        model: the model (default: the bundled one, :func:`load_model`).

    Returns:
        New hits; each of the first ``depth`` records ``learned`` with its new rank and
        log-odds and :data:`SEARCHED` with its place and score in the search's order
        (:func:`searched_order` reads them), and takes the score of that rank (the scores stay
        in descending order).
    """
    head, tail = hits[:depth], hits[depth:]
    if len(head) < 2:
        return hits
    model = model or load_model()
    # a store that cannot list its passages (rows) has no citation counts: every candidate reads 0
    readable = callable(getattr(kb.store, "rows", None))
    cited = kb.cited_by()[0] if "cited" in model["features"] and readable else {}
    scores = model_scores(model, features(head, p.terms, kb.idf, p.asks, p.ref.doc_ids, cited))
    order = sorted(range(len(head)), key=lambda i: (-scores[i], i))
    detail["learned"] = sum(1 for r, i in enumerate(order) if r != i)
    kept = sorted((h.score for h in head), reverse=True)  # rank r keeps the r-th best score: the
    # scores stay in order, and what reads their margin reads that of the search
    return [Hit(head[i].chunk, kept[r - 1], head[i].source,
                {**head[i].sources, "learned": (r, round(scores[i], 4)), SEARCHED: (i + 1, head[i].score)})
            for r, i in enumerate(order, 1)] + tail


def searched_order(hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` with the candidates :func:`learned_order` moved put back in the search's own
    order and scores (their :data:`SEARCHED` source), in the places those candidates hold; the
    others where they are. Unchanged when nothing was reordered, or when something reordered
    the candidates again after the learned order (a reranker, a named law's hits first)."""
    at = [i for i, h in enumerate(hits) if SEARCHED in h.sources and "learned" in h.sources]
    if not at or [hits[i].sources["learned"][0] for i in at] != sorted(hits[i].sources["learned"][0] for i in at):
        return list(hits)
    back = sorted((hits[i] for i in at), key=lambda h: h.sources[SEARCHED][0])
    out = list(hits)
    for i, h in zip(at, back):
        out[i] = Hit(h.chunk, h.sources[SEARCHED][1], h.source, h.sources)
    return out


def judged_order(cfg: Any, hits: Sequence[Hit]) -> list[Hit]:
    """``hits`` in the order what judges the evidence reads them — the confidence model, the
    keyword veto, what the answer shows (does it cite the first passage?): with
    ``learned_rank_searched``, a keyword-only ranking (no hit dense search found:
    :func:`zhiku.retrieve.fusion.has_dense`) that the learned order reordered is read in the
    search's own order (:func:`searched_order`), the order those judges were fitted and
    measured on, while the answer, its citations and the ranking shown keep the learned one;
    a ranking with a dense list as it is (its judges were measured reading the learned order)."""
    from zhiku.retrieve.fusion import has_dense

    if not cfg.learned_rank_searched or has_dense([hits]):
        return list(hits)
    return searched_order(hits)
