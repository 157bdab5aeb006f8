"""Fit the confidence model (src/zhiku/verify/confidence.json) on the public sets and check it
on each held-out set; writes the reliability table, ECE and AUROC into docs/eval.md.

Usage:
  python benchmarks/fit_confidence.py collect [--shared ../shared/data] [--only rgb,cmrc,...]
  python benchmarks/fit_confidence.py fit [--no-write]

``collect`` runs the full offline ask (keyword retrieval, routing, extractive answer,
verification, answerability) on every set with the refusal threshold off, and records per
question the confidence features, whether the answer was right and the old confidence
(0.9 × share of question terms in the top 3 passages) to benchmarks/data/confidence_rows.jsonl.
``fit`` fits a standardised L2 logistic regression on those rows, reports leave-one-set-out
ECE/AUROC (each set scored by a model fitted on the others) next to the old confidence, and
writes the coefficients. Needs the shared data folder for ``collect``; says so and exits 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, machine, replace_section  # noqa: E402

ROWS = ROOT / "benchmarks" / "data" / "confidence_rows.jsonl"
MODEL = ROOT / "src" / "zhiku" / "verify" / "confidence.json"
EVAL_DOC = ROOT / "docs" / "eval.md"
HEADING = "## Confidence calibration"
# The features the shipped model uses. The rank-1 score margin and the question length
# separate right from wrong inside one corpus but not across corpora (their scale follows
# the corpus): with them the held-out ECE was 0.36–0.40, without them 0.17. Measured again
# with the second stage (weak, removed, met) on all five sets held out one at a time: the
# best sentence's coverage alone ECE 0.177 / AUROC 0.699; with coverage1 0.174 / 0.688 (its
# weight came out negative); with the top-3 coverage 0.174 / 0.686; with the margin 0.354 /
# 0.468; with the question length 0.227 / 0.568. ZHIKU_FIT_USED and ZHIKU_FIT_ANSWERED
# (comma-separated names) re-run those comparisons.
# A named clause found exactly is not in these sets; it keeps confidence.EXACT.
USED = os.environ.get("ZHIKU_FIT_USED", "sentence").split(",")
# name: (question set under eval/, corpus under the shared folder, question limit)
SETS = {
    "rgb": ("rgb_zh/queries.jsonl", "eval/rgb_zh/corpus.jsonl", 0),
    "natural": ("laws/natural.jsonl", "laws", 0),
    "natural2": ("laws/natural2.jsonl", "laws", 0),
    "cmrc": ("cmrc2018/queries.jsonl", "eval/cmrc2018/corpus.jsonl", 300),
    "case": ("laws/case_to_article.jsonl", "laws", 60),
}


def collect(shared: Path, only: list[str]) -> None:
    """Ask every question of the chosen sets and append their rows (replacing those sets')."""
    from zhiku.config import load_config
    from zhiku.eval.command import prepare
    from zhiku.eval.dataset import load_set
    from zhiku.eval.metrics import answer_correct, citation_hits, contains_answer, relevance
    from zhiku.index.store import Scope
    from zhiku.ask import flow
    from zhiku.ask.query import Query
    from zhiku.ask.search import Mode, retrieve
    from zhiku.verify.confidence import features

    old = [json.loads(x) for x in ROWS.read_text(encoding="utf-8").splitlines()] if ROWS.exists() else []
    rows = [r for r in old if r["set"] not in only]
    cfg = load_config(min_confidence=0.0)
    for name in only:
        qs, corpus, limit = SETS[name]
        items = load_set(str(shared / "eval" / qs))
        items = items[:limit] if limit else items
        kb, _ = prepare(cfg, str(shared / corpus), items, False, False, False)
        aliases = {d.doc_id: {d.path, *d.aliases} for d in kb.store.documents()}
        scope = Scope(versions="all")
        for it in items:
            r = retrieve(kb, it.question, Mode.BM25, scope)
            f = features(kb, it.question, r)
            ans = flow.ask(kb, Query(it.question, scope=scope, mode=Mode.BM25, use_cache=False))
            text = ans.text.replace("[", " [")
            contains = contains_answer(text, it.answers)
            cited, at_gold = citation_hits(ans.citations, it, aliases) if it.gold and not ans.refused else (None, None)
            gate = next((t.detail for t in ans.trace if t.stage == "answerable"), {})
            checked = next((t.detail for t in ans.trace if t.stage == "verify"), {})
            rows.append({"set": name, "id": it.id, "answerable": it.answerable, "features": f.__dict__,
                         "refused": ans.refused, "pinned_refusal": gate.get("ok") is False and ans.refused,
                         "weak": gate.get("ok") is False and not ans.refused,
                         "share": checked.get("kept", 1) / checked["checked"] if checked.get("checked") else 1.0,
                         "correct": answer_correct(it.answerable, ans.refused, contains, cited, at_gold),
                         "gold_top5": bool(any(relevance(r.hits[:5], it, aliases))) if it.gold else False,
                         "old": _old(kb, r)})
        print(f"{name}: {len(items)} questions", file=sys.stderr)
    ROWS.parent.mkdir(parents=True, exist_ok=True)
    ROWS.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")


def _old(kb, r) -> float:
    """The confidence before this model: 0.9 × share of all question terms (single
    characters too) in the top three passages; 0.95 for an exact clause."""
    from zhiku.answer.extractive import coverage

    if r.exact:
        return 0.95
    if not r.hits:
        return 0.0
    return 0.9 * coverage(r.terms, "".join(h.chunk.text for h in r.hits[:3]), kb.idf)


def fit_logistic(X: list[list[float]], y: list[bool], l2: float = 1.0, iters: int = 50) -> dict:
    """Standardised L2-regularised logistic regression by Newton's method."""
    import numpy as np

    A = np.asarray(X, float)
    t = np.asarray(y, float)
    mean, scale = A.mean(0), A.std(0)
    scale[scale == 0] = 1.0
    Z = np.hstack([np.ones((len(A), 1)), (A - mean) / scale])
    w = np.zeros(Z.shape[1])
    reg = np.eye(Z.shape[1]) * l2
    reg[0, 0] = 0.0
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(Z @ w, -30, 30)))
        g = Z.T @ (p - t) + reg @ w
        H = (Z.T * (p * (1 - p))) @ Z + reg
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return {"bias": float(w[0]), "weights": [float(x) for x in w[1:]], "mean": [float(x) for x in mean],
            "scale": [float(x) for x in scale]}


