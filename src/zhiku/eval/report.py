"""Per-item evaluation results, their summary rows, a text table and a JSON form."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from zhiku.eval.metrics import (answer_correct, auroc, expected_calibration_error, mrr_at_k, ndcg_at_k,
                                recall_at_k, refusal_scores, reliability)

ALL = "all"
DASH = "–"


@dataclass(frozen=True)
class ModeResult:
    """What one mode returned for one item.

    ``ranked`` is the top-k as ``(doc_path, article)``; ``relevance`` the matching 0/1
    per rank (each gold entry credited once, aliases applied when the run was made);
    ``refused``/``answer``/``contains``/``citations``/``steps`` are ``None`` for
    retrieval-only modes.
    """

    item_id: str
    kind: str
    mode: str
    answerable: bool
    n_gold: int
    ranked: tuple[tuple[str, str | None], ...]
    relevance: tuple[int, ...]
    seconds: float
    refused: bool | None = None
    answer: str | None = None
    contains: bool | None = None
    cited: int | None = None
    cited_gold: int | None = None
    citations: tuple[tuple[int, str, str | None], ...] | None = None  # (marker, doc, article)
    steps: tuple[str, ...] | None = None  # the ask's trace step names
    confidence: float | None = None
    fallbacks: tuple[str, ...] | None = None  # "role: why" for each role that fell back

    @property
    def correct(self) -> bool | None:
        """Whether the shipped answer is right (None for retrieval-only modes)."""
        if self.refused is None:
            return None
        return answer_correct(self.answerable, self.refused, self.contains, self.cited, self.cited_gold)


@dataclass(frozen=True)
class EvalReport:
    """All results of one evaluation run over one question set."""

    name: str
    k: int
    modes: tuple[str, ...]
    results: tuple[ModeResult, ...]


@dataclass(frozen=True)
class Row:
    """Summary of one mode on one kind of question (or ``all``).

    Retrieval metrics average over ``n_scored`` items (answerable, with gold) and are
    ``None`` when there are none; refusal metrics cover every item with a refusal flag;
    ``contains`` is the share of answers containing a reference answer (a wrongful
    refusal counts as a miss);
    ``citation_precision`` the share of citations that point at a gold place.
    """

    set: str
    kind: str
    mode: str
    n: int
    n_scored: int
    recall_1: float | None
    recall_5: float | None
    recall_10: float | None
    mrr_10: float | None
    ndcg_10: float | None
    refusal_precision: float | None
    refusal_recall: float | None
    refusal_f1: float | None
    contains: float | None
    ms: float
    citation_precision: float | None = None
    ece: float | None = None
    auroc: float | None = None
    wrongly_refused: float | None = None


def _mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, or None for no values."""
    return sum(values) / len(values) if values else None


def _row(name: str, kind: str, mode: str, results: Sequence[ModeResult]) -> Row:
    """Summarise the results of one mode on one group of items."""
    scored = [r for r in results if r.answerable and r.n_gold > 0]
    flagged = [(r.answerable, r.refused) for r in results if r.refused is not None]
    precision, recall, f1 = refusal_scores(flagged) if flagged else (None, None, None)
    checked = [float(r.contains) for r in results if r.contains is not None]
    cited = sum(r.cited or 0 for r in results)
    at_gold = sum(r.cited_gold or 0 for r in results)
    calib = [(r.confidence, bool(r.correct)) for r in results if r.confidence is not None]
    answerable = [r.refused for r in results if r.refused is not None and r.answerable]
    return Row(
        set=name,
        kind=kind,
        mode=mode,
        n=len(results),
        n_scored=len(scored),
        recall_1=_mean([recall_at_k(r.relevance, 1) for r in scored]),
        recall_5=_mean([recall_at_k(r.relevance, 5) for r in scored]),
        recall_10=_mean([recall_at_k(r.relevance, 10) for r in scored]),
        mrr_10=_mean([mrr_at_k(r.relevance, 10) for r in scored]),
        ndcg_10=_mean([ndcg_at_k(r.relevance, 10, r.n_gold) for r in scored]),
        refusal_precision=precision,
        refusal_recall=recall,
        refusal_f1=f1,
        contains=_mean(checked),
        ms=1000.0 * (_mean([r.seconds for r in results]) or 0.0),
        citation_precision=at_gold / cited if cited else None,
        ece=expected_calibration_error([c for c, _ in calib], [y for _, y in calib]) if calib else None,
        auroc=auroc([c for c, _ in calib], [y for _, y in calib]) if calib else None,
        wrongly_refused=sum(map(bool, answerable)) / len(answerable) if answerable else None,
    )


def summarise(report: EvalReport) -> list[Row]:
    """Summary rows: the ``all`` group first, then each kind (when there are several).

    Within a group there is one row per mode, in the report's mode order, so modes
    line up next to each other.

    Args:
        report: an evaluation report.

    Returns:
        The rows, grouped by kind then mode.
    """
    kinds = sorted({r.kind for r in report.results})
    groups = [ALL, *kinds] if len(kinds) > 1 else [ALL]
    rows: list[Row] = []
    for group in groups:
        for mode in report.modes:
            results = [
                r for r in report.results
                if r.mode == mode and (group == ALL or r.kind == group)
            ]
            if results:
                rows.append(_row(report.name, group, mode, results))
    return rows


def _fmt(value: float | None) -> str:
    """Three decimals, or a dash for a missing value."""
    return DASH if value is None else f"{value:.3f}"


