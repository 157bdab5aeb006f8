"""Helpers for answer tests: the session knowledge base under another config, keyword-only
ones over the test laws or given law texts, the test laws' articles, sentences and lines, the
dense veto's reading of a question, and scripted replies that read the numbered evidence blocks
out of the real prompt."""

from __future__ import annotations

import copy
import functools
import re
from pathlib import Path

import pytest

from tests.conftest import ingested_kb

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"


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


@functools.cache
def words():
    """The ``words`` segmenter questions are cut with, made once per session."""
    from zhiku.retrieve.segment import segmenters

    return segmenters.create("words")


def law_hit(text: str, doc: str, rank: int):
    """An article's line (its label, a space, its text) as the ``rank``-th fused hit of the law
    file ``doc``, the chunk titled by the file's name."""
    from zhiku.types import Chunk, Hit

    chunk = Chunk(f"c{rank}", doc, doc, doc.rsplit("/", 1)[-1][:-3], "s", (), text.split(" ", 1)[0], text, 0,
                  len(text))
    return Hit(chunk, 0.033 - rank * 0.001, "rrf")


def with_config(kb, **overrides):
    """The same knowledge base (same store, same model) with config keys overridden."""
    k = copy.copy(kb)
    k.config = kb.config.model_copy(update=overrides)
    return k


@pytest.fixture(scope="module")
def laws_kb(tmp_path_factory):
    """The test laws (tests/data/laws), ingested keyword-only into a temporary home, one per
    test module."""
    return ingested_kb(tmp_path_factory, [LAWS], "laws_kb")


def law_kb(tmp_path_factory, files):
    """A knowledge base of law texts ingested keyword-only into a temporary home: ``files`` are
    (folder, file name, text) triples."""
    docs = tmp_path_factory.mktemp("laws")
    for folder, name, text in files:
        (docs / folder).mkdir(exist_ok=True)
        (docs / folder / name).write_text(text, encoding="utf-8")
    return ingested_kb(tmp_path_factory, [docs])


def law_text(path: str) -> str:
    """The text of a test law file (tests/data/laws/PATH)."""
    return (LAWS / path).read_text(encoding="utf-8")


def article_in(text: str, label: str) -> str:
    """The article ``label`` (第四十五条) of a law's ``text``: from its label to the next line
    opening with 第."""
    start = text.index(label)
    nxt = text.find("\n第", start + 1)
    return text[start:nxt if nxt > 0 else None]


def sentence_with(text: str, word: str) -> str:
    """The first sentence of ``text`` holding ``word``, with its full stop."""
    return next(s for s in text.split("。") if word in s) + "。"


def cited_alone(block: str) -> list[tuple[str, str]]:
    """``block`` (a law's title, then its article) cited whole: the answerability check's
    (block, what the answer quotes from it) pairs, the quote being the article after its label."""
    return [(block, block.split(" ", 2)[-1])]


def answered_weakly(question: str, block: str, opts=None) -> bool:
    """Whether the answerability check answers ``question`` from ``block`` cited alone, perhaps
    at a lower confidence: nothing it misses decides."""
    from zhiku.verify.answerable import check, decisive
    from zhiku.verify.options import CheckOptions

    opts = opts or CheckOptions()
    v = check(question, cited_alone(block), opts=opts)
    return v.ok or not any(decisive(x, v.constraints, opts) for x in v.missing)


def line_with(text: str, word: str) -> str:
    """The first line of ``text`` holding ``word``."""
    return next(line for line in text.splitlines() if word in line)


def dense_veto(kb, question: str, cosine: float) -> float:
    """The scaled dense blend of ``question``'s keyword hits, each given ``cosine`` as its dense
    score: the veto's reading of a question whose evidence a dense list found that close."""
    from dataclasses import replace

    from zhiku.ask.search import Mode, retrieve
    from zhiku.verify.confidence import dense_blend, features, scaled_blend

    r = retrieve(kb, question, Mode.BM25)
    r = replace(r, hits=[replace(h, sources={**h.sources, "dense": (i + 1, cosine)}) for i, h in enumerate(r.hits)])
    return scaled_blend(dense_blend(kb, r, features(kb, question, r)), kb.config.min_confidence)


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
