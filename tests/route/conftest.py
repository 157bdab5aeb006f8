"""Fixtures of the routing tests over the test laws: a home holding their keyword index, and
that home opened with config keys overridden (the router's embedding tier and log off)."""

from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase


@pytest.fixture(scope="module")
def laws_home(tmp_path_factory, laws_dir) -> Path:
    """A home with the test laws (tests/data/laws) ingested keyword-only, one per test module."""
    h = tmp_path_factory.mktemp("laws_home")
    KnowledgeBase(load_config(home=h)).ingest([laws_dir], dense=False, progress=False)
    return h


def open_kb(home: Path, **over) -> KnowledgeBase:
    """The knowledge base of ``home`` with config keys overridden by ``over``; the router's
    embedding tier and its log off unless ``over`` says otherwise."""
    return KnowledgeBase(load_config(home=home, **{"route_embedding": False, "route_log": False, **over}))
