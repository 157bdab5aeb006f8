"""Over a keyword-only ranking the offline answer weighs what each evidence block means as a whole
(its stored vector's cosine with the question) beside the words it shares with the question
(``answer_meaning``): real law files, real store, the bundled embedder."""

from __future__ import annotations

import pytest

from zhiku.ask import Query, ask
from zhiku.ask.search import Mode, retrieve
from zhiku.answer.meaning import meaning_bonus
from tests.answer.conftest import with_config

# 劳动法 第四十一条 (overtime: 每日不得超过一小时…三小时) and 第三十六条 (the working day: 每日工作时间
# 不超过八小时) share the question's words alike; the keyword ranking puts the overtime article first
WORKING_DAY = "劳动者每日工作时间最长不超过几个小时？"


def _cited(kb, question: str, mode: Mode = Mode.BM25) -> list[str | None]:
    return [c.article for c in ask(kb, Query(question, mode=mode, use_cache=False)).citations]


@pytest.mark.integration
def test_a_keyword_ranking_quotes_the_article_that_means_the_question(kb):
    hits = retrieve(kb, WORKING_DAY, Mode.BM25).hits
    order = [h.chunk.article for h in hits[:5]]
    assert order.index("第四十一条") < order.index("第三十六条")  # the ranking itself is left alone
    assert _cited(with_config(kb, answer_meaning=0.0), WORKING_DAY) == ["第四十一条"]
    answer = ask(kb, Query(WORKING_DAY, mode=Mode.BM25, use_cache=False))
    assert [c.article for c in answer.citations] == ["第三十六条"] and "八小时" in answer.text


@pytest.mark.integration
def test_the_bonus_reads_stored_vectors(kb):
    hits = retrieve(kb, WORKING_DAY, Mode.BM25).hits[:5]  # the heading cosine encoded the question
    bonus = meaning_bonus(kb, WORKING_DAY, hits, 12.0)
    assert len(bonus) == 5 and min(bonus) == 0.0 and max(bonus) > 0.0
    assert meaning_bonus(kb, WORKING_DAY, hits, 0.0) == ()
    # a short question no step of an ask encoded yet is encoded for it (its answer must not depend
    # on what ran before); a case narrative gets none (tests/answer/test_one_answer.py)
    fresh = "用人单位安排劳动者延长工作时间的，应当支付多少工资报酬？"
    bonus = meaning_bonus(kb, fresh, hits, 12.0)
    assert len(bonus) == 5 and min(bonus) == 0.0 and max(bonus) > 0.0


@pytest.mark.integration
def test_a_ranking_with_a_dense_list_is_left_to_it(kb):
    """Twin: beside a dense list the ranking already weighs meaning; the answer is the one the
    words choose, whatever the setting."""
    hits = retrieve(kb, WORKING_DAY, Mode.HYBRID).hits[:5]
    assert any("dense" in h.sources for h in hits)
    assert meaning_bonus(kb, WORKING_DAY, hits, 12.0) == ()
    assert _cited(kb, WORKING_DAY, Mode.FULL) == _cited(with_config(kb, answer_meaning=0.0), WORKING_DAY,
                                                        Mode.FULL)
