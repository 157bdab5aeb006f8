"""The version in force first: searching every version of 公司法 (2018 and 2023, real files
of tests/data), a question naming no version gets the 2023 article before the 2018 one."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.inforce import in_force_first

COMPANY_LAWS = Path(__file__).resolve().parents[1] / "data" / "laws" / "民法商法"
NEW, OLD = "公司法(2023-12-29).md", "公司法(2018-10-26).md"  # paths under the ingested folder
QUESTION = "股东可以查阅公司会计账簿吗？"


@pytest.fixture(scope="module")
def company_kb(tmp_path_factory):
    """公司法 2018 (superseded) and 2023 (in force), keyword index, real store."""
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home")))
    rep = kb.ingest([COMPANY_LAWS], dense=False, progress=False)
    assert not rep.failed
    return kb


def _top(kb, question, versions="all", n=2):
    r = retrieve(kb, question, Mode.BM25, Scope(versions=versions), route=False)
    return [(h.chunk.doc_path, h.chunk.article) for h in r.hits[:n]], r.hits


@pytest.mark.integration
def test_in_force_version_ranks_above_the_text_it_replaced(company_kb):
    top, _ = _top(company_kb, QUESTION)
    assert top[0] == (NEW, "第五十七条") and any(h.chunk.doc_path == OLD for h in _top(company_kb, QUESTION)[1])


@pytest.mark.integration
def test_lever_off_keeps_the_keyword_order(company_kb):
    off = company_kb.config.model_copy(update={"in_force_first": False})
    kb = KnowledgeBase(off)
    top, _ = _top(kb, QUESTION)
    assert top[0] == (OLD, "第三十三条")  # the 2018 text outscores the 2023 one by its words


@pytest.mark.integration
def test_a_named_version_and_current_only_search_are_left_alone(company_kb):
    top, _ = _top(company_kb, "按2018年修正的公司法，" + QUESTION, n=1)
    assert top == [(OLD, "第三十三条")]
    top, hits = _top(company_kb, QUESTION, versions="current", n=1)
    assert top == [(NEW, "第五十七条")] and all(h.chunk.doc_path != OLD for h in hits)


@pytest.mark.integration
def test_superseded_hits_stay_put_without_their_version_in_force(company_kb):
    _, hits = _top(company_kb, QUESTION)
    old_only = [h for h in hits if h.chunk.doc_path == OLD]
    assert old_only and in_force_first(company_kb, old_only) == old_only
    moved = in_force_first(company_kb, hits)
    assert sorted(h.chunk.id for h in moved) == sorted(h.chunk.id for h in hits)
    assert in_force_first(company_kb, hits, day="2020-01-01") == hits  # then 2018 was the law
