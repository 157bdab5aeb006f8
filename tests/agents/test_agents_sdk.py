"""The OpenAI Agents SDK's real Runner driving zhiku's knowledge-base tools, against the
loopback fake OpenAI-compatible server: evidence blocks from the real index reach the model,
its cited answer verifies, and a tool error comes back to the model as text."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.llmserver import Reply, fake_llm
from zhiku.answer.respond import Draft, verify
from zhiku.agents.tools import Toolbox

sdk = pytest.importorskip("agents", reason="the [agents] extra (openai-agents) is not installed")
if not hasattr(sdk, "Runner"):  # a folder named agents on sys.path instead of the SDK
    pytest.skip(f"'agents' resolves to {sdk.__file__}, not the OpenAI Agents SDK", allow_module_level=True)

from zhiku.agents.adapters import sdk_agent, sdk_run_config, sdk_tools  # noqa: E402

pytestmark = pytest.mark.integration


def _run(kb, script, question, max_turns=4):
    """Run the SDK agent over ``kb`` against the scripted server; the requests it sent."""
    with fake_llm(script) as srv:
        box = Toolbox(kb(llm_roles={"agent": {"model": "fake", "base_url": srv.base_url}}))
        result = sdk.Runner.run_sync(sdk_agent(box), question, run_config=sdk_run_config(),
                                     max_turns=max_turns)
        return box, result, list(srv.requests)


def _tool_outputs(request):
    return [m["content"] for m in request["messages"] if m["role"] == "tool"]


def test_runner_searches_the_knowledge_base_and_answers_citing_its_evidence(kb_with):
    answer = "三年以上固定期限和无固定期限的劳动合同，试用期不得超过六个月[1]。"
    script = [Reply(None, [("search_knowledge", {"query": "试用期最长多久", "document": "劳动合同法", "k": 3})]),
              Reply(answer)]
    box, result, sent = _run(kb_with, script, "试用期最长多久？")

    assert result.final_output == answer
    assert len(sent) == 2 and sent[0]["model"] == "fake"
    tools = {t["function"]["name"]: t["function"] for t in sent[0]["tools"]}
    assert set(tools) == {"list_chapters", "read_section", "search_knowledge"}  # web search is off
    assert tools["search_knowledge"]["parameters"]["required"] == ["query"]
    assert "试用期" in sent[0]["messages"][-1]["content"]
    # the tool really ran against the index: numbered blocks of the real law went back
    (out,) = _tool_outputs(sent[1])
    assert out.startswith("[1] 中华人民共和国劳动合同法") and "第十九条" in out.split("\n")[0]
    assert "试用期不得超过六个月" in out and "[3]" in out and "[4]" not in out
    assert box.searched == 1 and len(box.blocks) == 3 and box.blocks[1].article == "第十九条"
    # and the model's [1] verifies against that block
    v = verify(box.kb, Draft(result.final_output, dict(box.blocks), "agent"))
    assert not v.removed and v.citations[0].article == "第十九条"
    assert "劳动合同法" in v.citations[0].title


def test_tool_errors_go_back_to_the_model_as_text(kb_with):
    script = [Reply(None, [("read_section", {"document": "不存在的法", "section_id": "1"}),
                           ("search_knowledge", {"k": 3})]),  # lacks its query
              Reply("知识库中没有找到答案。")]
    box, result, sent = _run(kb_with, script, "不存在的法第一章说了什么？")

    assert result.final_output == "知识库中没有找到答案。"
    errors = [json.loads(o)["error"] for o in _tool_outputs(sent[1])]
    assert errors[0] == "no document matches '不存在的法'; call list_chapters without arguments"
    assert errors[1] == "search_knowledge: field 'query': Field required"
    assert not box.blocks and not box.searched


def test_tools_follow_the_web_setting_and_keep_the_pydantic_schemas(kb_with):
    box = Toolbox(kb_with(web_search=True))
    tools = {t.name: t for t in sdk_tools(box)}
    assert set(tools) == {"list_chapters", "read_section", "search_knowledge", "web_search"}
    read = tools["read_section"]
    assert read.params_json_schema["required"] == ["document", "section_id"]
    assert read.description.startswith("Read one chapter/section")
    assert set(t.name for t in sdk_tools(box, web=False)) == {"list_chapters", "read_section",
                                                              "search_knowledge"}


def test_agent_without_a_model_says_what_to_configure(kb_with):
    from zhiku.errors import ZhikuError

    with pytest.raises(ZhikuError, match="no chat model is configured for the agent role"):
        sdk_agent(Toolbox(kb_with()))


EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "agent_tools.py"


def _example(kb, tmp_path, question, config=""):
    """Run examples/agent_tools.py over the session index (linked into a fresh home whose
    config.toml is ``config``)."""
    home = tmp_path / "demo"
    home.mkdir()
    (home / "index").symlink_to(kb.config.store_path, target_is_directory=True)
    (home / "config.toml").write_text(config, encoding="utf-8")
    base = {k: v for k, v in os.environ.items() if not k.startswith("ZHIKU_")}
    base.update(ZHIKU_HOME=str(home), ZHIKU_VECTOR_CACHE=str(kb.config.cache_path))
    return subprocess.run([sys.executable, str(EXAMPLE), question], env=base, cwd=tmp_path,
                          capture_output=True, text=True, timeout=240)


def test_example_runs_the_agent_when_a_model_is_configured(kb, tmp_path):
    answer = "三年以上固定期限和无固定期限的劳动合同，试用期不得超过六个月[1]。试用期最长可以约定两年[1]。"
    script = [Reply(None, [("search_knowledge", {"query": "试用期最长多久", "document": "劳动合同法", "k": 3})]),
              Reply(answer)]
    with fake_llm(script) as srv:
        # only the agent role on the fake server: with llm_model set, retrieval's router would use it too
        config = f'[llm_roles.agent]\nmodel = "fake"\nbase_url = "{srv.base_url}"\n'
        run = _example(kb, tmp_path, "试用期最长多久？", config)
        sent = list(srv.requests)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3, run.stdout
    assert lines[0] == answer
    assert lines[1].startswith("  [1] 中华人民共和国劳动合同法") and lines[1].endswith("第十九条")
    assert lines[2] == "  unverified, not supported by its cited block: 试用期最长可以约定两年"
    assert len(sent) == 2
    assert "试用期不得超过六个月" in _tool_outputs(sent[1])[0]


def test_example_without_a_model_calls_each_tool(kb, tmp_path):
    run = _example(kb, tmp_path, "试用期最长多久？")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    lines = out.splitlines()
    assert lines[:3] == [  # the specs (web_search is off), then list_chapters
        "list_chapters(document?): List documents, or one document's chapter tree (section ids for read_section).",
        "read_section(document, section_id): Read one chapter/section of a document in full, as numbered evidence blocks.",
        "search_knowledge(query, document?, k?): Search the knowledge base; returns numbered evidence blocks to cite as [n]."]
    assert any(x.startswith("中华人民共和国劳动合同法（2012-12-28，doc_id=") for x in lines)
    first = lines.index(next(x for x in lines if x.startswith("[1] ")))
    assert "试用期" in lines[first + 1]  # search_knowledge found the law's passages
    read = next(x for x in lines if x.startswith("--- read_section"))
    assert lines[lines.index(read) + 1].startswith("[3] ")  # the section's articles, numbered on
    assert "web search is turned off in the configuration" in out  # an error, as the model sees it


def test_missing_sdk_says_how_to_install(kb, monkeypatch):
    from zhiku.errors import ZhikuError

    monkeypatch.setitem(sys.modules, "agents", None)  # as if openai-agents were not installed
    with pytest.raises(ZhikuError, match=r"pip install 'zhiku\[agents\]'"):
        sdk_tools(Toolbox(kb))
