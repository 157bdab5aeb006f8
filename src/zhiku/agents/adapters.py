"""zhiku's knowledge-base tools in the OpenAI Agents SDK (the optional ``[agents]`` extra):
function tools over a :class:`~zhiku.agents.tools.Toolbox`, and an agent on the configured
``agent`` model reached through any OpenAI-compatible endpoint, with tracing export off."""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any

from zhiku.agents.tools import Toolbox, tool_specs
from zhiku.errors import ZhikuError
from zhiku.llm import local_server, settings_for


def _sdk() -> Any:
    try:
        import agents
    except ImportError as e:
        raise ZhikuError("the OpenAI Agents SDK is not installed; pip install 'zhiku[agents]'") from e
    return agents


def sdk_tools(box: Toolbox, web: bool | None = None) -> list[Any]:
    """The knowledge-base tools as Agents SDK ``FunctionTool`` objects.

    Each tool's JSON schema and description are those of its pydantic model (the same
    :func:`~zhiku.agents.tools.tool_specs` the built-in agent and MCP server use); the
    implementation is :meth:`Toolbox.call`, run in a worker thread one call at a time so
    evidence blocks are numbered in order. A tool error (unknown document or section, bad
    arguments) is returned to the model as ``{"error": ...}`` text so it can correct itself.

    Args:
        box: the toolbox; it collects the evidence blocks the answer cites.
        web: offer ``web_search``; defaults to the knowledge base's ``web_search`` setting.

    Returns:
        One ``FunctionTool`` per tool.

    Raises:
        ZhikuError: the ``openai-agents`` package is not installed.
    """
    sdk = _sdk()
    lock = threading.Lock()
    web = box.kb.config.web_search if web is None else web

    def invoker(name: str) -> Any:
        def call(arguments: str) -> str:
            with lock:
                try:
                    return box.call(name, arguments or "{}")
                except ZhikuError as e:
                    return json.dumps({"error": str(e)}, ensure_ascii=False)

        async def on_invoke(_ctx: Any, arguments: str) -> str:
            return await asyncio.to_thread(call, arguments)

        return on_invoke

    return [sdk.FunctionTool(name=f["name"], description=f["description"],
                             params_json_schema=f["parameters"], on_invoke_tool=invoker(f["name"]),
                             strict_json_schema=False)  # defaults and bounds kept; local servers accept it
            for f in (spec["function"] for spec in tool_specs(web))]


def sdk_model(cfg: Any, role: str = "agent") -> tuple[Any, Any]:
    """The Chat Completions model and its sampling settings for ``role``.

    Args:
        cfg: the zhiku Config (``llm_*`` keys, overridden by ``llm_roles[role]``).
        role: the LLM role whose settings to use.

    Returns:
        ``(OpenAIChatCompletionsModel, ModelSettings)`` on an ``AsyncOpenAI`` client.

    Raises:
        ZhikuError: the SDK is not installed, or no model is configured for ``role``.
    """
    sdk = _sdk()
    from openai import AsyncOpenAI

    s = settings_for(cfg, role)
    if s is None:
        raise ZhikuError(f"no chat model is configured for the {role} role: set llm_model "
                         f"(or [llm_roles.{role}] model) and llm_base_url in the config")
    base_url = local_server(s.gguf, s.gguf_ctx) if s.gguf else s.base_url
    client = AsyncOpenAI(base_url=base_url, api_key=s.api_key, timeout=s.timeout, max_retries=s.retries)
    return (sdk.OpenAIChatCompletionsModel(model=s.model, openai_client=client),
            sdk.ModelSettings(temperature=s.temperature, max_tokens=s.max_tokens))


def sdk_agent(box: Toolbox, name: str = "zhiku") -> Any:
    """An Agents SDK ``Agent`` answering from the knowledge base of ``box`` with its tools,
    on the configured ``agent`` model, told to cite every sentence as ``[n]``.

    Args:
        box: the toolbox over the knowledge base.
        name: the agent's name.

    Returns:
        The ``Agent``; run it with ``Runner.run_sync(agent, question, run_config=sdk_run_config())``.

    Raises:
        ZhikuError: the SDK is not installed, or no model is configured for the agent role.
    """
    from zhiku.agents.agent import SYSTEM, WEB_HINT

    sdk = _sdk()
    cfg = box.kb.config
    model, settings = sdk_model(cfg)
    instructions = SYSTEM.format(refusal=cfg.refusal_text, web=WEB_HINT if cfg.web_search else "")
    return sdk.Agent(name=name, instructions=instructions, model=model, model_settings=settings,
                     tools=sdk_tools(box))


def sdk_run_config(**kw: Any) -> Any:
    """A ``RunConfig`` with tracing off, so a run sends nothing but the model's requests.

    Args:
        **kw: further ``RunConfig`` fields.

    Returns:
        The ``RunConfig``.

    Raises:
        ZhikuError: the SDK is not installed.
    """
    return _sdk().RunConfig(tracing_disabled=True, **kw)
