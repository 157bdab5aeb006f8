"""The LLM client against a real loopback server: chat, streaming, JSON with one retry,
tool calls, a 500 and per-role settings."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from tests.llmserver import Reply, fake_llm
from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.llm import LLMError, Role, client_for, parse_json, settings_for

pytestmark = pytest.mark.unit


class Pick(BaseModel):
    subindex: str
    confidence: float


def _cfg(url: str, **kw):
    return load_config(None, llm_model="fake-chat", llm_base_url=url, llm_retries=0, **kw)


def test_offline_when_no_model():
    cfg = load_config(None)
    assert settings_for(cfg, Role.ANSWERER) is None
    assert client_for(cfg, "router") is None


def test_role_override_and_bad_role():
    cfg = load_config(None, llm_model="big", llm_roles={"router": {"model": "small"}})
    assert settings_for(cfg, "router").model == "small"
    assert settings_for(cfg, "answerer").model == "big"
    with pytest.raises(ZhikuError, match="router"):
        load_config(None, llm_roles={"routr": {"model": "x"}})
    bad = load_config(None, llm_model="m", llm_roles={"judge": {"modle": "x"}})
    with pytest.raises(ZhikuError, match="unknown keys"):
        settings_for(bad, "judge")


def test_chat_and_stream():
    with fake_llm(["第十九条规定试用期最长六个月。"]) as srv:
        c = client_for(_cfg(srv.base_url), "answerer")
        assert c.chat([{"role": "user", "content": "试用期？"}]) == "第十九条规定试用期最长六个月。"
        pieces = list(c.stream([{"role": "user", "content": "试用期？"}]))
        assert len(pieces) > 1 and "".join(pieces) == "第十九条规定试用期最长六个月。"
        assert srv.requests[0]["model"] == "fake-chat" and srv.requests[1]["stream"] is True


def test_json_retries_once_then_fails():
    good = '```json\n{"subindex": "社会法", "confidence": 0.8}\n```'
    with fake_llm(["这不是 JSON", good]) as srv:
        c = client_for(_cfg(srv.base_url), "router")
        assert c.json([{"role": "user", "content": "q"}], Pick) == Pick(subindex="社会法", confidence=0.8)
        assert len(srv.requests) == 2 and "JSON" in srv.last_user()
    with fake_llm(['{"subindex": 3}']) as srv:
        c = client_for(_cfg(srv.base_url), "router")
        with pytest.raises(LLMError, match="valid JSON"):
            c.json([{"role": "user", "content": "q"}], Pick)
        assert len(srv.requests) == 2


def test_server_error_is_clear():
    with fake_llm([Reply(status=500)]) as srv:
        c = client_for(_cfg(srv.base_url), "answerer")
        with pytest.raises(LLMError, match="fake-chat.*failed"):
            c.chat([{"role": "user", "content": "q"}])


def test_tool_call():
    with fake_llm([Reply(content=None, tool_calls=[("search_knowledge", {"query": "试用期"})])]) as srv:
        c = client_for(_cfg(srv.base_url), "agent")
        msg = c.tool_call([{"role": "user", "content": "q"}],
                          [{"type": "function", "function": {"name": "search_knowledge",
                                                             "parameters": {"type": "object"}}}])
        assert msg.tool_calls[0].function.name == "search_knowledge"
        assert "试用期" in msg.tool_calls[0].function.arguments


def test_parse_json_forms():
    assert parse_json('答案如下 {"a": 1} 完') == {"a": 1}
    assert parse_json("[1, 2]") == [1, 2]
    with pytest.raises(ValueError):
        parse_json("没有")
