"""A troubleshooting entry's parts labelled by a plain word alone on their line and a list
with no lead-in, on real public documents (tests/data/real/fresh6, see its SOURCE.md): a PDF
FAQ's entry quoting an error message, then 「• 原因」 and 「• 解决方式」, is answered by its cause
when the question asks the reason and by its fix when it asks how; a changelog section of
bullets under its version's heading answers 「…去掉了哪些功能？」 with its items; each with a
twin that keeps its old reading; and a sentence naming the kind a which-ones question asks and
listing its instances with 、 (tests/data/real/fresh2) answers it when no lead-in does."""

from __future__ import annotations

import pytest

from zhiku.answer.around import list_runs, with_items
from zhiku.answer.extractive import Sentence, compose
from zhiku.answer.reading import label_line, problem_span
from zhiku.retrieve.segment import query_terms, segmenters
from zhiku.types import Chunk, Hit

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit

MBEDTLS = "fresh6/RT-Thread-MbedTLS用户手册.pdf"
CHANGES = "fresh6/DolphinScheduler不兼容更新.md"


def _entry(name: str, holding: str) -> Chunk:
    return next(c for c in real_chunks(name, whole_path=True) if c.kind == "text" and holding in c.text)


def _compose(question: str, chunks: list[Chunk], **kw) -> str:
    words = segmenters.create("words")
    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate(chunks)]
    text, _ = compose(query_terms(words(question)), hits, lambda t: 1.0, **kw)
    return text


def test_a_reason_asked_is_answered_by_the_line_under_a_plain_cause_label():
    # 「[tls]verification info: ! The certificate validity starts in the future」 / 「• 原因」 /
    # 「TLS 握手是证书验证需要时间的验证，本地时间获取有误导致」 / 「• 解决方式」 / …: the message
    # repeats the question's words, so it was quoted alone and the reason left out
    entry = _entry(MBEDTLS, "validity starts in the future")
    question = "TLS 握手时提示 The certificate validity starts in the future，是什么原因？"
    text = _compose(question, [entry], labels=True, plain_labels=True)
    assert "本地时间获取有误" in text and "• 原因" not in text and "starts in the future" not in text
    off = _compose(question, [entry], labels=True, plain_labels=False)  # the lever off: the message
    assert "starts in the future" in off and "本地时间获取有误" not in off
    # the span: the entry's opening, the error it quotes, up to the cause's label
    lo, hi = problem_span(entry.text, bare=True, plain=True)
    assert "starts in the future" in entry.text[lo:hi] and "本地时间" not in entry.text[lo:hi]
    assert problem_span(entry.text, bare=True) == (0, 0)


def test_the_twin_entry_asked_how_is_still_answered_by_its_fix():
    entry = _entry(MBEDTLS, "0x7200")
    text = _compose("mbedtls 通信时报 0x7200 错误怎么解决？", [entry], labels=True, plain_labels=True)
    assert "数据帧大小" in text


def test_a_plain_label_is_a_part_word_alone_on_its_line():
    text = "• 原因\n\n本地时间获取有误导致\n\n原因是本地时间有误。\n- 解决方法\n- 重启集群\n"
    assert label_line(text, 0, "• 原因", plain=True) and not label_line(text, 0, "• 原因")
    at = text.index("原因是")  # a sentence opening with the word says something
    assert not label_line(text, at, "原因是本地时间有误。", plain=True)
    assert label_line(text, text.index("- 解决方法"), "- 解决方法", plain=True)
    assert not label_line(text, text.index("- 重启集群"), "- 重启集群", plain=True)  # a step, not a label
    # a label inside a sentence (a minutes row's 「…初步协商如下解决措施：」) opens no entry: the row
    # is still read and quoted, not taken for a problem statement
    row = next(c for c in real_chunks("fresh3/PMC议题收集.xlsx", whole_path=True) if "如下解决措施" in c.text)
    assert problem_span(row.text, bare=True, plain=True) == problem_span(row.text, bare=True) == (0, 0)
    # the twin: an entry labelled with colons reads as before
    rocket = _entry("RocketMQ运维管理.md", "connect to <null> failed")
    assert problem_span(rocket.text, bare=True, plain=True) == problem_span(rocket.text, bare=True) != (0, 0)


def test_a_list_asked_for_is_answered_by_the_items_of_a_list_without_a_lead_in():
    # 「### 3.3.0」 then four bullets; the last names 3.3.0 and was quoted alone
    section = _entry(CHANGES, "udf-manage")
    question = "DolphinScheduler 3.3.0 去掉了哪些功能？"
    text = _compose(question, [section], lists=True, list_items=True)
    assert "udf-manage" in text and "Pigeon" in text and "3.3.0-release" in text
    off = _compose(question, [section], lists=True, list_items=False)  # the lever off: one item
    assert "3.3.0-release" in off and "Pigeon" not in off
    # the twin: a question asking no list keeps the one item
    one = _compose("DolphinScheduler 3.3.0 废弃了哪个版本的升级代码", [section], lists=False, list_items=True)
    assert "3.3.0-release" in one and "Pigeon" not in one


def test_list_runs_are_items_of_one_marker_and_a_lead_in_keeps_its_own_list():
    text = "前言。\n- a 一\n  续行\n\n- b 二\n* c 三\n正文。\n1. d\n2. e\n"
    runs = [[t for _, t in r] for r in list_runs(text)]
    assert runs == [["- a 一", "- b 二"], ["* c 三"], ["1. d", "2. e"]]
    # a list a lead-in announces is with_lists' to quote: with_items leaves it (Vant's 「其他版本请参考：」)
    lead = _entry("fresh6/Vant4更新日志.md", "其他版本请参考")
    at = lead.text.index("- [Vant 3")
    picked = [Sentence(0, at, lead.text[at:].splitlines()[0], 1.0)]
    assert with_items(picked, [Hit(lead, 1.0, "rrf")]) == picked



DAYU = "fresh2/润和DAYU200开发套件说明.md"


def test_a_sentence_listing_the_kind_asked_answers_a_which_ones_question_without_a_lead_in():
    # 「…适用于智能NVR、云终端、物联网网关、工业控制…等场景」 under 五、开发板应用场景, against the
    # features list's 「高性价比：适合中小规模企业/用户使用」, which holds the question's 适合 but names
    # no 场景: no lead-in announces the scenes, so the features item was quoted
    chunks = real_chunks(DAYU, whole_path=True)
    scenes = next(c for c in chunks if "物联网网关" in c.text)
    features = next(c for c in chunks if "高性价比" in c.text)
    question = "DAYU200开发板适合用在哪些场景？"
    idf = {"适合": 5.0, "场景": 3.9, "dayu200": 1.5, "开发板": 0.4}.get
    kw = dict(lists=True, listed="场景", doc_name=True)
    words = segmenters.create("words")
    terms = query_terms(words(question))
    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate([scenes, features])]
    text = compose(terms, hits, lambda t: idf(t, 1.0), list_enumerations=True, **kw)[0]
    off = compose(terms, hits, lambda t: idf(t, 1.0), list_enumerations=False, **kw)[0]
    assert "物联网网关" in text and "高性价比" not in text
    assert "高性价比" in off  # the lever off: the sentence holding 适合
    # the twin: a question naming no kind (「…有哪些特点？」 has 特点, which the scenes do not name)
    # keeps the best sentence
    twin = compose(terms, hits, lambda t: idf(t, 1.0), list_enumerations=True, lists=True, listed="特点",
                   doc_name=True)[0]
    assert twin == off
