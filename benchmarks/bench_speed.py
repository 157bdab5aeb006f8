"""Speed at scale: ingest throughput (keyword and dense paths) and query latency at 10k, 100k
and 1M chunks, with peak memory and index size.

Usage: python benchmarks/bench_speed.py [--shared ../shared/data] [--scales 10000,100000,1000000]
       [--runs 3] [--skip-ingest] [--skip-cli] [--keep DIR] [--write]

Needs the laws corpus of the shared data folder; says so and exits 2 when it is missing.
Each scale runs in its own process (so its peak memory is its own). Chunks at each scale are
real law chunks; above the corpus size (66k chunks) the laws are repeated as renamed copies.
Vectors at scale points are random unit vectors (labelled so): embedding 1M chunks with the
bundled CPU encoder would take about a day here; query vectors are real encoder output, so the
query-encoding time is real. The one-shot CLI rows time `zhiku ask "…"` as a subprocess over
the whole laws keyword index, in its own process and through a running `zhiku serve`
(benchmarks/cli_ask.py).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, shared_laws, write_section  # noqa: E402
from cli_ask import cli_point, cli_table  # noqa: E402

QUESTIONS = [
    "试用期最长多久？", "劳动合同法第三十九条规定了什么？", "用人单位拖欠工资怎么办",
    "结婚的法定年龄是多少？", "公司注册资本可以分期缴纳吗", "未成年人可以打工吗",
    "交通事故逃逸会受到什么处罚", "个人信息被泄露可以要求赔偿吗", "离婚时财产怎么分割",
    "劳动者可以单方解除劳动合同吗", "什么情况下可以申请工伤认定", "房屋租赁合同到期不退房怎么办",
    "消费者买到假货可以要求几倍赔偿", "产假有多少天", "民法典第一千零七十九条", "醉驾怎么处罚",
    "商标侵权的赔偿数额如何确定", "遗嘱无效的情形有哪些", "企业破产时职工工资怎么清偿",
    "环境污染造成损害谁承担责任",
]


def _pct(xs: list[float], p: float) -> float:
    return float(np.percentile(np.asarray(xs), p))


def _laws_docs(laws: Path):
    from zhiku.ingest import iter_files, load_file

    return [load_file(f, root) for f, root in iter_files([laws])]


def _copies(docs, k: int):
    """The k-th renamed copy of every law: another path, title and id, same text."""
    from zhiku.types import content_hash

    if k == 0:
        return docs
    return [replace(d, id=content_hash(d.id, str(k)), path=f"副本{k}/{d.path}",
                    title=f"{d.title}（副本{k}）", aliases=()) for d in docs]


def _du(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def build_point(laws: Path, n: int, home: Path) -> dict:
    """Build a store of about ``n`` chunks under ``home`` (keyword ingest, random unit
    vectors, the vector index); run in a child process. Returns the build timings."""
    from zhiku.kb import KnowledgeBase

    docs = _laws_docs(laws)
    kb = KnowledgeBase(_config(home))
    # one ingest of every copy, as `zhiku ingest` of an n-chunk corpus: its indexes are
    # built once at the end (one ingest per copy paid LanceDB's index merge, which grows
    # with the table, once per copy: 5 s for the first 66k chunks, 23 s at 330k)
    rep = kb.ingest_documents(_fit(docs, n, kb), dense=False, progress=False)
    ingest_s = rep.seconds - rep.route_seconds  # keyword build; routing summaries apart
    route_s = rep.route_seconds
    reingest_s = _reingest_one(kb, docs[0])
    merge_s = _merge(kb)
    chunks = kb.store.chunks_without_vectors()
    rng = np.random.default_rng(0)
    t1 = time.perf_counter()
    for i in range(0, len(chunks), 50_000):
        part = chunks[i : i + 50_000]
        v = rng.standard_normal((len(part), kb.embedder.dim)).astype(np.float32)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        with kb.store.transaction():
            kb.store.add_vectors(part, v)
    vec_s = time.perf_counter() - t1
    t1 = time.perf_counter()
    with kb.store.transaction():  # what the end of an embed does: the vector index
        kb.index()
    vindex_s = time.perf_counter() - t1
    return {"ingest_s": ingest_s, "route_s": route_s, "reingest_s": reingest_s, "merge_s": merge_s,
            "vectors_s": vec_s, "vindex_s": vindex_s,
            "disk_mb": _du(home / "h") / 1e6}


def _peak_mb() -> float:
    """This process's own peak resident memory (MB). Linux's ``ru_maxrss`` carries the
    parent's peak over fork and exec (a child of the ingest-rate run reported its parent's
    1.2 GB), so read the address space's high-water mark, which starts afresh at exec."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _config(home: Path):
    from zhiku.config import load_config

    return load_config(home=home / "h", vector_cache=home / "cache.sqlite")


