"""A case narrative takes no question type's search parameters (``qtype_max_words``): its
incidental words (「不同意」 holds 不同) make the type classifier call it a comparison, whose
deeper candidate list then reordered a decided route's hits against routing off. A short
question of the same type still takes them. Real law files, keyword search."""

from __future__ import annotations

import pytest

from zhiku.ask.search import Mode, prepare, qtype_applies, retrieve, route_candidates, route_question
from zhiku.index.store import Scope
from tests.route.conftest import open_kb

pytestmark = pytest.mark.integration

# a labour dispute told as a story; names 劳动合同法 (the rules tier decides), and 「不同意」
NARRATIVE = ("2020年5月，李某入职某物流公司担任仓库管理员，双方签订了三年期劳动合同，约定试用期六个月，"
             "月工资四千元。同年8月，公司以李某在试用期间被证明不符合录用条件为由通知解除劳动合同，"
             "李某不同意，认为公司从未告知录用条件，遂依据劳动合同法申请劳动仲裁，要求公司继续履行劳动合同。")
# the twin: a real comparison question naming the same law, a dozen words
SHORT = "劳动合同法与劳动法对试用期的规定有何不同？"


def _routed(kb, question: str):
    p = prepare(kb, question, Mode.BM25, Scope(), [])
    return p, route_question(kb, p)


def test_a_narrative_takes_no_question_type_parameters(laws_home):
    kb = open_kb(laws_home)
    p, route = _routed(kb, NARRATIVE)
    assert route.tier == "rules" and route.qtype == "comparison"  # decided; typed by 「不同意」
    assert len(p.terms) > kb.config.qtype_max_words
    assert not qtype_applies(kb, p, route) and route_candidates(kb, p, route) == p.candidates
    on = retrieve(kb, NARRATIVE, Mode.BM25, route=True)
    off = retrieve(kb, NARRATIVE, Mode.BM25, route=False)
    assert [h.chunk.id for h in on.hits] == [h.chunk.id for h in off.hits]
    # with the limit off the narrative searches the comparison's deeper list again
    loose = open_kb(laws_home, qtype_max_words=0)
    assert route_candidates(loose, *_routed(loose, NARRATIVE)) == 80


def test_a_short_question_of_the_same_type_takes_them(laws_home):
    kb = open_kb(laws_home)
    p, route = _routed(kb, SHORT)
    assert route.tier == "rules" and route.qtype == "comparison"
    assert qtype_applies(kb, p, route) and route_candidates(kb, p, route) == 80
