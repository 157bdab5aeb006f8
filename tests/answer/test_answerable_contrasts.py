"""Questions the document on the topic does not answer, on real documents (tests/data/real, see
its SOURCE.md): a sibling qualifier the text states of another member of its set (config
``answerability_contrasts``), a figure asked of a Latin-named package that the answer states
nowhere (``answerability_named_figures``), a dotted key named in passing on the page of another
key of its parent (``answerability_sibling_keys``), a bound asked that the text states only the
other way (``answerability_bounds``), a count of a thing the quote never names
(``answerability_counted``), a case the quote names only to put it out of its document's scope
(``answerability_scopes``) and a share asked that the quote does not state
(``answerability_shares``); each with its positive twin, which is still answered."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.answer.finish import latin_named, untyped
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import bound_met, check, contrast_met, counted_met, decisive, key_met
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import contrasts, counted, scoped, shares

pytestmark = pytest.mark.unit


def _chunk(name: str, word: str):
    """The first chunk of tests/data/real/NAME holding ``word``, its block text and the
    sentence holding the word."""
    chunk = next(c for c in real_chunks(name, whole_path=True) if word in c.text)
    said = next(s for s in chunk.text.replace("。", "。\n").splitlines() if word in s)
    return block_text(chunk), said


def _refuses(question: str, block: str, said: str, reading: str, missing: list[str]):
    """The verdict on ``question`` with ``reading`` on: refused for ``missing`` (constraint texts),
    decisively; with it off the same quote answers."""
    on = check(question, [(block, said)], opts=CheckOptions(**{reading: True}))
    assert not on.ok and [c.text for c in on.missing] == missing
    assert all(decisive(c, on.constraints) for c in on.missing)
    assert check(question, [(block, said)], opts=CheckOptions(**{reading: False})).ok
    return on


def test_a_sibling_qualifier_the_text_states_of_the_other_member_refuses():
    block, said = _chunk("fresh5/女职工劳动保护特别规定.md", "98天产假")
    for question in ("男职工的陪产假有多少天？", "男职工的产假有多少天？"):
        assert "男职工" in _refuses(question, block, said, "contrasts", ["男|职工"]).reason
    # the positive twin: the qualifier the text states is met, and pins nothing more
    twin = check("女职工的产假有多少天？", [(block, said)], opts=CheckOptions(contrasts=True))
    assert twin.ok and not any(c.about == "contrast" for c in twin.constraints)


def test_the_other_sets_of_siblings_read_alike():
    block, said = _chunk("个人所得税专项附加扣除暂行办法.html", "每月400元")
    assert not check("在中国境外接受学历继续教育，每月能扣除多少钱？", [(block, said)]).ok
    assert check("在中国境内接受学历继续教育，每月能扣除多少钱？", [(block, said)]).ok
    block, said = _chunk("fresh6/网络数据安全管理条例.md", "5000万")
    assert not check("注册用户达到多少算中型网络平台？", [(block, said)]).ok
    assert check("注册用户达到多少算大型网络平台？", [(block, said)]).ok


def test_a_qualifier_is_read_only_where_it_opens_a_word_and_the_text_names_a_sibling():
    assert contrasts("子女教育每月扣多少？") == ()  # 女 ends 子女
    assert contrasts("男女同工同酬吗？") == ()  # both members
    assert [c.text for c in contrasts("男职工的陪产假有多少天？")] == ["男|职工"]
    # a text naming neither member is read as before; one naming both meets either
    assert contrast_met("男|职工", "职工生育享受98天产假")
    assert contrast_met("男|职工", "男职工和女职工同工同酬")


def test_a_fee_of_a_named_package_the_answer_states_nowhere_refuses():
    block, said = _chunk("fresh5/RT-Thread-OTA用户手册.pdf", "闭源包")
    v = check("rt_ota 软件包的授权费用是多少？", [(block, said)])
    # the fee is missing, not decisively: a rule may state a sum otherwise
    assert not v.ok and [c.text for c in v.missing] == ["amount"]
    assert not any(decisive(c, v.constraints) for c in v.missing)
    assert latin_named(v, said) and untyped(v, said)  # named, and no figure in the answer: a refusal
    # a figure in a unit the check does not read as the kind asked stays a weak answer
    block, said = _chunk("低功耗例程.md", "2秒")
    v = check("每次按下唤醒按键后 LED 会点亮多长时间？", [(block, said)])
    assert not latin_named(v, said)
    # the positive twin: a statute's rule names no Latin thing, and stays a weak answer
    law = "第四十四条 有下列情形之一的，用人单位应当按照下列标准支付高于劳动者正常工作时间工资的工资报酬"
    rule = check("加班费的标准是多少？", [(law, law)])
    assert not latin_named(rule, law)


def test_a_key_named_in_passing_on_another_keys_page_refuses():
    block, said = _chunk("fresh2/zTree-API-setting.check.chkStyle.html", "radioType")
    _refuses("zTree的setting.check.radioType默认值是什么？", block, said, "sibling_keys", ["check|radiotype"])
    # the positive twin: the page's own key is met
    assert check("zTree的setting.check.chkStyle默认值是什么？", [(block, said)]).ok
    # a key of another parent, or a page titled with no key, is read as before
    assert key_met("async|url", block) and key_met("check|radiotype", "zTree 设置 radioType")


def test_a_bound_the_text_states_only_the_other_way_refuses():
    block, said = _chunk("fresh/上海市劳动合同条例.md", "试用期不得超过六个月")
    _refuses("上海劳动合同期限满三年的，试用期最短多久？", block, said, "bounds", ["最短"])
    # the positive twin: the bound the text states
    assert check("上海劳动合同期限满三年的，试用期最长多久？", [(block, said)]).ok
    # a negated limit in other words is an upper bound too, whatever 以上 it says
    block, said = _chunk("fresh4/OpenHarmony日志打印规范.md", "不要打印超过160个字符")
    assert check("一条日志最长不要超过多少个字符？", [(block, said)]).ok
    # a term holding the bound's word (最低工资) is no bound asked of the text
    assert bound_met("最低", "第四十八条 国家实行最低工资保障制度。", "国家实行最低工资保障制度")


def test_a_count_of_a_thing_the_quote_never_names_refuses():
    block, said = _chunk("fresh4/OpenHarmony合规SIG治理章程.md", "有效贡献次数不少于10次")
    _refuses("合规SIG Committer每月需要完成多少次代码评审？", block, said, "counted", ["评审"])
    # the positive twin: the count of what the quote counts
    assert check("合规SIG的Committer候选人需要多少次有效贡献？", [(block, said)]).ok
    # a quote stating no count at all is left to the other readings
    assert counted_met("险种", "职工应当参加基本养老保险、基本医疗保险、工伤保险、失业保险和生育保险")
    # a count asked of no noun (「最多会重试几次」) pins nothing
    assert counted("消息消费失败了最多会重试几次？") == ()


def test_a_quote_naming_the_case_only_to_exclude_it_refuses():
    block, said = _chunk("fresh4/OpenHarmony许可证与版权规范.md", "不适用分发第三方开源软件")
    _refuses("引入第三方开源软件需要提交哪些评审材料？", block, said, "scopes", ["引入|第三方|开源|软件|提交|评审|材料"])
    # the positive twins: what the scope clause itself states, and a yes/no question it answers
    assert check("这个规范适用于哪个社区？", [(block, said)], opts=CheckOptions(scopes=True)).ok
    assert scoped("这个规范适用于分发第三方开源软件的场景吗？") == ()


def test_a_share_asked_that_the_quote_does_not_state_refuses():
    block, said = _chunk("fresh/上海市劳动合同条例.md", "前十二个月的平均工资收入")
    _refuses("试用期的工资最低不能低于转正工资的百分之多少？", block, said, "shares", ["百分之多少"])
    # the positive twin: the share the regulation states
    block, said = _chunk("fresh/上海市劳动合同条例.md", "百分之五十以下")
    question = "上海非全日制劳动者每月工作时间不能超过法定工作时间的百分之多少？"
    assert check(question, [(block, said)], opts=CheckOptions(shares=True)).ok
    assert shares("上海城镇职工的工伤保险费率是多少？") == ()  # a rate asked is read as before
