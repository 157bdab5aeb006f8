"""The law step of routing (``route_laws``): a question naming no law whose candidates point
clearly at one law is searched inside that law, its hits first; one whose candidates are
split between laws is ranked exactly as with routing off. Real law files, a real store in a
temp dir, keyword search."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.route.laws import margin
from tests.route.conftest import open_kb

pytestmark = pytest.mark.integration

# names no law; its candidates lie in 公司法 (the in-force 2023 version) and nowhere else
SURE = "有限责任公司的股东可以转让股权吗"
# names no law; its candidates are split between 劳动合同法 and 劳动法
UNSURE = "用人单位克扣工资怎么办"


def laws_step(r):
    return next(t.detail for t in r.trace if t.stage == "laws")


def test_a_sure_law_is_searched_and_put_first(laws_home):
    kb = open_kb(laws_home, route_laws=0.5)
    r = retrieve(kb, SURE, Mode.BM25, route=True)
    assert r.route.tier == "laws" and r.route.confidence >= kb.config.route_min_confidence
    paths = {kb.store.get_doc(d).path for d in r.route.doc_ids}
    assert paths == {"民法商法/公司法(2023-12-29).md"}  # the law in force, not its 2018 version
    step = laws_step(r)
    assert step["decided"] and step["top"][0][0] == "公司法" and step["margin"] >= 0.5
    assert all(h.chunk.doc_path in paths for h in r.hits[:5])
    # the same question with the step off: the router falls back and no law step runs
    off = retrieve(open_kb(laws_home), SURE, Mode.BM25, route=True)
    assert off.route.tier == "fallback" and not any(t.stage == "laws" for t in off.trace)


def test_an_unsure_law_leaves_the_unrouted_ranking(laws_home):
    kb = open_kb(laws_home, route_laws=0.5)
    on = retrieve(kb, UNSURE, Mode.BM25, route=True)
    step = laws_step(on)
    assert not step["decided"] and step["margin"] < 0.5 and len(step["top"]) >= 2
    assert on.route.tier == "fallback" and on.route.doc_ids == ()
    off = retrieve(kb, UNSURE, Mode.BM25, route=False)
    assert [h.chunk.id for h in on.hits] == [h.chunk.id for h in off.hits]
    assert [h.score for h in on.hits] == [h.score for h in off.hits]


def test_a_named_law_is_left_to_the_rules_tier(laws_home):
    kb = open_kb(laws_home, route_laws=0.01)
    r = retrieve(kb, "按劳动合同法，试用期最长可以约定多久", Mode.BM25, route=True)
    assert r.route.tier == "rules" and not any(t.stage == "laws" for t in r.trace)


def test_margin_is_the_best_laws_lead():
    assert margin([("甲法", 0.75), ("乙法", 0.25)]) == pytest.approx(2 / 3)
    assert margin([("甲法", 1.0)]) == 1.0 and margin([]) == 0.0
