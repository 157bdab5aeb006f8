"""Knowledge bases for the agent tests: the session ``kb``'s index seen through another
config (LLM, web, cache settings) without ingesting again."""

from __future__ import annotations

import pytest


@pytest.fixture
def kb_with(kb, tmp_path):
    """``kb_with(**settings)``: a knowledge base over the session index (linked into a
    fresh home, so answer cache, sessions and logs start empty) with ``settings``."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(kb.config.store_path, target_is_directory=True)

    def make(**settings):
        settings.setdefault("vector_cache", kb.config.cache_path)
        return KnowledgeBase(load_config(home=home, **settings))

    return make
