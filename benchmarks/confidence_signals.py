"""Where the shipped confidence is off, and whether a signal of the answer's trace would fix it:
each set's share of right answers beside its mean confidence, and each signal's answered weight
fitted over the shipped model's log-odds, checked leave-one-set-out and on the other half.

Usage:
  python benchmarks/fit_confidence.py collect --only natural,natural2,everyday3,case \\
      --rows benchmarks/data/confidence_rows_signals.jsonl            (keyword, whole laws corpus)
  python benchmarks/fit_confidence.py collect --only rgb,cmrc --mode hybrid \\
      --rows benchmarks/data/confidence_rows_signals.jsonl            (with vectors, as eval asks them)
  python benchmarks/confidence_signals.py [--rows FILE] [--signals below,focused,...]

The rows are those ``fit_confidence.py collect`` writes, with what each answer's ranking and
citations show (``evidence``: :func:`fit_confidence.evidence`). The first table is the level
check: per set and mode, the answered rows, their share right and mean confidence (as the
ask returned it, the product's defaults), and the same split by
whether the question names a document of the library. The second gives, per signal, its weight
fitted on the answered rows of every set (every set weighing the same; refused rows keep their
confidence) and each set's ECE / AUROC before, scored by a fit on the other sets only (leave
one set out) and by a fit on the other half of every set (alternate items). A signal is worth a
setting when every set's held-out ECE falls or stays and no AUROC falls.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT  # noqa: E402
from _logistic import fit_offset, logit, set_balanced  # noqa: E402

ROWS = ROOT / "benchmarks" / "data" / "confidence_rows_signals.jsonl"
LARGE = 1000  # documents searched: a library this large without vectors is the keyword regime


def _rank(r: dict) -> int:
    k = r["evidence"]["rank"]
    return 99 if k < 0 else k


# each signal centred near its mean over the rows (a weight then shifts no set as a whole)
SIGNALS: dict[str, Callable[[dict], float]] = {
    # the answer cites a lower hit than the first (the model's ``below``, fitted again here)
    "below": lambda r: float(_rank(r) > 0) - 0.2,
    # how far down the cited hit is (0 first .. 1 fifth or lower)
    "rank": lambda r: min(_rank(r), 4) / 4 - 0.1,
    # no cited block is from the first hit's document
    "other_doc": lambda r: float(not r["evidence"]["first_doc"]) - 0.1,
    # distinct documents among the first five hits
    "docs5": lambda r: (r["evidence"]["docs5"] - 3) / 2,
    # four or five documents among the first five
    "spread": lambda r: float(r["evidence"]["docs5"] >= 4) - 0.5,
    # the first hit's document's share of the first five
    "first_share5": lambda r: r["evidence"]["first_share5"] - 0.5,
    # the best sentence's share of the question times that share
    "focused": lambda r: r["features"]["named"] * r["evidence"]["first_share5"] - 0.2,
    # the answer leaves the document the ranking favours (two or more of the first five)
    "strayed": lambda r: float(not r["evidence"]["first_doc"] and r["evidence"]["first_share5"] >= 0.4),
    # the first score's margin over the second, and the cited block's over the next
    "margin": lambda r: r["evidence"]["margin"] - 0.1,
    "cited_margin": lambda r: r["evidence"]["cited_margin"] - 0.1,
    # the question names a document of the library
    "names_doc": lambda r: float(r["evidence"]["names_doc"]) - 0.3,
    # the cited blocks meet a constraint the question pins (the asked quantity, a time, a place)
    "met_any": lambda r: float((r.get("after") or {}).get("met", 0) > 0) - 0.3,
    # an intercept for every row, and one for the keyword regime (no vectors, a large library)
    "intercept": lambda r: 1.0,
    "regime": lambda r: float(r.get("mode") == "bm25" and r["evidence"]["documents"] >= LARGE),
}


def shipped(rows: list[dict]) -> list[float]:
    """Each row's confidence as its ask returned it (the product's defaults; ``collect`` sets
    min_confidence 0, so nothing below it is refused and every answer shows what answering
    showed)."""
    return [float(r["confidence"]) for r in rows]


def refit(rows: list[dict], conf: list[float], names: list[str]) -> dict[str, list[float]]:
    """The confidences with the answered weights of ``names`` added over ``conf``'s log-odds:
    fitted on all rows (``all``), on the other sets (``sets``) and on the other half (``half``);
    and the weights of the fit on all rows (``weights``)."""
    def x(r: dict) -> list[float]:
        return [SIGNALS[n](r) for n in names]

    def fit(idx: list[int]) -> list[float]:
        ans = [i for i in idx if not rows[i]["refused"]]
        return fit_offset([x(rows[i]) for i in ans], [bool(rows[i]["correct"]) for i in ans],
                          [logit(conf[i]) for i in ans], weight=set_balanced(rows, ans))

    def scored(w: list[float], i: int) -> float:
        if rows[i]["refused"]:
            return conf[i]
        z = logit(conf[i]) + sum(a * b for a, b in zip(w, x(rows[i])))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    seen: Counter = Counter()
    half = []
    for r in rows:
        half.append(seen[r["set"]] % 2)
        seen[r["set"]] += 1
    out = {"sets": list(conf), "half": list(conf)}
    for s in dict.fromkeys(r["set"] for r in rows):
        w = fit([i for i, r in enumerate(rows) if r["set"] != s])
        for i, r in enumerate(rows):
            if r["set"] == s:
                out["sets"][i] = scored(w, i)
    for h in (0, 1):
        w = fit([i for i in range(len(rows)) if half[i] != h])
        for i in range(len(rows)):
            if half[i] == h:
                out["half"][i] = scored(w, i)
    out["weights"] = fit(list(range(len(rows))))
    return out


def levels(rows: list[dict], conf: list[float]) -> list[str]:
    """Per set and mode, and split by whether the question names a document: answered rows,
    share right, mean confidence, and the gap (confidence minus share right)."""
    out = ["| set (mode) | names a document | answered | share right | mean confidence | gap |",
           "|---|---|---:|---:|---:|---:|"]
    groups = dict.fromkeys((r["set"], r.get("mode", "bm25")) for r in rows)
    for s, m in groups:
        for named in ("any", True, False):
            idx = [i for i, r in enumerate(rows) if r["set"] == s and r.get("mode", "bm25") == m
                   and not r["refused"] and (named == "any" or r["evidence"]["names_doc"] is named)]
            if not idx or (named != "any" and len(idx) < 3):
                continue
            right = sum(bool(rows[i]["correct"]) for i in idx) / len(idx)
            mean = sum(conf[i] for i in idx) / len(idx)
            label = {"any": "all", True: "yes", False: "no"}[named]
            out.append(f"| {s} ({m}) | {label} | {len(idx)} | {right:.2f} | {mean:.2f} | {mean - right:+.2f} |")
    return out


def signals_table(rows: list[dict], conf: list[float], names: list[str]) -> list[str]:
    """Per signal (names joined by + fit together), its weights and every set's ECE / AUROC:
    before, held out by set, scored by the other half."""
    from zhiku.eval.metrics import auroc, expected_calibration_error

    y = [bool(r["correct"]) for r in rows]
    sets = list(dict.fromkeys(r["set"] for r in rows))

    def cell(c: list[float], s: str) -> str:
        idx = [i for i, r in enumerate(rows) if r["set"] == s]
        cc, yy = [c[i] for i in idx], [y[i] for i in idx]
        a = auroc(cc, yy)
        return f"{expected_calibration_error(cc, yy):.3f} / " + ("–" if a is None or a != a else f"{a:.3f}")

    out = ["| signal | weight | " + " | ".join(f"{s}: other sets / other half" for s in sets) + " |",
           "|---|---:|" + "---:|" * len(sets),
           "| (shipped) | – | " + " | ".join(f"{cell(conf, s)} / {cell(conf, s)}" for s in sets) + " |"]
    for name in names:
        parts = name.split("+")
        got = refit(rows, conf, parts)
        w = ", ".join(f"{x:+.2f}" for x in got["weights"])
        out.append(f"| {name} | {w} | " + " | ".join(f"{cell(got['sets'], s)} / {cell(got['half'], s)}"
                                                   for s in sets) + " |")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", default=str(ROWS), help="rows collected with their evidence (default %(default)s)")
    ap.add_argument("--signals", default=",".join(SIGNALS),
                    help="signals to fit, comma-separated; a+b fits two together (default: each alone)")
    a = ap.parse_args()
    path = Path(a.rows)
    if not path.is_file():
        print(f"error: no rows at {path}; collect them first (see this script's docstring)", file=sys.stderr)
        return 2
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if "evidence" in r]
    names = [n for n in a.signals.split(",") if n]
    bad = [p for n in names for p in n.split("+") if p not in SIGNALS]
    if bad:
        print(f"error: unknown signal {bad[0]!r}; valid: {', '.join(SIGNALS)}", file=sys.stderr)
        return 2
    conf = shipped(rows)
    print("\n".join(["Level: answered rows, share right and mean confidence (shipped model)", "",
                     *levels(rows, conf), "", "Signals: ECE / AUROC held out by set and by half", "",
                     *signals_table(rows, conf, names)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
