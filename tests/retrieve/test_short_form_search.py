"""The short forms documents define, read at ingest and kept with each document, and the
keyword search of a question holding one form finding the defining documents' passages that
hold the other (config ``short_form_search``), on real documents (tests/data/real, see its
SOURCE.md) beside real laws (tests/data/laws)."""

from __future__ import annotations

import shutil

import pytest

from tests.conftest import ingested_kb
from zhiku.ask import Mode
from zhiku.ask.search import retrieve
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


def _search(kb, question: str, on: bool):
    shipped = kb.config
    kb.config = shipped.model_copy(update={"short_form_search": on})
    try:
        r = retrieve(kb, question, Mode.BM25)
    finally:
        kb.config = shipped
    return r, {h.chunk.id: h for h in r.hits}


def test_a_question_holding_a_short_form_finds_the_passages_holding_the_long_form(kb):
    question = "改了 ACL 权限配置以后要重启 Broker 吗？"
    on, hits_on = _search(kb, question, True)
    off, hits_off = _search(kb, question, False)
    step = next(s for s in on.trace if s.stage == "short_forms")
    assert step.detail["forms"] == ["权限控制"] and step.detail["documents"] == 1
    assert not any(s.stage == "short_forms" for s in off.trace)
    acl = next(d.doc_id for d in kb.store.documents() if d.path == "RocketMQ权限控制.md")
    # the defining document's passages holding the long form and not ACL score higher
    long_only = [c for c, h in hits_on.items() if h.chunk.doc_id == acl and "权限控制" in h.chunk.text
                 and "acl" not in h.chunk.text.lower() and c in hits_off]
    assert long_only and all(hits_on[c].score > hits_off[c].score for c in long_only)
    assert "不需重新启动" in on.hits[0].chunk.text
    # every other document's passages keep their order
    others = [h.chunk.id for h in off.hits if h.chunk.doc_id != acl]
    assert [h.chunk.id for h in on.hits if h.chunk.id in others] == [c for c in others if c in hits_on]


def test_a_question_holding_no_defined_form_is_searched_as_before(kb):
    # the positive twin: nothing defined in it (申请人 is no word of 申请人身安全保护令 either)
    for question in ("RocketMQ 的 Broker 怎么部署？", "被家暴后申请人身安全保护令，法院多久作出裁定？"):
        on, hits_on = _search(kb, question, True)
        off, hits_off = _search(kb, question, False)
        assert not any(s.stage == "short_forms" for s in on.trace)
        assert [(h.chunk.id, h.score) for h in on.hits] == [(h.chunk.id, h.score) for h in off.hits]
