"""The short forms a document defines for itself (chunk.shortforms, config ``short_forms``),
read on real documents (tests/data/real, see its SOURCE.md): a question's short form counts in
a block of the same document holding the long form, and the long form in one holding the
short form; a short form the document does not define stays missing."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.chunk.shortforms import definitions
from zhiku.verify.answerable import check

pytestmark = pytest.mark.unit

ACL = "RocketMQ权限控制.md"
FUND = "fresh/上海市住房公积金管理若干规定.md"


def _forms(name: str) -> tuple[tuple, dict[str, dict[str, str]]]:
    chunks = real_chunks(name, whole_path=True)
    return chunks, {chunks[0].doc_id: definitions(c.text for c in chunks if c.kind != "parent")}


def test_a_manual_and_a_regulation_define_their_short_forms():
    _, acl = _forms(ACL)
    assert list(acl.values()) == [{"ACL": "权限控制"}]  # 「权限控制（ACL）主要为RocketMQ提供…」
    _, fund = _forms(FUND)
    got = next(iter(fund.values()))
    assert got["市公积金管委会"] == "市住房公积金管理委员会"  # 「…（以下简称市公积金管委会）」
    assert got["受托银行"] == "受委托办理住房公积金金融业务的银行"
    # a title's own tail (「《职工带薪年休假条例》（以下简称条例）」) and a translation in
    # brackets (「评分（Score）」) or a pin's name (「引脚（PC13）」) define nothing
    assert definitions(["为了实施《职工带薪年休假条例》（以下简称条例），制定本办法。",
                        "漏洞评分（Score）采用CVSS。", "按键连接到引脚（PC13）。"]) == {}
    # a short form made of other words than the phrase before it is left out
    assert definitions(["擅自设置、使用无线电台（站）即广播电台（以下简称“黑广播”）"]) == {}


def test_the_short_form_counts_in_a_row_of_the_document_that_never_repeats_it():
    chunks, forms = _forms(ACL)
    row = next(c for c in chunks if c.kind == "table_row" and "发送权限" in c.text)
    question = "ACL 里 PUB 权限是什么意思？"
    off = check(question, [(block_text(row), row.text)])
    assert not off.ok and [c.text for c in off.missing] == ["acl"]
    assert "权限控制（ACL）" in block_text(row, forms)
    assert check(question, [(block_text(row, forms), row.text)]).ok
    # the negative twin: a short form the document does not define is still missing
    other = check("RPC 里 PUB 权限是什么意思？", [(block_text(row, forms), row.text)])
    assert not other.ok and [c.text for c in other.missing] == ["rpc"]
    # the positive twin: a block naming ACL itself is met either way, and gets nothing added
    named = next(c for c in chunks if c.kind == "table_row" and "defaultGroupPerm" in c.text and "ACL" in block_text(c))
    assert block_text(named, forms) == block_text(named)
    assert check(question, [(block_text(named), named.text)]).ok


def test_the_long_form_counts_where_the_regulation_uses_its_short_form():
    chunks, forms = _forms(FUND)
    art = next(c for c in chunks if c.kind != "parent" and "由受托银行办理贷款手续" in c.text)
    text = block_text(art, forms)
    assert "受委托办理住房公积金金融业务的银行（受托银行）" in text
    # a document's definitions are its own: another document's block is read as it is
    other_doc = {"elsewhere": next(iter(forms.values()))}
    assert block_text(art, other_doc) == block_text(art)
