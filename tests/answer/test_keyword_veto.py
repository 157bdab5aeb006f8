"""Without vectors, evidence holding none of the question's words that name something is no
evidence (keyword_veto): a question the laws do not answer whose only word found is an
adverbial (直接) is refused; a question whose naming words the law holds is still answered."""

from __future__ import annotations

import pytest

from zhiku.ask import Query, ask
from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import names_any, naming_terms
from tests.answer.conftest import law_kb, with_config

PET = "家里的猫直接不吃饭了怎么办？"


@pytest.mark.unit
def test_words_that_name_nothing_are_left_out():
    """Adverbial adjectives, prepositions, conjunctions and particles name nothing; nouns,
    verbs and Latin names do (同意 too, which the tagger calls an adverb out of context)."""
    assert naming_terms(["猫", "突然", "直接", "除了", "的话", "所以", "吃饭", "同意", "lpr"]) == [
        "猫", "吃饭", "同意", "lpr"]
    assert naming_terms(["突然", "的话"]) == ["突然", "的话"]  # nothing else left: all of them


@pytest.mark.integration
def test_evidence_holding_only_an_adverbial_is_refused(laws_kb):
    """The laws hold 直接 (「直接涉及劳动者切身利益」) but no cat and no meal: refused at 0; with
    the veto off the fitted model answers that evidence."""
    r = retrieve(laws_kb, PET, Mode.BM25)
    assert r.hits and not names_any(laws_kb, r)
    ans = ask(laws_kb, Query(PET, mode=Mode.BM25, use_cache=False))
    assert ans.refused and ans.confidence == 0.0
    off = ask(with_config(laws_kb, keyword_veto=False), Query(PET, mode=Mode.BM25, use_cache=False))
    assert not off.refused and off.confidence >= laws_kb.config.min_confidence


@pytest.mark.integration
def test_a_question_whose_naming_words_the_law_holds_is_answered(laws_kb):
    """Its twin asks with the same adverbial about what the labour laws rule on (怀孕, 女职工):
    the evidence names what it asks, so the veto lets it through."""
    q = "用人单位可以直接辞退怀孕的女职工吗？"
    assert names_any(laws_kb, retrieve(laws_kb, q, Mode.BM25))
    assert not ask(laws_kb, Query(q, mode=Mode.BM25, use_cache=False)).refused


@pytest.mark.unit
def test_a_word_is_held_by_a_dictionary_word_inside_it():
    """精神病 of 精神病院, 健身 of 健身房: a statute names the thing by its stem; a word of two
    characters has no part, and a single character inside a word is no part."""
    from zhiku.verify.confidence import part_held

    # 刑事诉讼法 第三百零三条; 全民健身条例 第十二条; 劳动法 第六十二条 (verbatim)
    assert part_held("精神病院", "根据本章规定对精神病人强制医疗的，由人民法院决定。")
    assert part_held("健身房", "每年8月8日为全民健身日。")
    assert not part_held("生孩子", "女职工生育享受不少于九十天的产假。")  # 孩子 is not held, 生 is one character
    assert not part_held("产假", "女职工生育享受不少于九十天的产假。")  # two characters: no part (held whole or not)


@pytest.mark.integration
def test_an_everyday_compound_is_held_by_its_stem(laws_kb):
    """「辞职信怎么写？」: the labour laws hold 辞职, not 辞职信 — the keyword index matched it by
    that part, so the veto lets it through (``keyword_veto_parts``); off, it refused at 0. A
    question whose words the laws hold in no part (宠物狗) is still refused."""
    q = "辞职信怎么写？"
    r = retrieve(laws_kb, q, Mode.BM25)
    off = with_config(laws_kb, keyword_veto_parts=False)
    assert names_any(laws_kb, r) and not names_any(off, r)
    assert not ask(laws_kb, Query(q, mode=Mode.BM25, use_cache=False)).refused
    assert ask(off, Query(q, mode=Mode.BM25, use_cache=False)).refused
    assert ask(laws_kb, Query("我家宠物狗咬了人怎么办？", mode=Mode.BM25, use_cache=False)).refused


