"""The share and size readings of the answerability check read the other forms an encyclopedia
states them in: a ratio of two figures answers 比例是多少 (``answerability_ratios``), an area or a
distance in the units of land (平方公里, 亩, 公顷, 公里) answers 多大 (``answerability_size_areas``);
each with its negative twin, which is still refused. The sentences are real lines of the CMRC
2018 corpus (Chinese Wikipedia articles)."""

from __future__ import annotations

import pytest

from zhiku.verify.answerable import check, decisive, has_quantity, share_met
from zhiku.verify.options import CheckOptions

pytestmark = pytest.mark.unit

PARK = ("乍都节公园（）位于泰国的首都曼谷的乍都节县，是拍凤裕庭路、威拍哇丽兰室路、甘烹碧路之间的一处公众游园地。"
        "1975年由泰国国家铁路局捐献土地建筑成公园。1980年12月4日，泰国国王拉玛九世62岁生日那天，公园开放。"
        "它的面积约为0.304平方公里。")
COLLEGE = "山东女子学院现有两个校区,总占地面积1133.87亩"
SCHOOL = f"山东女子学院 学校前身是创建于1952年的山东省妇女干部学校。{COLLEGE}"
RATIO = "目前学校男女生比例约为1：7（男：女）"


def _verdict(question: str, block: str, said: str, **readings: bool):
    return check(question, [(block, said)], opts=CheckOptions(**readings))


def test_an_area_in_square_kilometres_answers_how_big():
    said = "它的面积约为0.304平方公里。"
    assert _verdict("乍都节公园的面积有多大？", PARK, said, size_areas=True).ok
    off = _verdict("乍都节公园的面积有多大？", PARK, said, size_areas=False)
    assert not off.ok and [c.text for c in off.missing] == ["size"]
    assert all(decisive(c, off.constraints) for c in off.missing)


def test_an_area_in_mu_answers_how_big():
    assert _verdict("学校总占地面积有多大？", SCHOOL, COLLEGE, size_areas=True).ok
    off = _verdict("学校总占地面积有多大？", SCHOOL, COLLEGE, size_areas=False)
    assert not off.ok and [c.text for c in off.missing] == ["size"]


def test_a_sentence_stating_no_area_is_still_refused_how_big():
    # the negative twin: the park's opening day and the king's age are no size
    said = "1980年12月4日，泰国国王拉玛九世62岁生日那天，公园开放。"
    on = _verdict("乍都节公园的面积有多大？", PARK, said, size_areas=True)
    assert not on.ok and [c.text for c in on.missing] == ["size"]
    assert not has_quantity("size", "素坤逸路的163号", areas=True)  # a house number is no distance
    assert has_quantity("size", "素坤逸路的163公里之地段", areas=True)
    assert not has_quantity("size", "素坤逸路的163公里之地段", areas=False)
    # nor is the idiom of the last mile (a real FAQ line)
    assert not has_quantity("size", "解决了安全隔离、监控和服务迁移等上生产的最后一公里，以更稳定", areas=True)


def test_a_ratio_of_two_figures_answers_a_share_asked():
    question = "目前学校男女生比例是多少？"
    assert _verdict(question, f"山东女子学院 {RATIO}", RATIO, shares=True, ratios=True).ok
    off = _verdict(question, f"山东女子学院 {RATIO}", RATIO, shares=True, ratios=False)
    assert not off.ok and [c.text for c in off.missing] == ["比例是多少"]
    assert share_met("男女比例为三比一") and share_met("比分3比2")


def test_a_time_of_day_or_a_plain_count_states_no_share():
    # the negative twins: a clock time is two figures and a colon, a head count one figure
    question = "目前学校男女生比例是多少？"
    said = "学校现有在校生10000余人。"
    on = _verdict(question, f"山东女子学院 {said}", said, shares=True, ratios=True)
    assert not on.ok and "比例是多少" in [c.text for c in on.missing]
    assert not share_met("开学典礼于上午10:30开始", ratios=True)
    assert not share_met("报到截止到17:00前", ratios=True)
