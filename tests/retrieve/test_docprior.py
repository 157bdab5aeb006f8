"""Document-level priors of keyword ranking: the citation in-degree (citation_prior) and the
coverage the best hits of a document hold together (doc_coherence). Real law files
(tests/data), a real store, keyword search."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.docprior import citation_prior, cited_titles, coherence_boost
from tests.conftest import ingested_kb

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
OVERTIME = "公司安排加班不给加班费，工资应该怎么算？"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return ingested_kb(tmp_path_factory, [LAWS], routing=False)


def _doc(kb, path: str) -> str:
    return next(d.doc_id for d in kb.store.documents() if d.path == path)


def test_cited_titles_read_as_the_title_index_names_them():
    text = "依照《中华人民共和国劳动法》和《最高人民法院关于适用〈中华人民共和国民事诉讼法〉的解释》"
    assert cited_titles(text) == ["劳动法", "最高人民法院关于适用《中华人民共和国民事诉讼法》的解释"]
    assert cited_titles("没有书名号的文字") == []


@pytest.mark.integration
def test_a_law_other_documents_cite_by_title_has_an_in_degree(kb):
    counts, laws = kb.cited_by()
    assert laws == 5  # six files: 公司法 in two versions
    # the guide cites 《劳动法》 (and 《中华人民共和国劳动合同法》); nobody cites the guide
    assert counts.get(_doc(kb, "社会法/劳动法(2018-12-29).md"), 0) >= 1
    assert _doc(kb, "其他/劳动仲裁和劳动诉讼的攻略.md") not in counts
    assert all(n > 0 for n in counts.values())
    assert kb.cited_by()[0] is counts  # once per published generation


@pytest.mark.integration
def test_the_prior_decides_near_ties_and_keeps_a_clear_lead(kb):
    hits = retrieve(kb, OVERTIME, Mode.BM25, route=False).hits[:10]
    ids = [h.chunk.id for h in hits]
    assert [h.chunk.id for h in citation_prior(hits, *kb.cited_by(), 0.0)] == ids
    assert [h.chunk.id for h in citation_prior(hits, {}, 5, 0.5)] == ids
    # the last hit's document alone is cited: a small weight moves it past a near tie only
    last = hits[-1]
    counts = {last.chunk.doc_id: 10}
    others = [h for h in hits if h.chunk.doc_id != last.chunk.doc_id]
    lifted = citation_prior(others + [last], counts, 10, 10.0)
    assert lifted[0].chunk.doc_id == last.chunk.doc_id and lifted[0].sources["cited_by"] == (1, 10)
    kept = citation_prior(others + [last], counts, 10, 1e-9)
    assert [h.chunk.id for h in kept] == [h.chunk.id for h in others + [last]]
    assert all(a.score >= b.score for a, b in zip(lifted, lifted[1:]))


@pytest.mark.integration
def test_the_setting_reaches_the_keyword_ranking(kb):
    on = KnowledgeBase(kb.config.model_copy(update={"citation_prior": 0.3}))
    hits = retrieve(on, OVERTIME, Mode.BM25, route=False).hits
    assert hits and all("cited_by" in h.sources for h in hits if h.source == "bm25")
    off = retrieve(kb, OVERTIME, Mode.BM25, route=False).hits
    assert not any("cited_by" in h.sources for h in off)


@pytest.mark.integration
def test_coherence_lifts_whole_documents_and_keeps_their_inner_order(kb):
    hits = retrieve(kb, OVERTIME, Mode.BM25, route=False).hits[:20]
    terms = [t for t in kb.words(OVERTIME) if len(t) > 1]
    ids = [h.chunk.id for h in hits]
    assert [h.chunk.id for h in coherence_boost(hits, terms, kb.idf, 0.0)] == ids
    got = coherence_boost(hits, terms, kb.idf, 0.5)
    assert {h.chunk.id for h in got} == set(ids) and all("coherence" in h.sources for h in got)
    for doc in {h.chunk.doc_id for h in hits}:  # a document's hits keep their order
        assert [h.chunk.id for h in got if h.chunk.doc_id == doc] == [h.chunk.id for h in hits if h.chunk.doc_id == doc]
    # one hit per document: nothing to cover together, nothing gained
    single = list({h.chunk.doc_id: h for h in reversed(hits)}.values())
    assert all(h.sources["coherence"][1] == 0 for h in coherence_boost(single, terms, kb.idf, 0.5))
    on = KnowledgeBase(kb.config.model_copy(update={"doc_coherence": 0.2}))
    assert any("coherence" in h.sources for h in retrieve(on, OVERTIME, Mode.BM25, route=False).hits)
