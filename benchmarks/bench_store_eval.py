"""Same recall on either store: `zhiku eval` clause lookup over the whole laws corpus,
keyword path, once on LanceDB and once on Milvus Lite, side by side.

Usage: python benchmarks/bench_store_eval.py [--shared ../shared/data] [--no-write]

Needs the shared data (laws corpus and eval/laws/clause_lookup.jsonl); says so and exits 2
when it is missing. Each store gets its own eval index (the first run ingests the corpus
into it: about 1 min for LanceDB, 4 min for Milvus Lite here).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, run_eval, shared_laws, write_section  # noqa: E402

STORES = [("LanceDB", {}), ("Milvus Lite", {"ZHIKU_STORE": "index.db"})]
KEYS = [("R@1", "recall_1"), ("R@5", "recall_5"), ("R@10", "recall_10"), ("MRR@10", "mrr_10"),
        ("nDCG@10", "ndcg_10"), ("ms per question", "ms")]


def run(shared: Path, env: dict[str, str]) -> tuple[dict, float]:
    """The ``all`` summary row of one eval run, and its wall time in seconds."""
    args = [str(shared / "eval/laws/clause_lookup.jsonl"), "--corpus", str(shared / "laws"),
            "--no-dense", "--mode", "bm25", "--route", "off"]
    t0 = time.perf_counter()
    data, _ = run_eval(args, env, str(env or "the default store"))
    summary = next(iter(data["sets"].values()))["summary"]
    return next(r for r in summary if r["kind"] == "all" and r["mode"] == "bm25"), time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--no-write", action="store_true", help="print only")
    a = ap.parse_args()
    if shared_laws(a.shared) is None:
        return 2
    lines = ["`zhiku eval eval/laws/clause_lookup.jsonl --corpus laws --no-dense --mode bm25 --route off`, "
             "whole laws corpus, once per store (`ZHIKU_STORE=index.db` selects a Milvus Lite file). "
             "Wall time includes ingesting the corpus when the store's eval index is new.", "",
             "| store | questions | " + " | ".join(k for k, _ in KEYS) + " | wall s |",
             "|---|---:|" + "---:|" * (len(KEYS) + 1)]
    for name, env in STORES:
        row, wall = run(Path(a.shared), env)
        cells = [f"{row[k]:.1f}" if k == "ms" else f"{row[k]:.3f}" for _, k in KEYS]
        lines.append(f"| {name} | {row['n']} | " + " | ".join(cells) + f" | {wall:.0f} |")
        print(lines[-1], flush=True)
    text = "\n".join(lines)
    if not a.no_write:
        write_section("Same recall on either store", "make bench-store-eval", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