@pytest.mark.integration
def test_the_veto_reads_the_passages_the_answer_reads(laws_kb):
    """A word of the question only the fourth passage holds: the answer is composed from the
    first five (answer_chunks), so the veto reads five (``keyword_veto_passages``) and lets it
    through; read over the top three only it refused at 0 before anything was read. The same
    passages without that fourth one are still refused."""
    from dataclasses import replace

    q = "竞业限制的补偿金每月给多少？"
    own = retrieve(laws_kb, q, Mode.BM25)
    other = retrieve(laws_kb, PET, Mode.BM25)  # passages holding nothing of 竞业限制 or 补偿金
    assert not names_any(laws_kb, replace(own, hits=other.hits[:5]))
    fourth = replace(own, hits=[*other.hits[:3], own.hits[0], *other.hits[3:4]])
    assert names_any(laws_kb, fourth)
    assert not names_any(with_config(laws_kb, keyword_veto_passages=0), fourth)
    assert laws_kb.config.keyword_veto_passages == laws_kb.config.answer_chunks


# 中华人民共和国道路交通安全法 (2021-04-29) 第九十一条 (its first and second paragraphs), 第九十九条's
# opening, verbatim
ROAD = ("# 中华人民共和国道路交通安全法\n\n## 第七章 法律责任\n\n"
        "第九十一条 饮酒后驾驶机动车的，处暂扣六个月机动车驾驶证，并处一千元以上二千元以下罚款。因饮酒后驾驶机动车"
        "被处罚，再次饮酒后驾驶机动车的，处十日以下拘留，并处一千元以上二千元以下罚款，吊销机动车驾驶证。\n\n"
        "醉酒驾驶机动车的，由公安机关交通管理部门约束至酒醒，吊销机动车驾驶证，依法追究刑事责任；五年内不得重新取得"
        "机动车驾驶证。\n\n"
        "第九十九条 有下列行为之一的，由公安机关交通管理部门处二百元以上二千元以下罚款：\n")


@pytest.mark.unit
def test_a_shortening_is_held_by_its_full_form():
    """A word the dictionary lacks or calls an abbreviation is written out by the statute: 醉驾 as
    醉酒 驾驶, 社保 as 社会保险, 医保 inside 医疗保险 (``keyword_veto_abbreviations``). A dictionary
    word of its own is no shortening (开车 is not 开启 车门), and a word whose characters open no
    words in a row is not written out (网贷: 网络 借贷)."""
    from zhiku.verify.confidence import _cut, abbreviated

    assert abbreviated("醉驾", _cut("醉酒驾驶机动车的，由公安机关交通管理部门约束至酒醒"))
    assert abbreviated("社保", _cut("职工应当依法参加社会保险"))
    assert abbreviated("医保", _cut("基本医疗保险基金"))
    assert not abbreviated("开车", _cut("开启车门"))
    assert not abbreviated("网贷", _cut("网络借贷信息中介机构"))


@pytest.fixture(scope="module")
def road_kb(tmp_path_factory):
    return law_kb(tmp_path_factory, (("行政法", "道路交通安全法.md", ROAD),))


@pytest.mark.integration
def test_a_question_in_shortened_words_is_answered_from_the_article_writing_them_out(road_kb):
    """「醉驾要关多久？出来以后还能开车吗？」 (two asks, everyday words only: 醉驾, 出来, 以后, 开车) finds
    第九十一条 by its characters, which writes 醉驾 out (醉酒驾驶): answered from it; with the reading
    off the veto refused it at 0 with no reason. A question no passage writes out or holds
    (「高铁上能吃泡面吗？」) is still refused at 0."""
    q = Query("醉驾要关多久？出来以后还能开车吗？", mode=Mode.BM25, use_cache=False)
    on = ask(road_kb, q)
    assert not on.refused and any(c.article == "第九十一条" for c in on.citations)
    off = ask(with_config(road_kb, keyword_veto_abbreviations=False), q)
    assert off.refused and off.confidence == 0.0
    other = ask(road_kb, Query("高铁上能吃泡面吗？", mode=Mode.BM25, use_cache=False))
    assert other.refused and other.confidence == 0.0
