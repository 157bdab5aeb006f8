"""Probe of the vocabulary levers not shipped: embedder term expansion, a whole-word static
embedder, and dense scoring of the keyword candidates only; everyday sets, whole laws corpus.

Every row runs through the eval runner (the metrics of `zhiku eval`) on the same keyword index,
with the flat baseline and the shipped keyword path in the same run. The vocabulary is the
index's own (multi-character Han words in at least two chunks, ~26k words); each word is
embedded alone by the bundled e5 through the vector cache, so only the first run pays for the
teacher pass (about 11 min on 2 cores) and later runs read it back.

Usage: python benchmarks/probe_levers.py [--shared ../shared/data] [--write]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import ROOT, machine  # noqa: E402

SETS = ("natural", "natural2")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]{2,}")
SIF_A = 1e-3  # SIF smoothing (Arora et al. 2017) over the words' chunk shares


class Vocabulary:
    """The index's words, their chunk counts and their teacher vectors (centred, unit length)."""

    def __init__(self, kb, min_df: int = 2) -> None:
        from zhiku.embed.base import VectorCache, embed_cached

        df: Counter[str] = Counter()
        self.chunks = kb.store.all_chunks()
        from zhiku.prepare import keyword_text

        for c in self.chunks:
            df.update({t for t in kb.segment(keyword_text(c)) if _HAN.fullmatch(t)})
        self.words = sorted((w for w, n in df.items() if n >= min_df), key=lambda w: -df[w])
        self.df = np.array([df[w] for w in self.words], dtype=np.float64)
        cache = VectorCache(kb.config.cache_path)
        try:
            t0 = time.perf_counter()
            raw = embed_cached(kb.embedder, cache, self.words, 256)
            self.teacher_seconds = time.perf_counter() - t0
        finally:
            cache.close()
        v = raw - raw.mean(axis=0)  # e5 vectors share a large common direction
        self.vectors = (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)
        self.index = {w: i for i, w in enumerate(self.words)}
        p = self.df / self.df.sum()
        self.sif = (SIF_A / (SIF_A + p)).astype(np.float32)

    def neighbours(self, term: str, k: int, min_sim: float) -> list[str]:
        """The ``k`` nearest other words (cosine ≥ ``min_sim``), sub- and super-strings skipped."""
        i = self.index.get(term)
        if i is None:
            return []
        s = self.vectors @ self.vectors[i]
        out = []
        for j in np.argsort(-s)[: k + 30]:
            w = self.words[j]
            if s[j] < min_sim or len(out) == k:
                break
            if j != i and term not in w and w not in term:
                out.append(w)
        return out

    def embed(self, words: Callable[[str], list[str]], text: str) -> np.ndarray:
        """Whole-word static vector of ``text``: SIF-weighted mean of its known words."""
        ids = [self.index[w] for w in words(text) if w in self.index]
        if not ids:
            return np.zeros(self.vectors.shape[1], dtype=np.float32)
        v = (self.vectors[ids] * self.sif[ids, None]).sum(axis=0)
        return v / (np.linalg.norm(v) + 1e-9)


def searchers(kb, voc: Vocabulary) -> dict[str, Callable]:
    """Row label → question → hits."""
    import zhiku.ask.search as S
    from zhiku.index.store import Scope
    from zhiku.prepare import chunk_header
    from zhiku.retrieve.fusion import FusionMode, fuse
    from zhiku.types import Hit

    t0 = time.perf_counter()
    mat = np.stack([voc.embed(kb.words, f"{chunk_header(c)}\n{c.text}") for c in voc.chunks])
    voc.corpus_seconds = time.perf_counter() - t0

    def keyword(q: str, structured: bool = True):  # every version, as `zhiku eval` searches
        return S.retrieve(kb, q, S.Mode.BM25, Scope(versions="all"), structured=structured, route=False).hits

    def expanded(q: str):
        real = S.prepare

        def prep(*a, **k):
            p = real(*a, **k)
            extra = [w for t in p.kw_terms if len(t) > 1 for w in voc.neighbours(t, 3, 0.7)]
            extra = list(dict.fromkeys(w for w in extra if w not in p.kw_terms))
            return replace(p, kw_terms=list(p.kw_terms) * 2 + extra) if extra else p

        S.prepare = prep
        try:
            return keyword(q)
        finally:
            S.prepare = real

    def ranked(chunks, scores) -> list:
        order = np.argsort(-scores)
        return [Hit(chunks[j], float(scores[j]), "dense", {"dense": (r, float(scores[j]))})
                for r, j in enumerate(order, 1)]

    def dense(q: str):
        s = mat @ voc.embed(kb.words, q)
        top = np.argpartition(-s, 50)[:50]
        return ranked([voc.chunks[j] for j in top], s[top])

    def hybrid(q: str):
        return fuse([keyword(q), dense(q)], FusionMode.WEIGHTED, k=60, alpha=0.2)

    def candidates(q: str):
        kw = keyword(q)
        vq = voc.embed(kb.words, q)
        s = np.array([voc.embed(kb.words, f"{chunk_header(h.chunk)}\n{h.chunk.text}") @ vq for h in kw])
        return fuse([kw, ranked([h.chunk for h in kw], s)], FusionMode.WEIGHTED, k=60, alpha=0.2)

    return {"flat BM25": lambda q: keyword(q, False), "zhiku keyword, defaults": keyword,
            "+ term expansion (3 nearest corpus words per term, cos ≥ 0.7, originals ×2)": expanded,
            "static whole-word dense alone": dense,
            "zhiku keyword + static whole-word dense, weighted α=0.2": hybrid,
            "zhiku keyword, its 50 candidates rescored by static whole-word dense, α=0.2": candidates}


