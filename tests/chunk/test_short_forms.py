"""The short forms a document defines for itself (chunk.shortforms, config ``short_forms``),
read on real documents (tests/data/real, see its SOURCE.md): a question's short form counts in
a block of the same document holding the long form, and the long form in one holding the
short form; a short form the document does not define stays missing."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.chunk.shortforms import counterparts, definitions
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


def test_a_latin_short_form_stands_for_the_whole_name_before_it():
    """A capitals' abbreviation's long form is the name its bracket follows, read back over
    the words a name is made of (sentences of the shared laws corpus and tests/data/real):
    not cut to the last words (报价利率, 识别代号; 甲基苯丙胺, another drug's name, of MDMA's
    亚甲二氧基甲基苯丙胺), not reaching back into a verb (具有) or a time word (一年期), and
    nothing after a sentence's pronouns and particles (…我也乐意啊（QAQ）)."""
    assert definitions(["（二）3，4-亚甲二氧基甲基苯丙胺（MDMA）等苯丙胺类毒品（甲基苯丙胺除外）、吗啡一百克以上；"]) \
        == {"MDMA": "亚甲二氧基甲基苯丙胺"}
    assert definitions(["人民法院应当在当事人请求的范围内按照中国人民银行授权全国银行间同业拆借中心公布的"
                        "一年期贷款市场报价利率（LPR）计算。"]) == {"LPR": "贷款市场报价利率"}
    assert definitions(["（一）产品品牌、型号、车辆类型、车辆识别代号（VIN）、生产日期；"]) == {"VIN": "车辆识别代号"}
    assert definitions(["1．端羧基聚丁二烯(CTPB)", "2．端羟基聚丁二烯(HTPB)"]) == {
        "CTPB": "羧基聚丁二烯", "HTPB": "羟基聚丁二烯"}  # two names, not one 聚丁二烯 twice
    assert definitions(["工作频率高达 168 MHz，具有浮点运算单元 (FPU)，该单元支持所有ARM单精度数据处理指令"]) \
        == {"FPU": "浮点运算单元"}
    assert definitions(["如果大家想有仲裁事情，可以咨询我，北京这边给我介绍工作的我也乐意啊（QAQ）"]) == {}
    # nor into a distinguishing word (所有, fresh/Java开发手册黄山版.pdf)
    assert definitions(["开发人员需要和测试人员一起确定单元测试范围，单元测试最好覆盖所有测试用例（UC）。"]) \
        == {"UC": "测试用例"}
    # the positive twins: a name standing alone before its bracket reads as before
    assert definitions(["| 中央处理器(CPU) |", "| 神经网络处理器(NPU) |", "> 核磁共振成像（NMRI）"]) == {
        "CPU": "中央处理器", "NPU": "神经网络处理器", "NMRI": "核磁共振成像"}
    _, acl = _forms(ACL)
    assert list(acl.values()) == [{"ACL": "权限控制"}]


def test_a_question_holding_one_form_is_given_the_other_of_the_documents_defining_it():
    """The other form of each defined form a question holds, with the documents defining it:
    a short form in any case as a word of its own, a Chinese one as whole words of the
    question; a form two documents define differently adds nothing."""
    chunks, acl = _forms(ACL)
    _, fund = _forms(FUND)
    forms = {**acl, **fund}
    doc = chunks[0].doc_id
    assert counterparts("改了 ACL 权限配置以后要重启 Broker 吗？", forms) == {"权限控制": (doc,)}
    assert counterparts("改了 acl 权限配置以后要重启 Broker 吗？", forms) == {"权限控制": (doc,)}
    assert counterparts("RocketMQ 的权限控制写在哪个配置文件里？", forms) == {"ACL": (doc,)}
    assert list(counterparts("市公积金管委会由哪些人组成？", forms)) == ["市住房公积金管理委员会"]
    # the positive twin: a question holding both forms, or neither, is given nothing
    assert counterparts("权限控制（ACL）是什么？", forms) == {}
    assert counterparts("RocketMQ 的 ACLS 是什么？", forms) == {}
    # 申请人 is no word of 「申请人身安全保护令」
    water = {"water": {"申请人": "申请取水的单位或者个人"}}
    assert counterparts("被家暴后去法院申请人身安全保护令，多久有答复？", water) == {}
    assert counterparts("申请人应当提交哪些材料？", water) == {"申请取水的单位或者个人": ("water",)}
    # defined differently by two documents: it names no one thing
    assert counterparts("细则什么时候施行？", {"a": {"细则": "实施细则甲"}, "b": {"细则": "实施细则乙"}}) == {}


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