def _width(text: str) -> int:
    """Display width in a terminal: East Asian wide/full-width characters count 2."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def _pad(text: str, width: int, right: bool) -> str:
    """Pad to a display width, right-aligned for numbers."""
    fill = " " * (width - _width(text))
    return fill + text if right else text + fill


def format_table(rows: Sequence[Row]) -> str:
    """Render summary rows as a Markdown table that also reads well as plain text.

    Metrics have three decimals; latency (ms) one; "–" marks an undefined value. The
    answer column (share of answers containing a reference answer) and the
    cite P column (share of citations at a gold place) appear only when some row has them.

    Args:
        rows: rows from :func:`summarise`.

    Returns:
        The table, lines joined by newlines (no trailing newline).
    """
    with_answers = any(r.contains is not None for r in rows)
    with_cites = any(r.citation_precision is not None for r in rows)
    with_calib = any(r.ece is not None for r in rows)
    header = ["set/kind", "mode", "n", "R@1", "R@5", "R@10", "MRR@10", "nDCG@10", "refusal P/R"]
    header += ["answer"] if with_answers else []
    header += ["cite P"] if with_cites else []
    header += ["wrong refusals", "ECE", "AUROC"] if with_calib else []
    header += ["ms"]
    body: list[list[str]] = []
    for r in rows:
        refusal = DASH
        if r.refusal_precision is not None or r.refusal_recall is not None:
            refusal = f"{_fmt(r.refusal_precision)}/{_fmt(r.refusal_recall)}"
        cells = [
            f"{r.set}/{r.kind}" if r.set else r.kind, r.mode, str(r.n),
            _fmt(r.recall_1), _fmt(r.recall_5), _fmt(r.recall_10),
            _fmt(r.mrr_10), _fmt(r.ndcg_10), refusal,
        ]
        cells += [_fmt(r.contains)] if with_answers else []
        cells += [_fmt(r.citation_precision)] if with_cites else []
        cells += [_fmt(r.wrongly_refused), _fmt(r.ece), _fmt(r.auroc)] if with_calib else []
        cells += [f"{r.ms:.1f}"]
        body.append(cells)
    widths = [max(_width(row[i]) for row in [header, *body]) for i in range(len(header))]
    right = [i >= 2 for i in range(len(header))]
    lines = ["| " + " | ".join(_pad(h, w, False) for h, w in zip(header, widths)) + " |"]
    lines.append("|" + "|".join(
        ("-" * (w + 1) + ":") if ra else (":" + "-" * (w + 1)) for w, ra in zip(widths, right)
    ) + "|")
    for cells in body:
        lines.append("| " + " | ".join(
            _pad(c, w, ra) for c, w, ra in zip(cells, widths, right)
        ) + " |")
    return "\n".join(lines)


def format_reliability(report: EvalReport, bins: int = 10) -> str:
    """The reliability table of the answered modes: per confidence bin, how many answers,
    their mean confidence and the share that were right (empty when no mode has
    confidences).

    Args:
        report: an evaluation report.
        bins: equal-width confidence bins.

    Returns:
        A Markdown table, or "" when nothing was answered.
    """
    lines = []
    for mode in report.modes:
        calib = [(r.confidence, bool(r.correct)) for r in report.results
                 if r.mode == mode and r.confidence is not None]
        for lo, hi, n, mean, right in reliability([c for c, _ in calib], [y for _, y in calib], bins):
            lines.append(f"| {mode} | {lo:.1f}–{hi:.1f} | {n} | {mean:.2f} | {right:.2f} |")
    if not lines:
        return ""
    head = ["| mode | confidence | answers | mean confidence | share right |", "|:--|:--|--:|--:|--:|"]
    return "\n".join(head + lines)


def format_fallbacks(report: EvalReport) -> str:
    """One line per answered mode and role that fell back to its defined fallback in some
    asks (a reranker that timed out measures the fused order, not itself): how many asks
    and the most common reason; "" when no role fell back.

    Args:
        report: an evaluation report.

    Returns:
        Lines joined by newlines, or "".
    """
    lines = []
    for mode in report.modes:
        asked = [r for r in report.results if r.mode == mode and r.fallbacks is not None]
        why: dict[str, list[str]] = {}
        for r in asked:
            for f in r.fallbacks or ():
                role, _, reason = f.partition(": ")
                why.setdefault(role, []).append(reason)
        for role, reasons in why.items():
            common = max(set(reasons), key=reasons.count)
            lines.append(f"{mode}: the {role} role fell back in {len(reasons)} of {len(asked)} asks "
                         f"(e.g. {common})")
    return "\n".join(lines)


def _plain(obj: Any) -> Any:
    """Turn tuples into lists, recursively, so the result is plain JSON data."""
    if isinstance(obj, (list, tuple)):
        return [_plain(x) for x in obj]
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    return obj


def to_json(report: EvalReport) -> dict[str, Any]:
    """A JSON-ready dict of the report: run settings, summary rows and every result.

    Args:
        report: an evaluation report.

    Returns:
        ``{"set", "k", "modes", "summary": [...], "results": [...]}`` containing only
        dicts, lists, strings, numbers, booleans and ``None``.
    """
    return {
        "set": report.name,
        "k": report.k,
        "modes": list(report.modes),
        "summary": [_plain(asdict(r)) for r in summarise(report)],
        "results": [_plain(asdict(r)) for r in report.results],
    }