def query_point(home: Path, runs: int) -> dict:
    """Time the asks on the store under ``home`` in a fresh process (its peak memory is an
    ask process's: nothing of the build), then the floors."""
    from zhiku.kb import KnowledgeBase
    from zhiku.ask import Mode, Query, ask, retrieve

    kb = KnowledgeBase(_config(home))
    load0 = os.getloadavg()[0]
    ask(kb, Query(QUESTIONS[0], use_cache=False))  # loads the model, drafts and embeds the routing summaries
    out: dict = {"n": kb.store.count()["chunks"]}
    timings: dict[str, list[list[float]]] = {"bm25": [], "hybrid": [], "routed": [], "ask": [], "kwask": []}
    looked: list[bool] = []  # asks the dense veto refused and the second look read again

    def offline(q: str) -> None:
        looked.append("quote_cosine" in str(ask(kb, Query(q, use_cache=False)).trace))

    for _ in range(runs):
        for name, fn in (("bm25", lambda q: retrieve(kb, q, Mode.BM25, route=False)),
                         ("hybrid", lambda q: retrieve(kb, q, Mode.HYBRID, route=False)),
                         ("routed", lambda q: retrieve(kb, q, Mode.HYBRID, route=True)),
                         ("ask", offline),
                         ("kwask", lambda q: ask(kb, Query(q, use_cache=False, mode=Mode.BM25)))):
            lat = []
            for q in QUESTIONS:
                s = time.perf_counter()
                fn(q)
                lat.append((time.perf_counter() - s) * 1000)
            timings[name].append(lat)
    for name, runs_ in timings.items():
        out[f"{name}_p50"] = statistics.median(_pct(r, 50) for r in runs_)
        out[f"{name}_p95"] = statistics.median(_pct(r, 95) for r in runs_)
    out["looked"] = sum(looked) / max(len(looked), 1)
    out["peak_mb"] = _peak_mb()  # before the floors' bm25s
    out["load"] = (load0 + os.getloadavg()[0]) / 2
    return {**out, **floors(kb, runs)}


def scale_point(script: str, shared: str, n: int, runs: int, keep: str | None) -> dict:
    """Build the ``n``-chunk store in one child process (or reuse the one kept under
    ``keep``) and time the asks in another."""
    home = Path(keep) / str(n) if keep else Path(tempfile.mkdtemp(prefix="zhiku-speed-"))
    made = home / "build.json"
    try:
        if not made.is_file():
            shutil.rmtree(home, ignore_errors=True)
            home.mkdir(parents=True)
            made.write_text(json.dumps(_child(script, shared, "--build", n, runs, home)))
        return {**json.loads(made.read_text()), **_child(script, shared, "--query", n, runs, home)}
    finally:
        if not keep:
            shutil.rmtree(home, ignore_errors=True)


