"""Streaming through the one ask with an LLM answerer (the local fake OpenAI server): with
``stream`` on, the model's tokens go out as deltas before verification and the answer;
off, one completion and the verified text in pieces; the live CLI prints the tokens."""

from __future__ import annotations

import pytest

from tests.answer.conftest import block_with
from tests.llmserver import fake_llm
from zhiku.ask import Query, ask_stream
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase

pytestmark = pytest.mark.integration
Q = "试用期最长多久？"
LLM = {"llm_model": "fake-chat", "llm_retries": 0, "llm_roles": {"router": {"model": ""}}}


def _answer(body: dict) -> str:
    """The answer a model reading the prompt's blocks would write, cited right."""
    return f"劳动合同期限三年以上的，试用期不得超过六个月[{block_with(body, '第十九条', '六个月')}]。"


def _script(body: dict) -> str:
    return _answer(body) if "知识库问答助手" in body["messages"][0]["content"] else "{}"


def _events(laws_kb, url: str, stream: bool) -> list:
    cfg, home, _ = laws_kb
    kb = KnowledgeBase(load_config(cfg, llm_base_url=url, **LLM))
    return list(ask_stream(kb, Query(Q, use_cache=False, stream=stream)))


def test_streaming_ask_sends_the_models_tokens_before_verify_and_answer(laws_kb):
    with fake_llm(_script) as srv:
        events = _events(laws_kb, srv.base_url, stream=True)
    answering = next(b for b in srv.requests if "知识库问答助手" in b["messages"][0]["content"])
    assert answering["stream"] is True
    kinds = [e.type if e.type != "step" else e.detail["stage"] for e in events]
    deltas = [i for i, k in enumerate(kinds) if k == "delta"]
    assert len(deltas) >= 5  # the fake server sends four characters a chunk
    assert max(deltas) < kinds.index("verify") < kinds.index("answer") == len(kinds) - 1
    assert "".join(events[i].text for i in deltas) == _answer(answering)  # the model's own tokens
    ans = events[-1].answer
    assert ans.generator == "llm" and not ans.refused and "六个月" in ans.text


def test_unstreamed_ask_makes_one_completion_and_sends_the_verified_text(laws_kb):
    with fake_llm(_script) as srv:
        events = _events(laws_kb, srv.base_url, stream=False)
    answering = next(b for b in srv.requests if "知识库问答助手" in b["messages"][0]["content"])
    assert not answering.get("stream")
    kinds = [e.type if e.type != "step" else e.detail["stage"] for e in events]
    deltas = [i for i, k in enumerate(kinds) if k == "delta"]
    assert deltas and min(deltas) > kinds.index("verify")  # pieces of the checked answer only
    assert "".join(events[i].text for i in deltas) == events[-1].answer.text


def test_live_cli_ask_prints_the_streamed_tokens(laws_kb, capsys, tmp_path):
    from zhiku.cli import main

    cfg, _, _ = laws_kb
    with fake_llm(_script) as srv:
        live = tmp_path / "live.toml"  # the door test's settings with the LLM answerer on
        live.write_text(f'llm_model = "fake-chat"\nllm_base_url = "{srv.base_url}"\nllm_retries = 0\n'
                        f'{cfg.read_text(encoding="utf-8")}\n[llm_roles.router]\nmodel = ""\n',
                        encoding="utf-8")
        capsys.readouterr()
        assert main(["--config", str(live), "ask", Q]) == 0
        answering = next(b for b in srv.requests if "知识库问答助手" in b["messages"][0]["content"])
    out = capsys.readouterr().out
    assert answering["stream"] is True
    assert out.startswith(f"问：{Q}\n答：{_answer(answering)}\n")  # the tokens as they came, then the details
