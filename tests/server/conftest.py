"""Server fixtures: a copy of the session knowledge base (free to change) served by a real
uvicorn on 127.0.0.1."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

READ_KEY, ADMIN_KEY = "read-key-123", "admin-key-456"


def copy_kb(kb, home: Path, **settings):
    """A KnowledgeBase over a copy of ``kb``'s index and vector cache (no re-embedding)."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    shutil.copytree(kb.config.store_path, home / "index")
    if kb.config.cache_path.exists():
        shutil.copy(kb.config.cache_path, home / "vectors.sqlite")
    cfg = load_config(home=home, **settings)
    return cfg, KnowledgeBase(cfg)


@pytest.fixture(scope="module")
def served(kb, tmp_path_factory):
    """(base URL, app) of a keyed server over a copy of the test laws; uploads up to 50 KB."""
    from zhiku.server.app import create_app
    from zhiku.server.run import background

    cfg, skb = copy_kb(kb, tmp_path_factory.mktemp("served"), api_keys=READ_KEY,
                       admin_keys=f"{ADMIN_KEY},second-admin", upload_max_mb=0.05)
    app = create_app(cfg, skb)
    with background(app) as url:
        yield url, app