def probe(shared: Path) -> str:
    """Run every row on both everyday sets; return the Markdown block."""
    from ablation import _scores  # noqa: PLC0415 - the ablation's R@5/MRR over answerable items

    from zhiku.config import Config
    from zhiku.eval.command import prepare
    from zhiku.eval.dataset import load_set
    from zhiku.eval.report import to_json
    from zhiku.eval.runner import run_eval

    sets = {n: load_set(shared / "eval/laws" / f"{n}.jsonl") for n in SETS}
    kb, _ = prepare(Config(), str(shared / "laws"), [it for v in sets.values() for it in v],
                    False, False, False)
    from zhiku.retrieve.twins import with_twins

    aliases = with_twins({d.doc_id: {d.path, *d.aliases} for d in kb.store.documents()}, kb.titles().twins)
    voc = Vocabulary(kb)
    rows = searchers(kb, voc)
    out = [f"Vocabulary: {len(voc.words)} index words, teacher pass {voc.teacher_seconds:.0f} s "
           f"(0 when cached); static whole-word vectors of {len(voc.chunks)} chunks in "
           f"{voc.corpus_seconds:.0f} s (one core)."]
    for name, items in sets.items():
        data = to_json(run_eval(items, rows, aliases=aliases, progress=False, name=name))
        n = _scores(data["results"], "flat BM25", None)[2]
        lines = [f"**{name}** ({n} answerable questions)", "", "| system | R@5 | MRR@10 |", "|---|---:|---:|"]
        for label in rows:
            r5, mrr, _ = _scores(data["results"], label, None)
            lines.append(f"| {label} | {r5:.3f} | {mrr:.3f} |")
        out.append("\n".join(lines))
    return "\n\n".join(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "data"))
    ap.add_argument("--write", action="store_true", help="write the block into docs/eval.md")
    a = ap.parse_args()
    shared = Path(a.shared)
    if not (shared / "eval").is_dir():
        print(f"error: the shared data folder {shared} is missing; pass --shared PATH", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    block = f"{probe(shared)}\n\n({time.perf_counter() - t0:.0f} s, {machine()})"
    print(block)
    if a.write:
        _write(ROOT / "docs" / "eval.md", f"{PROBE_INTRO}\n\n{block}\n\n`python benchmarks/probe_levers.py --write`\n")
    return 0


def _write(doc: Path, body: str) -> None:
    """Replace this probe's block in ``doc`` (or add it after the last run block), leaving
    every other block and section as it is."""
    text = doc.read_text(encoding="utf-8")
    block = f"<!-- run:probe -->\n### {TITLE}\n\n{body.strip()}\n<!-- /run -->\n"
    found = re.search(r"<!-- run:probe -->\n.*?<!-- /run -->\n", text, re.S)
    if found:
        text = text[: found.start()] + block + text[found.end():]
    else:
        end = text.rfind("<!-- /run -->\n")
        at = end + len("<!-- /run -->\n") if end >= 0 else len(text)
        text = text[:at] + "\n" + block + text[at:]
    doc.write_text(text, encoding="utf-8")


TITLE = "Probe: vocabulary levers measured and not shipped (whole laws corpus)"
PROBE_INTRO = ("Levers measured and not shipped (see benchmarks/probe_levers.py): each row runs "
               "through the eval runner on the whole-corpus keyword index, routing off, beside the "
               "flat baseline and the shipped keyword path of the same run. R@5 and MRR@10 over "
               "the answerable questions, as in the ablation above.")


if __name__ == "__main__":
    sys.exit(main())
