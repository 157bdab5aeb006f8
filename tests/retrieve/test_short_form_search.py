"""The short forms documents define, read at ingest and kept with each document, on real
documents (tests/data/real, see its SOURCE.md) beside real laws (tests/data/laws)."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import ingested_kb
from zhiku.chunk import shortforms
from zhiku.chunk.shortforms import KEY, READING, definitions

pytestmark = pytest.mark.integration

REAL = ("RocketMQ权限控制.md", "RocketMQ部署方式.md", "fresh/上海市住房公积金管理若干规定.md")


def _docs(tmp_path_factory, laws_dir):
    from tests.answer.conftest import REAL as REAL_DIR

    docs = tmp_path_factory.mktemp("docs")
    for name in REAL:
        shutil.copy(REAL_DIR / name, docs / name.rsplit("/", 1)[-1])
    shutil.copytree(laws_dir / "社会法", docs / "社会法")
    return docs


@pytest.fixture(scope="module")
def kb(tmp_path_factory, laws_dir):
    return ingested_kb(tmp_path_factory, [_docs(tmp_path_factory, laws_dir)], "short_forms")


def _passages(kb) -> dict[str, list[str]]:
    texts: dict[str, list[str]] = {}
    for r in kb.store.rows("chunks", ["doc_id", "text", "kind"]):
        if r["kind"] != "parent":
            texts.setdefault(r["doc_id"], []).append(r["text"])
    return texts


def test_each_documents_definitions_are_kept_with_it_at_ingest(kb):
    docs = {d.path: d for d in kb.store.documents()}
    acl = docs["RocketMQ权限控制.md"]
    assert acl.metadata[KEY] == {"reading": READING, "forms": {"ACL": "权限控制"}}
    # a document defining nothing keeps that too: no ask reads its passages again
    assert docs["RocketMQ部署方式.md"].metadata[KEY] == {"reading": READING, "forms": {}}
    read = {d: f for d, ts in _passages(kb).items() if (f := definitions(ts))}
    assert kb.short_forms() == read and read[acl.doc_id] == {"ACL": "权限控制"}
    fund = docs["上海市住房公积金管理若干规定.md"].doc_id
    assert kb.short_forms()[fund]["市公积金管委会"] == "市住房公积金管理委员会"


def test_an_index_whose_definitions_were_read_otherwise_reads_them_from_its_passages(
        tmp_path_factory, laws_dir, monkeypatch):
    monkeypatch.setattr(shortforms, "READING", READING - 1)  # what an earlier ingest kept
    old = ingested_kb(tmp_path_factory, [_docs(tmp_path_factory, laws_dir)], "short_forms_old")
    monkeypatch.undo()
    assert all(d.metadata[KEY]["reading"] == READING - 1 for d in old.store.documents())
    read = {d: f for d, ts in _passages(old).items() if (f := definitions(ts))}
    assert old.short_forms() == read and len(read) >= 2  # nothing lost

