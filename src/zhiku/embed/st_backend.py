"""sentence-transformers models from a local directory or a hub name (optional ``[st]`` extra)."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from zhiku.embed.base import embedders, normalise
from zhiku.embed.prompts import PromptStyle, format_passages, format_query, style_for
from zhiku.errors import ZhikuError


def model_id(model: str) -> str:
    """Stable id of a model: a hub name as given, a local directory by its folder name
    (``.../bge-small-zh-v1.5`` → ``bge-small-zh-v1.5``; a bare ``model`` folder takes its
    parent's name too)."""
    p = Path(model)
    if not p.exists():
        return model
    p = p.resolve()
    return f"{p.parent.name}/{p.name}" if p.name in {"model", "models", "snapshot"} else p.name


class STEmbedder:
    """A ``SentenceTransformer`` on CPU, CUDA or MPS; loaded on first use.

    On CPU, torch uses ``threads`` intra-op threads (all cores by default).
    """

    def __init__(self, model: str, device: str = "auto", batch: int = 32, threads: int = 0,
                 prompt: str = "auto") -> None:
        if not model:
            raise ZhikuError("the sentence-transformers embedder needs a model; set embed_model "
                             "to a local model directory or a hub name")
        self.model_path = model
        self.name = f"st/{model_id(model)}"
        self.device = device
        self.batch = batch
        self.threads = threads or os.cpu_count() or 1
        self.style = style_for(model_id(model), prompt)
        if self.style is PromptStyle.SERVER:
            self.style = PromptStyle.NONE
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def version(self) -> str:
        """The installed sentence-transformers version."""
        from importlib.metadata import PackageNotFoundError, version

        try:
            return "sentence-transformers " + version("sentence-transformers")
        except PackageNotFoundError:
            return ""

    @property
    def model(self) -> Any:
        """The loaded model.

        Raises:
            ZhikuError: sentence-transformers is not installed, or the model cannot be loaded.
        """
        with self._lock:
            if self._model is None:
                self._model = self._load()
            return self._model

    def _load(self) -> Any:
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise ZhikuError("the sentence-transformers embedder needs the [st] extra; run "
                             "pip install 'zhiku[st]' torch==2.13.0") from e
        device = self.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        if device == "cpu":
            torch.set_num_threads(self.threads)
        try:
            return SentenceTransformer(self.model_path, device=device)
        except Exception as e:  # the library raises OSError, ValueError, HF errors...
            raise ZhikuError(f"cannot load sentence-transformers model {self.model_path!r} on "
                             f"{device} ({type(e).__name__}: {e}); give a local model directory, "
                             "or a hub name with internet access") from e

    @property
    def dim(self) -> int:
        """Vector size reported by the model."""
        m = self.model
        get = getattr(m, "get_embedding_dimension", None) or m.get_sentence_embedding_dimension
        return int(get())

    def _encode(self, texts: list[str]) -> np.ndarray:
        vecs = self.model.encode(texts, batch_size=self.batch, convert_to_numpy=True,
                                 normalize_embeddings=False, show_progress_bar=False)
        return normalise(np.asarray(vecs, dtype=np.float32).reshape(len(texts), -1))

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (n, dim)."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return self._encode(format_passages(self.style, texts))

    def embed_query(self, text: str) -> np.ndarray:
        """Query vector, shape (dim,)."""
        return self._encode([format_query(self.style, text)])[0]


@embedders.register("sentence-transformers")
def make_st(config: Any) -> STEmbedder:
    """Factory registered as ``sentence-transformers``.

    Args:
        config: the :class:`zhiku.config.Config` (``embed_model``, ``embed_device``,
            ``embed_batch``, ``embed_threads``, ``embed_prompt``).

    Returns:
        An embedder that loads its model on first use.
    """
    return STEmbedder(config.embed_model, device=config.embed_device, batch=config.embed_batch,
                      threads=config.embed_threads, prompt=config.embed_prompt)
