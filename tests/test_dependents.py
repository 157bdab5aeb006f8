"""An interpretation or implementing rule of a law repealed by name ends with that law; one of a
law still in force (only amended) does not."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.index.store import Scope
from zhiku.index.versions import link
from zhiku.ingest.repeals import applied_law
from zhiku.kb import KnowledgeBase
from tests.asking import ask

DATA = Path(__file__).parent / "data"
CIVIL = "民法典/附则.md"  # 「《中华人民共和国婚姻法》、…同时废止」
OLD = "司法解释/最高人民法院关于适用《婚姻法》若干问题的解释（三）(2011-08-09).md"
TWIN = "司法解释/最高人民法院关于适用《民法典》婚姻家庭编的解释（一）(2020-12-29).md"
UNION = "社会法/工会法(2021-12-24).md"  # amended; its own text ends the 1950 工会法 by name
UNION_RULES = "司法解释/最高人民法院关于在民事审判工作中适用《工会法》若干问题的解释(2020-12-29).md"
HOUSE = "婚后父母出资为子女购买的房屋，产权登记在自己子女名下，算夫妻共同财产吗？"


def _source(tmp: Path, rels=(CIVIL, OLD, TWIN, UNION, UNION_RULES)) -> Path:
    for rel in rels:
        src = DATA / ("repeals" if rel == CIVIL else "dependents") / rel
        (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(src, tmp / rel)
    return tmp


def _title(rel: str) -> str:
    return (DATA / "dependents" / rel).read_text(encoding="utf-8").splitlines()[0].lstrip("# ")


def test_the_law_a_title_applies():
    assert applied_law(_title(OLD)) == "婚姻法"
    assert applied_law(_title(TWIN)) == "民法典" and applied_law(_title(UNION_RULES)) == "工会法"
    assert applied_law("中华人民共和国公民出境入境管理法实施细则") == "公民出境入境管理法"
    assert applied_law("中国人民解放军实施《中华人民共和国执业医师法》办法") == "执业医师法"
    # the twins: a law itself, a decision amending an interpretation, a title naming two laws
    assert applied_law(_title(UNION)) is None
    assert applied_law("最高人民法院关于修改《最高人民法院关于在民事审判工作中适用〈工会法〉若干问题的解释》"
                       "等二十七件民事类司法解释的决定") is None
    assert applied_law("最高人民法院关于审理涉及农村土地承包纠纷案件适用法律问题的解释") is None
    assert applied_law("最高人民法院关于适用《中华人民共和国合同法》和《中华人民共和国民法通则》的批复") is None


def test_an_amended_law_keeps_its_interpretations():
    """刑事诉讼法 2012 → 2018: versions, not a repeal; its interpretations follow their own versions."""
    rules = "最高人民法院关于适用《中华人民共和国刑事诉讼法》的解释"
    meta = {"applies": applied_law(rules)}
    info = link([
        ("law12", "x/刑事诉讼法(2012-03-14).md", "中华人民共和国刑事诉讼法", "2012-03-14", {}),
        ("law18", "x/刑事诉讼法(2018-10-26).md", "中华人民共和国刑事诉讼法", "2018-10-26", {}),
        ("r12", "y/解释(2012-12-20).md", rules, "2012-12-20", meta),
        ("r21", "y/解释(2021-01-26).md", rules, "2021-01-26", meta),
        ("civil", CIVIL, "中华人民共和国民法典", "2020-05-28",
         {"effective": "2021-01-01", "repeals": ["中华人民共和国婚姻法"]}),
    ])
    assert info["r21"].expiry is None and info["r12"].expiry == "2021-01-26"  # its own next version
    assert info["law18"].expiry is None


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    k = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home")))
    rep = k.ingest([_source(tmp_path_factory.mktemp("src"))], dense=False, progress=False)
    assert not rep.failed, rep.failed
    return k


def test_an_interpretation_of_a_repealed_law_ends_with_it(kb):
    docs = {d.path: d for d in kb.store.documents()}
    assert docs[OLD].metadata["applies"] == "婚姻法"
    assert docs[OLD].expiry == "2021-01-01" and docs[OLD].superseded_by == CIVIL
    # the twin (an interpretation of the repealer) and an interpretation of a law in force stand,
    # though 工会法's own text repeals a 《中华人民共和国工会法》 (of 1950) by name
    assert docs[TWIN].expiry is None and docs[UNION_RULES].expiry is None and docs[UNION].expiry is None
    hits = [h.chunk.doc_path for h in retrieve(kb, HOUSE, Mode.BM25).hits]
    assert TWIN in hits and OLD not in hits  # in force today: the old interpretation is not searched
    now = ask(kb, HOUSE, Mode.BM25)
    assert now.citations and now.citations[0].doc_path == TWIN
    then = ask(kb, HOUSE, Mode.BM25, Scope(versions="2015-01-01"))
    assert then.citations and {c.doc_path for c in then.citations} == {OLD}


def test_every_version_searched_it_ranks_behind_the_text_in_force(kb):
    """Its successor is 民法典's 附则, seldom a candidate: it goes behind every block in force."""
    every = [h.chunk.doc_path for h in retrieve(kb, HOUSE, Mode.BM25, Scope(versions="all")).hits]
    assert OLD in every and TWIN in every and CIVIL not in every
    assert every.index(OLD) > max(i for i, p in enumerate(every) if p != OLD)
    answer = ask(kb, HOUSE, Mode.BM25, Scope(versions="all"))
    assert answer.citations[0].doc_path == TWIN


def test_setting_off_and_either_order_of_ingest(tmp_path):
    off = KnowledgeBase(load_config(home=tmp_path / "off", repealed_dependents=False))
    off.ingest([_source(tmp_path / "all")], dense=False, progress=False)
    assert next(d for d in off.store.documents() if d.path == OLD).expiry is None
    for first, second in ((OLD, CIVIL), (CIVIL, OLD)):  # the interpretation stored first, or the repealer
        kb = KnowledgeBase(load_config(home=tmp_path / f"h{first == CIVIL}"))
        for rel in (first, second):
            kb.ingest([_source(tmp_path / f"src{first == CIVIL}", (rel,))], dense=False, progress=False)
        old = next(d for d in kb.store.documents() if d.path == OLD)
        assert old.expiry == "2021-01-01" and old.superseded_by == CIVIL


def test_the_ended_laws_are_read_for_the_day_asked(kb):
    """One generation of the knowledge base, two days: 工会法 (2021) repeals the 1950 工会法 by
    name; before it took effect no 工会法 in the knowledge base was in force, after it one is.
    The set is read again for another day (a server running past midnight, a search as of a
    date), not kept from the first day it was read."""
    from zhiku.ingest.repeals import title_key
    from zhiku.retrieve.inforce import _ended_laws

    paths = kb.doc_paths()
    union = title_key("中华人民共和国工会法")
    assert union not in _ended_laws(paths, "2030-01-01")
    assert union in _ended_laws(paths, "2000-01-01")
    assert union not in _ended_laws(paths, "2030-01-01")
    assert title_key("中华人民共和国婚姻法") in _ended_laws(paths, "2030-01-01")
