"""The question is encoded once per ask, started before the search needs it, and never for
a keyword-only ask; threads asking for the same question's vector share one encoding."""

from __future__ import annotations

import threading

import pytest

from zhiku.ask.search import Mode
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from tests.asking import ask

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("enc")
    doc = tmp / "差旅.md"
    doc.write_text("# 差旅\n\n## 住宿标准\n\n一线城市每晚不超过五百元，其他城市每晚不超过三百五十元。\n\n"
                   "## 交通\n\n出差乘坐高铁二等座，八小时以上可乘坐一等座。\n", encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp / "h"))
    kb.ingest([doc], dense=True, progress=False)
    return kb


@pytest.fixture
def encodes(kb, monkeypatch):
    """The questions the embedder encodes (counted at the real embedder)."""
    emb, seen = kb.embedder, []
    real = emb.embed_query

    def counted(text):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(emb, "embed_query", counted)
    return seen


def test_a_hybrid_ask_encodes_its_question_once(kb, encodes):
    ans = ask(kb, "一线城市住宿每晚多少钱", Mode.HYBRID)
    assert not ans.refused and any(t.stage == "dense" for t in ans.trace)
    assert encodes == ["一线城市住宿每晚多少钱"]


def test_a_keyword_ask_encodes_nothing(kb, encodes):
    assert not ask(kb, "高铁一等座的条件", Mode.BM25).refused
    assert encodes == []


def test_threads_share_one_encoding(kb, encodes):
    got, start = [], threading.Barrier(4)

    def one():
        start.wait()
        got.append(kb.query_vector("出差交通标准"))

    threads = [threading.Thread(target=one) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert encodes == ["出差交通标准"] and len(got) == 4 and all((v == got[0]).all() for v in got)
