"""Who or what fills what a question asks, read in the clause that states it: the doer of an
act, the holder of a role, the sum an act moved; each with a twin that is still answered."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zhiku.verify.answerable import check, decisive
from zhiku.verify.holders import sum_act
from zhiku.verify.pins import Kind, pinned

DATA = Path(__file__).resolve().parents[1] / "data"
# CMRC 2018 TRIAL_662 乍都节公园 (tests/data/eval/SOURCE.md)
PARK = next(json.loads(line)["text"] for line in (DATA / "eval" / "cmrc2018_corpus.jsonl").open(encoding="utf-8")
            if json.loads(line)["id"] == "TRIAL_662")
CONTRACT = (DATA / "laws" / "社会法" / "劳动合同法(2012-12-28).md").read_text(encoding="utf-8")


def _missing(question: str, text: str) -> list[tuple[str, str, bool]]:
    v = check(question, [(text, text)])
    return [(c.text, c.about, decisive(c, v.constraints)) for c in v.missing]


@pytest.mark.unit
def test_the_doer_must_stand_in_the_clause_of_the_act():
    """「1975年由泰国国家铁路局捐献土地建筑成公园」 names who gave the land (after 由, though the
    tagger reads 铁路局 as a common noun); 「泰国国王拉玛九世62岁生日那天，公园开放」 states the opening
    and names a king in another clause: nobody opened it, decisively refused. A news snippet
    (RGB zh) saying 「其他国家的军队将参与这次演习」 names no country taking part, although
    other sentences name 俄罗斯 holding it and 日本 naming the islands."""
    assert check("乍都节公园是由谁捐献土地建造出来的？", [(PARK, PARK)]).ok
    rules = (DATA / "structured" / "docs" / "设备采购管理规定.md").read_text(encoding="utf-8")
    for label in ("第三条", "第四条"):  # 「由部门负责人和分管副总经理共同签字」, 「须经总经理签字」
        art = next(line for line in rules.splitlines() if line.startswith(label))
        assert check("采购审批需要谁签字？", [(art, art)]).ok, label
    assert _missing("乍都节公园是由谁开放的？", PARK) == [("开放", "act", True)]
    drill = ("据塔斯社报道，俄罗斯国防部7月26日宣布，俄军定于8月30日至9月5日在东部军区举行“东方-2022”首长司令部战略演习。"
             "“东方-2022”战略演习旨在确保东部地区军事安全，将覆盖东部军区13个靶场，其中两个靶场位于南千岛群岛（日本称北方四岛）。"
             "声明还说，除了东部军区部队，空降兵部队、远程轰炸机队和运输机队以及其他国家的军队将参与这次演习。")
    assert _missing("哪些国家参加了“东方-2022”演习", drill) == [("参加", "act", True)]


@pytest.mark.unit
def test_a_clause_without_a_subject_continues_the_one_before():
    """「山口茜…战胜安洗莹，获得2023年马来西亚公开赛女单冠军」 (RGB zh): the clause naming the
    title opens with its verb, its subject (山口茜) stands in the clause before; 「主创团队都
    觉得，在…北京这座双奥之城」 (RGB zh) names the team and, in another clause, a city the
    tagger reads as a person's name: nobody in the team, refused."""
    final = "1月15日，山口茜12-21 、21-19、21-11战胜安洗莹，获得2023年马来西亚公开赛女单冠军。"
    assert check("2023年马来西亚公开赛女单冠军是谁？", [(final, final)]).ok
    team = "主创团队都觉得，在自己的国家、在北京这座双奥之城，见证北京冬奥会这一历史时刻是难得的机遇。"
    assert _missing("官方电影的主创团队都有谁？", team) == [("团队", "role", True)]


@pytest.mark.unit
def test_the_sum_asked_must_be_the_sum_of_the_act():
    """劳动合同法 第八十四条 second paragraph: the employer taking property as a deposit is fined
    「每人五百元以上二千元以下」 and, for damage done, 「应当承担赔偿责任」 with no sum: it answers
    how much the fine is, not how much is paid in damages (decisively: a sum of money)."""
    para = next(line for line in CONTRACT.splitlines() if "以担保或者其他名义向劳动者收取财物" in line)
    assert check("用人单位以担保名义收取财物被罚多少钱？", [(para, para)]).ok
    assert check("用人单位以担保名义收取财物会被罚款多少？", [(para, para)]).ok
    assert _missing("用人单位以担保名义收取财物要赔多少钱？", para) == [("赔", "sum", True)]


@pytest.mark.unit
def test_which_act_a_sum_question_asks_about():
    """The verb before 多少 (了 between allowed) or the word after 被; a copula or a modal asks
    no act."""
    assert sum_act("知网垄断被罚了多少钱") == "罚"
    assert sum_act("阿里巴巴被罚款多少") == "罚款"
    assert sum_act("特斯拉赔了多少钱") == "赔"
    assert sum_act("iphone se 3的起售价是多少钱") == ""
    assert sum_act("买一张票需要多少钱") == ""
    assert not [c for c in pinned("违法解除劳动合同赔偿金是多少？") if c.kind is Kind.FOCUS]
