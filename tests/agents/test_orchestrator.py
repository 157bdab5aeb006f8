"""The roles of the one ask on real laws: router beside the first search, concurrent
sub-index search, timeouts with their fallbacks, hand-over checks, web fallback on/off."""

from __future__ import annotations

import pytest

from tests.agents.websrv import fake_search
from tests.llmserver import Reply, fake_llm
from tests.asking import ask
from zhiku.agents.web import WEB_NOTE
from zhiku.ask.rewrite import Exchange
from zhiku.ask.roles import HandoverError, handover
from zhiku.ask.workers import Routing
from zhiku.retrieve.clause import ClauseRef

pytestmark = pytest.mark.integration
OUT_OF_SCOPE = "华为Mate 60 手机的首发售价是多少？"


def _role(name, srv):
    """Only role ``name`` talks to the fake server; the other roles stay offline."""
    return {name: {"model": "fake", "base_url": srv.base_url, "retries": 0}}


def _step(ans, stage):
    return [t for t in ans.trace if t.stage == stage]


def test_a_question_naming_its_law_is_searched_inside_the_law_and_everywhere_once(kb_with):
    # the question names its law: the keyword rules decide the route at once, and the law is
    # searched on its own (its hits first) beside the one unrouted search, which the routed
    # step reuses instead of searching the law's whole sub-index again
    q = "劳动合同法规定试用期最长多久？"
    ans = ask(kb_with(), q)
    router = _step(ans, "role:router")[0]
    assert "fallback" not in router.detail
    route = _step(ans, "route")[0].detail  # the router's decision, not routed again
    assert route["subindexes"] == ["社会法"] and route["tier"] == "rules"
    assert sum(t.stage == "keyword" for t in ans.trace) == 2  # everywhere once, inside the law once
    assert any("劳动合同法" in c.title and c.article == "第十九条" for c in ans.citations)
    assert ans.hits[0].chunk.doc_path.endswith("劳动合同法(2012-12-28).md")
    # the positive twin: narrowed to the law's sub-index too, the rules route comes first
    # and the one search follows it (an unrouted search beside it would be thrown away)
    sub = ask(kb_with(route_named_subindex=True), q)
    router = _step(sub, "role:router")[0]
    searches = _step(sub, "role:searcher")
    assert len(searches) == 1 and searches[0].detail["start"] >= router.detail["end"] - 0.01
    assert {h.chunk.doc_path.split("/")[0] for h in sub.hits} == {"社会法"}


def test_a_router_the_rules_cannot_decide_runs_beside_the_first_search(kb_with):
    with fake_llm([Reply('{"subindexes": ["社会法"], "qtype": "fact"}', delay=0.3)]) as srv:
        k = kb_with(llm_roles=_role("router", srv), route_embedding=False)
        ans = ask(k, "离婚冷静期是多长时间？")
    router = _step(ans, "role:router")[0]
    first = _step(ans, "role:searcher")[0]
    # they overlap: each started before the other ended (no clock bound, a loaded machine
    # may start either late)
    assert router.detail["start"] < first.detail["end"] and first.detail["start"] < router.detail["end"]


def test_router_timeout_falls_back_to_the_first_retrieval(kb_with):
    # the LLM router is the last tier before the fallback: a question no rule or summary
    # routes reaches it, and it answers too late
    with fake_llm([Reply('{"subindexes": ["社会法"], "qtype": "fact"}', delay=3.0)]) as srv:
        k = kb_with(llm_roles=_role("router", srv), router_timeout=0.5, route_embedding=False)
        ans = ask(k, "离婚冷静期是多长时间？")
    r = _step(ans, "role:router")[0].detail
    assert r["fallback"] == "default route" and r["error"] == "timed out after 0.5s"
    assert r["end"] < 2.0
    assert len(_step(ans, "role:searcher")) == 1 and _step(ans, "route")[0].detail["decided"] is False
    assert not ans.refused and "婚姻家庭编" in ans.citations[0].doc_path


def test_reranker_timeout_keeps_the_fused_order(kb_with):
    with fake_llm([Reply('{"scores": []}', delay=3.0)]) as srv:
        k = kb_with(llm_roles=_role("reranker", srv), reranker="llm", rerank_timeout=0.5)
        ans = ask(k, "试用期最长多久？")
        assert srv.requests  # the LLM reranker was asked
    r = _step(ans, "role:reranker")[0].detail
    assert r["fallback"] == "no rerank" and r["error"] == "timed out after 0.5s" and r["end"] < 2.5
    assert "kept" not in _step(ans, "rerank")[0].detail and not ans.refused and ans.citations


def test_answerer_timeout_gives_the_extractive_answer(kb_with):
    with fake_llm([Reply("试用期最长不得超过六个月[1]。", delay=3.0)]) as srv:
        k = kb_with(llm_roles=_role("answerer", srv), answer_timeout=0.5)
        ans = ask(k, "试用期最长多久？")
        assert srv.requests
    a = _step(ans, "role:answerer")[0].detail
    assert a["fallback"] == "extractive answer" and a["error"] == "timed out after 0.5s" and a["end"] < 2.5
    assert ans.generator == "extractive" and not ans.refused
    assert any(c.article == "第二十一条" for c in ans.citations)
    assert next(t for t in ans.trace if t.stage == "verify").detail["unsupported"] == 0


