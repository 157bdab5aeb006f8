"""A keyword-only knowledge base over the test laws with a structured source, its config
file, and the doors that ask it: CLI, HTTP (real uvicorn), MCP (real client), eval."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "data"
SETTINGS = """
home = "{home}"
route_embedding = false
router_timeout = 120.0
rerank_timeout = 120.0
answer_timeout = 120.0
cache = {cache}

[[structured_sources]]
name = "pumps"
path = "{pumps}"
key = "型号"
description = "离心泵产品参数表"
synonyms = ["泵", "水泵", "离心泵"]
"""


def write_config(home: Path, cache: bool) -> Path:
    """The config file of a door test's knowledge base."""
    home.mkdir(parents=True, exist_ok=True)
    path = home.parent / f"{home.name}.toml"
    path.write_text(SETTINGS.format(home=home.as_posix(), cache=str(cache).lower(),
                                    pumps=(DATA / "structured/pumps.csv").as_posix()), encoding="utf-8")
    return path


@pytest.fixture(scope="package")
def laws_kb(tmp_path_factory):
    """(config file, index home, corpus folder): the test laws and the criminal law
    ingested keyword-only, answer cache off."""
    from zhiku.cli import main

    import shutil

    root = tmp_path_factory.mktemp("doors")
    corpus = root / "corpus"  # the test laws and the criminal law, as one corpus
    shutil.copytree(DATA / "laws", corpus)
    shutil.copytree(DATA / "criminal", corpus, dirs_exist_ok=True)
    home = root / "home"
    cfg = write_config(home, cache=False)
    assert main(["--config", str(cfg), "ingest", "--no-dense", "--quiet", str(corpus)]) == 0
    return cfg, home, corpus


def cli_ask(capsys, cfg: Path, question: str) -> dict:
    """``zhiku ask --json`` in-process."""
    from zhiku.cli import main

    capsys.readouterr()
    assert main(["--config", str(cfg), "ask", "--json", question]) == 0
    return json.loads(capsys.readouterr().out)


def cli_chat(capsys, cfg: Path, question: str, sid: str | None = None) -> dict:
    """``zhiku chat --json`` in-process (one turn)."""
    from zhiku.cli import main

    capsys.readouterr()
    assert main(["--config", str(cfg), "chat", "--json", *(["--session", sid] if sid else []), question]) == 0
    return json.loads(capsys.readouterr().out)


def mcp_asks(url: str, questions: list[str]) -> list[dict]:
    """The MCP ``ask`` tool through a real MCP client over streamable HTTP."""
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    async def run() -> list[dict]:
        out = []
        async with httpx2.AsyncClient(timeout=300) as http:
            async with Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
                for q in questions:
                    r = await client.call_tool("ask", {"question": q})
                    assert not r.is_error, r.content
                    out.append(r.structured_content or json.loads(r.content[0].text))
        return out

    return asyncio.run(run())
