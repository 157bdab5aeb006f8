"""The MCP server through real MCP client sessions: `zhiku mcp` as a stdio subprocess, and
streamable HTTP on 127.0.0.1 behind the API keys."""

from __future__ import annotations

import asyncio
import json
import os
import sys

import pytest

from tests.server.conftest import READ_KEY, copy_kb

pytestmark = pytest.mark.integration
TOOLS = {"search_knowledge", "list_chapters", "read_section", "ask"}


def _data(result) -> dict:
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def _exercise(client) -> dict[str, dict]:
    tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for t in tools.values():  # descriptions and every parameter are documented for agents
        assert len(t.description) > 80
        for name, prop in t.input_schema["properties"].items():
            assert prop.get("description"), (t.name, name)
    out = {"listing": _data(await client.call_tool("list_chapters", {}))}
    out["tree"] = _data(await client.call_tool("list_chapters", {"document": "劳动合同法"}))
    out["section"] = _data(await client.call_tool("read_section", {"document": "劳动合同法", "section_id": "2"}))
    out["search"] = _data(await client.call_tool("search_knowledge", {"query": "试用期最长多久", "k": 3}))
    out["ask"] = _data(await client.call_tool("ask", {"question": "劳动合同法第十九条规定了什么？"}))
    bad = await client.call_tool("read_section", {"document": "不存在的法", "section_id": "1"})
    assert bad.is_error and "no document matches" in bad.content[0].text
    return out


def _check(out: dict[str, dict]) -> None:
    assert {s["name"] for s in out["listing"]["subindexes"]} >= {"社会法", "民法商法"}
    assert out["tree"]["path"] == "社会法/劳动合同法(2012-12-28).md"
    assert out["tree"]["tree"][1]["label"] == "第二章 劳动合同的订立"
    assert out["section"]["label"] == "第二章 劳动合同的订立" and "第十九条" in out["section"]["text"]
    hits = out["search"]["hits"]
    assert len(hits) == 3 and any("试用期" in h["text"] for h in hits)
    assert not out["ask"]["refused"] and out["ask"]["citations"][0]["article"] == "第十九条"


def test_stdio_session_lists_and_calls_tools(kb, tmp_path):
    from mcp import Client
    from mcp.client.stdio import StdioServerParameters

    copy_kb(kb, tmp_path)
    params = StdioServerParameters(command=sys.executable, args=["-m", "zhiku.cli", "mcp"],
                                   env={"ZHIKU_HOME": str(tmp_path), "OMP_NUM_THREADS": "1",
                                        "PYTHONPATH": os.pathsep.join(sys.path)})

    async def run() -> dict:
        async with Client(params, read_timeout_seconds=120) as client:
            return await _exercise(client)

    _check(asyncio.run(run()))


def test_streamable_http_needs_a_key(kb, tmp_path):
    import httpx
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    from zhiku.server.auth import Keys
    from zhiku.server.mcp_server import build_mcp, http_app
    from zhiku.server.run import background

    cfg, skb = copy_kb(kb, tmp_path, api_keys=READ_KEY)
    app = http_app(build_mcp(cfg, skb), Keys.from_config(cfg))

    async def run(url: str) -> dict:
        async with httpx2.AsyncClient(headers={"X-API-Key": READ_KEY}, timeout=120) as http:
            async with Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
                return await _exercise(client)

    with background(app) as url:
        r = httpx.post(f"{url}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
        assert r.status_code == 401 and "API key" in r.json()["error"]
        _check(asyncio.run(run(url)))