def test_answerer_llm_answers_within_its_time(kb_with):
    with fake_llm(["劳动合同可以约定试用期。试用期最长不得超过六个月[1]。"]) as srv:
        ans = ask(kb_with(llm_roles=_role("answerer", srv)), "试用期最长多久？")
    assert "fallback" not in _step(ans, "role:answerer")[0].detail
    assert ans.generator == "llm" and "六个月[1]" in ans.text


def test_rewriter_timeout_falls_back_to_entity_carry_over(kb_with):
    with fake_llm([Reply('{"question": "太慢了"}', delay=3.0)]) as srv:
        k = kb_with(llm_roles=_role("rewriter", srv), rewrite_timeout=0.5)
        hist = (Exchange("劳动法对工作时间有什么规定？", "……", ("中华人民共和国劳动法",)),)
        ans = ask(k, "那它的试用期呢？", history=hist)
    rw = _step(ans, "role:rewriter")[0].detail
    assert rw["fallback"] == "entity carry-over" and "timed out after 0.5s" in rw["error"]
    assert rw["end"] < 2.0  # the slow call was abandoned, not awaited
    assert _step(ans, "rewrite")[0].detail["to"] == "那劳动法的试用期呢？"
    assert ans.question == "那劳动法的试用期呢？"
    assert any(c.article == "第二十一条" and "劳动法" in c.doc_path for c in ans.citations)


def test_rewriter_error_falls_back_and_llm_rewrite_is_used_when_it_works(kb_with):
    hist = (Exchange("劳动法对工作时间有什么规定？", "……", ()),)
    with fake_llm([Reply(status=500)]) as srv:
        k = kb_with(llm_roles=_role("rewriter", srv))
        ans = ask(k, "那它的试用期呢？", history=hist)
    assert "InternalServerError" in _step(ans, "role:rewriter")[0].detail["error"]
    assert _step(ans, "rewrite")[0].detail["how"] == "carry"
    with fake_llm(['{"question": "劳动法规定的试用期最长多久？"}']) as srv:
        k = kb_with(llm_roles=_role("rewriter", srv))
        ans = ask(k, "那它的试用期呢？", history=hist)
        assert "劳动法对工作时间有什么规定" in srv.last_user()
    assert _step(ans, "rewrite")[0].detail == {"from": "那它的试用期呢？", "to": "劳动法规定的试用期最长多久？",
                                               "how": "llm", "carried": []}


def test_handover_names_role_and_field():
    with pytest.raises(HandoverError, match="router role .* without its 'route' field"):
        handover("router", Routing(None, ClauseRef((), (), None)), Routing)
    with pytest.raises(HandoverError, match="searcher role handed over str, not Routing"):
        handover("searcher", "hits", Routing)


def test_web_fallback_off_by_default_and_never_for_answerable_questions(kb_with):
    with fake_search() as web:
        ans = ask(kb_with(web_url=web.url), OUT_OF_SCOPE)
        assert ans.refused and not ans.web and WEB_NOTE not in ans.text
        ans = ask(kb_with(web_search=True, web_url=web.url), "试用期最长多久？")  # the documents answer it
        assert not ans.refused and not ans.web
        assert web.queries == []


def test_web_fallback_when_documents_have_no_evidence(kb_with):
    with fake_search() as web:
        ans = ask(kb_with(web_search=True, web_url=web.url), OUT_OF_SCOPE)
    assert web.queries == [(OUT_OF_SCOPE, "GET")]
    assert ans.refused and ans.citations == ()  # no knowledge-base citation is claimed
    assert ans.text.startswith(ans.text.split("\n")[0]) and WEB_NOTE in ans.text
    assert "首发售价为 5499 元起[W1]" in ans.text
    assert [w.marker for w in ans.web] == ["W1", "W2"] and ans.web[0].url.endswith("/mate60")
    assert _step(ans, "web")[0].detail["used"] is True
    assert ans.to_dict()["web"][0]["url"] == "https://example.com/mate60"


def test_web_tavily_style_and_timeout(kb_with):
    with fake_search() as web:
        ans = ask(kb_with(web_search=True, web_url=web.url, web_provider="tavily"), OUT_OF_SCOPE)
        assert web.queries == [(OUT_OF_SCOPE, "POST")] and ans.web
    with fake_search(delay=3.0) as web:
        ans = ask(kb_with(web_search=True, web_url=web.url, web_timeout=0.5), OUT_OF_SCOPE)
    w = _step(ans, "role:web")[0].detail
    assert w["fallback"] == "no web results" and "timed out" in w["error"]
    assert ans.refused and not ans.web and ans.text == ans.text.split("\n")[0]
