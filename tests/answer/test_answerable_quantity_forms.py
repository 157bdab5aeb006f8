"""Quantities and names as documents write them (config ``answerability_fractions``,
``answerability_unit_forms``, ``answerability_near_names``, ``answerability_measure_names``): a count stated as a share of
a whole, a unit written as its symbol, a sibling chemical one character apart and a measure
word the tagger reads as a name. Real text: the 2023 company law of tests/data/laws, the AHT10
sensor page of tests/data/real (see its SOURCE.md) and law lines of the laws corpus."""

from __future__ import annotations

import pytest

from tests.answer.conftest import REAL, article_in, cited_alone, law_text, real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, decisive, near_name
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned
from zhiku.verify.stated import unit_forms

pytestmark = pytest.mark.unit

ON = CheckOptions()
COMPANY = "民法商法/公司法(2023-12-29).md"


def _article(label: str) -> str:
    return "中华人民共和国公司法 " + article_in(law_text(COMPANY), label).strip()


# -- fractions ---------------------------------------------------------------------------

def test_a_two_thirds_vote_answers_how_many_votes():
    block = _article("第六十六条")  # 「…应当经代表三分之二以上表决权的股东通过」
    question = "股东会作出修改公司章程的决议，需要多少表决权的股东通过？"
    assert check(question, cited_alone(block), opts=ON).ok
    off = check(question, cited_alone(block), opts=CheckOptions(fractions=False))
    assert not off.ok and any(c.text == "number" for c in off.missing)


def test_half_of_the_promoters_answers_how_many_people():
    block = _article("第一百零三条")  # 「成立大会应当有持有表决权过半数的认股人出席，方可举行」
    question = "股份有限公司的成立大会要有多少人出席才能举行？"
    assert check(question, cited_alone(block), opts=ON).ok
    assert not check(question, cited_alone(block), opts=CheckOptions(fractions=False)).ok


def test_a_head_count_in_figures_answers_either_way():
    # the positive twin: 「应当有一人以上二百人以下为发起人」 states the count with its unit
    block = _article("第九十二条")
    for opts in (ON, CheckOptions(fractions=False)):
        assert check("设立股份有限公司需要多少人作为发起人？", cited_alone(block), opts=opts).ok


def test_a_fraction_beside_other_words_states_no_count_asked():
    # 「过半数的董事」 of the board's meeting is no count of a company's promoters
    block = _article("第七十三条")
    v = check("设立股份有限公司最多可以有多少名发起人？", cited_alone(block), opts=ON)
    assert not v.ok and any(c.text == "people" for c in v.missing)


# -- unit forms --------------------------------------------------------------------------

def test_unit_forms_read_both_ways():
    assert "db" in unit_forms("分贝") and "分贝" in unit_forms("db")
    assert "°c" in unit_forms("摄氏度") and "mg/l" in unit_forms("毫克每升")
    assert unit_forms("温度") == ()


def test_a_symbol_answers_a_unit_asked_in_words():
    # the sensor page's measuring table writes the unit in words (| 温度 | -40 - 85 | ±0.5 | 摄氏度 |);
    # the same row with ℃ answers 多少摄氏度 only with the reading on
    row = next(c for c in real_chunks("AHT10温湿度传感器例程.md") if "摄氏度" in c.text and "-40 - 85" in c.text)
    question = "温度的测量范围是多少摄氏度？"
    assert check(question, [(block_text(row), row.text)], opts=ON).ok
    symbol = row.text.replace("摄氏度", "℃")
    assert check(question, [(symbol, symbol)], opts=ON).ok
    off = check(question, [(symbol, symbol)], opts=CheckOptions(unit_forms=False))
    assert not off.ok and any(c.text == "摄氏度" for c in off.missing)


def test_a_unit_symbol_asked_is_met_by_the_word_a_law_writes():
    # 环境保护税法: 「应税噪声按照超过国家规定标准的分贝数确定」; the question writes dB
    line = "中华人民共和国环境保护税法 第七条 （四）应税噪声按照超过国家规定标准的分贝数确定；超标4－6分贝，每月应纳税额700元。"
    question = "应税噪声超标多少dB每月交700元？"
    assert check(question, [(line, line)], opts=ON).ok
    off = check(question, [(line, line)], opts=CheckOptions(unit_forms=False))
    assert not off.ok and any(c.text == "db" for c in off.missing)


