"""zhiku's knowledge-base tools from an agent framework: the OpenAI Agents SDK.

The tools (list_chapters, read_section, search_knowledge, web_search) are OpenAI function
specs over one dispatcher (zhiku.agents.tools); zhiku.agents.adapters turns them into Agents
SDK function tools and builds an agent on the configured chat model, reached through any
OpenAI-compatible endpoint (tracing export off). The answer's [n] markers are then checked
against the evidence blocks the tools returned.

    pip install 'zhiku[agents]'
    ZHIKU_HOME=.zhiku-demo zhiku ingest examples/laws
    ZHIKU_HOME=.zhiku-demo ZHIKU_LLM_MODEL=qwen2.5:7b ZHIKU_LLM_BASE_URL=http://127.0.0.1:11434/v1 \
        python examples/agent_tools.py "试用期最长多久？"

Without a configured model the script prints the tool specs and runs one call of each tool.
The MCP server (`zhiku mcp`) offers the same knowledge base to any MCP-speaking framework.
"""

from __future__ import annotations

import json
import sys

from zhiku.answer.respond import Draft, verify
from zhiku.agents.tools import TOOLS, Toolbox, ToolError, tool_specs
from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.kb import KnowledgeBase
from zhiku.llm import settings_for


def crewai_tools(box: Toolbox) -> list:
    """The tools as CrewAI ``BaseTool`` objects (needs crewai, not a zhiku dependency)."""
    from crewai.tools import BaseTool

    out = []
    for name, model in TOOLS.items():
        def _run(self, _name=name, **kw) -> str:  # noqa: ANN001
            try:
                return box.call(_name, kw)
            except ToolError as e:
                return json.dumps({"error": str(e)}, ensure_ascii=False)

        cls = type(f"Zhiku_{name}", (BaseTool,), {
            "__annotations__": {"name": str, "description": str},
            "name": name, "description": (model.__doc__ or "").strip(), "args_schema": model,
            "_run": _run})
        out.append(cls())
    return out


def run_agent(box: Toolbox, question: str) -> None:
    """Answer ``question`` with the Agents SDK Runner, then verify the answer's citations."""
    from zhiku.agents.adapters import sdk_agent, sdk_run_config

    agent = sdk_agent(box)  # says how to install the SDK when it is missing
    from agents import MaxTurnsExceeded, Runner

    try:
        result = Runner.run_sync(agent, question, run_config=sdk_run_config(),
                                 max_turns=box.kb.config.agent_steps)
    except MaxTurnsExceeded:
        raise ZhikuError(f"the agent did not answer within {box.kb.config.agent_steps} turns; "
                         "raise agent_steps or try a stronger model") from None
    text = str(result.final_output)
    print(text)
    v = verify(box.kb, Draft(text, dict(box.blocks), "agent", dict(box.web)))
    for c in v.citations:
        print(f"  [{c.marker}] {c.title} {' › '.join(c.section_path)} {c.article or ''}")
    for s in v.removed:
        print(f"  unverified, not supported by its cited block: {s.sentence}")


def run_each_tool(box: Toolbox, question: str) -> None:
    """Print the tool specs and the result of one call of each tool (errors as the model sees them)."""
    for spec in tool_specs(web=box.kb.config.web_search):
        f, params = spec["function"], spec["function"]["parameters"]
        args = ", ".join(p if p in params.get("required", ()) else p + "?" for p in params["properties"])
        print(f"{f['name']}({args}): {f['description']}")
    print(box.call("list_chapters", {}))
    print(box.call("search_knowledge", {"query": question, "k": 2}))
    first = box.blocks.get(1)
    calls = [("read_section", {"document": first.doc_id if first else "劳动合同法",
                               "section_id": first.section_id if first else "1"}),
             ("web_search", {"query": question})]
    for name, args in calls:
        try:
            out = box.call(name, args)
        except ToolError as e:
            out = json.dumps({"error": str(e)}, ensure_ascii=False)
        print(f"--- {name} {json.dumps(args, ensure_ascii=False)}\n{out[:600]}")


def main() -> None:
    question = sys.argv[1] if len(sys.argv) > 1 else "试用期最长多久？"
    box = Toolbox(KnowledgeBase(load_config()))
    try:
        print(f"CrewAI tools ready: {[t.name for t in crewai_tools(box)]}")
    except ImportError:
        pass
    try:
        if settings_for(box.kb.config, "agent") is None:
            run_each_tool(box, question)
        else:
            run_agent(box, question)
    except ZhikuError as e:
        sys.exit(f"error: {e}")


if __name__ == "__main__":
    main()
