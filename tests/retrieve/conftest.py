"""Fixtures of the retrieval tests: a keyword-only knowledge base over the labour laws."""

from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase

LABOUR_LAWS = Path(__file__).resolve().parents[1] / "data" / "laws" / "社会法"


@pytest.fixture(scope="module")
def labour_kb(tmp_path_factory):
    """The real 社会法 laws of tests/data, keyword index, real store; the chapter-heading
    cosine (heading_similarity) off, so a lever under test is measured on its own."""
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home"), heading_similarity=0.0))
    rep = kb.ingest([LABOUR_LAWS], dense=False, progress=False)
    assert not rep.failed
    return kb
