"""Structured question sets: the gold is the set of rows that answer, and for an aggregate
question the value; the scores are whether the answer returned exactly that set (no extra
row, none missing) and whether its value is within the tolerance."""

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
    """What the pipeline returned for one structured question (``gold`` None: the item
    gives only a value; ``gold_value`` None: only rows)."""

    item_id: str
    kind: str
    gold: tuple[str, ...] | None
    got: tuple[str, ...]
    routed: bool
    conditions: str
    seconds: float
    gold_value: float | dict[str, float] | None = None
    got_value: Any = None
    tolerance: float = 0.01

    @property
    def exact(self) -> bool:
        """The returned set of rows is exactly the gold set."""
        return self.gold is not None and set(self.got) == set(self.gold)

    @property
    def precision(self) -> float:
        """Share of returned rows that are gold (1 when nothing was returned)."""
        gold = set(self.gold or ())
        return len(set(self.got) & gold) / len(set(self.got)) if self.got else float(not gold)

    @property
    def recall(self) -> float:
        """Share of gold rows returned (1 when the gold set is empty)."""
        gold = set(self.gold or ())
        return len(set(self.got) & gold) / len(gold) if gold else float(not self.got)

    @property
    def value_ok(self) -> bool | None:
        """The returned value is the gold value within the tolerance (per group for a
        grouped value); None when the item gives no value."""
        if self.gold_value is None:
            return None
        return value_matches(self.got_value, self.gold_value, self.tolerance)


def value_matches(got: Any, want: float | dict[str, float], tolerance: float) -> bool:
    """Whether ``got`` equals ``want`` within ``tolerance`` (the same groups for a dict).

    Args:
        got: the answer's value (number, group → number, or None).
        want: the gold value.
        tolerance: the largest absolute difference accepted.

    Returns:
        True when every number is within the tolerance.
    """
    def close(a: Any, b: float) -> bool:
        return isinstance(a, (int, float)) and not isinstance(a, bool) and abs(float(a) - b) <= tolerance

    if isinstance(want, dict):
        return isinstance(got, dict) and set(got) == set(want) and all(close(got[k], v) for k, v in want.items())
    return close(got, want)


def rows_of(ans: Answer) -> tuple[tuple[str, ...], bool, str]:
    """The matching rows an answer reports in its ``structured`` trace step.

    Returns:
        (row keys, whether the question went to a table at all, the conditions shown).
    """
    step = next((t for t in ans.trace if t.stage == "structured"), None)
    if step is None:
        return (), False, ""
    return tuple(step.detail.get("rows") or ()), True, str(step.detail.get("conditions") or "")


def value_of(ans: Answer) -> Any:
    """The aggregate value an answer reports in its ``structured`` trace step, or None."""
    step = next((t for t in ans.trace if t.stage == "structured"), None)
    return step.detail.get("value") if step is not None else None


def run_structured(items: Sequence[EvalItem], answer: Callable[[str], Answer]) -> list[RowResult]:
    """Ask every structured question once and compare the returned rows with the gold set.

    Args:
        items: questions whose ``rows`` hold the gold key values.
        answer: the ask pipeline.

    Returns:
        One result per item.

    Raises:
        ZhikuError: an item has neither ``rows`` nor ``value`` gold.
    """
    out = []
    for item in items:
        if not item.structured:
            raise ZhikuError(f"question {item.id!r} has no \"rows\" or \"value\" gold; a structured set "
                             "needs one on every line")
        t0 = time.perf_counter()
        ans = answer(item.question)
        got, routed, cond = rows_of(ans)
        out.append(RowResult(item.id, item.kind, item.rows, got, routed, cond, time.perf_counter() - t0,
                             item.value, value_of(ans), item.tolerance))
    return out


def summary(name: str, results: Sequence[RowResult]) -> list[dict[str, Any]]:
    """One row for all questions, then one per kind (when there are several). Row
    scores count the items with row gold; ``value`` is the share of items with value
    gold whose value matched (None when there are none)."""
    kinds = sorted({r.kind for r in results})
    groups = [("all", list(results))] + ([(k, [r for r in results if r.kind == k]) for k in kinds]
                                         if len(kinds) > 1 else [])
    rows = []
    for kind, rs in groups:
        n = len(rs) or 1
        rg = [r for r in rs if r.gold is not None]
        nr = len(rg) or 1
        vg = [r for r in rs if r.gold_value is not None]
        rows.append({"set": name, "kind": kind, "n": len(rs),
                     "exact": sum(r.exact for r in rg) / nr,
                     "precision": sum(r.precision for r in rg) / nr,
                     "recall": sum(r.recall for r in rg) / nr,
                     "n_value": len(vg),
                     "value": sum(bool(r.value_ok) for r in vg) / len(vg) if vg else None,
                     "routed": sum(r.routed for r in rs) / n,
                     "ms": 1000 * sum(r.seconds for r in rs) / n})
    return rows


def format_rows(rows: Sequence[dict[str, Any]]) -> str:
    """The summary as a Markdown table: exact-set accuracy, row precision and recall,
    value accuracy (aggregate items), share routed to a table, mean latency."""
    head = "| set/kind | n | exact-set | row P | row R | value | routed | ms |"
    lines = [head, "|:--|--:|--:|--:|--:|--:|--:|--:|"]
    for r in rows:
        value = f"{r['value']:.3f} ({r['n_value']})" if r["value"] is not None else "–"
        lines.append(f"| {r['set']}/{r['kind']} | {r['n']} | {r['exact']:.3f} | {r['precision']:.3f} | "
                     f"{r['recall']:.3f} | {value} | {r['routed']:.3f} | {r['ms']:.1f} |")
    return "\n".join(lines)


def to_json(name: str, results: Sequence[RowResult]) -> dict[str, Any]:
    """Summary and every result, JSON-ready."""
    return {"set": name, "summary": summary(name, results),
            "results": [{**asdict(r), "exact": r.exact, "value_ok": r.value_ok} for r in results]}
