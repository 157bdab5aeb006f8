"""Readings of what a question pins on real documents (tests/data/real, see its SOURCE.md):
a model named in passing on another model's page (config ``answerability_siblings``), work
asked as 多少人力 (``answerability_effort``) and 一个 as the indefinite article
(``answerability_articles``)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.answer.finish import uncounted
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, unarticled
from zhiku.verify.instances import sibling_model
from zhiku.verify.options import CheckOptions

pytestmark = pytest.mark.unit


def _chunk(name: str, word: str, kind: str):
    """The chunk of tests/data/real/NAME of ``kind`` holding ``word``."""
    return next(c for c in real_chunks(name, whole_path=True) if word in c.text and c.kind == kind)


def test_a_model_named_once_in_a_link_on_another_models_guide_is_not_covered():
    chunk = _chunk("fresh2/Hi3751V350烧录指南.md", "upload_protocol", "parent")
    block = block_text(chunk)
    said = next(s for s in chunk.text.splitlines() if "hiburn-net" in s)
    assert "Hi3516DV300" in block  # 「…Hi3516DV300/Hi3751V350/Hi3518EV300开发板串口驱动安装指导」
    question = "Hi3516DV300烧录时upload_protocol应该选什么？"
    on = check(question, [(block, said)], opts=CheckOptions(siblings=True))
    assert not on.ok and [c.text for c in on.missing] == ["hi3516dv300"]
    assert check(question, [(block, said)], opts=CheckOptions(siblings=False)).ok
    # the positive twin: the guide's own board is met either way
    twin = "Hi3751V350烧录时upload_protocol应该选什么？"
    assert check(twin, [(block, said)], opts=CheckOptions(siblings=True)).ok
    # quoted in the list of boards a driver page serves, it is still named in passing
    link = next(s for s in chunk.text.splitlines() if "Hi3516DV300/" in s)
    assert not check(question, [(block, f"{link}{said}")], opts=CheckOptions(siblings=True)).ok
    # the asked model quoted by the answer on its own is met, whatever else the block names
    assert not sibling_model("hi3516dv300", block, "Hi3516DV300 的 upload_protocol 选 hiburn-net")


def test_a_model_of_the_same_line_by_a_longer_name_is_the_same_model():
    chunk = next(c for c in real_chunks("ESP-AT模组出厂参数表.csv") if "ESP32C3-SPI" in c.text)
    assert not sibling_model("esp32-c3", block_text(chunk), "")  # ESP32C3-SPI: an ESP32-C3 module
    assert not sibling_model("v1.44.0", "v1.43.0 v1.43.0", "")  # a release number is no model


def test_work_asked_as_manpower_is_met_by_hours_a_week():
    chunk = _chunk("fresh3/登录易SIG介绍.pdf", "50小时/周", "table_row")
    question = "登录易SIG统筹预计投入多少人力？"
    block, said = block_text(chunk), chunk.text
    assert check(question, [(block, said)], opts=CheckOptions(effort=True)).ok
    off = check(question, [(block, said)], opts=CheckOptions(effort=False))
    assert not off.ok and [c.text for c in off.missing] == ["people"]  # 多少人 read as a head count


def test_a_head_count_still_answers_manpower():
    # the positive twin: 「…投入10人以上」 states the work as people, met either way
    said = "入围单位每月需投入10人以上参与主干开发板的共建。"
    question = "入围单位每月至少要保证多少人力投入？"
    for effort in (True, False):
        assert check(question, [(f"选型结果公示 {said}", said)], opts=CheckOptions(effort=effort)).ok


def test_the_indefinite_article_states_no_count():
    chunk = _chunk("RocketMQ运维管理.md", "一个字符串拼接", "text")
    said = next(s for s in chunk.text.splitlines() if "一个字符串拼接" in s)
    question = "RocketMQ 控制台的默认端口是多少？"
    on = check(question, [(block_text(chunk), said)], opts=CheckOptions(articles=True))
    assert not on.ok and uncounted(on, said, question, articles=True)  # refused
    off = check(question, [(block_text(chunk), said)], opts=CheckOptions(articles=False))
    assert off.ok  # 「做了一个字符串拼接」 was a count beside 控制台


def test_a_bounded_one_is_still_a_count():
    assert unarticled("集群至少一个节点") == "集群至少一个节点"
    assert unarticled("同一时间只能有一个 Master") == "同一时间只能有一个 Master"
    assert unarticled("第一个参数，共十一个") == "第一个参数，共十一个"
    assert unarticled("保存一个月") == "保存一个月"
    assert "一个" not in unarticled("是一个分布式消息中间件")


def test_a_size_asked_is_not_met_by_a_share():
    chunk = _chunk("RocketMQ运维管理.md", "accessMessageInMemoryMaxRatio", "text")
    said = next(s for s in chunk.text.splitlines() if "accessMessageInMemoryMaxRatio" in s)
    question = "RocketMQ 的 Broker 服务器推荐配多大内存？"
    on = check(question, [(block_text(chunk), said)], opts=CheckOptions(sizes=True))
    assert not on.ok and [c.text for c in on.missing] == ["size"]  # 40% of memory is no size
    assert check(question, [(block_text(chunk), said)], opts=CheckOptions(sizes=False)).ok


def test_a_size_the_board_table_states_is_met():
    # the positive twin: 「底板尺寸 | 180mm×130mm」
    chunk = _chunk("fresh2/润和DAYU200开发套件说明.md", "底板尺寸", "table_row")
    question = "HH-SCDAYU200的底板尺寸有多大？"
    for sizes in (True, False):
        assert check(question, [(block_text(chunk), chunk.text)], opts=CheckOptions(sizes=sizes)).ok


def test_a_size_a_setting_states_in_bytes_without_a_unit_is_met():
    # the twin of the share: a number in a clause naming a size is a size; a percentage is not
    question = "RocketMQ 一条消息最大能发多大？"
    said = "maxMessageSize 消息大小上限默认 4194304。"
    assert check(question, [(f"RocketMQ 参数 {said}", said)], opts=CheckOptions(sizes=True)).ok
    share = "超过该机器内存的百分比（accessMessageInMemoryMaxRatio=40%）。"
    assert not check(question, [(f"RocketMQ 消息 {share}", share)], opts=CheckOptions(sizes=True)).ok


def test_a_day_asked_is_not_met_by_a_month():
    name = "fresh3/OpenHarmony安全漏洞公告2025-06.md"
    question = "2025年6月的安全漏洞公告是哪天发布的？"
    summary = _chunk(name, "共 11 行", "table_summary")  # 「表格（2025年06月安全漏洞）共 11 行，…」
    on = check(question, [(block_text(summary), summary.text)], opts=CheckOptions(days=True))
    assert not on.ok and "day" in [c.text for c in on.missing]
    assert check(question, [(block_text(summary), summary.text)], opts=CheckOptions(days=False)).ok
    # the positive twin: the bulletin's own line 「_发布于2025.06.03_」 states the day
    head = _chunk(name, "发布于2025.06.03", "text")
    said = next(s for s in head.text.splitlines() if "发布于" in s)
    assert check(question, [(block_text(head), said)], opts=CheckOptions(days=True)).ok
