"""Any OpenAI-compatible ``/v1/embeddings`` endpoint (TEI, vLLM, Ollama, Xinference, OpenAI...)."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from zhiku.embed.base import embedders, normalise
from zhiku.embed.prompts import PromptStyle, format_passages, format_query, style_for
from zhiku.errors import ZhikuError


class OpenAIEmbedder:
    """Embeds through the ``openai`` SDK: batched, bounded concurrency, retries with backoff.

    The SDK retries 408/409/429/5xx and connection errors with exponential backoff and
    honours ``Retry-After``; ``retries`` caps how often. Vectors are L2-normalised here.
    """

    def __init__(self, model: str, base_url: str, api_key: str | None = None, batch: int = 32,
                 concurrency: int = 4, timeout: float = 60.0, retries: int = 5,
                 prompt: str = "auto", dim: int = 0) -> None:
        if not model:
            raise ZhikuError("the openai embedder needs a model; set embed_model (e.g. BAAI/bge-m3)")
        self.model = model
        self.base_url = base_url
        self.name = f"openai/{model}"
        self.version = ""
        self.style = style_for(model, prompt)
        self.batch = batch
        self.concurrency = concurrency
        self._expected_dim = dim
        self._dim = dim or None
        self._kw = dict(base_url=base_url, api_key=api_key or "not-needed", timeout=timeout,
                        max_retries=retries)
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def client(self) -> Any:
        """The SDK client, created on first use."""
        with self._lock:
            if self._client is None:
                from openai import OpenAI

                self._client = OpenAI(**self._kw)
            return self._client

    @property
    def dim(self) -> int:
        """Vector size: configured, or learned from one probe request."""
        if self._dim is None:
            self._dim = int(self._request(["维度探测 dimension probe"], query=False).shape[1])
        return self._dim

    def embed_passages(self, texts: Sequence[str]) -> np.ndarray:
        """Passage vectors, shape (n, dim); requests of ``batch`` texts, ``concurrency`` at once.

        Raises:
            ZhikuError: the server is unreachable, refuses, or returns vectors of another size.
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        parts = [list(texts[i : i + self.batch]) for i in range(0, len(texts), self.batch)]
        if len(parts) == 1 or self.concurrency == 1:
            return np.vstack([self._request(p, query=False) for p in parts])
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(parts))) as pool:
            return np.vstack(list(pool.map(lambda p: self._request(p, query=False), parts)))

    def embed_query(self, text: str) -> np.ndarray:
        """Query vector, shape (dim,).

        Raises:
            ZhikuError: as :meth:`embed_passages`.
        """
        return self._request([text], query=True)[0]

    def _request(self, texts: list[str], query: bool) -> np.ndarray:
        import openai

        extra: dict[str, Any] = {}
        if self.style is PromptStyle.SERVER:
            extra["extra_body"] = {"input_type": "query" if query else "passage"}
            payload = list(texts)
        else:
            payload = [format_query(self.style, texts[0])] if query else format_passages(self.style, texts)
        try:
            resp = self.client.embeddings.create(model=self.model, input=payload,
                                                 encoding_format="float", **extra)
        except openai.APIConnectionError as e:
            raise ZhikuError(f"cannot reach the embedding server at {self.base_url} ({e}); start it "
                             "or fix embed_base_url") from e
        except openai.AuthenticationError as e:
            raise ZhikuError(f"the embedding server at {self.base_url} refused the API key; put a "
                             "valid key in the variable named by embed_api_key_env") from e
        except openai.APIStatusError as e:
            raise ZhikuError(f"the embedding server at {self.base_url} answered {e.status_code} for "
                             f"model {self.model!r} after retries: {e.message}; check embed_model "
                             "and the server") from e
        data = sorted(resp.data, key=lambda d: d.index)
        vecs = np.asarray([d.embedding for d in data], dtype=np.float32)
        if vecs.ndim != 2 or len(vecs) != len(texts):
            raise ZhikuError(f"the embedding server at {self.base_url} returned {len(data)} vectors "
                             f"for {len(texts)} texts; check that it serves /v1/embeddings")
        want = self._expected_dim or self._dim
        if want and vecs.shape[1] != want:
            raise ZhikuError(f"model {self.model!r} at {self.base_url} returns {vecs.shape[1]}-dim "
                             f"vectors but {want} were expected; fix embed_dim or embed_model, or "
                             "re-embed with `zhiku reembed`")
        return normalise(vecs)


@embedders.register("openai")
def make_openai(config: Any) -> OpenAIEmbedder:
    """Factory registered as ``openai``; reads the ``embed_*`` settings of ``config``.

    Args:
        config: the :class:`zhiku.config.Config`.

    Returns:
        An embedder that sends no request until it is used.
    """
    return OpenAIEmbedder(
        model=config.embed_model, base_url=config.embed_base_url,
        api_key=os.environ.get(config.embed_api_key_env), batch=config.embed_batch,
        concurrency=config.embed_concurrency, timeout=config.embed_timeout,
        retries=config.embed_retries, prompt=config.embed_prompt, dim=config.embed_dim,
    )
