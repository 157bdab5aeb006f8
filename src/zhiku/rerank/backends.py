"""Built-in rerankers, registered like a plugin would register its own."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel

from zhiku.errors import ZhikuError
from zhiku.llm import LLMError, client_for
from zhiku.rerank import rerankers
from zhiku.types import Hit

MAX_CHARS = 400  # characters of a candidate shown to a cross-encoder or LLM


class DenseReranker:
    """Cosine between the question and each candidate's stored vector (a candidate
    without one, such as an exact clause's parent or any chunk of a keyword-only index, is
    embedded on the fly and kept in the vector cache by its text's hash, so a candidate is
    embedded once). Embedding on the fly is bounded: candidates are embedded in retrieval
    order, a few at a time, and no slice is started that would end past half of
    ``rerank_timeout`` (judged by the last slice's time); only the prefix embedded so far
    is scored (the rest keep their retrieval order), so a cold or busy machine reranks
    fewer candidates instead of timing out and reranking none. Stored vectors are never cut."""

    name = "dense"
    step = 4  # candidates embedded per encoder call while the budget lasts

    def scores(self, kb: Any, question: str, hits: Sequence[Hit]) -> list[float]:
        """One cosine per hit of the prefix that has a vector (all of them unless the
        budget ran out)."""
        if not hits:
            return []
        t0, budget = time.perf_counter(), kb.config.rerank_timeout / 2
        q = kb.dense_query(question)
        have = kb.store.vectors_of([h.chunk.id for h in hits])
        vecs: list[np.ndarray] = []
        from zhiku.chunk.context import vector_text
        from zhiku.embed.base import VectorCache, embed_cached

        recipe = kb.store.active.vector_text  # a missing vector is made as the stored ones were
        cache = VectorCache(kb.config.cache_path)
        try:
            last = 0.0  # seconds the previous slice took: the next one is not started past the budget
            for i in range(0, len(hits), self.step):
                part, t1 = hits[i:i + self.step], time.perf_counter()
                todo = [vector_text(h.chunk, recipe) for h in part if h.chunk.id not in have]
                if todo and vecs and t1 - t0 + last > budget:  # stored vectors cost nothing: never cut
                    break
                extra = iter(embed_cached(kb.embedder, cache, todo, kb.config.embed_batch) if todo else ())
                vecs += [have[h.chunk.id] if h.chunk.id in have else next(extra) for h in part]
                last = time.perf_counter() - t1
        finally:
            cache.close()
        return [float(np.dot(v, q)) for v in vecs]


class CrossEncoderReranker:
    """A sentence-transformers CrossEncoder from a local directory or a cached model id
    (``rerank_model``, e.g. a bge-reranker); needs the ``[st]`` extra."""

    name = "cross-encoder"

    def __init__(self, cfg: Any) -> None:
        if not cfg.rerank_model:
            raise ZhikuError("reranker cross-encoder needs rerank_model (a local model directory "
                             "or a downloaded model id such as BAAI/bge-reranker-base)")
        try:
            from sentence_transformers import CrossEncoder
        except ImportError as e:
            raise ZhikuError("the cross-encoder reranker needs sentence-transformers; "
                             "install the [st] extra (make venv-st)") from e
        device = None if cfg.embed_device == "auto" else cfg.embed_device
        try:
            self.model = CrossEncoder(cfg.rerank_model, device=device)
        except Exception as e:  # transformers raises OSError, ValueError, HF errors
            raise ZhikuError(f"cannot load cross-encoder model {cfg.rerank_model!r}: {e}; pass a local "
                             "model directory in rerank_model") from e
        self.name = f"cross-encoder/{cfg.rerank_model.rstrip('/').rsplit('/', 1)[-1]}"

    def scores(self, kb: Any, question: str, hits: Sequence[Hit]) -> list[float]:
        """The model's relevance score per (question, passage) pair."""
        if not hits:
            return []
        pairs = [(question, h.chunk.text[:MAX_CHARS]) for h in hits]
        return [float(s) for s in np.asarray(self.model.predict(pairs, show_progress_bar=False)).reshape(-1)]


class _Score(BaseModel):
    id: int
    score: float


class _Scores(BaseModel):
    scores: list[_Score]


class LLMReranker:
    """All candidates in one prompt; the model returns a 0–10 relevance per candidate
    as JSON (one corrective retry on malformed JSON). Unscored candidates get 0."""

    name = "llm"

    def __init__(self, cfg: Any) -> None:
        pass  # the model is read from the knowledge base's config at each call

    def scores(self, kb: Any, question: str, hits: Sequence[Hit]) -> list[float]:
        """One 0–10 score per hit.

        Raises:
            LLMError: no reranker model is configured, or it failed twice.
        """
        client = client_for(kb.config, "reranker")
        if client is None:
            raise LLMError("reranker llm needs an LLM: set llm_model (or llm_roles.reranker)")
        blocks = "\n\n".join(f"[{i}] {h.chunk.title} {h.chunk.article or ''}\n{h.chunk.text[:MAX_CHARS]}"
                             for i, h in enumerate(hits, 1))
        msgs = [{"role": "system", "content": "你给检索到的段落打分：0 表示与问题无关，10 表示直接回答了问题。"
                                              "只输出 JSON：{\"scores\": [{\"id\": 编号, \"score\": 分数}]}，每个编号一项。"},
                {"role": "user", "content": f"问题：{question}\n\n候选段落：\n\n{blocks}"}]
        got = {s.id: s.score for s in client.json(msgs, _Scores).scores}
        missing = [i for i in range(1, len(hits) + 1) if i not in got]
        if missing:
            logging.getLogger(__name__).info("llm reranker left %d candidates unscored", len(missing))
        return [got.get(i, 0.0) for i in range(1, len(hits) + 1)]


rerankers.register("dense")(lambda cfg: DenseReranker())
rerankers.register("cross-encoder")(CrossEncoderReranker)
rerankers.register("llm")(LLMReranker)
