"""A law repealed by another under another name (「《X》同时废止」) is not the law in force."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.index.store import Scope
from zhiku.index.versions import link
from zhiku.ingest.repeals import repealed_titles
from zhiku.kb import KnowledgeBase
from tests.asking import ask

DATA = Path(__file__).parent / "data" / "repeals"
NEW = "行政法/噪声污染防治法(2021-12-24).md"
OLD = "行政法/环境噪声污染防治法(2018-12-29).md"
MENTION = "司法解释/最高人民法院关于审理物业服务纠纷案件适用法律若干问题的解释(2020-12-29).md"
NIGHT = "在噪声敏感建筑物集中区域夜间可以进行建筑施工作业吗？"
NAMED = "按照环境噪声污染防治法，夜间可以在城市市区施工吗？"


def _text(rel: str) -> str:
    return (DATA / rel).read_text(encoding="utf-8")


def test_repeal_statements_in_real_text():
    assert repealed_titles(_text(NEW)) == ["中华人民共和国环境噪声污染防治法"]
    civil = repealed_titles(_text("民法典/附则.md"))
    assert civil[0] == "中华人民共和国婚姻法" and civil[-1] == "中华人民共和国民法总则" and len(civil) == 9
    # the twin: a text that names a law (《中华人民共和国民法典》) without repealing it
    assert "《中华人民共和国民法典》" in _text(MENTION) and repealed_titles(_text(MENTION)) == []
    assert repealed_titles(_text(OLD)) == ["中华人民共和国环境噪声污染防治条例"]  # it ended the 1989 条例
    # closing articles of other laws of the corpus, as written
    assert repealed_titles("第一百一十九条 本法自2006年3月1日起施行。1986年9月5日公布、1994年5月12日修订"
                           "公布的《中华人民共和国治安管理处罚条例》同时废止。") == ["中华人民共和国治安管理处罚条例"]
    assert repealed_titles("本法自2013年7月1日起施行。《中华人民共和国外国人入境出境管理法》和《中华人民共和国"
                           "公民出境入境管理法》同时废止。") == ["中华人民共和国外国人入境出境管理法",
                                                      "中华人民共和国公民出境入境管理法"]
    assert repealed_titles("国务院关于废止《中华人民共和国营业税暂行条例》和修改《中华人民共和国增值税暂行条例》"
                           "的决定") == []


def test_link_gives_the_repealed_law_an_expiry():
    meta = {"effective": "2022-06-05", "repeals": ["中华人民共和国环境噪声污染防治法"]}
    info = link([
        ("new", NEW, "中华人民共和国噪声污染防治法", "2021-12-24", meta),
        ("old", OLD, "环境噪声污染防治法", "2018-12-29", {}),  # named with 中华人民共和国, titled without
        ("older", "行政法/环境噪声污染防治法(1996-10-29).md", "环境噪声污染防治法", "1996-10-29", {}),
        ("later", "x/环境噪声污染防治法(2030-01-01).md", "环境噪声污染防治法（试行）", "2030-01-01", {}),
        ("stated", "y/环境噪声污染防治法.md", "环境噪声污染防治法", None, {"expiry": "2023-01-01"}),
    ])
    assert info["old"].expiry == "2022-06-05" and info["old"].superseded_by == NEW
    assert info["older"].expiry == "2018-12-29" and info["older"].superseded_by == OLD  # its own next version
    assert info["later"].expiry is None  # another title (「（试行）」): never a fuzzy match
    assert info["stated"].expiry == "2023-01-01"  # a stated expiry stands
    assert info["new"].expiry is None and info["new"].supersedes is None


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    k = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("repeals")))
    rep = k.ingest([DATA], dense=False, progress=False)
    assert not rep.failed, rep.failed
    return k


def test_the_repealed_law_ranks_behind_its_repealer(kb):
    docs = {d.path: d for d in kb.store.documents()}
    assert docs[OLD].expiry == "2022-06-05" and docs[OLD].superseded_by == NEW
    assert docs[NEW].expiry is None
    assert all(docs[p].expiry is None for p in (MENTION, "民法典/附则.md"))  # mentioned, not repealed
    hits = retrieve(kb, NIGHT, Mode.BM25, Scope(versions="all")).hits
    paths = [h.chunk.doc_path for h in hits]
    assert paths[0] == NEW and OLD in paths  # the repealed law stays among the candidates, last
    assert paths.index(OLD) > max(i for i, p in enumerate(paths) if p == NEW)
    now = ask(kb, NIGHT, Mode.BM25, Scope(versions="all"))
    assert now.citations[0].doc_path == NEW and "禁止夜间" in now.text
    assert ask(kb, NIGHT, Mode.BM25).citations[0].doc_path == NEW  # in force today: the repealer only


def test_a_question_naming_the_repealed_law_or_a_past_day_gets_it(kb):
    named = ask(kb, NAMED, Mode.BM25, Scope(versions="all"))
    assert named.citations[0].doc_path == OLD
    assert "已于 2022-06-05 失效" in named.text and "中华人民共和国噪声污染防治法（2021-12-24 版）" in named.text
    today = ask(kb, NAMED, Mode.BM25)  # searching what is in force, the law named is searched all the same
    assert today.citations[0].doc_path == OLD and "已于 2022-06-05 失效" in today.text
    then = ask(kb, NIGHT, Mode.BM25, Scope(versions="2020-01-01"))
    assert then.citations and {c.doc_path for c in then.citations} == {OLD}


def test_setting_off_and_either_order_of_ingest(tmp_path):
    off = KnowledgeBase(load_config(home=tmp_path / "off", repealed_by_name=False))
    off.ingest([DATA], dense=False, progress=False)
    assert next(d for d in off.store.documents() if d.path == OLD).expiry is None
    for first, second in ((OLD, NEW), (NEW, OLD)):  # the repealed law stored first, or its repealer
        src = tmp_path / f"src{first == NEW}"
        kb = KnowledgeBase(load_config(home=tmp_path / f"h{first == NEW}"))
        for rel in (first, second):
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(DATA / rel, src / rel)
            kb.ingest([src], dense=False, progress=False)
        old = next(d for d in kb.store.documents() if d.path == OLD)
        assert old.expiry == "2022-06-05" and old.superseded_by == NEW
