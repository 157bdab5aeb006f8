"""Bold labels without a colon and the periods a rule states, on real public documents
(tests/data/real/fresh4, see its SOURCE.md): a troubleshooting entry labelled 「-   **可能原因**」
is answered by its cause and fix, a lead-in brings the code listing it announces, a term of
office counted (一届任期) pins no edition, 几个工作日 asks days, and a weekly recurrence says
when a meeting is held; each with a twin that keeps its old reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.answer.extractive import compose
from zhiku.answer.finish import _said
from zhiku.answer.reading import label_line, problem_span
from zhiku.retrieve.segment import query_terms, segmenters
from zhiku.types import Chunk, Hit
from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
HI3861 = "fresh4/Hi3861常见问题.md"


def _chunks(name: str) -> tuple[Chunk, ...]:
    return real_chunks(name)


def _entry(name: str, holding: str) -> Chunk:
    return next(c for c in _chunks(name) if c.kind == "text" and holding in c.text)


def _compose(question: str, chunks: list[Chunk], labels: bool = True) -> str:
    words = segmenters.create("words")
    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate(chunks)]
    text, _ = compose(query_terms(words(question)), hits, lambda t: 1.0, labels=labels)
    return text


def test_an_entry_labelled_in_bold_is_answered_by_its_cause_and_fix_not_its_label():
    # 「-   **现象描述**」 … 「-   **可能原因**」 … 「-   **解决办法**」: no colon, so the entry's problem
    # was quoted (it repeats the error the question names) and the answer stopped at the label
    entry = _entry(HI3861, "cannot find -lgcc")
    text = _compose("Hi3861编译时提示找不到-lgcc怎么处理？", [entry])
    assert "多余的“/”删除" in text and "**可能原因**" not in text and "cannot find -lgcc" not in text
    off = _compose("Hi3861编译时提示找不到-lgcc怎么处理？", [entry], labels=False)  # the lever off
    assert "**可能原因**" in off
    # the span: from the problem's label to the cause's, labels without a colon read only when asked
    lo, hi = problem_span(entry.text, bare=True)
    assert "cannot find -lgcc" in entry.text[lo:hi] and "多添加了一个" not in entry.text[lo:hi]
    assert problem_span(entry.text, bare=False) == (0, 0)
    # the twin: an entry labelled with colons (RocketMQ 问题描述：/解决方法：) reads as before
    rocket = _entry("RocketMQ运维管理.md", "connect to <null> failed")
    assert problem_span(rocket.text, bare=True) == problem_span(rocket.text, bare=False) != (0, 0)


def test_a_label_line_is_a_whole_line_of_bold_text_only():
    text = "-   **可能原因**\n\n    环境中未安装“gcc”。\n**注意**：先备份。\n"
    assert label_line(text, 0, "-   **可能原因**")
    at = text.index("环境")
    assert not label_line(text, at, "环境中未安装“gcc”。")
    at = text.index("**注意**")  # a label with its text after a colon says something
    assert not label_line(text, at, "**注意**：先备份。")


def test_a_lead_in_brings_the_code_listing_it_announces():
    # 「usr/bin目录下没有python软链接，请运行以下命令添加软链接：」 then ```…# ln -s …```: the
    # command is the answer; the lead-in alone stopped before it
    entry = _entry(HI3861, "ln -s /usr/local/bin/python3 python")
    question = "编译时提示/usr/bin/python找不到，怎么添加python软链接？"
    text = _compose(question, [entry])
    assert "ln -s /usr/local/bin/python3 python" in text and "```" not in text
    assert "ln -s" not in _compose(question, [entry], labels=False)


def test_a_term_of_office_counted_pins_no_edition():
    kinds = lambda q, **kw: [(c.kind, c.about) for c in pinned(q, **kw)]  # noqa: E731
    q = "合规SIG的SIG Leader一届任期多久，能连任几次？"
    assert (Kind.SUBJECT, "ordinal") not in kinds(q)
    assert (Kind.SUBJECT, "ordinal") in kinds(q, opts=CheckOptions(periods=False))  # off: 「一届」 is an edition
    # the twin: an edition named with or without 第 is still pinned
    assert [c.text for c in pinned("第十四届全国人大一次会议什么时候开？") if c.about == "ordinal"] == ["第十四届", "一次会议"]
    assert "十四届" in [c.text for c in pinned("十四届全国人大一次会议什么时候开？") if c.about == "ordinal"]
    charter = (REAL / "fresh4" / "OpenHarmony合规SIG治理章程.md").read_text(encoding="utf-8")
    said = next(line for line in charter.splitlines() if "最多连任1次" in line)
    assert check(q, [(charter, said)]).ok


def test_working_days_asked_is_a_count_of_days():
    q = "英文翻译文档提交后要在多少个工作日内完成评审？"
    assert [c.text for c in pinned(q) if c.kind is Kind.QUANTITY] == ["days"]
    assert [c.text for c in pinned(q, opts=CheckOptions(periods=False)) if c.kind is Kind.QUANTITY] == ["number"]
    process = (REAL / "fresh4" / "OpenHarmony发行版本配套文档流程.md").read_text(encoding="utf-8")
    said = next(s for s in process.split("。") if "翻译专家完成英文文档" in s)
    assert not check(q, [(process, said)]).ok  # the page states no such period: refused
    # the twin: a rule stating the working days answers it
    rule = "英文翻译文档提交后，评审人应当在5个工作日内完成评审。"
    assert check(q, [(rule, rule)]).ok


def test_a_weekly_recurrence_says_when_a_meeting_is_held():
    process = (REAL / "fresh4" / "OpenHarmony发行版本配套文档流程.md").read_text(encoding="utf-8")
    said = next(s for s in process.split("。") if "每双周周五" in s)
    assert check("SIG Release例会什么时候开？", [(process, said)]).ok
    # the twin: a sentence about the meeting naming no time still does not say when
    plain = "可以参加例行组织的SIG Release例会。"
    assert not check("SIG Release例会什么时候开？", [(plain, plain)]).ok


def test_a_markdown_link_in_a_quote_is_part_of_what_it_says():
    # 「…[issue看板](http://…)进行例行管理…14天内完成答复[1]」: the link's 「[」 ended the stretch,
    # so the answerability check read only the text after it and missed 14天
    text = "基于[issue看板](http://ci.example/x)管理，原则上需在问题提交后14天内完成答复[1]。另见[2]"
    assert "14天内" in _said(text, 1) and "issue看板" in _said(text, 1)
    assert _said(text, 2) == "。另见"
