"""Long narrative questions (case descriptions) search their telling words, not their
common ones; short questions are searched as they are. Real 刑法 excerpt, real store."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.retrieve.segment import LONG_QUESTION_TERMS, focus_terms, query_terms
from zhiku.retrieve.terms import keyword_terms

# A case description in the style of a court judgment: names, dates, places, amounts and
# procedure around one act (taking a phone and money secretly) that 第二百六十四条 covers.
CASE = ("公诉机关指控：2019年10月12日23时许，被告人王某某在本市江北区某小区地下车库内，"
        "趁被害人赵某熟睡之机，秘密窃取其放在车内的苹果手机一部及现金人民币4800元，后逃离现场。"
        "同年10月15日，被告人王某某在其租住处被公安机关抓获，到案后如实供述了上述犯罪事实，"
        "涉案手机已追回并发还被害人。经鉴定，涉案手机价值人民币3200元。"
        "公诉机关认为被告人王某某具有坦白情节，建议判处有期徒刑一年，并处罚金。\n"
        "这种行为适用刑法哪一条？")


@pytest.mark.unit
def test_focus_drops_common_terms_of_long_questions_only():
    df = {"盗窃": 3, "年": 900, "被告人": 120}.get
    long = ["盗窃", "年", "被告人"] + [f"词{i}" for i in range(LONG_QUESTION_TERMS)]
    kept = focus_terms(long, lambda t: df(t, 0), 1000)
    assert "年" not in kept and "被告人" not in kept and "盗窃" in kept  # ceiling 50 chunks
    assert len(kept) == len(long) - 2
    short = ["盗窃", "年", "被告人"]
    assert focus_terms(short, lambda t: df(t, 0), 1000) == short
    everything_common = [f"年{i}" for i in range(LONG_QUESTION_TERMS)]
    assert focus_terms(everything_common, lambda t: 999, 1000) == everything_common  # never empty


@pytest.mark.integration
def test_case_description_finds_its_article(criminal_kb):
    kb = criminal_kb
    terms = keyword_terms(kb.segment, CASE, kb.store.doc_frequency)  # as retrieve() makes them
    assert len(terms) >= LONG_QUESTION_TERMS
    r = retrieve(kb, CASE, Mode.BM25, route=False)
    focus = [t for t in r.trace if t.stage == "focus"]
    assert focus and focus[0].detail["kept"] < focus[0].detail["terms"] == len(terms)
    searched = next(t for t in r.trace if t.stage == "keyword").detail["terms"]
    assert "年" not in searched and "盗窃" not in terms  # the narrative never says 盗窃
    articles = [h.chunk.article for h in r.hits]
    assert "第二百六十四条" in articles[:5]
    # every term searched as it is: the common words pull long articles ahead of it
    plain = [h.chunk.article for h in kb.store.keyword(terms, 50)]
    assert articles.index("第二百六十四条") < plain.index("第二百六十四条")


@pytest.mark.integration
def test_short_question_is_searched_as_asked(criminal_kb):
    r = retrieve(criminal_kb, "盗窃公私财物数额较大的怎么处罚", Mode.BM25, route=False)
    assert not [t for t in r.trace if t.stage == "focus"]
    assert r.hits[0].chunk.article == "第二百六十四条"