def fit_offset(X: list[list[float]], y: list[bool], offset: list[float], l2: float = 1.0,
               iters: int = 50) -> list[float]:
    """Logistic regression without intercept on top of a fixed log-odds ``offset`` (the
    retrieval model's), by Newton's method: the weights of what answering showed."""
    import numpy as np

    A, t, o = np.asarray(X, float), np.asarray(y, float), np.asarray(offset, float)
    w = np.zeros(A.shape[1])
    for _ in range(iters):
        p = 1.0 / (1.0 + np.exp(-np.clip(o + A @ w, -30, 30)))
        g = A.T @ (p - t) + l2 * w
        H = (A.T * (p * (1 - p))) @ A + l2 * np.eye(A.shape[1])
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return [float(x) for x in w]


def _answered(rows: list[dict], idx: list[int], model: dict) -> dict:
    """The second stage fitted on the answered rows ``idx``: weights of a weak answerability
    mismatch and of the share of sentences verification removed, over the first stage's
    log-odds."""
    from zhiku.verify.confidence import Features, probability

    ans = [i for i in idx if not rows[i]["refused"]]
    off = [_logit(probability(Features(**rows[i]["features"]), model)) for i in ans]
    X = [[_after(rows[i])[n] for n in ANSWERED] for i in ans]
    return {"names": list(ANSWERED), "weights": fit_offset(X, [bool(rows[i]["correct"]) for i in ans], off)}


# what answering showed, as :func:`zhiku.verify.confidence.answered` sees it
ANSWERED = tuple(os.environ.get("ZHIKU_FIT_ANSWERED", "weak,removed,met").split(","))


def _after(row: dict) -> dict[str, float]:
    from zhiku.verify.confidence import after_features

    weak = bool(row.get("weak"))
    return after_features(weak, row.get("share", 1.0), 0 if weak else int(row["features"]["pinned"]))


def _logit(p: float) -> float:
    p = min(max(p, 1e-6), 1 - 1e-6)
    return math.log(p / (1 - p))


