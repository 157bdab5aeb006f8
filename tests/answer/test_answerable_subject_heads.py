"""A figure asked of a named product must be stated beside the attribute asked, not merely in a
sentence naming the product, which is checked on its own (config ``answerability_subject_heads``,
off by default)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.verify.answerable import check, decisive
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
OPS = "RocketMQ运维管理.md\n" + (REAL / "RocketMQ运维管理.md").read_text(encoding="utf-8")
# the section on automatic failover: it names RocketMQ and a version, nothing of a console
FAILOVER = OPS[OPS.index("#### 1.5"):OPS.index("#### 1.5") + 200]
SAID = next(line for line in FAILOVER.splitlines() if line.startswith("RocketMQ 5.0"))
# the note on mqadmin's options: 「…-b格式为ip:port，port默认是10911」
PORT = next(line for line in OPS.splitlines() if "port默认是10911" in line)


@pytest.mark.unit
def test_a_figure_beside_the_product_name_is_not_the_attribute_asked():
    q = "RocketMQ 控制台的最大连接数是多少？"
    qty = next(c for c in pinned(q) if c.kind is Kind.QUANTITY)
    assert "rocketmq" in qty.about.split("|")  # the name is among the words asked of ...
    no = check(q, [(FAILOVER, SAID)], opts=CheckOptions(subject_heads=True))  # ... but 「RocketMQ 5.0 开始支持…」 states no 连接数
    assert not no.ok and [c.kind for c in no.missing] == [Kind.QUANTITY]
    assert check(q, [(FAILOVER, SAID)]).ok  # off (the default): any figure beside the name


@pytest.mark.unit
def test_a_figure_beside_the_attribute_asked_still_answers():
    """The twin asks what the text states: the port's default (10911) beside 默认, of RocketMQ's
    Broker, both named in the block."""
    assert check("RocketMQ 的 Broker 端口默认是多少？", [(OPS, PORT)], opts=CheckOptions(subject_heads=True)).ok
