"""A layperson's rare word read in the statute's word for it (老两口: 夫妻), by the bundled
thesaurus's small groups: the dense veto's coverage holds it (config ``dense_veto_synonyms``)
and the offline answer counts it (``answer_term_synonyms``); a question about what the laws do
not hold, or naming a company they do not name, is still refused (real law text:
tests/data/laws)."""

from __future__ import annotations

import pytest

from zhiku.answer.reading import term_synonyms
from zhiku.ask import Mode, Query, ask
from zhiku.retrieve.segment import normalise
from zhiku.retrieve.thesaurus import rare_synonyms
from tests.answer.conftest import dense_veto, with_config

# 民法典 婚姻家庭编 第一千零七十九条 states 「因感情不和分居满二年」 and 「其他导致夫妻感情破裂的情形」
SPLIT = "老两口吵架后分居，多久能离？"
APART = "老两口感情不和分居两年，能离婚吗？"
MARS = "火星基地的氧气配给标准是多少升每天？"


@pytest.mark.integration
def test_the_veto_holds_a_laypersons_word_by_the_statutes(laws_kb):
    """老两口 is in no article; the evidence says 夫妻, a word of its thesaurus group: read so,
    the question passes the veto at a cosine everyday questions reach (0.84), and without the
    reading it is refused. A question about what the laws do not hold keeps its share."""
    floor = laws_kb.config.min_confidence
    off = with_config(laws_kb, dense_veto_synonyms=False)
    assert dense_veto(off, SPLIT, 0.84) < floor <= dense_veto(laws_kb, SPLIT, 0.84)
    assert dense_veto(laws_kb, MARS, 0.86) == pytest.approx(dense_veto(off, MARS, 0.86))
    assert dense_veto(laws_kb, MARS, 0.86) < floor


@pytest.mark.integration
def test_a_rare_word_is_replaced_by_the_synonym_the_evidence_holds(laws_kb):
    """Only a word the index rarely holds, of three characters or more, none of the texts holds,
    by the first word of its groups one does, which carries the word's weight; a word held, a
    two-character word (its groups are loose: 孩子 with 男女) and a name stay as they are."""
    same = rare_synonyms(laws_kb)
    assert "夫妻" in same("老两口") and same("劳动合同") == [] and same("腾讯") == []
    text = normalise("因感情不和分居满二年；（五）其他导致夫妻感情破裂的情形。")  # as the composer reads it
    terms, stand = term_synonyms(["老两口", "分居", "孩子", "腾讯"], [text], same)
    assert terms == ["夫妻", "分居", "孩子", "腾讯"] and stand == {"夫妻": "老两口"}
    assert term_synonyms(["老两口"], ["分居满二年"], same) == (["老两口"], {})


@pytest.mark.integration
def test_the_answer_quotes_the_statutes_word(laws_kb):
    """With the reading, the answer to 「老两口感情不和分居两年，能离婚吗？」 quotes the article's
    「其他导致夫妻感情破裂的情形」 beside 「因感情不和分居满二年」; without it, 夫妻 counts for
    nothing. Asked how long, it is answered; the twin naming a company the laws never name
    (腾讯) is still refused."""
    on = ask(laws_kb, Query(APART, mode=Mode.BM25, use_cache=False))
    off = ask(with_config(laws_kb, answer_term_synonyms=False), Query(APART, mode=Mode.BM25, use_cache=False))
    assert not on.refused and "夫妻感情破裂" in on.text and "分居满二年" in on.text
    assert not off.refused and "夫妻感情破裂" not in off.text
    assert [c.article for c in on.citations] == [c.article for c in off.citations] == ["第一千零七十九条"]
    asked = ask(laws_kb, Query("老两口分居多少年才能离婚？", mode=Mode.BM25, use_cache=False))
    assert not asked.refused and "分居满二年" in asked.text
    assert ask(laws_kb, Query("腾讯的老两口分居多少年才能离婚？", mode=Mode.BM25, use_cache=False)).refused
