"""Tool-calling mode against the loopback fake OpenAI server: the loop with a tool error,
verification of the final answer, the step limit, web search as a labelled tool."""

from __future__ import annotations

import json

import pytest

from tests.agents.websrv import fake_search
from tests.llmserver import Reply, fake_llm
from tests.asking import ask
from zhiku.agents.tools import Toolbox, ToolError, tool_specs
from zhiku.agents.web import WEB_NOTE
from zhiku.errors import ZhikuError

pytestmark = pytest.mark.integration


def _agent(srv):
    """Only the agent role talks to the fake server; the other roles stay offline."""
    return {"agent": {"model": "fake", "base_url": srv.base_url}}


def _tools(ans):
    return [t.detail for t in ans.trace if t.stage == "agent:tool"]


def test_tool_loop_with_a_tool_error_ends_in_a_verified_answer(kb_with):
    script = [
        Reply(None, [("list_chapters", {"document": "劳动合同法"})]),
        Reply(None, [("read_section", {"document": "劳动合同法", "section_id": "99"})]),  # no such section
        Reply(None, [("search_knowledge", {"query": "试用期最长多久", "document": "劳动合同法"}),
                     ("search_knowledge", {"k": 3})]),  # second call lacks its query
        Reply("三年以上固定期限和无固定期限的劳动合同，试用期不得超过六个月[1]。"
              "试用期最长可以约定两年[1]。同一用人单位与同一劳动者只能约定一次试用期[7]。"),
    ]
    with fake_llm(script) as srv:
        ans = ask(kb_with(llm_roles=_agent(srv)), "试用期最长多久？", agent=True)
        sent = srv.requests
    calls = _tools(ans)
    assert [c["tool"] for c in calls] == ["list_chapters", "read_section", "search_knowledge", "search_knowledge"]
    assert "has no section '99'" in calls[1]["error"]
    assert calls[3]["error"] == "search_knowledge: field 'query': Field required"
    # the model saw the errors as tool results and the tree of the law
    tool_msgs = [m for m in sent[-1]["messages"] if m["role"] == "tool"]
    assert "第二章 劳动合同的订立" in tool_msgs[0]["content"]
    assert json.loads(tool_msgs[1]["content"])["error"].startswith("中华人民共和国劳动合同法 has no section")
    assert {t["function"]["name"] for t in sent[0]["tools"]} == {"list_chapters", "read_section", "search_knowledge"}
    # verification: the invented claim and the unknown block are gone, the rest is cited
    assert ans.text == "三年以上固定期限和无固定期限的劳动合同，试用期不得超过六个月[1]。"
    assert ans.citations[0].article == "第十九条" and "劳动合同法" in ans.citations[0].title
    final = next(t.detail for t in ans.trace if t.stage == "agent:answer")
    assert final["removed"] == ["试用期最长可以约定两年", "同一用人单位与同一劳动者只能约定一次试用期"]
    assert not ans.refused and ans.hits[0].chunk.id == ans.citations[0].chunk_id


def test_uncited_answer_is_sent_back_then_step_limit_falls_back(kb_with):
    script = [Reply(None, [("search_knowledge", {"query": "离婚冷静期"})]), Reply("离婚冷静期是三十日。")]
    with fake_llm(script) as srv:
        ans = ask(kb_with(llm_roles=_agent(srv), agent_steps=3), "离婚冷静期多长？", agent=True)
        assert "没有能被证据核实的句子" in srv.requests[2]["messages"][-1]["content"]
        assert len(srv.requests) == 3
    fb = next(t.detail for t in ans.trace if t.stage == "agent:fallback")
    assert fb == {"why": "step limit of 3 reached", "fallback": "the ask's own stages"}
    assert next(t.detail for t in ans.trace if t.stage == "agent") == {"answered": False}
    assert not ans.refused and "婚姻家庭编" in ans.citations[0].doc_path  # the ask's own answer


def test_endless_tool_calls_stop_at_the_step_limit(kb_with):
    with fake_llm([Reply(None, [("search_knowledge", {"query": "试用期"})])]) as srv:
        ans = ask(kb_with(llm_roles=_agent(srv), agent_steps=4), "试用期最长多久？", agent=True)
        assert len(srv.requests) == 4
    assert len(_tools(ans)) == 4 and any(t.stage == "agent:fallback" for t in ans.trace)
    assert ans.citations  # still a cited answer


def test_web_search_tool_only_after_the_documents_and_labelled(kb_with):
    q = "华为Mate 60 手机的首发售价是多少？"
    script = [Reply(None, [("web_search", {"query": q})]),
              Reply(None, [("search_knowledge", {"query": q})]),
              Reply(None, [("web_search", {"query": q})]),
              Reply("华为 Mate 60 首发售价为 5499 元起[W1]。")]
    with fake_search() as web, fake_llm(script) as srv:
        k = kb_with(llm_roles=_agent(srv), web_search=True, web_url=web.url)
        ans = ask(k, q, agent=True)
        assert "web_search" in {t["function"]["name"] for t in srv.requests[0]["tools"]}
        assert web.queries == [(q, "GET")]  # the first web_search was refused
    calls = _tools(ans)
    assert "search the knowledge base with search_knowledge first" in calls[0]["error"]
    assert ans.citations == () and ans.web[0].marker == "W1"
    assert ans.text == f"{WEB_NOTE}\n华为 Mate 60 首发售价为 5499 元起[W1]。"


def test_tools_refuse_web_when_off_and_agent_needs_a_model(kb_with):
    k = kb_with()
    box = Toolbox(k)
    with pytest.raises(ToolError, match="web search is turned off"):
        box.call("web_search", {"query": "x"})
    with pytest.raises(ToolError, match="unknown tool 'rm'"):
        box.call("rm", "{}")
    with pytest.raises(ToolError, match="arguments are not JSON"):
        box.call("search_knowledge", "{query")
    specs = {s["function"]["name"]: s["function"] for s in tool_specs(web=True)}
    assert specs["search_knowledge"]["parameters"]["required"] == ["query"]
    assert "[n]" in specs["search_knowledge"]["description"]
    with pytest.raises(ZhikuError, match="ask --agent needs a chat model"):
        ask(k, "试用期最长多久？", agent=True)