def test_a_figure_without_the_unit_asked_is_still_missed():
    # the negative twin: a bare range names no 摄氏度 in any form
    row = "| 温度 | -40 - 85 | ±0.5 | |"
    v = check("温度的测量范围是多少摄氏度？", [(row, row)], opts=ON)
    assert not v.ok and any(c.text == "摄氏度" for c in v.missing)


# -- near names --------------------------------------------------------------------------

# 大气污染防治法 第二条: 「对颗粒物、二氧化硫、氮氧化物、挥发性有机物、氨等大气污染物和温室气体实施协同控制」
AIR = ("中华人民共和国大气污染防治法 第二条 防治大气污染，应当加强对燃煤、工业、机动车船、扬尘、农业等大气污染的"
       "综合防治，推行区域大气污染联合防治，对颗粒物、二氧化硫、氮氧化物、挥发性有机物、氨等大气污染物和温室气体"
       "实施协同控制。")


def test_a_chemical_one_character_apart_is_another_chemical():
    near = CheckOptions(near_names=True)  # off by default (a regional synonym is a word apart too)
    assert near_name("二氧化碳", AIR) and not near_name("二氧化硫", AIR)
    v = check("二氧化碳是否实施协同控制？", cited_alone(AIR), opts=near)
    missed = [c for c in v.missing if c.text == "二氧化碳"]
    assert not v.ok and missed and decisive(missed[0], v.constraints, near)
    off = check("二氧化碳是否实施协同控制？", cited_alone(AIR), opts=CheckOptions(near_names=False))
    assert not any(c.text == "二氧化碳" for c in off.missing)  # most of its pairs: met before


def test_the_name_itself_is_met():
    # the positive twin: 二氧化硫 asked of the same article
    assert check("二氧化硫是否实施协同控制？", cited_alone(AIR), opts=ON).ok


def test_a_name_and_the_next_word_make_no_sibling():
    # the last character apart counts only as a dictionary word: 「张三说」 is no sibling of 张三丰
    assert not near_name("张三丰", "张三说他的师父是李四")
    assert near_name("一氧化碳", "排放二氧化碳的企业")


def test_an_ordinals_numeral_in_a_name_makes_no_sibling():
    # 劳动法's adoption record: 第九届…委员会 asked against 第八届… is another session, which the
    # ordinal pin (第九届) decides on its own; a numeral opening a chemical's name still makes one
    record = "1994年7月5日第八届全国人民代表大会常务委员会第八次会议通过"
    assert not near_name("第九届全国人民代表大会常务委员会", record)
    assert near_name("二氧化碳", "一氧化碳的排放浓度")


def test_a_variant_spelling_of_the_name_makes_no_sibling():
    # a CMRC passage writes 冰淇林 for 冰淇淋 (no word of the dictionary): the same thing, met by
    # most of its pairs as before; a sibling is a word of its own (初中班 for 高中班)
    passage = "该快餐厅之冰淇林类产品标榜“倒杯如洒，此杯免费”"
    assert not near_name("冰淇淋", passage)
    assert near_name("高中班", "内地西藏初中班的招生规模")


# -- measure words read as names ---------------------------------------------------------

def test_a_measure_word_after_a_demonstrative_pins_no_name():
    question = "这张表的填表人是谁？"
    assert not any(c.text == "张表" for c in pinned(question, ON))
    assert any(c.text == "张表" for c in pinned(question, CheckOptions(measure_names=False)))
    line = "填表人：王明    联系电话：12345678"
    assert check(question, [(line, line)], opts=ON).ok


def test_a_surname_after_another_word_is_still_a_name():
    # the negative twin: 张 opening a name after a verb, not after 这/那/哪 or a numeral
    tags = [c.text for c in pinned("请问张国荣的代表作是什么？", ON)]
    assert "张国荣" in tags


# -- sibling measures --------------------------------------------------------------------

TAX = "fresh10/环境保护税税目税额表.pdf"  # the environmental protection tax's rate table


def _row(holding: str):
    return next(c for c in real_chunks(TAX, whole_path=True) if holding in c.text and c.kind == "table_row")


def test_the_noise_row_states_no_vibration_figure():
    row = _row("超标7-9 分贝")
    question = "工业振动超标7到9分贝，每月环保税交多少钱？"
    v = check(question, [(block_text(row), row.text)], opts=ON)
    missed = [c for c in v.missing if c.about == "measure"]
    assert not v.ok and missed and missed[0].text == "振动" and decisive(missed[0], v.constraints, ON)
    off = check(question, [(block_text(row), row.text)], opts=CheckOptions(sibling_measures=False))
    assert not any(c.about == "measure" for c in off.missing)


