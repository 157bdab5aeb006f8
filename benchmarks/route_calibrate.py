"""Calibrate the router's embedding tier: for each threshold and margin, how many questions
it routes and how often the gold document lies in the sub-indexes it picks.

Usage: python benchmarks/route_calibrate.py [--shared ../shared/data] [--write]

Needs the shared data folder (the laws corpus and its question sets). The corpus is
ingested keyword-only into a temporary home (about 20 s); summary vectors are cached in
the shared vector cache, so a second run only scores. ``--write`` replaces the
"Router calibration" section of docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import shared_laws, write_section  # noqa: E402

SETS = ("natural", "case_to_article", "clause_lookup")
THRESHOLDS = (0.0, 0.82, 0.84, 0.86, 0.87, 0.88, 0.89, 0.90)
MARGINS = (0.0, 0.005, 0.01, 0.02)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(Path(__file__).resolve().parent.parent.parent / "shared" / "data"))
    ap.add_argument("--home", default=".zhiku-calibrate")
    ap.add_argument("--write", action="store_true")
    a = ap.parse_args()
    laws = shared_laws(a.shared)
    if laws is None:
        return 2
    from zhiku.config import load_config
    from zhiku.eval.dataset import load_set
    from zhiku.kb import KnowledgeBase

    kb = KnowledgeBase(load_config(home=a.home))
    kb.ingest([laws], dense=False, progress=False)
    router = kb.router()
    sub_of = {p: d.subindex for d in kb.store.documents() for p in (d.path, *d.aliases)}
    names = [s.name for s in router.subs]
    rows = []  # (set, best, margin, chosen-at-margin-fn, gold subs)
    for name in SETS:
        for it in load_set(Path(a.shared) / "eval" / "laws" / f"{name}.jsonl"):
            gold = {sub_of.get(g.doc) for g in it.gold} - {None}
            if not gold:
                continue
            sc = router.embedding_scores(kb.embedder.embed_query(it.question), names)
            rows.append((name, sc, gold))
    lines = ["| threshold | margin | routed | gold in chosen (routed) | mean sub-indexes | "
             "gold in top-1 (all) |", "|---:|---:|---:|---:|---:|---:|"]
    top1 = np.mean([max(sc, key=sc.get) in gold for _, sc, gold in rows])
    for t in THRESHOLDS:
        for m in MARGINS:
            routed, good, width = 0, 0, []
            for _, sc, gold in rows:
                best = max(sc.values())
                if best < t:
                    continue
                chosen = [n for n in sorted(sc, key=lambda n: -sc[n]) if sc[n] >= best - m][:3]
                routed += 1
                good += bool(gold & set(chosen))
                width.append(len(chosen))
            share = good / routed if routed else float("nan")
            lines.append(f"| {t:.3f} | {m:.3f} | {routed}/{len(rows)} | {share:.3f} | "
                         f"{np.mean(width) if width else 0:.2f} | {top1:.3f} |")
    per = {n: sum(1 for s, _, _ in rows if s == n) for n in SETS}
    body = (f"Questions: {', '.join(f'{n} {c}' for n, c in per.items())} (laws corpus, "
            f"{len(names)} sub-indexes, embedder {kb.embedder.name}).\n\n" + "\n".join(lines))
    print(body)
    if a.write:
        write_section("Router calibration", "python benchmarks/route_calibrate.py --write", body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
