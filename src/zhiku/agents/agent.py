"""Tool-calling mode of the ask (``Query(agent=True)``, ``zhiku ask --agent``): an LLM
drives the knowledge-base tools with OpenAI tool calling, within a step limit, and must
finish with an answer whose every sentence cites evidence it was shown and passes the
one verification; when it cannot, the ask goes on without it."""

from __future__ import annotations

import json
import time
from typing import Any

from zhiku.agents.tools import Toolbox, tool_specs
from zhiku.answer.respond import Draft, verify
from zhiku.errors import ZhikuError
from zhiku.llm import LLMError, client_for
from zhiku.types import Answer, Hit, TraceStep

SYSTEM = (
    "你是企业知识库的问答助手，只能根据工具返回的证据回答。先用 search_knowledge 检索（多部分的问题"
    "分别检索每一部分），需要看目录时用 list_chapters，需要读整章时用 read_section。"
    "每个工具结果里的段落都有编号 [n]；回答时每句话后面写出支持它的编号，例如「试用期最长六个月[2]。」。"
    "没有证据支持的话不要写。知识库里没有答案时，回答「{refusal}」。"
    "{web}"
)
WEB_HINT = ("只有知识库检索不到时才可以用 web_search；网络结果编号为 [W1]、[W2]，必须和知识库编号分开引用，"
            "并说明是网络内容。")


def _tool_calls(msg: Any) -> list[Any]:
    return list(getattr(msg, "tool_calls", None) or [])


def _assistant(msg: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": msg.content or "",
            "tool_calls": [{"id": c.id, "type": "function",
                            "function": {"name": c.function.name, "arguments": c.function.arguments}}
                           for c in _tool_calls(msg)]}


def run_agent(kb: Any, question: str, trace: list[TraceStep]) -> Answer | None:
    """Answer ``question`` by letting the ``agent`` model call the tools.

    Every tool call is a trace step (tool, arguments, error). A final answer is verified;
    when nothing in it can be verified the model is told why and may try again. When the
    step limit is reached or the model fails, an ``agent:fallback`` step says why and
    None is returned: the ask then answers by its own stages.

    Args:
        kb: the knowledge base.
        question: the (validated) question.
        trace: receives the agent's steps.

    Returns:
        The verified answer, or None.

    Raises:
        ZhikuError: no model is configured for the agent role.
    """
    cfg = kb.config
    client = client_for(cfg, "agent")
    if client is None:
        raise ZhikuError("ask --agent needs a chat model: set llm_model (or [llm_roles.agent] model) "
                         "and llm_base_url in the config")
    box = Toolbox(kb)
    msgs: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM.format(refusal=cfg.refusal_text,
                                                    web=WEB_HINT if cfg.web_search else "")},
        {"role": "user", "content": question}]
    tools = tool_specs(cfg.web_search)
    for step in range(1, cfg.agent_steps + 1):
        t0 = time.perf_counter()
        try:
            msg = client.tool_call(msgs, tools)
        except LLMError as e:
            return _fallback(trace, f"the agent model failed: {e}")
        calls = _tool_calls(msg)
        if calls:
            msgs.append(_assistant(msg))
            for c in calls:
                msgs.append({"role": "tool", "tool_call_id": c.id,
                             "content": _run(box, c.function.name, c.function.arguments, step, trace)})
            continue
        text = (msg.content or "").strip()
        ans, why = _finish(kb, box, question, text, trace, time.perf_counter() - t0, step)
        if ans is not None:
            return ans
        msgs += [{"role": "assistant", "content": text}, {"role": "user", "content": why}]
    return _fallback(trace, f"step limit of {cfg.agent_steps} reached")


def _run(box: Toolbox, name: str, arguments: str, step: int, trace: list[TraceStep]) -> str:
    t0 = time.perf_counter()
    detail: dict[str, Any] = {"step": step, "tool": name, "arguments": arguments[:300]}
    try:
        out = box.call(name, arguments)
    except ZhikuError as e:  # a tool error goes back to the model, which may correct itself
        detail["error"] = str(e)
        out = json.dumps({"error": str(e)}, ensure_ascii=False)
    trace.append(TraceStep("agent:tool", time.perf_counter() - t0, detail))
    return out


def _finish(kb: Any, box: Toolbox, question: str, text: str, trace: list[TraceStep],
            secs: float, step: int) -> tuple[Answer | None, str]:
    """The verified answer, or None and what to tell the model."""
    cfg = kb.config
    if cfg.refusal_text in text and "[" not in text:
        trace.append(TraceStep("agent:answer", secs, {"step": step, "refused": True}))
        return Answer(question, cfg.refusal_text, (), 0.0, True, (), tuple(trace),
                      "the agent found no evidence in the knowledge base"), ""
    v = verify(kb, Draft(text, dict(box.blocks), "agent", dict(box.web)))
    trace.append(TraceStep("agent:answer", secs, {"step": step, "citations": len(v.citations),
                                                  "web": len(v.web), "removed": [r.sentence for r in v.removed]}))
    if not v.citations and not v.web:
        return None, ("你的回答里没有能被证据核实的句子（每句后面要写出支持它的段落编号 [n]，"
                      "且内容必须出自该段落）。请检索后重新回答，或回答「" + cfg.refusal_text + "」。")
    hits = {c.chunk_id: Hit(box.blocks[n], 1.0, "agent") for n in box.blocks
            for c in v.citations if c.chunk_id == box.blocks[n].id}
    kept = len(v.citations) + len(v.web)
    conf = min(0.9, 0.5 + 0.4 * kept / (kept + len(v.removed)))
    text = "\n".join(t for t in (v.text, v.web_text) if t)
    reason = f"agent answer in {step} steps" + (f"; {len(v.removed)} unverified sentences removed"
                                                  if v.removed else "")
    return Answer(question, text, v.citations, conf, not v.citations, tuple(hits.values()),
                  tuple(trace), reason, web=v.web), ""


def _fallback(trace: list[TraceStep], why: str) -> None:
    trace.append(TraceStep("agent:fallback", 0.0, {"why": why, "fallback": "the ask's own stages"}))
