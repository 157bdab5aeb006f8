"""Three readings of the answerability check on the documents of tests/data/real/fresh6 (see
tests/data/real/SOURCE.md): 「X由谁担任」 asks the holder of the post X (``answerability_posts``);
a word right after a Latin name glosses it (``answerability_glosses``); a document the question
cites as its source in 《》 must be one the knowledge base holds (``answerability_documents``)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import REAL, real_chunks
from tests.conftest import copied_kb
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check, decisive
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import cited_documents

PLAN = "fresh6/国家粮食应急预案.html"


def _chunk(name: str, words: str):
    return next(c for c in real_chunks(name, whole_path=True) if words in c.text and c.kind != "parent")


def _said(chunk, words: str) -> str:
    """The sentence of ``chunk`` holding ``words``, as the composer would quote it."""
    return next(s for s in chunk.text.replace("\n", "。").split("。") if words in s) + "。"


@pytest.mark.unit
def test_the_holder_of_a_post_is_read_beside_the_post():
    chunk = _chunk(PLAN, "总指挥：")
    block, said = block_text(chunk), _said(chunk, "总指挥：")
    question = "国家粮食应急工作指挥部的总指挥由谁担任？"
    assert check(question, [(block, said)], opts=CheckOptions(posts=True)).ok
    # off: 担任 must be stated, and 「国家发展改革委主要负责人」 names nobody the tagger knows
    off = check(question, [(block, said)], opts=CheckOptions(posts=False))
    assert not off.ok and "担任" in [c.text for c in off.missing]


@pytest.mark.unit
def test_another_post_of_the_same_body_does_not_answer():
    # the office's passage names its director, held by the grain bureau's head: not the commander
    office = _chunk(PLAN, "兼任办公室主任")
    block, said = block_text(office), _said(office, "兼任办公室主任")
    on = check("国家粮食应急工作指挥部的总指挥由谁担任？", [(block, said)], opts=CheckOptions(posts=True))
    assert not on.ok and [c.text for c in on.missing] == ["总指挥"]
    # the positive twin: who does an act is read as before, an institution answering 谁
    rule = _chunk(PLAN, "负责解释")
    for opts in (CheckOptions(posts=True), CheckOptions(posts=False)):
        assert check("国家粮食应急预案由谁负责解释？", [(block_text(rule), _said(rule, "负责解释"))], opts=opts).ok


@pytest.mark.unit
def test_a_word_after_a_latin_name_glosses_it():
    chunk = _chunk("fresh6/Vant4更新日志.md", "新增 Highlight 组件")
    block, said = block_text(chunk), _said(chunk, "新增 Highlight 组件")
    question = "Vant 的 Highlight 高亮组件是哪个版本加进来的？"
    on, off = (check(question, [(block, said)], opts=o) for o in (CheckOptions(glosses=True), CheckOptions(glosses=False)))
    # on: what is missing (高亮, and the user's verb 加进来) only lowers the confidence; off: 高亮 refuses
    assert not any(decisive(c, on.constraints, CheckOptions()) for c in on.missing)
    assert any(c.text == "高亮" and decisive(c, off.constraints, CheckOptions()) for c in off.missing)
    # the twin without the gloss reads the same either way; a gloss does not stand in for its name
    plain = check("Vant 的 Highlight 组件是哪个版本加进来的？", [(block, said)], opts=CheckOptions(glosses=False))
    assert not any(decisive(c, plain.constraints, CheckOptions()) for c in plain.missing)
    other = check("Vant 的 Swipe 轮播组件是哪个版本加进来的？", [(block, said)], opts=CheckOptions(glosses=True))
    assert any(c.text == "swipe" and decisive(c, other.constraints, CheckOptions()) for c in other.missing)


@pytest.mark.unit
def test_the_documents_a_question_cites_as_its_source():
    assert cited_documents("按照《数据出境安全评估办法》，数据出境安全评估结果的有效期是多久？") == ("数据出境安全评估办法",)
    assert cited_documents("《中华人民共和国个人信息保护法》规定敏感个人信息要单独同意吗？") == ("个人信息保护法",)
    assert cited_documents("根据《公司法（2018年修正）》第几条？") == ("公司法",)
    # a title named, not cited: a novel asked about, a certificate in a narrative
    assert cited_documents("《三体》这本小说的作者是谁？") == ()
    assert cited_documents("被告人伪造《医疗机构执业许可证》开设诊所，应如何处理？") == ()


@pytest.fixture(scope="module")
def rules_kb(tmp_path_factory):
    """The data-security regulation of fresh6 alone, keyword-only."""
    return copied_kb(tmp_path_factory, REAL / "fresh6", ["网络数据安全管理条例.md"], "rules")


@pytest.mark.integration
def test_a_cited_document_the_knowledge_base_does_not_hold_refuses(rules_kb):
    from zhiku.ask.flow import ask
    from zhiku.ask.query import Query
    from tests.answer.conftest import with_config

    question = "按照《数据出境安全评估办法》，数据出境安全评估结果的有效期是多久？"
    ans = ask(rules_kb, Query(question, use_cache=False))
    assert ans.refused and "《数据出境安全评估办法》" in ans.text
    # off: answered from the regulation, which holds the topic (数据出境安全评估) but not that rule
    off = ask(with_config(rules_kb, answerability_documents=False), Query(question, use_cache=False))
    assert not off.refused and off.citations[0].doc_path == "网络数据安全管理条例.md"


@pytest.mark.integration
def test_a_cited_document_it_holds_or_quotes_is_answered(rules_kb):
    from zhiku.ask.flow import ask
    from zhiku.ask.query import Query

    assert rules_kb.holds_document("网络数据安全管理条例") and rules_kb.holds_document("个人信息保护法")
    assert not rules_kb.holds_document("数据出境安全评估办法")
    # named by its own title, and by a law it quotes (《中华人民共和国个人信息保护法》): answered
    for question in ("根据《网络数据安全管理条例》，国家网信部门负责统筹协调什么工作？",
                     "依照《个人信息保护法》，处理不满十四周岁未成年人个人信息要取得谁的同意？"):
        ans = ask(rules_kb, Query(question, use_cache=False))
        assert not ans.refused, (question, ans.reason)


@pytest.mark.unit
def test_the_doer_of_a_rule_s_act_is_whoever_does_it():
    """「App 收集…」: a numbered provision stating the act (收集) for whoever does it does not name
    the user's app; its absence lowers the confidence (``answerability_rule_doers``)."""
    chunk = _chunk("fresh6/网络数据安全管理条例.md", "不满十四周岁未成年人个人信息的，应当取得")
    block, said = block_text(chunk), _said(chunk, "不满十四周岁未成年人个人信息的，应当取得")
    question = "App 收集不满十四岁孩子的个人信息要经过谁同意？"
    on, off = (check(question, [(block, said)], opts=o) for o in (CheckOptions(), CheckOptions(rule_doers=False)))
    assert [c.text for c in on.missing] == ["app"] and not decisive(on.missing[0], on.constraints)
    assert [c.text for c in off.missing] == ["app"] and decisive(off.missing[0], off.constraints)
    # an act the provision does not state: the name still decides
    other = check("App 推送广告要经过谁同意？", [(block, said)], opts=CheckOptions())
    assert any(c.text == "app" and decisive(c, other.constraints) for c in other.missing)
    # the positive twin: asked without the app, answered either way
    for opts in (CheckOptions(), CheckOptions(rule_doers=False)):
        assert check("收集不满十四周岁未成年人的个人信息要经过谁同意？", [(block, said)], opts=opts).ok


@pytest.mark.integration
def test_a_deleted_document_no_longer_holds_what_it_quoted(tmp_path_factory):
    """A logically deleted document (awaiting ``zhiku compact``) keeps its passages in the store,
    but a law only it quoted is no longer held: a question naming that law is refused again."""
    kb = copied_kb(tmp_path_factory, REAL / "fresh6", ["网络数据安全管理条例.md"], "deleted_rules")
    assert kb.holds_document("个人信息保护法") and kb.holds_document("网络数据安全管理条例")
    (doc,) = [d for d in kb.store.documents() if not d.deleted]
    with kb.store.transaction():
        kb.store.mark_deleted([doc.doc_id])
    assert not kb.holds_document("个人信息保护法") and not kb.holds_document("网络数据安全管理条例")
