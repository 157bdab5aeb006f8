"""zhiku's knowledge-base tools from an agent framework, through a thin adapter.

The tools (list_chapters, read_section, search_knowledge, web_search) are plain OpenAI
function specs plus one dispatcher, so any framework that speaks OpenAI tool calling can use
them. With CrewAI installed (`pip install crewai`, not a zhiku dependency) they become
CrewAI tools; without it the script prints the specs and runs one call of each tool.

    ZHIKU_HOME=.zhiku-demo zhiku ingest examples/laws
    ZHIKU_HOME=.zhiku-demo python examples/agent_tools.py "试用期最长多久？"

The MCP server (`zhiku mcp`) offers the same knowledge base to MCP-speaking agents.
"""

from __future__ import annotations

import json
import sys

from zhiku.agents.tools import TOOLS, Toolbox, ToolError, tool_specs
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase


def crewai_tools(box: Toolbox) -> list:
    """The tools as CrewAI ``BaseTool`` objects (needs crewai)."""
    from crewai.tools import BaseTool  # optional; not installed with zhiku

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


def main() -> None:
    question = sys.argv[1] if len(sys.argv) > 1 else "试用期最长多久？"
    box = Toolbox(KnowledgeBase(load_config()))
    try:
        tools = crewai_tools(box)
        print(f"{len(tools)} CrewAI tools ready: {[t.name for t in tools]}")
    except ImportError:
        print(json.dumps(tool_specs(web=box.kb.config.web_search), ensure_ascii=False, indent=1)[:800], "…")
    print(box.call("list_chapters", {}))
    print(box.call("search_knowledge", {"query": question, "k": 2}))


if __name__ == "__main__":
    main()
