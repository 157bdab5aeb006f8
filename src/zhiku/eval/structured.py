"""Structured question sets: the gold is the set of rows that answer; the score is whether
the answer returned exactly that set (no extra row, none missing)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.eval.dataset import EvalItem
from zhiku.types import Answer


@dataclass(frozen=True)
class RowResult:
    """What the pipeline returned for one structured question."""

    item_id: str
    kind: str
    gold: tuple[str, ...]
    got: tuple[str, ...]
    routed: bool
    conditions: str
    seconds: float

    @property
    def exact(self) -> bool:
        """The returned set of rows is exactly the gold set."""
        return set(self.got) == set(self.gold)

    @property
    def precision(self) -> float:
        """Share of returned rows that are gold (1 when nothing was returned)."""
        return len(set(self.got) & set(self.gold)) / len(set(self.got)) if self.got else float(not self.gold)

    @property
    def recall(self) -> float:
        """Share of gold rows returned (1 when the gold set is empty)."""
        return len(set(self.got) & set(self.gold)) / len(set(self.gold)) if self.gold else float(not self.got)


def rows_of(ans: Answer) -> tuple[tuple[str, ...], bool, str]:
    """The matching rows an answer reports in its ``structured`` trace step.

    Returns:
        (row keys, whether the question went to a table at all, the conditions shown).
    """
    step = next((t for t in ans.trace if t.stage == "structured"), None)
    if step is None:
        return (), False, ""
    return tuple(step.detail.get("rows") or ()), True, str(step.detail.get("conditions") or "")


def run_structured(items: Sequence[EvalItem], answer: Callable[[str], Answer]) -> list[RowResult]:
    """Ask every structured question once and compare the returned rows with the gold set.

    Args:
        items: questions whose ``rows`` hold the gold key values.
        answer: the ask pipeline.

    Returns:
        One result per item.

    Raises:
        ZhikuError: an item has no ``rows`` gold.
    """
    out = []
    for item in items:
        if item.rows is None:
            raise ZhikuError(f"question {item.id!r} has no \"rows\" gold; a structured set needs it "
                             "on every line")
        t0 = time.perf_counter()
        ans = answer(item.question)
        got, routed, cond = rows_of(ans)
        out.append(RowResult(item.id, item.kind, item.rows, got, routed, cond, time.perf_counter() - t0))
    return out


def summary(name: str, results: Sequence[RowResult]) -> list[dict[str, Any]]:
    """One row for all questions, then one per kind (when there are several)."""
    kinds = sorted({r.kind for r in results})
    groups = [("all", list(results))] + ([(k, [r for r in results if r.kind == k]) for k in kinds]
                                         if len(kinds) > 1 else [])
    rows = []
    for kind, rs in groups:
        n = len(rs) or 1
        rows.append({"set": name, "kind": kind, "n": len(rs),
                     "exact": sum(r.exact for r in rs) / n,
                     "precision": sum(r.precision for r in rs) / n,
                     "recall": sum(r.recall for r in rs) / n,
                     "routed": sum(r.routed for r in rs) / n,
                     "ms": 1000 * sum(r.seconds for r in rs) / n})
    return rows


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The summary as a Markdown table: exact-set accuracy, row precision and recall,
    share routed to a table, mean latency."""
    head = "| set/kind | n | exact-set | row P | row R | routed | ms |"
    lines = [head, "|:--|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        lines.append(f"| {r['set']}/{r['kind']} | {r['n']} | {r['exact']:.3f} | {r['precision']:.3f} | "
                     f"{r['recall']:.3f} | {r['routed']:.3f} | {r['ms']:.1f} |")
    return "\n".join(lines)


def to_json(name: str, results: Sequence[RowResult]) -> dict[str, Any]:
    """Summary and every result, JSON-ready."""
    return {"set": name, "summary": summary(name, results),
            "results": [{**asdict(r), "exact": r.exact} for r in results]}
