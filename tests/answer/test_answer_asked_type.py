"""A question whose asking phrase names a kind of value (要交钱吗: a fee; 会受到什么处罚: an act and its
penalty) is answered from a block stating one (``answer_asked_type``, ``answer_penalty_ask``):
verbatim articles of 劳动争议调解仲裁法, 道路交通安全法 and its 实施条例 in a real store in a
temporary home, ranked as the whole corpus ranked them (the block that states no such value
first)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import law_kb, with_config
from zhiku.answer.reading import asked_types
from zhiku.answer.respond import _extractive, _meets
from zhiku.ask.search import Mode, retrieve
from zhiku.retrieve.answertype import AnswerType

ARBITRATION = ("# 中华人民共和国劳动争议调解仲裁法\n\n## 第三章 仲裁\n\n### 第一节 一般规定\n\n"
               "第二十七条 劳动争议申请仲裁的时效期间为一年。仲裁时效期间从当事人知道或者应当知道其权利被侵害之日"
               "起计算。\n\n"
               "第二十八条 申请人申请仲裁应当提交书面仲裁申请，并按照被申请人人数提交副本。\n\n"
               "### 第三节 开庭和裁决\n\n"
               "第四十一条 当事人申请劳动争议仲裁后，可以自行和解。达成和解协议的，可以撤回仲裁申请。\n\n"
               "第四十二条 仲裁庭在作出裁决前，应当先行调解。\n\n"
               "## 第四章 附则\n\n"
               "第五十三条 劳动争议仲裁不收费。劳动争议仲裁委员会的经费由财政予以保障。\n")
ROAD_LAW = ("# 中华人民共和国道路交通安全法\n\n## 第七章 法律责任\n\n"
            "第九十一条 饮酒后驾驶机动车的，处暂扣六个月机动车驾驶证，并处一千元以上二千元以下罚款。"
            "因饮酒后驾驶机动车被处罚，再次饮酒后驾驶机动车的，处十日以下拘留，并处一千元以上二千元以下罚款，"
            "吊销机动车驾驶证。\n")
ROAD_REGULATION = ("# 中华人民共和国道路交通安全法实施条例\n\n## 第二章 车辆和驾驶人\n\n"
                   "第五条 初次申领机动车号牌、行驶证的，应当向机动车所有人住所地的公安机关交通管理部门申请注册登记。\n\n"
                   "第八条 机动车所有人将机动车作为抵押物抵押的，机动车所有人应当向登记该机动车的公安机关交通管理部门"
                   "申请抵押登记。\n\n"
                   "第十条 办理机动车登记的申请人提交的证明、凭证齐全、有效的，公安机关交通管理部门应当当场办理登记"
                   "手续。\n\n"
                   "## 第八章 执法监督\n\n"
                   "第一百零五条 机动车驾驶人有饮酒、醉酒、服用国家管制的精神药品或者麻醉药品嫌疑的，"
                   "应当接受测试、检验。\n")
LABOUR = ("# 中华人民共和国劳动法\n\n## 第一章 总则\n\n"
          "第三条 劳动者享有平等就业和选择职业的权利、取得劳动报酬的权利、休息休假的权利、获得劳动安全卫生保护的"
          "权利、接受职业技能培训的权利、享受社会保险和福利的权利、提请劳动争议处理的权利以及法律规定的其他劳动"
          "权利。\n\n"
          "## 第四章 工作时间和休息休假\n\n"
          "第三十六条 国家实行劳动者每日工作时间不超过八小时、平均每周工作时间不超过四十四小时的工时制度。\n")
FEE = "去申请劳动仲裁要交钱吗？"
PENALTY = "醉酒驾驶机动车会受到什么处罚？"


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return law_kb(tmp_path_factory, (("诉讼与非诉讼程序法", "劳动争议调解仲裁法.md", ARBITRATION),
                                     ("行政法", "道路交通安全法.md", ROAD_LAW),
                                     ("行政法规", "道路交通安全法实施条例.md", ROAD_REGULATION),
                                     ("社会法", "劳动法.md", LABOUR)))


def _quoted(kb, question: str, first: str, second: str) -> str:
    """The article the offline answer quotes when the block holding ``first`` ranks first and
    the one holding ``second`` second, the others after them as retrieval ranked them."""
    r = retrieve(kb, question, Mode.BM25, route=False)
    hits = sorted(r.hits, key=lambda h: (first not in h.chunk.text, second not in h.chunk.text))
    assert first in hits[0].chunk.text and second in hits[1].chunk.text
    text = _extractive(r.terms, hits, kb, False, question)
    marker = int(text[text.index("[") + 1:text.index("]")])
    return hits[marker - 1].chunk.article


def test_asking_phrases_name_their_kind():
    assert asked_types(FEE) == (AnswerType.FEE,)
    assert asked_types(PENALTY) == (AnswerType.OFFENCE,)
    assert asked_types("按治安管理处罚法，在网上发帖骂人、造谣别人，会被拘留吗？") == (AnswerType.OFFENCE,)
    assert asked_types(PENALTY, penalty=False) == ()
    # 还能罚我吗 asks whether a time limit has run, not which penalty follows
    assert asked_types("三年前的违章最近才被查出来，现在还能罚我吗？") == ()
    assert asked_types("申请劳动仲裁需要提交哪些材料？") == ()


@pytest.mark.integration
def test_a_fee_question_quotes_the_article_on_the_fee(kb):
    assert _quoted(with_config(kb, answer_asked_type=False), FEE, "自行和解", "不收费") == "第四十一条"
    assert _quoted(kb, FEE, "自行和解", "不收费") == "第五十三条"


@pytest.mark.integration
def test_a_penalty_question_quotes_the_article_stating_the_penalty(kb):
    assert _quoted(with_config(kb, answer_penalty_ask=False), PENALTY, "接受测试", "处暂扣") == "第一百零五条"
    assert _quoted(kb, PENALTY, "接受测试", "处暂扣") == "第九十一条"


@pytest.mark.integration
def test_a_question_asking_no_kind_keeps_the_better_covering_block(kb):
    """Twin: the same evidence for a question whose asking phrase names no kind of value is
    answered as before, from the block its words choose."""
    question = "申请劳动仲裁以后双方还能自己和解吗？"
    assert asked_types(question) == ()
    assert _quoted(kb, question, "自行和解", "不收费") == _quoted(
        with_config(kb, answer_asked_type=False), question, "自行和解", "不收费") == "第四十一条"


def test_a_figure_spaced_from_its_unit_states_a_period(kb):
    """Markdown writes 「最多保存 3 天」 (RocketMQ's FAQ, tests/data/real): it states a period as
    「保存3天」 does, so a 多久 question keeps that entry as its source; an entry stating none
    does not meet the question."""
    meets = _meets(kb, "RocketMQ 的消息在服务器上默认能存多久？", ())
    assert meets is not None
    assert meets("", "存储的消息将最多保存 3 天，超过 3 天未使用的消息将被删除。")
    assert not meets("", "通常是256KB")
    assert _meets(with_config(kb, answer_asked_type=False), "RocketMQ 的消息在服务器上默认能存多久？", ()) is None
