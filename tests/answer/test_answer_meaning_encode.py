"""In an index holding no vectors (a keyword-only ingest) the offline answer still weighs what each
evidence block means (``answer_meaning_encode``): the five blocks are encoded through the vector
cache. Real law files (tests/data/laws), real store, the bundled embedder."""

from __future__ import annotations

import pytest

from zhiku.answer.meaning import meaning_bonus
from zhiku.ask import Query, ask
from zhiku.ask.search import Mode, retrieve
from tests.answer.conftest import with_config

# 劳动法 第四十一条 (overtime: 每日不得超过一小时…三小时) and 第三十六条 (the working day: 每日工作时间
# 不超过八小时) share the question's words alike; the keyword ranking puts the overtime article first
WORKING_DAY = "劳动者每日工作时间最长不超过几个小时？"


def _cited(kb, question: str, encode: bool) -> list[str | None]:
    k = with_config(kb, answer_meaning_encode=encode)
    return [c.article for c in ask(k, Query(question, mode=Mode.BM25, use_cache=False)).citations]


@pytest.mark.integration
def test_a_keyword_index_quotes_the_article_that_means_the_question(laws_kb):
    assert not laws_kb.has_vectors()
    order = [h.chunk.article for h in retrieve(laws_kb, WORKING_DAY, Mode.BM25).hits[:5]]
    assert order.index("第四十一条") < order.index("第三十六条")  # the ranking itself is left alone
    assert _cited(laws_kb, WORKING_DAY, encode=False) == ["第四十一条"]
    answer = ask(with_config(laws_kb, answer_meaning_encode=True), Query(WORKING_DAY, mode=Mode.BM25,
                                                                          use_cache=False))
    assert [c.article for c in answer.citations] == ["第三十六条"] and "八小时" in answer.text


@pytest.mark.integration
def test_the_blocks_are_encoded_only_when_asked(laws_kb):
    hits = retrieve(laws_kb, WORKING_DAY, Mode.BM25).hits[:5]  # the heading cosine encoded the question
    bonus = meaning_bonus(laws_kb, WORKING_DAY, hits, 12.0, encode=True)
    assert len(bonus) == 5 and min(bonus) == 0.0 and max(bonus) > 0.0
    assert meaning_bonus(laws_kb, WORKING_DAY, hits, 12.0, encode=False) == ()
    assert meaning_bonus(laws_kb, WORKING_DAY, hits, 0.0, encode=True) == ()
    # a question no step of an ask encoded yet is encoded for it; without answer_meaning_long a case
    # narrative (more than heading_max_words words) gets none, whatever encoded it before
    fresh = "用人单位安排劳动者延长工作时间的，应当支付多少工资报酬？"
    assert len(meaning_bonus(laws_kb, fresh, hits, 12.0, encode=True)) == 5
    narrative = ("公司让我签了一份协议说自愿放弃缴纳社会保险，每个月多发我三百块钱补贴，现在我干了两年想离职，"
                 "听说可以要求公司补缴社保还能要经济补偿，这种情况我签过字了还能主张吗，应该怎么办才能维护自己的权益呢")
    assert len(meaning_bonus(laws_kb, narrative, hits, 12.0, encode=True)) == 5
    short = with_config(laws_kb, answer_meaning_long=False)
    assert short.query_vector(narrative) is not None
    assert meaning_bonus(short, narrative, hits, 12.0, encode=True) == ()


@pytest.mark.integration
@pytest.mark.parametrize("question, article", [("试用期最长可以约定多久？", "第二十一条"),
                                               ("公司安排加班，加班费怎么算？", "第四十四条")])
def test_an_answer_the_words_already_choose_keeps_its_article(laws_kb, question, article):
    """Twin: where the words choose the article that states the answer (the probation period's,
    the overtime pay's, fifth in the ranking), its meaning keeps it."""
    assert _cited(laws_kb, question, encode=False) == [article]
    assert _cited(laws_kb, question, encode=True) == [article]
