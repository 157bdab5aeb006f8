"""The offline composer on chunks of the real public documents of tests/data/real (see its
SOURCE.md): values in table rows, answers in headings, FAQ entries under their question."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.answer.extractive import compose
from zhiku.retrieve.segment import query_terms
from zhiku.types import Chunk, Hit
from zhiku.verify.check import Verifier
from zhiku.verify.support import SupportScorer

from tests.answer.conftest import real_chunks, words

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"


def _chunks(name: str) -> tuple[Chunk, ...]:
    return real_chunks(name, whole_path=True)


def _find(name: str, section: str, kind: str = "text", holding: str = "") -> Chunk:
    return next(c for c in _chunks(name) if c.kind == kind and c.section_path
                and c.section_path[-1] == section and holding in c.text)


def _answer(question: str, chunks: list[Chunk]) -> tuple[str, list[str]]:
    """Compose from the chunks in the order given (best first, as retrieval ranked them),
    then verify against them; returns the verified text and the cited sections."""
    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate(chunks)]
    text, cites = compose(query_terms(words()(question)), hits, lambda t: 1.0)
    blocks = {i: c for i, c in enumerate(chunks, 1)}
    by_id = {c.id: i for i, c in blocks.items()}
    marked = text
    for c in cites:
        marked = marked.replace(f"[{c.marker}]", f"[{by_id[c.chunk_id]}]")
    v = Verifier(SupportScorer(words(), None), lambda doc, a: False).verify(marked, blocks)
    return v.text, [(blocks[old].section_path or ("",))[-1] for old in v.blocks.values()]


def _ask(tmp_path: Path, names: list[str], question: str):
    """The whole offline ask (keyword retrieval) on a knowledge base of the named documents."""
    import shutil

    from zhiku.ask.flow import ask
    from zhiku.ask.query import Query
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    docs = tmp_path / "docs"
    docs.mkdir()
    for name in names:
        shutil.copy(REAL / name, docs)
    kb = KnowledgeBase(load_config(home=tmp_path / "home"))
    kb.ingest([docs], dense=False, progress=False)
    return ask(kb, Query(question, use_cache=False))


def test_a_lead_in_announcing_a_table_brings_the_row_that_answers():
    name = "AHT10温湿度传感器例程.md"
    row = _find(name, "硬件说明", "table_row", "温度")
    lead = _find(name, "硬件说明", holding="如下表所示")
    other = _find(name, "硬件说明", "table_row", "相对湿度")
    text, _ = _answer("AHT10 测量温度的精度是多少？", [lead, other, row])
    assert "±0.5" in text and "精度如下表所示" in text


def test_a_version_in_the_heading_is_quoted_with_the_change_it_lists():
    name = "IoT-Board-SDK发布说明.pdf"
    v120 = next(c for c in _chunks(name) if c.kind == "text" and "新增串口 DMA 例程" in c.text)
    v100 = next(c for c in _chunks(name) if c.kind == "text" and "增加 30 种" in c.text)
    text, sections = _answer("IoT-Board SDK 哪个版本新增了串口 DMA 例程？", [v120, v100])
    assert "1.2.0" in text and "新增串口 DMA 例程" in text  # kept by the verifier too
    assert sections == [v120.section_path[-1]]


def test_the_faq_entry_whose_question_matches_answers_over_a_wordier_neighbour():
    name = "Arthas常见问题.md"
    entry = _find(name, "怎么以`json`格式查看结果")
    neighbour = _find(name, "方法同名过滤")
    text, sections = _answer("想让 Arthas 以 json 格式输出结果，要执行什么命令？", [entry, neighbour])
    assert "options json-format true" in text
    assert sections == ["怎么以`json`格式查看结果"]


def test_a_log_listing_under_a_lead_in_is_not_joined_into_the_answer():
    # 「…设置串口波特率为 115200，…显示如下所示：」 over a shell log: its lines, joined bare, made
    # numbers the block does not hold (「Mar 28 2019」「2006 - 2019」 → 20192006) and the
    # verifier dropped the whole answer
    name = "AHT10温湿度传感器例程.md"
    run = _find(name, "运行效果", holding="115200")
    text, sections = _answer("查看温湿度例程运行日志时串口波特率设置为多少？", [run])
    assert "115200" in text and "```" not in text
    assert sections == ["运行效果"]


@pytest.mark.slow  # an ingest and an ask: about 10 s, far more on a busy machine
def test_a_name_in_the_parent_section_label_counts_as_what_the_block_is_about(tmp_path):
    # 「用 war 包部署…」: 「war」 is named by 4.1 war部署方式, over the sub-section that answers
    ans = _ask(tmp_path, ["若依环境使用手册.docx"], "用 war 包部署若依时要从 spring-boot-starter 依赖里去掉什么？")
    assert not ans.refused and "spring-boot-starter-tomcat" in ans.text
    assert ans.citations[0].section_path[-1] == "4.1.2 在spring-boot-starter依赖中移除tomcat模块"


@pytest.mark.slow  # an ingest and an ask: about 10 s, far more on a busy machine
def test_a_sentence_after_the_first_in_a_list_item_is_read_under_the_item_label(tmp_path):
    # 「七、国庆节：10月1日至7日放假调休，共7天。9月29日（星期日）、10月12日（星期六）上班。」: the
    # second sentence says which days are worked for 国庆节, though it does not name it
    ans = _ask(tmp_path, [p.name for p in REAL.glob("*.html")], "2019年国庆调休哪天要上班？")
    assert not ans.refused and "10月12日" in ans.text


def test_an_faq_question_in_the_evidence_is_not_quoted_as_the_answer():
    # a short entry merged with the next one brings that entry's bold question line into the
    # block (「1. **消息在服务器上可以保存多长时间？**」): it covers the question best and says nothing
    name = "RocketMQ常见问题.md"
    entry = _find(name, "消息在服务器上可以保存多长时间？")
    text, _ = _answer("RocketMQ 的消息在服务器上默认能存多久？", [entry])
    assert "3 天" in text and "多长时间" not in text
    entry = _find(name, "我是否需要安装其他的软件才能使用RocketMQ，例如zookeeper？")
    text, _ = _answer("用 RocketMQ 还要另外装 zookeeper 吗？", [entry])
    assert text.startswith(("不需要", "我是否需要")) and "：不需要" not in text


@pytest.mark.slow  # an ingest and an ask: about 10 s, far more on a busy machine
def test_the_file_name_counts_as_what_a_block_is_about(tmp_path):
    # the FAQ's page title is 经常被问到的问题 and the entry never names RocketMQ: its file
    # name does, and the answer was refused for want of 「rocketmq」
    ans = _ask(tmp_path, ["RocketMQ常见问题.md", "Paho-MQTT用户手册.pdf"], "RocketMQ 的消息在服务器上默认能存多久？")
    assert not ans.refused and "3 天" in ans.text


def _compose(question: str, chunks: list[Chunk], doc_name: bool = False) -> tuple[str, list[str]]:
    """Compose from the chunks in the order given, as the ask does (options the question
    names among the terms); returns the text and the cited sections."""
    from zhiku.answer.reading import options

    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate(chunks)]
    terms = list(dict.fromkeys([*query_terms(words()(question)), *options(question)]))
    text, cites = compose(terms, hits, lambda t: 1.0, doc_name=doc_name)
    return text, [(c.section_path or ("",))[-1] for c in cites]


def test_the_option_a_question_names_picks_the_row_of_that_option():
    # the mqadmin reference (an Excel-exported HTML table): one row per option of clusterList;
    # 「-i」 is an English stop word to the segmenter and 「i」 stood inside 「clusterlist」 of every row
    name = "RocketMQ运维管理.md"
    rows = [c for c in _chunks(name) if c.kind == "table_row" and "clusterList，" in c.text]
    h = next(c for c in rows if "命令选项 -h，" in c.text)
    i = next(c for c in rows if "命令选项 -i，" in c.text)
    text, _ = _compose("clusterList 命令里 -i 这个选项是干嘛的？", [h, i])
    assert "打印间隔" in text and "打印帮助" not in text
    text, _ = _compose("clusterList 命令里 -h 这个选项是干嘛的？", [i, h])  # the twin
    assert "打印帮助" in text and "打印间隔" not in text


def test_an_faq_answer_is_read_under_its_question_line():
    # 「存储的消息将最多保存 3 天」 names neither 服务器 nor 多长时间: its entry's question does
    name = "RocketMQ常见问题.md"
    entry = _find(name, "消息在服务器上可以保存多长时间？")
    other = _find(name, "新创建的Consumer ID从哪里开始消费消息？")
    text, sections = _compose("RocketMQ 的消息在服务器上默认能存多久？", [entry, other])
    assert "3 天" in text and sections == ["消息在服务器上可以保存多长时间？"]


def test_words_naming_the_document_choose_none_of_its_passages():
    # 「1.4 版」 and 「参与者公约」 stand only in the 来源 section besides the document's name: they
    # chose that section for every question about the 1.4 edition (answer_doc_name, off by default)
    name = "参与者公约行为准则-1.4版.md"
    source = _find(name, "来源")
    duty = _find(name, "我们的义务")
    scope = _find(name, "适用范围")
    text, sections = _compose("1.4 版参与者公约里，什么算妥当行为由谁来解释？", [source, duty, scope], True)
    assert "项目维护者有义务诠释何谓“妥当行为”" in text and sections == ["我们的义务"]
    text, sections = _compose("参与者公约 1.4 版是改编自哪里？", [duty, scope, source], True)  # the twin
    assert sections == ["来源"] and "改编自" in text


def test_a_troubleshooting_entry_is_answered_by_its_solution_not_its_problem():
    # 「问题描述：…会出现下面的异常信息：connect to <null> failed」 repeats the question's words; the
    # solution after it (「解决方法：…export NAMESRV_ADDR=ip:9876…」) answers it
    name = "RocketMQ运维管理.md"
    entry = _find(name, "3.1 RocketMQ的mqadmin命令报错问题")
    other = _find(name, "3.2 RocketMQ生产端和消费端版本不一致导致不能正常消费的问题")
    question = "运维时跑 mqadmin 报 connect to <null> failed，怎么解决？"
    hits = [Hit(c, 0.033 - i * 0.001, "rrf") for i, c in enumerate([entry, other])]
    terms = query_terms(words()(question))
    text, cites = compose(terms, hits, lambda t: 1.0)
    assert "NAMESRV_ADDR" in text and "RemotingConnectException" not in text
    assert [c.section_path[-1] for c in cites] == ["3.1 RocketMQ的mqadmin命令报错问题"]
    off, _ = compose(terms, hits, lambda t: 1.0, problems=False)  # the lever off: the problem quoted
    assert "RemotingConnectException" in off
    # the twin: the other entry's question gets that entry's solution
    text, sections = _compose("生产端和消费端版本不一致，B 消费端无法消费怎么办？", [other, entry])
    assert "相同的version" in text and "Not found the consumer group" not in text


def test_a_problem_span_needs_a_solution_after_it():
    from zhiku.answer.reading import problem_span

    entry = _find("RocketMQ运维管理.md", "3.1 RocketMQ的mqadmin命令报错问题")
    lo, hi = problem_span(entry.text)
    assert "connect to <null> failed" in entry.text[lo:hi] and entry.text[hi:].startswith("解决方法")
    faq = _find("RocketMQ常见问题.md", "消息在服务器上可以保存多长时间？")  # no problem/solution labels
    assert problem_span(faq.text) == (0, 0)
    assert problem_span("问题：端口被占用。") == (0, 0)  # a problem without a solution


def test_a_heading_holding_the_figure_asked_is_quoted_though_the_list_names_its_word():
    # 「版本 1.1.0」 over 「• 升级 RT-thread 4.0.1 版本 • 添加 31 MicroPython 例程 …」: the quoted list
    # names 版本 (another one), so the heading was left out and the answer never said 1.1.0
    from zhiku.answer.extractive import Sentence, _headed, split_sentences

    name = "IoT-Board-SDK发布说明.pdf"
    v110 = next(c for c in _chunks(name) if c.kind == "text" and "添加 31 MicroPython" in c.text)
    quoted = [Sentence(0, pos, t, 0.5) for pos, t in split_sentences(v110.text)
              if "4.0.1 版本" in t or "MicroPython" in t]
    assert len(quoted) == 2
    terms = query_terms(words()("IoT Board SDK 从哪个版本开始加入 MicroPython 例程？"))
    hits = [Hit(v110, 0.033, "rrf")]
    assert _headed(quoted, hits, terms, figures=True)[0].text.startswith("版本 1.1.0：")
    assert not _headed(quoted, hits, terms, figures=False)[0].text.startswith("版本 1.1.0")  # off
    # the twin: a heading holding no word of the question is not quoted for its figure
    terms = query_terms(words()("SDK 中添加了哪些 MicroPython 例程？"))
    assert not _headed(quoted, hits, terms, figures=True)[0].text.startswith("版本")


def test_a_comment_in_a_code_listing_is_read_as_the_question_of_the_commands_under_it():
    # 「### 验证Name Server 是否启动成功」 in a ```bash block names what the question asks; the
    # command and output under it (「$ tail -f ~/logs/rocketmqlogs/namesrv.log」) answer it
    from zhiku.answer.reading import code_comment

    name = "RocketMQ运维管理.md"
    start = next(c for c in _chunks(name) if c.kind == "text" and "验证Name Server" in c.text)
    question = "怎么确认 NameServer 已经启动成功了？"
    hits = [Hit(start, 0.033, "rrf")]
    terms = query_terms(words()(question))
    text, _ = compose(terms, hits, lambda t: 1.0)
    assert "namesrv.log" in text and "验证Name Server" not in text and "```" not in text
    off, _ = compose(terms, hits, lambda t: 1.0, comments=False)  # the lever off: the comment quoted
    assert "验证Name Server 是否启动成功" in off
    # a Markdown heading outside a listing is no comment
    assert not code_comment("### 验证\n$ ls", 0, "### 验证")
    assert code_comment(start.text, start.text.index("### 验证"), "### 验证Name Server 是否启动成功")
