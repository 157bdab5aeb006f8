"""Offence names (offence_names): a narrative asking which article of 刑法 applies brings the
article the 罪名 regulations assign to the offence it charges (构成…罪), or to the offence name
its words match best, among the first five; a prior conviction is no charge, a question that
asks no offence keeps its order. Real 刑法 excerpt, real excerpts of two 罪名 regulations
(tests/data/offences), real store, keyword search."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, prepare, retrieve
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.offences import named_offences, offence_entries
from zhiku.retrieve.segment import LONG_QUESTION_TERMS
from tests.conftest import ingested_kb

DATA = Path(__file__).resolve().parents[1] / "data"
ASK = "\n这种行为适用刑法哪一条？"
# unpaid wages told in a judgment's style, the charge named at its end (第二百七十六条之一, a
# row of the table of 补充规定（五）)
WAGES = ("公诉机关指控：2021年3月至2022年1月，被告人王某某承包某小区外墙粉刷工程，雇用工人二十余名，"
         "工程完工后以资金周转困难为由拖欠工人工资共计人民币十八万元，经人力资源和社会保障部门责令"
         "支付后仍逃匿。公诉机关认为，被告人王某某的行为已构成拒不支付劳动报酬罪。")
# the same facts with an earlier conviction instead of the charge: 因犯盗窃罪 charges nothing
PRIOR = WAGES.replace("公诉机关认为，被告人王某某的行为已构成拒不支付劳动报酬罪。",
                      "另查明，被告人王某某曾因犯盗窃罪于2015年被判处有期徒刑一年。")
# villagers carrying off an overturned lorry's load: no charge, the acts in the words of 聚众哄抢罪
LOOTING = ("经审理查明：2019年8月12日上午，一辆运送苹果的货车在某县某乡公路侧翻，被告人赵某某召集"
           "同村村民二十余人赶到现场，不顾司机劝阻，聚众哄抢车上苹果三百余箱，价值人民币二万余元。"
           "案发后，被告人赵某某主动投案，如实供述，并退赔全部损失。上述事实，被告人赵某某在开庭审理"
           "过程中亦无异议，且有证人李某、王某甲的证言，现场勘验笔录，价格鉴定意见书，辨认笔录，户籍证明"
           "等证据证实，足以认定。")
# the same acts asked in a few words: a short question meets names by chance characters
SHORT = "村里人聚众哄抢翻车的苹果，按刑法会判刑吗？"


@pytest.fixture(scope="module")
def offence_kb(tmp_path_factory):
    return ingested_kb(tmp_path_factory, [DATA / "criminal", DATA / "offences"], "offences", route_log=False)


@pytest.mark.unit
def test_names_are_read_from_lists_and_tables_of_the_regulations():
    listed = offence_entries("149．故意杀人罪（第232条） 155．强制猥亵、侮辱妇女罪（第237条第1款、第3款） "
                             "13．放火罪（第114条、第115条第1款）")
    assert listed == [("故意杀人", ("第二百三十二条",)), ("强制猥亵、侮辱妇女", ("第二百三十七条",)),
                      ("放火", ("第一百一十四条", "第一百一十五条"))]
    row = offence_entries("| 第二百七十六条之一 （《刑法修正案（八）》第四十一条） |拒不支付劳动报酬罪 |")
    assert row == [("拒不支付劳动报酬", ("第二百七十六条之一",))]
    # a chunk beginning inside a name is marked: its first name may be another's tail
    assert offence_entries("弹药罪（第128条第1款） 43．非法出租、出借枪支罪（第128条第2款）")[0][0] == "…弹药"


@pytest.mark.integration
def test_the_table_holds_the_names_of_both_regulations(offence_kb):
    table = offence_kb.offences()
    names = {name: labels for _, name, labels, _ in table.entries}
    assert names["盗窃"] == ("第二百六十四条",) and names["拒不支付劳动报酬"] == ("第二百七十六条之一",)
    assert table.charged(WAGES, ("中华人民共和国刑法",)) == ["第二百七十六条之一"]
    assert table.charged("以销售假药罪追究刑事责任", ("中华人民共和国刑法",)) == []  # not in this excerpt
    assert table.charged(PRIOR, ("中华人民共和国刑法",)) == []  # a prior conviction is no charge
    # read at every place: the first 以 reaches no name, the 构成 inside it does
    assert table.charged("以秘密手段非法占有公私财物构成盗窃罪", ("刑法",)) == ["第二百六十四条"]
    assert table.charged(WAGES, ("中华人民共和国民法典",)) == []  # the regulations name 刑法's offences


@pytest.mark.integration
def test_a_charged_offence_comes_among_the_first_five(offence_kb):
    kb = offence_kb
    p = prepare(kb, WAGES + ASK, Mode.BM25, Scope(), [])
    assert named_offences(kb, p)[0] == "第二百七十六条之一"
    hits = retrieve(kb, WAGES + ASK, Mode.BM25, route=False).hits
    assert "第二百七十六条之一" in [h.chunk.article for h in hits[:kb.config.answer_chunks]]
    off = KnowledgeBase(kb.config.model_copy(update={"offence_names": 0}))
    assert named_offences(off, prepare(off, WAGES + ASK, Mode.BM25, Scope(), [])) == []


@pytest.mark.integration
def test_a_narrative_without_a_charge_brings_the_name_its_words_match(offence_kb):
    kb = offence_kb
    p = prepare(kb, LOOTING + ASK, Mode.BM25, Scope(), [])
    assert kb.offences().charged(p.question, p.ref.names) == []
    assert named_offences(kb, p) == ["第二百六十八条"]  # 聚众哄抢罪
    hits = retrieve(kb, LOOTING + ASK, Mode.BM25, route=False).hits
    assert "第二百六十八条" in [h.chunk.article for h in hits[:kb.config.answer_chunks]]


@pytest.mark.integration
def test_a_short_question_matches_no_name_by_its_words(offence_kb):
    kb = offence_kb
    p = prepare(kb, SHORT, Mode.BM25, Scope(), [])
    assert p.ref.names and p.asks and len(p.terms) < LONG_QUESTION_TERMS <= len(
        prepare(kb, LOOTING + ASK, Mode.BM25, Scope(), []).terms)
    assert named_offences(kb, p) == []


@pytest.mark.integration
def test_a_narrative_asking_no_offence_keeps_its_order(offence_kb):
    kb = offence_kb
    question = LOOTING + "\n刑法对聚众的规定有哪些？"  # names 刑法 but asks no provision for the act
    p = prepare(kb, question, Mode.BM25, Scope(), [])
    assert p.ref.names and named_offences(kb, p) == []
    on = retrieve(kb, question, Mode.BM25, route=False).hits
    off = retrieve(KnowledgeBase(kb.config.model_copy(update={"offence_names": 0})), question, Mode.BM25,
                   route=False).hits
    assert [h.chunk.id for h in on] == [h.chunk.id for h in off]


@pytest.fixture(scope="module")
def offence_kb_dense(criminal_dense):
    return criminal_dense("offences")


@pytest.mark.integration
def test_beside_a_dense_list_only_a_charge_moves(offence_kb_dense):
    kb = offence_kb_dense
    off = KnowledgeBase(kb.config.model_copy(update={"offence_names": 0}))
    on_hits = retrieve(kb, LOOTING + ASK, Mode.HYBRID, route=False).hits
    assert any("dense" in h.sources for h in on_hits)
    off_hits = retrieve(off, LOOTING + ASK, Mode.HYBRID, route=False).hits
    assert [h.chunk.id for h in on_hits] == [h.chunk.id for h in off_hits]  # no word-matched name
    hits = retrieve(kb, WAGES + ASK, Mode.HYBRID, route=False).hits
    assert "第二百七十六条之一" in [h.chunk.article for h in hits[:kb.config.answer_chunks]]
