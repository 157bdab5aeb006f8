"""Fixtures of the retrieval tests: keyword-only knowledge bases over the labour laws and over
the 刑法 excerpt beside the test laws, a builder of ones with vectors over the 刑法 excerpt, and
the ranked lists one search makes (:func:`search_lists`)."""

from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from tests.conftest import ingested_kb

DATA = Path(__file__).resolve().parents[1] / "data"
LABOUR_LAWS = DATA / "laws" / "社会法"


@pytest.fixture(scope="module")
def labour_kb(tmp_path_factory):
    """The real 社会法 laws of tests/data, keyword index, real store; the chapter-heading
    cosine (heading_similarity) off, so a lever under test is measured on its own."""
    return ingested_kb(tmp_path_factory, [LABOUR_LAWS], heading_similarity=0.0)


@pytest.fixture(scope="module")
def criminal_kb(tmp_path_factory):
    """The 刑法 excerpt beside the test laws (so that document frequencies mean something),
    ingested keyword-only: this stage needs no vectors."""
    kb = ingested_kb(tmp_path_factory, [DATA / "criminal", DATA / "laws"], "criminal")
    assert kb.chunk_count() > 500
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


def search_lists(kb, question: str, mode=None):
    """The prepared question and the ranked lists (keyword, dense) its search makes over the
    whole index, hybrid unless ``mode`` says otherwise."""
    from zhiku.ask.search import Mode, fuzzy, prepare
    from zhiku.index.store import Scope

    trace: list = []
    p = prepare(kb, question, mode or Mode.HYBRID, Scope(), trace)
    return p, fuzzy(kb, p, Scope(), trace)
