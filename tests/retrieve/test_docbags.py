"""Whole-document keyword evidence (doc_keyword): every document one bag of its words, BM25
over the documents, and keyword hits weighed by their document's share. Real law files
(tests/data), a real store, keyword search."""

from dataclasses import replace
from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.docbags import DocumentBags, merged, weigh_by_documents
from tests.conftest import ingested_kb

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
OVERTIME = "公司安排加班不给加班费，工资应该怎么算？"
DIVORCE = "夫妻感情确已破裂，一方起诉离婚，孩子归谁抚养？"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    """The test laws, keyword index, whole-document evidence off (the tests switch it on)."""
    return ingested_kb(tmp_path_factory, [LAWS], routing=False, doc_keyword=0.0)


def _path(kb, doc_id: str) -> str:
    return next(d.path for d in kb.store.documents() if d.doc_id == doc_id)


def _terms(kb, question: str) -> list[str]:
    return kb.segment(question)


# real lines of 劳动法 第四十四条 and 婚姻家庭编 第一千零七十九条, segmented as an ingest does
LABOUR = "安排劳动者延长工作时间的，支付不低于工资的百分之一百五十的工资报酬"
MARRIAGE = "人民法院审理离婚案件，应当进行调解；如果感情确已破裂，调解无效的，应当准予离婚"


def _rows(kb, texts: dict[str, list[str]]) -> list[dict[str, str]]:
    return [{"doc_id": d, "seg": " ".join(kb.segment(t)), "kind": "article"} for d, ts in texts.items() for t in ts]


@pytest.mark.integration
def test_a_question_scores_the_document_whose_words_it_shares(kb):
    bags = DocumentBags.build(_rows(kb, {"labour": [LABOUR], "marriage": [MARRIAGE]}), ["labour", "marriage"])
    over = bags.best(_terms(kb, "延长工作时间的工资报酬怎么算"), 0.75)
    assert list(over) == ["labour", "marriage"][: len(over)] and over["labour"] == 1.0
    assert over.get("marriage", 0.0) < 1.0
    # the twin: a divorce question puts the marriage law first
    div = bags.best(_terms(kb, "感情破裂，法院会准予离婚吗"), 0.75)
    assert next(iter(div)) == "marriage" and div.get("labour", 0.0) < 1.0
    # a document left out or outside ``within`` is not scored
    assert "labour" not in bags.best(_terms(kb, "延长工作时间的工资报酬怎么算"), 0.75, skip=["labour"])
    assert set(bags.best(_terms(kb, "工资"), 0.75, within=["marriage"])) <= {"marriage"}
    assert bags.best(["没有的词"], 0.75) == {}


@pytest.mark.integration
def test_length_normalisation_weighs_a_long_document_down(kb):
    # the same article once in a short document and amid ten unrelated ones in a long one
    long = [LABOUR] + [MARRIAGE] * 10
    bags = DocumentBags.build(_rows(kb, {"short": [LABOUR], "long": long}), ["short", "long"])
    terms = _terms(kb, "延长工作时间的工资报酬")
    full, none = bags.best(terms, 1.0), bags.best(terms, 0.0)
    assert full["short"] == 1.0 and full["long"] < 1.0  # b = 1: the long one's counts are diluted
    # b = 0: length counts for nothing, so the long one (the same article, and 的 more often) leads
    assert none["long"] == 1.0 and none["short"] < 1.0


@pytest.mark.integration
def test_the_knowledge_base_builds_its_bags_once_per_generation(kb):
    bags = kb.doc_bags()
    assert kb.doc_bags() is bags
    live = {d.doc_id for d in kb.store.documents() if not d.deleted}
    assert set(bags.docs) == live and all(n > 0 for n in bags.lengths)
    best = bags.best(_terms(kb, OVERTIME), 0.75)
    assert _path(kb, next(iter(best))).startswith(("社会法/", "其他/"))  # a labour text, not the 公司法
    best = bags.best(_terms(kb, DIVORCE), 0.75)
    assert _path(kb, next(iter(best))) == "民法典/婚姻家庭编.md"