def test_the_noise_row_answers_the_noise_asked():
    # the positive twin: the same row for 工业噪声 (a dev question of the tenth set)
    row = _row("超标7-9 分贝")
    assert check("工业噪声超标7到9分贝，每月环保税交多少钱？", [(block_text(row), row.text)], opts=ON).ok


def test_a_sensor_row_of_temperature_is_no_humidity_figure():
    # the AHT10 page's measuring table, row by row (tests/data/real/AHT10温湿度传感器例程.md)
    page = (REAL / "AHT10温湿度传感器例程.md").read_text(encoding="utf-8")
    temperature = next(x for x in page.splitlines() if x.startswith("| 温度"))
    both = temperature + "\n" + next(x for x in page.splitlines() if x.startswith("| 相对湿度"))
    v = check("相对湿度的精度是多少？", [(temperature, temperature)], opts=ON)
    assert not v.ok and any(c.about == "measure" and c.text == "湿度" for c in v.missing)
    assert check("相对湿度的精度是多少？", [(both, both)], opts=ON).ok
    assert check("温度的精度是多少？", [(temperature, temperature)], opts=ON).ok


def test_a_symbol_inside_a_name_is_no_unit():
    from zhiku.verify.stated import unit_stated

    assert unit_stated("db", "夜间 45db(a)") and unit_stated("kw", "额定功率 7.5kw")
    assert not unit_stated("db", "iotdb 的 ttl 规则最多 1000 条")
    assert unit_stated("摄氏度", "-40至85摄氏度")


def test_a_symbol_inside_a_name_meets_no_unit_asked_of_a_word():
    # IoTDB's data-retention page (fresh13) states 「系统最多支持设置 1000 条 TTL 规则」; with the
    # product named in the same sentence, as its sibling pages write it, the db inside IoTDB is
    # no decibel, so 噪声多少分贝 finds no figure of it
    row = next(c for c in real_chunks("fresh13/IoTDB数据保留时间.md", whole_path=True) if "1000 条 TTL" in c.text)
    line = "IoTDB " + next(s for s in row.text.splitlines() if "1000 条 TTL" in s).lstrip("- ")
    v = check("噪声分贝最高是多少？", [(line, line)], opts=ON)
    assert not v.ok and any(c.text == "number" for c in v.missing)
    # the positive twin: a noise limit written in dB answers it
    line = "夜间设备运行噪声不得超过 45 dB(A)。"
    assert check("噪声分贝最高是多少？", [(line, line)], opts=ON).ok


def test_a_year_before_a_place_is_no_measure_word():
    # 台 opens 台湾 after 2022年: the place stays pinned (RGB 「2022年台湾人口多少？」)
    assert any(c.text == "台湾" for c in pinned("2022年台湾人口多少？", ON))


def test_a_name_missed_twice_is_named_once_in_the_reason():
    from zhiku.verify.answerable import _reason
    from zhiku.verify.pins import Constraint, Kind

    twice = (Constraint(Kind.SUBJECT, "高中班", "tag:n"), Constraint(Kind.SUBJECT, "高中班", "instance"))
    assert _reason(twice, ("招生",)) == "知识库中有「招生」的相关内容，但没有高中班的信息"
    other = (Constraint(Kind.SUBJECT, "高中班", "tag:n"), Constraint(Kind.SUBJECT, "初中班", "instance"))
    assert _reason(other, ("招生",)) == "知识库中有「招生」的相关内容，但没有高中班、初中班的信息"


def test_the_words_a_refusal_names_as_found_come_in_one_order():
    # 劳动合同法 第二十条 against 「2023年上海市最低工资标准是多少？」: the words the block holds,
    # rarest first; words of equal weight in the question's order, whatever the run's hash seed
    from zhiku.answer.finish import related_words

    article = "中华人民共和国劳动合同法 " + article_in(law_text("社会法/劳动合同法(2012-12-28).md"), "第二十条")
    terms = ["2023", "上海市", "最低", "工资", "标准", "是", "多少"]
    assert related_words(terms, article, lambda t: 1.0) == ["最低", "工资", "标准"]
    assert related_words(terms, article, {"最低": 2.0, "工资": 3.0, "标准": 1.0}.get) == ["工资", "最低", "标准"]