def _child(script: str, shared: str, phase: str, n: int, runs: int, home: Path) -> dict:
    p = subprocess.run([sys.executable, script, "--shared", shared, phase, str(home), "--point", str(n),
                        "--runs", str(runs)], capture_output=True, text=True,
                       env={**os.environ, "PYTHONWARNINGS": "ignore"})
    if p.returncode:
        raise RuntimeError(f"{phase} at {n:,} chunks failed:\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1])


def floors(kb, runs: int) -> dict[str, float]:
    """p50 ms of the components every ask needs at least, on this store in this process:
    flat BM25 (bm25s over the same segmented text, top 50), the store's full-text query,
    a vector-index query, fetching 20 chunks by id, and encoding the question."""
    from lancedb.query import MatchQuery

    from zhiku.index.lance_indexes import vector_query
    from zhiku.index.store import Scope
    from zhiku.retrieve.segment import query_terms

    tbl = kb.store.active.table
    chunks = kb.store._read("chunks")
    ids = chunks.search().select(["id"]).limit(None).to_arrow()["id"].to_pylist()
    flat = flat_bm25(b.column("seg").to_pylist()
                     for b in chunks.search().select(["seg"]).limit(None).to_batches(20_000))
    terms = {q: query_terms(kb.segment(q)) for q in QUESTIONS}
    vecs = {q: kb.query_vector(q) for q in QUESTIONS}
    emb = kb.embedder

    def top50(q):
        return flat.retrieve([terms[q]], k=50, show_progress=False, n_threads=1)

    comps = {
        "bm25s": top50,
        "fts": lambda q: chunks.search(MatchQuery(" ".join(terms[q]), "seg"), query_type="fts")
        .select(["id"]).limit(50).to_list(),
        "ann": lambda q: vector_query(tbl, vecs[q].tolist(), 50, Scope(), None, kb.store.vector_spec)
        .select(["id"]).limit(50).to_list(),
        "fetch": lambda q: kb.store.get_chunks(ids[hash(q) % 1000 :: max(1, len(ids) // 20)][:20]),
        "encode": lambda q: emb.embed_query(q),
    }
    out = {}
    for name, fn in comps.items():
        lat = []
        for _ in range(runs):
            for q in QUESTIONS:
                s = time.perf_counter()
                fn(q)
                lat.append((time.perf_counter() - s) * 1000)
        out[f"floor_{name}"] = _pct(lat, 50)
    return out


def flat_bm25(batches, k1: float = 1.5, b: float = 0.75):
    """A flat bm25s index (its default Lucene BM25) of whitespace-segmented texts given in
    batches: the same scores as ``bm25s.BM25().index([text.split() for text in texts])``,
    whose token lists hold every token of the corpus as a Python string (24 GB for the 272M
    tokens of a million chunks: the 1M point's query process was killed by the kernel
    building them). Here each batch keeps its documents' distinct token ids and counts (6
    bytes a pair), and the score matrix is filled column by column from them, batch by batch
    (8 bytes a pair): about 2 GB at a million chunks."""
    import bm25s

    vocab: dict[str, int] = {}
    parts, lens = [], []  # per batch: (token ids, counts, distinct tokens per document)
    for texts in batches:
        bc, bt, bn = [], [], []
        for text in texts:
            toks = text.split()
            ids = np.fromiter((vocab.setdefault(t, len(vocab)) for t in toks), dtype=np.int32, count=len(toks))
            u, c = np.unique(ids, return_counts=True)
            bc.append(u)
            bt.append(np.minimum(c, 65535).astype(np.uint16))
            bn.append(len(u))
            lens.append(len(toks))
        if bc:
            parts.append((np.concatenate(bc), np.concatenate(bt), np.asarray(bn, dtype=np.int64)))
    vocab[""] = len(vocab)  # bm25s's empty token: matches no document
    n, dl = len(lens), np.asarray(lens, dtype=np.float32)
    df = np.zeros(len(vocab), dtype=np.int64)
    for col, _, _ in parts:
        df += np.bincount(col, minlength=len(vocab))
    idf = np.log1p((n - df + 0.5) / (df + 0.5)).astype(np.float32)
    norm = (k1 * (1 - b + b * dl / max(float(dl.mean()), 1e-9))).astype(np.float32) if n else dl
    indptr = np.concatenate([[0], np.cumsum(df)]).astype(np.int64)
    data = np.empty(int(indptr[-1]), dtype=np.float32)
    indices = np.empty(int(indptr[-1]), dtype=np.int32)
    nxt, first = indptr[:-1].copy(), 0
    while parts:
        col, tf, nnz = parts.pop(0)
        doc = np.repeat(np.arange(first, first + len(nnz), dtype=np.int32), nnz)
        first += len(nnz)
        tf = tf.astype(np.float32)
        val = idf[col] * tf / (tf + norm[doc])
        order = np.argsort(col, kind="stable")
        cs = col[order]
        dest = nxt[cs] + (np.arange(len(cs)) - np.searchsorted(cs, cs, "left"))
        data[dest], indices[dest] = val[order], doc[order]
        nxt += np.bincount(col, minlength=len(vocab))
    flat = bm25s.BM25(k1=k1, b=b)
    flat.scores = {"data": data, "indices": indices, "indptr": indptr, "num_docs": n}
    flat.vocab_dict = vocab
    flat.unique_token_ids_set = set(vocab.values())
    flat.nonoccurrence_array = None  # Lucene BM25 has none
    return flat


def _reingest_one(kb, doc) -> float:
    """Seconds to swap one changed document into the store (what re-ingesting one edited
    file does after loading it)."""
    from zhiku.types import content_hash

    body = doc.body + "\n第九百九十九条 测试修改。\n"
    rep = kb.ingest_documents([replace(doc, body=body, id=content_hash(body))], dense=False, progress=False)
    assert rep.added == 1, rep
    return rep.seconds


def _merge(kb) -> float:
    """Seconds the background merge after that re-ingest takes (the asks are timed after
    it, as they would run a few seconds after the edit)."""
    from zhiku.merge import merge

    t0 = time.perf_counter()
    assert merge(kb) > 0 and not kb.store.unindexed_rows()
    return time.perf_counter() - t0


def _fit(docs, n: int, kb):
    """Renamed copies of the laws (see :func:`_copies`) holding about ``n`` chunks: whole
    copies while they fit, then the first documents of one more until ``n`` is reached
    (each law's chunks counted once, as every copy cuts it alike)."""
    from zhiku.chunk import chunk_document
    from zhiku.structure import build_tree

    cfg = kb.config
    sizes = [len(chunk_document(d, build_tree(d), size=cfg.chunk_size_for(d.path), overlap=cfg.chunk_overlap,
                                parent_size=cfg.parent_size, min_section=cfg.min_section)) for d in docs]
    out, total, k = [], 0, 0
    while total < n:
        for d, size in zip(_copies(docs, k), sizes):
            out.append(d)
            total += size
            if total >= n:
                break
        k += 1
    return out


def ingest_rates(laws: Path, runs: int, dense_chunks: int) -> list[tuple[str, str, str, str]]:
    """Keyword and dense ingest rates, each against a bare baseline timed in this process."""
    from zhiku.config import load_config
    from zhiku.embed import embedders
    from zhiku.embed.base import token_batches
    from zhiku.kb import KnowledgeBase
    from zhiku.prepare import keyword_text

    rows = []
    kw, seg, route = [], [], []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            kb = KnowledgeBase(load_config(home=Path(tmp) / "h", vector_cache=Path(tmp) / "c.sqlite"))
            rep = kb.ingest([laws], dense=False, progress=False)
            kw.append(rep.chunks / (rep.seconds - rep.route_seconds))
            route.append(rep.route_seconds)
            texts = [keyword_text(c) for c in kb.store.all_chunks()]
            t0 = time.perf_counter()
            for t in texts:
                kb.segment(t)
            seg.append(len(texts) / (time.perf_counter() - t0))
    rows.append((f"keyword ingest, whole laws corpus ({rep.chunks:,} chunks: load, tree, chunk, segment, "
                 f"index; routing summaries and chapter headings embedded after it in {statistics.median(route):.0f} s)",
                 f"{statistics.median(kw):,.0f}", f"segmentation alone {statistics.median(seg):,.0f}",
                 f"{statistics.median(seg) / statistics.median(kw):.1f}× slower than segmenting"))
    docs = _laws_docs(laws / "社会法")
    with tempfile.TemporaryDirectory() as tmp:
        cfg = load_config(home=Path(tmp) / "h", vector_cache=Path(tmp) / "c.sqlite")
        kb = KnowledgeBase(cfg)
        kb.ingest_documents(docs, dense=False, progress=False)
        sample = kb.store.chunks_without_vectors()[:dense_chunks]
        # the dense path embeds each distinct text once, so the raw baseline gets the same set
        texts = list(dict.fromkeys(c.text for c in sample))
        enc = embedders.create(cfg.embedder, cfg)
        enc.embed_passages(texts[:8])  # load the model before anything is timed
        raw, full = [], []
        for i in range(runs):  # alternate, so load on the machine hits both alike
            t0 = time.perf_counter()
            for b in token_batches(texts, cfg.embed_batch):  # the batches the dense path uses
                enc.embed_passages([texts[j] for j in b])
            raw.append(len(texts) / (time.perf_counter() - t0))
            with kb.store.transaction():  # start from no vectors and an empty cache each run
                kb.store.delete_ids("vectors", [c.id for c in sample])
            for f in Path(tmp).glob("c.sqlite*"):
                f.unlink()
            t0 = time.perf_counter()
            kb._embed(sample, progress=False)
            full.append(len(texts) / (time.perf_counter() - t0))
        raw, full = statistics.median(raw), statistics.median(full)  # distinct texts per second
    rows.append((f"dense path ({len(sample)} chunks, {len(texts)} distinct texts: cache, batch, encode, store)",
                 f"{full:,.1f}",
                 f"raw encoder, same batches {raw:,.1f}", f"overhead {raw / full - 1:+.0%}"))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--scales", default="10000,100000,1000000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dense-chunks", type=int, default=300)
    ap.add_argument("--skip-ingest", action="store_true", help="query latency only (no ingest-rate rows)")
    ap.add_argument("--skip-cli", action="store_true", help="no one-shot `zhiku ask` rows")
    ap.add_argument("--write", action="store_true", help="write the section of docs/benchmarks.md")
    ap.add_argument("--keep", help="keep each scale's store under this folder and reuse it on later runs")
    ap.add_argument("--point", type=int, help=argparse.SUPPRESS)  # child process: one scale
    ap.add_argument("--build", help=argparse.SUPPRESS)  # child: build the point's store here
    ap.add_argument("--query", help=argparse.SUPPRESS)  # child: time asks on the store here
    a = ap.parse_args()
    laws = shared_laws(a.shared)
    if laws is None:
        return 2
    if a.build:
        print(json.dumps(build_point(laws, a.point, Path(a.build))))
        return 0
    if a.query:
        print(json.dumps(query_point(Path(a.query), a.runs)))
        return 0
    rates = ingest_rates(laws, a.runs, a.dense_chunks) if not a.skip_ingest else []
    try:
        cli = None if a.skip_cli else cli_point(laws, QUESTIONS, a.runs, a.keep)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    points = []
    for n in (int(x) for x in a.scales.split(",")):
        print(f"scale {n:,} chunks…", file=sys.stderr)
        try:
            points.append(scale_point(__file__, a.shared, n, a.runs, a.keep))
        except RuntimeError as e:
            print(e, file=sys.stderr)
            return 1
        if a.write:  # after every point, so a long run leaves what it measured so far
            write_section("Speed at scale", "make bench-speed", _table(rates, points, a.runs) + cli_table(cli))
    print(_table(rates, points, a.runs) + cli_table(cli))
    return 0


def _ms(p: dict, name: str) -> str:
    """p50 / p95 ms of one timed path, or a dash for a point measured before it was timed."""
    return f"{p[name + '_p50']:.0f} / {p[name + '_p95']:.0f}" if name + "_p50" in p else "–"


def _secs(x: float) -> str:
    """Seconds for the table; a build kept from a run that did not time it says so."""
    return "not timed" if x != x else f"{x:.0f}"


def _table(rates, points, runs: int) -> str:
    lines = ["Ingest throughput (chunks/s, median of runs; baseline measured in the same process):", "",
             "| path | chunks/s | baseline | ratio |", "|---|---:|---:|---|"]
    lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in rates]
    base = points[0]
    lines += ["", f"Query latency over {len(QUESTIONS)} questions (ms, median over {runs} runs of p50/p95); "
              "vectors are random unit vectors at every scale point, query vectors real; "
              "random vectors lie far from every question, so the dense veto refuses most offline "
              "asks and its second look (the quote encoded once) runs on the share of asks in "
              "the column `second look` — far more than over real vectors; "
              f"ratios against the {base['n']:,}-chunk point:", "",
              "| chunks | keyword p50 / p95 | hybrid p50 / p95 | hybrid + routing p50 / p95 | "
              "offline ask p50 / p95 | second look | keyword-only ask p50 / p95 | ask p50 ratio | keyword build s | "
              "re-ingest 1 file s | then merge s | vector load s | vector index s | index MB | peak RSS MB | load avg |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in points:
        lines.append(
            f"| {p['n']:,} | {p['bm25_p50']:.0f} / {p['bm25_p95']:.0f} | {p['hybrid_p50']:.0f} / "
            f"{p['hybrid_p95']:.0f} | {p['routed_p50']:.0f} / {p['routed_p95']:.0f} | "
            f"{p['ask_p50']:.0f} / {p['ask_p95']:.0f} | {p.get('looked', float('nan')):.0%} | {_ms(p, 'kwask')} | "
            f"{p['ask_p50'] / base['ask_p50']:.1f}× | {_secs(p['ingest_s'])} | {p['reingest_s']:.1f} | "
            f"{p.get('merge_s', float('nan')):.1f} | "
            f"{p['vectors_s']:.0f} | "
            f"{p['vindex_s']:.0f} | {p['disk_mb']:,.0f} | {p['peak_mb']:,.0f} | {p['load']:.1f} |")
    lines += ["", "Same-run floors (p50 ms, same store and process): a flat bm25s baseline (top 50 over "
              "the same segmented text) and the parts every hybrid ask needs at least — the store's "
              "full-text query, a vector-index query (exact scan below the index threshold), fetching "
              "20 chunks by id, encoding the question; ratios are the ask's p50 over them:", "",
              "| chunks | bm25s top-50 | LanceDB FTS | vector query | fetch 20 by id | encode question | "
              "floor sum | ask / bm25s | ask / floor sum | keyword search / bm25s |",
              "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p in points:
        floor = sum(p[f"floor_{k}"] for k in ("fts", "ann", "fetch", "encode"))
        lines.append(
            f"| {p['n']:,} | {p['floor_bm25s']:.1f} | {p['floor_fts']:.1f} | {p['floor_ann']:.1f} | "
            f"{p['floor_fetch']:.1f} | {p['floor_encode']:.1f} | {floor:.1f} | "
            f"{p['ask_p50'] / p['floor_bm25s']:.0f}× | {p['ask_p50'] / floor:.1f}× | "
            f"{p['bm25_p50'] / p['floor_bm25s']:.1f}× |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
