"""Re-ingest speed: unchanged corpus and one changed file, against the first ingest.

Usage: python benchmarks/bench_reingest.py [--shared ../shared/data] [--runs 3]
Needs the laws corpus of the shared data folder; says so and exits 2 when it is missing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, shared_laws, write_section  # noqa: E402

from zhiku.config import load_config  # noqa: E402
from zhiku.kb import KnowledgeBase  # noqa: E402


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, out


def run(laws: Path, runs: int, dense_files: int) -> list[tuple[str, float, str]]:
    """Rows (what, median seconds, detail) for keyword-only full corpus and a dense slice."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "laws"
        shutil.copytree(laws, corpus)
        kb = KnowledgeBase(load_config(home=Path(tmp) / "h"))
        first, rep = _timed(lambda: kb.ingest([corpus], dense=False, progress=False))
        rows.append(("first ingest, keyword path", first, f"{rep.chunks} chunks, {rep.added} documents"))
        same = [_timed(lambda: kb.ingest([corpus], dense=False, progress=False)) for _ in range(runs)]
        assert all(r.added == 0 for _, r in same)
        rows.append(("re-ingest, nothing changed", statistics.median(t for t, _ in same),
                     f"{same[0][1].unchanged} unchanged, 0 re-indexed"))
        victim = next(iter(sorted(corpus.rglob("劳动合同法*.md"))))
        changed = []
        for i in range(runs):
            victim.write_text(victim.read_text(encoding="utf-8") + f"\n第九百九十九条 测试修改{i}。\n",
                              encoding="utf-8")
            changed.append(_timed(lambda: kb.ingest([corpus], dense=False, progress=False)))
        assert all(r.added == 1 for _, r in changed)
        rows.append(("re-ingest, one file changed", statistics.median(t for t, _ in changed),
                     f"1 document swapped ({changed[0][1].chunks} chunks)"))
        rows += _dense(Path(tmp), sorted((laws / "社会法").glob("*.md"))[:dense_files], runs)
    return rows


def _dense(tmp: Path, files: list[Path], runs: int) -> list[tuple[str, float, str]]:
    src = tmp / "dense" / "社会法"
    src.mkdir(parents=True)
    for f in files:
        shutil.copy(f, src)
    kb = KnowledgeBase(load_config(home=tmp / "hd", vector_cache=tmp / "cache.sqlite"))
    first, rep = _timed(lambda: kb.ingest([src.parent], progress=False))
    out = [(f"first ingest with vectors ({len(files)} files)", first, f"{rep.embedded} chunks embedded")]
    same = [_timed(lambda: kb.ingest([src.parent], progress=False)) for _ in range(runs)]
    assert all(r.embedded == 0 for _, r in same)
    out.append(("re-ingest with vectors, nothing changed", statistics.median(t for t, _ in same),
                "0 embedded"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dense-files", type=int, default=10)
    a = ap.parse_args()
    laws = shared_laws(a.shared)
    if laws is None:
        return 2
    rows = run(laws, a.runs, a.dense_files)
    lines = ["| step | seconds (median of %d) | vs first ingest | detail |" % a.runs,
             "|---|---:|---:|---|"]
    base = rows[0][1]
    for w, s, d in rows:
        base = s if w.startswith("first ingest") else base  # each group against its first ingest
        lines.append(f"| {w} | {s:.2f} | {s / base:.3f}× | {d} |")
    table = "\n".join(lines)
    print(table)
    write_section("Re-ingest (living knowledge)", "make bench-reingest", table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
