"""Chapter headings as a keyword field (heading_weight): real law files (tests/data), real store."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.fields import heading_boost
from zhiku.retrieve.terms import keyword_terms

QUESTION = "未成年工能做什么工作"


def _in_chapter(hits, word: str) -> list[int]:
    return [i for i, h in enumerate(hits, 1) if word in " ".join(h.chunk.section_path)]


@pytest.mark.integration
def test_hits_under_a_heading_holding_the_question_words_move_up(labour_kb):
    kb = labour_kb
    terms = keyword_terms(kb.segment, QUESTION, kb.store.doc_frequency)
    hits = kb.store.keyword(terms, 30)
    boosted = heading_boost(hits, terms, kb.idf, 0.3)
    before, after = _in_chapter(hits, "未成年工"), _in_chapter(boosted, "未成年工")
    assert before and len(after) == len(before)
    # 第七章 女职工和未成年工特殊保护 fills the first four (a 法律责任 article held one)
    assert after[:4] == [1, 2, 3, 4] and before[:4] != [1, 2, 3, 4]
    # the same chunks, BM25 sources kept, the heading share recorded
    assert {h.chunk.id for h in boosted} == {h.chunk.id for h in hits}
    assert all("bm25" in h.sources and "heading" in h.sources for h in boosted)
    assert max(h.score for h in boosted) >= max(h.score for h in hits)


@pytest.mark.integration
def test_zero_weight_or_no_heading_words_keeps_the_order(labour_kb):
    kb = labour_kb
    hits = kb.store.keyword(["夜班", "怀孕"], 20)
    assert [h.chunk.id for h in heading_boost(hits, ["夜班", "怀孕"], kb.idf, 0.0)] == [h.chunk.id for h in hits]
    # single characters never count: 女 is in the heading, but says nothing on its own
    same = heading_boost(hits, ["女", "夜班"], kb.idf, 0.5)
    assert [h.chunk.id for h in same] == [h.chunk.id for h in hits]
    assert heading_boost([], ["夜班"], kb.idf, 0.5) == []


@pytest.mark.integration
def test_heading_weight_setting_reaches_the_keyword_search(labour_kb):
    kb = labour_kb
    on = KnowledgeBase(kb.config.model_copy(update={"heading_weight": 0.3}))
    off_hits = retrieve(kb, QUESTION, Mode.BM25, route=False).hits
    on_hits = retrieve(on, QUESTION, Mode.BM25, route=False).hits
    assert "heading" in on_hits[0].sources and "heading" not in off_hits[0].sources
    top = lambda hits: len([i for i in _in_chapter(hits, "未成年工") if i <= 4])
    assert top(on_hits) > top(off_hits)
