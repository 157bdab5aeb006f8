"""The dense veto weighs a long case narrative as a question of ``dense_veto_terms`` terms: the
narrative whose article was found is not refused, a short question about something the
documents do not hold still is."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.verify.confidence import veto_coverage
from tests.answer.conftest import dense_veto, with_config

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
# a judgment's finding of fact in the words courts use, then the question (劳动合同法 第八十二条)
CASE = ("经审理查明：2019年3月4日，原告张某入职被告杭州某网络科技有限公司，担任前端开发工程师，月工资"
        "一万二千元。被告自用工之日起一直未与原告订立书面劳动合同，原告多次向人事部门经理李某提出签订"
        "合同，李某均以试用期尚未结束为由推脱。2020年1月20日，被告以业务调整为由口头通知原告不必再来"
        "上班。原告申请劳动仲裁，要求被告支付未订立书面劳动合同期间的二倍工资。这种情况适用劳动合同法"
        "哪一条？")
MARS = "火星基地的氧气配给标准是多少升每天？"


@pytest.mark.integration
def test_a_case_narrative_is_weighed_as_a_short_question(laws_kb):
    """The narrative's names, dates and sums are in no article, so the share of its words the
    evidence holds is small (0.18 here); weighed as a question of ``dense_veto_terms`` terms
    it passes the veto at a cosine case narratives reach (0.88), and with every term counted
    (0) it is refused, as before. The evidence is the keyword ranking's without
    ``narrative_meaning``: with it, 第八十二条 (the double wage) comes 2nd and the evidence holds
    a little more of the narrative's words (0.247 → 0.259 with every term counted)."""
    laws_kb = with_config(laws_kb, narrative_meaning=0.0)
    r = retrieve(laws_kb, CASE, Mode.BM25)
    assert len(r.terms) > laws_kb.config.dense_veto_terms > 0
    floor = laws_kb.config.min_confidence
    assert dense_veto(laws_kb, CASE, 0.88) >= floor
    assert dense_veto(with_config(laws_kb, dense_veto_terms=0), CASE, 0.88) < floor


@pytest.mark.integration
def test_a_short_question_the_documents_do_not_hold_is_still_vetoed(laws_kb):
    """A question of a few terms keeps its share: about something the laws do not hold, at
    the cosines such questions reach (0.82–0.88), it is refused as before."""
    r = retrieve(laws_kb, MARS, Mode.BM25)
    assert len(r.terms) <= laws_kb.config.dense_veto_terms
    assert dense_veto(laws_kb, MARS, 0.86) < laws_kb.config.min_confidence
    assert dense_veto(laws_kb, MARS, 0.86) == pytest.approx(dense_veto(with_config(laws_kb, dense_veto_terms=0), MARS, 0.86))


@pytest.mark.unit
def test_veto_coverage_scales_only_past_the_limit():
    """The share times len(terms) / most past ``most`` terms, at most 1; the share itself at
    or under it, and with 0."""
    idf = lambda t: 1.0
    text = "用人单位自用工之日起超过一个月不满一年未与劳动者订立书面劳动合同的，应当向劳动者每月支付二倍的工资。"
    terms = ["用人单位", "书面", "劳动合同", "二倍", "工资", "张某", "杭州", "前端", "工程师", "人事", "经理", "李某",
             "仲裁", "推脱", "业务", "调整"]
    share = 5 / 16
    assert veto_coverage(terms, text, idf, 0) == pytest.approx(share)
    assert veto_coverage(terms, text, idf, 16) == pytest.approx(share)
    assert veto_coverage(terms, text, idf, 8) == pytest.approx(share * 2)
    assert veto_coverage(terms, text, idf, 4) == 1.0


@pytest.mark.unit
def test_a_word_the_segmenter_guessed_counts_by_its_pieces():
    """A name the segmenter does not know is glued to the word beside it (「黄华麒是」 of
    「黄华麒是哪个大学毕业的」; CMRC 2018 TRIAL_488, quoted verbatim, tests/data/eval/SOURCE.md):
    no passage holds it whole, though the passage names 黄华麒; it counts by the share of its characters its two-character pieces
    found cover (黄华, 华麒: 3 of 4). A dictionary word (男朋友; 民法典 第一千一百零七条 says
    朋友) is whole or missing, a
    pronoun (谁) matches no text and is not counted; off (``dense_veto_pieces``), every term
    whole, as before."""
    idf = lambda t: 1.0
    text = "黄华麒早年就读圣保罗书院，及后于香港大学地理系毕业，其后于英国广播公司接受电视台与电台制作培训。"
    assert veto_coverage(["黄华麒是", "毕业"], text, idf, 8) == pytest.approx((0.75 + 1) / 2)
    assert veto_coverage(["黄华麒是", "毕业"], text, idf, 8, pieces=False) == pytest.approx(0.5)
    assert veto_coverage(["香港", "谁", "播映权"], text, idf, 8) == pytest.approx(0.5)
    assert veto_coverage(["香港", "谁", "播映权"], text, idf, 8, pieces=False) == pytest.approx(1 / 3)
    adoption = (LAWS / "民法典" / "婚姻家庭编.md").read_text(encoding="utf-8")
    art = next(line for line in adoption.splitlines() if line.startswith("第一千一百零七条"))
    assert "朋友" in art and veto_coverage(["男朋友", "领证"], art, idf, 8) == 0.0


@pytest.mark.unit
def test_the_pieces_reading_never_lowers_the_share():
    """The pieces reading drops single characters that name nothing (领, 归, 谁); when the
    evidence holds them, the whole reading's share stands (the higher of the two counts):
    「捡到钱包交到派出所后一直没人来领，最后归谁？」 over 民法典 第三百一十八条 (quoted verbatim)
    keeps the share of the characters the article states, as with ``dense_veto_pieces`` off."""
    idf = lambda t: 1.0
    art = "第三百一十八条 遗失物自发布招领公告之日起一年内无人认领的，归国家所有。"
    terms = ["捡到", "钱包", "派出所", "没人", "领", "最后", "归", "谁"]
    assert veto_coverage(terms, art, idf, 8, pieces=False) == pytest.approx(2 / 8)
    assert veto_coverage(terms, art, idf, 8) == pytest.approx(2 / 8)
    # its twin: text holding none of them has no share either way
    other = "第一千一百零七条 孤儿或者生父母无力抚养的子女，可以由生父母的亲属、朋友抚养。"
    assert veto_coverage(terms, other, idf, 8) == 0.0
