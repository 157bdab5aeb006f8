"""Helpers for answer tests: the session knowledge base under another config, and
scripted replies that read the numbered evidence blocks out of the real prompt."""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path

import pytest

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


@functools.cache
def real_chunks(name: str, whole_path: bool = False) -> tuple:
    """The chunks of one real document (tests/data/real/NAME) as ingest cuts them under the
    default config; the document is named by its file name, or with ``whole_path`` by its
    path under tests/data/real (fresh3/…)."""
    from zhiku.chunk import chunk_document
    from zhiku.config import Config
    from zhiku.ingest import load_file
    from zhiku.structure import build_tree

    cfg = Config()
    doc = load_file(REAL / name, REAL if whole_path else (REAL / name).parent)
    return tuple(chunk_document(doc, build_tree(doc), size=cfg.chunk_size_for(name), overlap=cfg.chunk_overlap,
                                parent_size=cfg.parent_size, min_section=cfg.min_section))


def with_config(kb, **overrides):
    """The same knowledge base (same store, same model) with config keys overridden."""
    k = copy.copy(kb)
    k.config = kb.config.model_copy(update=overrides)
    return k


@pytest.fixture(scope="module")
def laws_kb(tmp_path_factory):
    """The test laws (tests/data/laws), ingested keyword-only into a temporary home, one per
    test module."""
    from pathlib import Path

    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("laws_kb")))
    kb.ingest([Path(__file__).resolve().parents[1] / "data" / "laws"], dense=False, progress=False)
    return kb


def law_kb(tmp_path_factory, files):
    """A knowledge base of law texts ingested keyword-only into a temporary home: ``files`` are
    (folder, file name, text) triples."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    docs = tmp_path_factory.mktemp("laws")
    for folder, name, text in files:
        (docs / folder).mkdir(exist_ok=True)
        (docs / folder / name).write_text(text, encoding="utf-8")
    k = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home")))
    assert not k.ingest([docs], dense=False, progress=False).failed
    return k


def blocks_of(body: dict) -> dict[int, str]:
    """Evidence block number -> its label and text, parsed from the answerer's prompt."""
    user = next(m["content"] for m in body["messages"] if m["role"] == "user")
    parts = re.split(r"^\[(\d+)\] ", user.split("\n\n问题：")[0], flags=re.M)
    return {int(parts[i]): parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def block_with(body: dict, *needles: str) -> int:
    """Number of the first block containing every needle."""
    for n, text in blocks_of(body).items():
        if all(x in text for x in needles):
            return n
    raise AssertionError(f"no block holds {needles}: {list(blocks_of(body).values())}")


def block_without(body: dict, *needles: str) -> int:
    """Number of the first block containing none of the needles."""
    for n, text in blocks_of(body).items():
        if not any(x in text for x in needles):
            return n
    raise AssertionError(f"every block holds one of {needles}")


def is_answerer(body: dict) -> bool:
    return "知识库问答助手" in body["messages"][0]["content"]


@pytest.fixture
def llm_kb(kb):
    """Factory: the session knowledge base pointed at a fake server."""

    def make(url: str, **kw):
        # the router stays offline: these scripts answer the answerer's (and judge's) prompts
        roles = {"router": {"model": ""}, **kw.pop("llm_roles", {})}
        return with_config(kb, llm_model="fake-chat", llm_base_url=url, llm_retries=0,
                           llm_roles=roles, **kw)

    return make
