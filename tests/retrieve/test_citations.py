"""Articles other documents cite (cited_articles): a case narrative naming 刑法 ranks the articles
a judicial interpretation among its candidates cites; a short question does not. Real 刑法
excerpt, a real interpretation (tests/data), real store, keyword search."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, fuzzy, prepare, retrieve
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.citations import _pattern, cited_votes
from zhiku.retrieve.clause import article_label
from tests.conftest import ingested_kb

DATA = Path(__file__).resolve().parents[1] / "data"
# a pickpocketing narrative in a judgment's style: the interpretation's words (扒窃, 随身携带)
# and names, places, dates and sums no article states
NARRATIVE = ("公诉机关指控：2020年5月3日17时许，被告人李某某在本市西城区某公交车站候车人群中，趁被害人"
             "刘某某上车不备之机，以扒窃方式从其随身携带的挎包内窃取华为手机一部，后被当场抓获。经鉴定，"
             "涉案手机价值人民币2600元。被告人李某某到案后如实供述，赃物已发还被害人。公诉机关建议判处"
             "拘役四个月，并处罚金。\n这种行为适用刑法哪一条？")
SHORT = "刑法上扒窃随身携带的财物怎么处罚？"


@pytest.fixture(scope="module")
def cited_kb(tmp_path_factory):
    return ingested_kb(tmp_path_factory, [DATA / "criminal", DATA / "interpretations", DATA / "laws"], "cited",
                       route_log=False)


@pytest.mark.unit
def test_a_citation_of_the_named_law_is_read_in_its_usual_forms():
    pattern = _pattern(("中华人民共和国刑法", "刑法"))
    labels = [article_label(m.group()) for m in pattern.finditer(
        "应当分别认定为刑法第二百六十四条规定的“数额较大”；依照《中华人民共和国刑法》第264条的规定；"
        "刑法（2020年修正）第十七条之一；刑法修正案（九）第二条")]
    assert labels == ["第二百六十四条", "第二百六十四条", "第十七条之一"]  # an amendment is another law


@pytest.mark.integration
def test_a_narrative_ranks_the_article_its_candidates_cite(cited_kb):
    kb = cited_kb
    p = prepare(kb, NARRATIVE, Mode.BM25, Scope(), [])
    assert p.ref.names and len(p.terms) > kb.config.cited_min_words
    whole = fuzzy(kb, p, Scope(), [])
    assert any("司法解释" in h.chunk.doc_path for h in whole[0])
    votes = cited_votes(whole, p.ref, kb.config.rrf_k)
    assert next(iter(votes)) == "第二百六十四条"  # the interpretation cites it four times, counted once a chunk
    hits = retrieve(kb, NARRATIVE, Mode.BM25, route=False).hits
    cited = [h for h in hits if "cited" in h.sources]
    assert cited and cited[0].chunk.article == "第二百六十四条" and cited[0].chunk.doc_path.endswith("刑法.md")
    assert "第二百六十四条" in [h.chunk.article for h in hits[:5]]
    # off: no list of cited articles
    off = KnowledgeBase(kb.config.model_copy(update={"cited_articles": 0}))
    assert not any("cited" in h.sources for h in retrieve(off, NARRATIVE, Mode.BM25, route=False).hits)


@pytest.mark.integration
def test_a_short_question_naming_the_law_keeps_its_own_order(cited_kb):
    kb = cited_kb
    p = prepare(kb, SHORT, Mode.BM25, Scope(), [])
    assert p.ref.names and len(p.terms) <= kb.config.cited_min_words
    on = retrieve(kb, SHORT, Mode.BM25, route=False).hits
    off = retrieve(KnowledgeBase(kb.config.model_copy(update={"cited_articles": 0})), SHORT, Mode.BM25,
                   route=False).hits
    assert not any("cited" in h.sources for h in on)
    assert [h.chunk.id for h in on] == [h.chunk.id for h in off]
    assert on[0].chunk.article == "第二百六十四条"  # found by the search inside 刑法 on its own words


def _fuse_detail(trace) -> dict:
    return next(s for s in trace if s.stage == "fuse").detail


@pytest.fixture(scope="module")
def cited_kb_dense(criminal_dense):
    return criminal_dense("interpretations")


@pytest.mark.integration
def test_beside_dense_lists_the_cited_list_counts_for_both_retrievers(cited_kb_dense):
    """With vectors the cited articles are voted by the whole index's keyword and dense lists,
    and their list counts twice in the fusion, as those two lists would; keyword search alone
    (the twin) counts it once, as before."""
    from zhiku.ask.search import fused, inside
    from zhiku.retrieve.citations import named_citations
    from zhiku.retrieve.fusion import fuse_search

    kb = cited_kb_dense
    assert kb.config.cited_per_list
    p = prepare(kb, NARRATIVE, Mode.HYBRID, Scope(), [])
    whole = fuzzy(kb, p, Scope(), [])
    assert [hits[0].source for hits in whole] == ["bm25", "dense"]
    inner, cited = inside(kb, p, []), named_citations(kb, p, whole)
    assert cited and cited[0][0].chunk.article == "第二百六十四条"
    got = fused(kb, p, whole, [])
    assert _fuse_detail(got.trace)["cited_weight"] == 2
    every = [*whole, *inner, *cited]
    want = {h.chunk.id: h.score for h in fuse_search(every, kb.config, None, [1.0] * (len(every) - 1) + [2.0],
                                                     len(p.terms))}  # a narrative: fused by rank
    assert {h.chunk.id: h.score for h in got.hits} == pytest.approx({h.chunk.id: want[h.chunk.id] for h in got.hits})
    once = fused(KnowledgeBase(kb.config.model_copy(update={"cited_per_list": False})), p, whole, [])
    assert "cited_weight" not in _fuse_detail(once.trace)
    best = cited[0][0].chunk.id  # the cited article gains one more 1 / (k + its rank in the cited list)
    gain = {h.chunk.id: h.score for h in got.hits}[best] - {h.chunk.id: h.score for h in once.hits}[best]
    assert gain == pytest.approx(1 / (kb.config.rrf_k + 1))
    assert "第二百六十四条" in [h.chunk.article for h in got.hits[:kb.config.answer_chunks]]
    # the twin: keyword search alone, one whole-index list voting: the cited list counts once
    kw = [retrieve(KnowledgeBase(kb.config.model_copy(update={"cited_per_list": on})), NARRATIVE, Mode.BM25,
                   route=False) for on in (True, False)]
    assert any("cited" in h.sources for h in kw[0].hits)
    assert "cited_weight" not in _fuse_detail(kw[0].trace)
    assert [(h.chunk.id, h.score) for h in kw[0].hits] == [(h.chunk.id, h.score) for h in kw[1].hits]