def fit(write: bool) -> None:
    """Fit on all rows, check leave-one-set-out, write the model and the docs section."""
    from zhiku.eval.metrics import auroc, expected_calibration_error, reliability

    rows = [json.loads(x) for x in ROWS.read_text(encoding="utf-8").splitlines()]
    X = [[r["features"][n] for n in USED] for r in rows]
    y = [bool(r["correct"]) for r in rows]
    sets = list(dict.fromkeys(r["set"] for r in rows))
    lines = ["| held-out set | questions | right | ECE (new) | AUROC (new) | ECE (old) | AUROC (old) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    held_conf: list[float] = []
    held_y: list[bool] = []
    for s in sets:
        tr = [i for i, r in enumerate(rows) if r["set"] != s]
        te = [i for i, r in enumerate(rows) if r["set"] == s]
        m = {"names": USED, **fit_logistic([X[i] for i in tr if not rows[i]["pinned_refusal"]],
                                           [y[i] for i in tr if not rows[i]["pinned_refusal"]])}
        m["answered"] = _answered(rows, tr, m)
        conf = [_shipped(rows[i], m) for i in te]
        yy = [y[i] for i in te]
        old = [rows[i]["old"] for i in te]
        held_conf += conf
        held_y += yy
        lines.append(f"| {s} | {len(te)} | {sum(yy)} | {_f(expected_calibration_error(conf, yy))} | "
                     f"{_f(auroc(conf, yy))} | {_f(expected_calibration_error(old, yy))} | {_f(auroc(old, yy))} |")
    old_all = [r["old"] for r in rows]
    lines.append(f"| **all, held out** | {len(rows)} | {sum(y)} | {_f(expected_calibration_error(held_conf, held_y))} | "
                 f"{_f(auroc(held_conf, held_y))} | {_f(expected_calibration_error(old_all, y))} | "
                 f"{_f(auroc(old_all, y))} |")
    keep = [i for i, r in enumerate(rows) if not r["pinned_refusal"]]
    model = {"names": USED, **fit_logistic([X[i] for i in keep], [y[i] for i in keep])}
    model["answered"] = _answered(rows, list(range(len(rows))), model)
    model["fitted_on"] = {s: sum(r["set"] == s for r in rows) for s in sets}
    lines += ["", *_thresholds(rows, model)]
    table = ["| confidence | questions | mean confidence | share right |", "|---|---:|---:|---:|"]
    for lo, hi, n, mc, acc in reliability(held_conf, held_y):
        table.append(f"| {lo:.1f}–{hi:.1f} | {n} | {mc:.2f} | {acc:.2f} |")
    weights = ", ".join(f"{n} {w:+.2f}" for n, w in zip(USED, model["weights"]))
    weights += "; after answering (added to the log-odds): " + ", ".join(
        f"{n} {w:+.2f}" for n, w in zip(model["answered"]["names"], model["answered"]["weights"]))
    body = "\n".join([
        HEADING, "", f"`python benchmarks/fit_confidence.py fit` — {machine()}", "",
        "Confidence is the estimated probability that the answer is right (a right answer: not "
        "refused, holds a reference answer, or cites a gold place when the item has none; any "
        "answer to an unanswerable item is wrong). A logistic model over retrieval features, "
        "fitted on the rows of benchmarks/data/confidence_rows.jsonl (full offline ask, keyword "
        "retrieval, refusal threshold off). Each set below is scored by a model fitted on the "
        "other sets only; *old* is the confidence it replaces.", "", *lines, "",
        "Reliability of the held-out confidences (10 bins):", "", *table, "",
        f"Weights of the shipped model (standardised features): {weights}.", ""])
    print(body)
    if write:
        MODEL.write_text(json.dumps(model, indent=1) + "\n", encoding="utf-8")
        replace_section(EVAL_DOC, HEADING, body)


def _shipped(row: dict, model: dict) -> float:
    """The confidence an answer ships with (as answer/finish.py computes it): the model's
    probability, × 0.3 when the answerability check refused it, × 0.5 when nothing of the
    draft could be verified, else adjusted by what answering showed (:func:`answered`)."""
    from zhiku.verify.confidence import Features, answered, probability

    p = probability(Features(**row["features"]), model)
    if row["pinned_refusal"]:
        return p * 0.3
    if row["refused"]:
        return p * 0.5
    weak = bool(row.get("weak"))
    return answered(p, weak, row.get("share", 1.0), 0 if weak else int(row["features"]["pinned"]), model)


def _thresholds(rows: list[dict], model: dict) -> list[str]:
    """What each refusal threshold would refuse (answerability refusals included)."""
    out = ["| min_confidence | answerable refused | unanswerable refused | case → article refused with gold in top 5 |",
           "|---:|---:|---:|---:|"]
    for t in (0.1, 0.15, 0.2, 0.25, 0.3, 0.4):
        ref = [r for r in rows if r["pinned_refusal"] or _shipped(r, model) < t]
        a = sum(r["answerable"] for r in ref) / max(1, sum(r["answerable"] for r in rows))
        u = sum(not r["answerable"] for r in ref) / max(1, sum(not r["answerable"] for r in rows))
        g = [r for r in rows if r["set"] == "case" and r["gold_top5"]]
        c = sum(r in ref for r in g) / max(1, len(g))
        out.append(f"| {t:.2f} | {a:.3f} | {u:.3f} | {c:.3f} |")
    return out


def _f(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.3f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=["collect", "fit"])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--only", default=",".join(SETS))
    ap.add_argument("--no-write", action="store_true")
    a = ap.parse_args()
    if a.what == "collect":
        shared = Path(a.shared)
        if not (shared / "eval").is_dir():
            print(f"error: the shared data folder is missing at {shared}; pass --shared DIR", file=sys.stderr)
            return 2
        collect(shared, [s for s in a.only.split(",") if s])
        return 0
    fit(not a.no_write)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
