"""Fixtures of the retrieval tests: keyword-only knowledge bases over the labour laws and over
the 刑法 excerpt beside the test laws, and a builder of ones with vectors over the 刑法 excerpt."""

from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase

DATA = Path(__file__).resolve().parents[1] / "data"
LABOUR_LAWS = DATA / "laws" / "社会法"


@pytest.fixture(scope="module")
def labour_kb(tmp_path_factory):
    """The real 社会法 laws of tests/data, keyword index, real store; the chapter-heading
    cosine (heading_similarity) off, so a lever under test is measured on its own."""
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home"), heading_similarity=0.0))
    rep = kb.ingest([LABOUR_LAWS], dense=False, progress=False)
    assert not rep.failed
    return kb


@pytest.fixture(scope="module")
def criminal_kb(tmp_path_factory):
    """The 刑法 excerpt beside the test laws (so that document frequencies mean something),
    ingested keyword-only: this stage needs no vectors."""
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("criminal")))
    rep = kb.ingest([DATA / "criminal", DATA / "laws"], dense=False, progress=False)
    assert not rep.failed and rep.chunks > 500
    return kb


@pytest.fixture(scope="module")
def criminal_dense(tmp_path_factory):
    """Builds a knowledge base with vectors (the bundled embedder) over the 刑法 excerpt and
    the test-data folder named (interpretations, offences): ``criminal_dense("offences")``."""

    def build(beside: str) -> KnowledgeBase:
        kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp(beside + "_dense"), route_log=False))
        rep = kb.ingest([DATA / "criminal", DATA / beside], dense=True, progress=False)
        assert not rep.failed and kb.has_vectors()
        return kb

    return build