@pytest.mark.integration
def test_weighing_moves_a_near_tie_and_keeps_a_clear_lead(kb):
    hits = retrieve(kb, OVERTIME, Mode.BM25, route=False).hits[:10]
    ids = [h.chunk.id for h in hits]
    assert [h.chunk.id for h in weigh_by_documents(hits, {hits[-1].chunk.doc_id: 1.0}, 0.0)] == ids
    assert [h.chunk.id for h in weigh_by_documents(hits, {}, 0.5)] == ids
    last = hits[-1]
    others = [h for h in hits if h.chunk.doc_id != last.chunk.doc_id]
    # a large gain lifts the only document with evidence to the top ...
    lifted = weigh_by_documents(others + [last], {last.chunk.doc_id: 1.0}, 100.0)
    assert lifted[0].chunk.id == last.chunk.id and lifted[0].sources["documents"] == (1, 1.0)
    # ... a small one keeps the order the hits' own scores give
    kept = weigh_by_documents(others + [last], {last.chunk.doc_id: 1.0}, 1e-9)
    assert [h.chunk.id for h in kept] == [h.chunk.id for h in others + [last]]
    assert all(a.score >= b.score for a, b in zip(lifted, lifted[1:]))


@pytest.mark.integration
def test_merging_keeps_each_passage_once_at_its_best_score(kb):
    whole = retrieve(kb, OVERTIME, Mode.BM25, route=False).hits[:5]
    inside = kb.store.keyword(kb.segment(OVERTIME), 20, Scope(versions="all", doc_ids=(whole[0].chunk.doc_id,)))
    got = merged(whole, inside)
    assert len({h.chunk.id for h in got}) == len(got)
    assert {h.chunk.id for h in whole} | {h.chunk.id for h in inside} == {h.chunk.id for h in got}
    assert all(a.score >= b.score for a, b in zip(got, got[1:]))
    assert [h.sources["bm25"][0] for h in got] == list(range(1, len(got) + 1))


@pytest.mark.integration
def test_the_setting_reaches_the_keyword_ranking_and_leaves_named_documents_alone(kb):
    on = KnowledgeBase(kb.config.model_copy(update={"doc_keyword": 0.3}))
    r = retrieve(on, OVERTIME, Mode.BM25, route=False)
    assert r.hits and all("documents" in h.sources for h in r.hits if h.source == "bm25")
    step = next(s for s in r.trace if s.stage == "keyword")
    assert step.detail["documents"]  # the three best documents and their shares, for the trace
    off = retrieve(kb, OVERTIME, Mode.BM25, route=False).hits
    assert not any("documents" in h.sources for h in off)
    # a search already inside named documents is not weighed: its documents were chosen
    from zhiku.ask.lists import _by_documents

    labour = next(d.doc_id for d in kb.store.documents() if d.path == "社会法/劳动法(2018-12-29).md")
    scope = replace(Scope(versions="all"), doc_ids=(labour,))
    inside = on.store.keyword(kb.segment(OVERTIME), 10, scope)
    assert _by_documents(on, inside, kb.segment(OVERTIME), 10, scope, {}) == inside


@pytest.mark.integration
def test_another_process_reads_the_bags_back_for_the_same_index_state(kb, tmp_path):
    bags = kb.doc_bags()
    saved = kb.config.home / "docbags.npz"
    assert saved.is_file()
    again = KnowledgeBase(kb.config).doc_bags()  # a second knowledge base over the same home
    assert again is not bags and again.docs == bags.docs and dict(again.words) == dict(bags.words)
    terms = _terms(kb, DIVORCE)
    assert again.best(terms, 0.75) == pytest.approx(bags.best(terms, 0.75))
    # saved for another index state: not read, built anew
    assert DocumentBags.load(saved, "another state") is None
    assert DocumentBags.load(tmp_path / "none.npz", "x") is None


@pytest.mark.integration
def test_an_ingest_with_the_setting_on_builds_the_bags_for_the_asks(tmp_path):
    from zhiku.config import load_config

    on = KnowledgeBase(load_config(home=tmp_path / "on", doc_keyword=0.1, route_log=False))
    on.ingest([LAWS / "社会法"], dense=False, progress=False)
    assert (tmp_path / "on" / "docbags.npz").is_file()
    assert len(on.doc_bags().docs) == 2  # 劳动法, 劳动合同法
    # the twin: off, the ingest leaves no bags behind
    off = KnowledgeBase(load_config(home=tmp_path / "off", doc_keyword=0.0, route_log=False))
    off.ingest([LAWS / "社会法"], dense=False, progress=False)
    assert not (tmp_path / "off" / "docbags.npz").exists()
