"""A network address with its port (127.0.0.1:8848) states no count or quantity a question asks,
unless the question asks for a port or an address (config ``answerability_addresses``): the
Nacos FAQ of tests/data/real/fresh5 (see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.answer.finish import uncounted
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, unaddressed, unnamed
from zhiku.verify.options import CheckOptions

pytestmark = pytest.mark.unit

ON, OFF = CheckOptions(addresses=True), CheckOptions(addresses=False)


def _raft_term():
    """The FAQ entry's chunk that tells how to check each node's term with curl on 127.0.0.1:8848."""
    return next(c for c in real_chunks("fresh5/Nacos常见问题.md", whole_path=True)
                if "raft/state" in c.text and c.kind == "text")


def test_addresses_are_left_out_unless_a_port_or_address_is_asked():
    said = "curl '127.0.0.1:8848/nacos/v1/ns/raft/state'，再连 localhost:9876 与 broker-a:10911"
    assert not any(d in unaddressed(said) for d in ("8848", "9876", "10911", "127"))
    assert "8848" in unaddressed(said, "nacos|默认|端口") and "9876" in unaddressed(said, "namesrv|地址")
    # a time of day and a count are no address
    assert "8:30" in unaddressed("每天8:30上班") and "3" in unnamed("共3个节点", addresses=True)


def test_a_port_does_not_state_how_many_nodes():
    chunk = _raft_term()
    block, said = block_text(chunk), chunk.text
    question = "Nacos 集群最少要部署几个节点？"
    on = check(question, [(block, said)], opts=ON)
    assert not on.ok and uncounted(on, said, question, articles=True, addresses=True)  # refused
    # off: the port 8848 beside 节点 was the count asked
    assert check(question, [(block, said)], opts=OFF).ok


def test_a_port_asked_is_met_by_the_address_either_way():
    # the positive twin: the same passage answers which port the server listens on
    chunk = _raft_term()
    question = "Nacos 服务默认监听哪个端口，端口号是多少？"
    assert check(question, [(block_text(chunk), chunk.text)], opts=ON).ok
    assert check(question, [(block_text(chunk), chunk.text)], opts=OFF).ok
