"""Retrieval, refusal and answer metrics over ranked hits and golden items."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Mapping, Sequence

from zhiku.eval.dataset import EvalItem, Gold
from zhiku.types import Chunk, Document, Hit

Aliases = Mapping[str, set[str]]


def aliases_from_documents(docs: Iterable[Document]) -> dict[str, set[str]]:
    """Map each document id to every path it was seen under (its path plus aliases).

    Args:
        docs: ingested documents.

    Returns:
        ``{doc.id: {doc.path, *doc.aliases}}``, merged when an id repeats.
    """
    out: dict[str, set[str]] = {}
    for doc in docs:
        out.setdefault(doc.id, set()).update((doc.path, *doc.aliases))
    return out


def _chunk(hit_or_chunk: Hit | Chunk) -> Chunk:
    """Return the chunk of a hit, or the chunk itself."""
    if isinstance(hit_or_chunk, Hit):
        return hit_or_chunk.chunk
    if isinstance(hit_or_chunk, Chunk):
        return hit_or_chunk
    raise TypeError(f"expected a Hit or Chunk, got {type(hit_or_chunk).__name__}")


def _path_matches(path: str, doc: str) -> bool:
    """True when ``path`` is ``doc`` or ends with ``/doc`` (ingested from a parent folder)."""
    return path == doc or path.endswith("/" + doc.lstrip("/"))


def is_hit(hit_or_chunk: Hit | Chunk, gold: Gold, aliases: Aliases | None = None) -> bool:
    """Decide whether a retrieved passage is at a gold place.

    The document matches when the chunk's ``doc_path`` equals ``gold.doc`` (or ends with
    ``"/" + gold.doc``, for a knowledge base ingested from a parent folder), or when any
    path in ``aliases[chunk.doc_id]`` does — the other paths an identical document was
    seen under. When ``gold.article`` is given, ``chunk.article`` must equal it.

    Args:
        hit_or_chunk: a ``Hit`` or its ``Chunk``.
        gold: the gold place.
        aliases: document id -> every path of that document, or ``None``.

    Returns:
        True when the passage is at the gold place.

    Raises:
        TypeError: ``hit_or_chunk`` is neither a Hit nor a Chunk.
    """
    chunk = _chunk(hit_or_chunk)
    if gold.article is not None and (chunk.article or "").strip() != gold.article.strip():
        return False
    if _path_matches(chunk.doc_path, gold.doc):
        return True
    if aliases:
        return any(_path_matches(p, gold.doc) for p in aliases.get(chunk.doc_id, ()))
    return False


def relevance(
    hits: Sequence[Hit | Chunk], item: EvalItem, aliases: Aliases | None = None
) -> list[int]:
    """Binary relevance per rank, crediting each distinct gold entry once.

    A passage is relevant (1) only when it is the first one to hit some gold entry not
    already hit higher up; further passages from the same gold place (other chunks of the
    same article or document) score 0, so duplicates cannot inflate nDCG.

    Args:
        hits: ranked hits (or chunks), best first.
        item: the evaluation item with its gold entries.
        aliases: document id -> every path of that document, or ``None``.

    Returns:
        One 0/1 per rank, same length as ``hits``.
    """
    claimed = [False] * len(item.gold)
    out: list[int] = []
    for hit in hits:
        rel = 0
        for i, gold in enumerate(item.gold):
            if not claimed[i] and is_hit(hit, gold, aliases):
                claimed[i] = True
                rel = 1
                break
        out.append(rel)
    return out


def recall_at_k(rel: Sequence[int], k: int) -> float:
    """Hit rate at k: 1.0 when any gold entry is found in the top ``k``, else 0.0.

    Gold entries are alternatives (any one counts, per the eval-set schema), so this is
    "success@k" as in the MS MARCO/DPR top-k accuracy, not the fraction of gold found.

    Args:
        rel: binary relevance per rank (see :func:`relevance`).
        k: cut-off, at least 1.

    Returns:
        1.0 or 0.0.
    """
    _check_k(k)
    return 1.0 if any(rel[:k]) else 0.0


def mrr_at_k(rel: Sequence[int], k: int) -> float:
    """Reciprocal rank of the first relevant passage within the top ``k``.

    Voorhees, "The TREC-8 Question Answering Track Report", 1999: RR = 1 / rank of
    the first relevant result, 0 when none is in the top k; MRR is its mean over queries.

    Args:
        rel: binary relevance per rank.
        k: cut-off, at least 1.

    Returns:
        A value in [0, 1].
    """
    _check_k(k)
    for rank, r in enumerate(rel[:k], start=1):
        if r:
            return 1.0 / rank
    return 0.0


def ndcg_at_k(rel: Sequence[int], k: int, n_gold: int) -> float:
    """Normalised discounted cumulative gain at ``k`` with binary gains.

    Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", TOIS 2002:
    DCG@k = sum_{i=1..k} rel_i / log2(i + 1); nDCG@k = DCG@k / IDCG@k, where the ideal
    ranking puts min(k, n_gold) relevant passages first (the BEIR/trec_eval convention).

    Args:
        rel: binary relevance per rank (each gold entry credited once).
        k: cut-off, at least 1.
        n_gold: number of gold entries of the item.

    Returns:
        A value in [0, 1]; 0.0 when the item has no gold entries.
    """
    _check_k(k)
    ideal_n = min(k, n_gold)
    if ideal_n <= 0:
        return 0.0
    dcg = sum(r / math.log2(i + 1) for i, r in enumerate(rel[:k], start=1))
    idcg = sum(1.0 / math.log2(i + 1) for i in range(1, ideal_n + 1))
    return min(1.0, dcg / idcg)


def refusal_scores(
    pairs: Iterable[tuple[bool, bool]],
) -> tuple[float | None, float | None, float | None]:
    """Precision, recall and F1 of refusing, with unanswerable items as positives.

    precision = |refused ∧ unanswerable| / |refused|,
    recall = |refused ∧ unanswerable| / |unanswerable|,
    F1 = 2PR / (P + R) (van Rijsbergen 1979). A 0/0 ratio is ``None`` (shown as "–").

    Args:
        pairs: ``(answerable, refused)`` per item.

    Returns:
        ``(precision, recall, f1)``, each a float or ``None``.
    """
    tp = refused = unanswerable = 0
    for answerable, did_refuse in pairs:
        refused += bool(did_refuse)
        unanswerable += not answerable
        tp += bool(did_refuse) and not answerable
    precision = tp / refused if refused else None
    recall = tp / unanswerable if unanswerable else None
    if precision is None or recall is None:
        f1 = None
    elif precision + recall == 0:
        f1 = 0.0
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return precision, recall, f1


def normalize_answer(text: str) -> str:
    """Normalise text for answer matching.

    NFKC folds full-width forms (``４分钟`` -> ``4分钟``, ``（`` -> ``(``), then case is
    folded and whitespace, punctuation (Unicode category P*) and format characters are
    dropped, in the spirit of the SQuAD/CMRC 2018 evaluation scripts.

    Args:
        text: any text.

    Returns:
        The normalised string.
    """
    folded = unicodedata.normalize("NFKC", text).casefold()
    return "".join(
        ch for ch in folded
        if not ch.isspace() and unicodedata.category(ch)[0] not in ("P", "Z")
        and unicodedata.category(ch) != "Cf"
    )


def contains_answer(answer_text: str, answers: Sequence[str]) -> bool | None:
    """Whether the generated answer contains any reference answer after normalisation.

    Args:
        answer_text: the system's answer.
        answers: reference answers (alternatives; any one counts).

    Returns:
        True/False, or ``None`` when there is no usable reference answer.
    """
    refs = [n for n in (normalize_answer(a) for a in answers) if n]
    if not refs:
        return None
    text = normalize_answer(answer_text or "")
    return any(ref in text for ref in refs)


def _check_k(k: int) -> None:
    """Reject a cut-off below 1."""
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")


def citation_hits(citations: Sequence, item: EvalItem, aliases: Aliases | None = None) -> tuple[int, int]:
    """How many of an answer's citations point at a gold place (citation precision).

    A citation counts when its document is a gold document (by path, or any path of the
    same document in ``aliases``) and, when the gold entry names an article, its article
    is that article.

    Args:
        citations: the answer's ``Citation`` objects.
        item: the evaluation item.
        aliases: document id -> every path of that document, or ``None``.

    Returns:
        ``(cited, at_gold)``.
    """
    paths: dict[str, set[str]] = {}
    for ps in (aliases or {}).values():
        for p in ps:
            paths.setdefault(p, set()).update(ps)
    good = 0
    for c in citations:
        names = paths.get(c.doc_path, {c.doc_path})
        for g in item.gold:
            if g.article is not None and (c.article or "").strip() != g.article.strip():
                continue
            if any(_path_matches(n, g.doc) for n in names):
                good += 1
                break
    return len(citations), good


def answer_correct(answerable: bool, refused: bool, contains: bool | None, cited: int | None,
                   cited_gold: int | None) -> bool:
    """Whether a shipped answer is right (what confidence estimates): an answerable item
    answered (not refused) with a reference answer in the text, or, when the item has no
    reference answer, with a citation at a gold place. A refusal or any answer to an
    unanswerable item is not a right answer.

    Args:
        answerable: the item has an answer in the corpus.
        refused: the system refused.
        contains: the answer holds a reference answer (None: no reference answers).
        cited: how many citations the answer has (None: not scored).
        cited_gold: how many of them point at a gold place.
    """
    if not answerable or refused:
        return False
    if contains is not None:
        return contains
    return bool(cited_gold)


def expected_calibration_error(conf: Sequence[float], correct: Sequence[bool], bins: int = 10) -> float | None:
    """Expected calibration error (Naeini et al. 2015; Guo et al. 2017): the item-weighted
    mean over ``bins`` equal-width confidence bins of |share correct − mean confidence|.

    Returns:
        A value in [0, 1], or None for no items.
    """
    rows = reliability(conf, correct, bins)
    n = sum(r[2] for r in rows)
    if not n:
        return None
    return sum(r[2] * abs(r[3] - r[4]) for r in rows) / n


def reliability(conf: Sequence[float], correct: Sequence[bool],
                bins: int = 10) -> list[tuple[float, float, int, float, float]]:
    """The reliability table: per non-empty bin (low, high, items, mean confidence, share
    correct)."""
    out = []
    for b in range(bins):
        lo, hi = b / bins, (b + 1) / bins
        idx = [i for i, c in enumerate(conf) if lo <= c < hi or (b == bins - 1 and c == 1.0)]
        if idx:
            out.append((lo, hi, len(idx), sum(conf[i] for i in idx) / len(idx),
                        sum(bool(correct[i]) for i in idx) / len(idx)))
    return out


def auroc(conf: Sequence[float], correct: Sequence[bool]) -> float | None:
    """Area under the ROC curve of confidence separating right from wrong answers (the
    Mann–Whitney probability that a right answer outscores a wrong one, ties half).

    Returns:
        A value in [0, 1], or None when all items are right or all wrong.
    """
    pos = [c for c, y in zip(conf, correct) if y]
    neg = [c for c, y in zip(conf, correct) if not y]
    if not pos or not neg:
        return None
    order = sorted([(c, 1) for c in pos] + [(c, 0) for c in neg])
    ranks: dict[float, float] = {}
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and order[j][0] == order[i][0]:
            j += 1
        ranks[order[i][0]] = (i + j + 1) / 2  # mean 1-based rank of the tie group
        i = j
    s = sum(ranks[c] for c in pos)
    return (s - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg))
