"""The offline answer quotes the sentence beside its source when the source alone cannot answer
(``answer_around``): a why-question's quoted consequence (因此…) with the reason before it, a
quote restating the question with what follows it, a sentence announcing points with the points
after it; a question the source answers by itself is quoted as before (real text: the DataX
MysqlReader manual of tests/data/real and two encyclopedia passages of CMRC 2018, keyword
retrieval)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from zhiku.ask import flow
from zhiku.ask.query import Query
from zhiku.ask.search import Mode
from tests.answer.conftest import with_config
from tests.conftest import ingested_kb

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
# CMRC 2018 (CC BY-SA 4.0) passages, as the corpus holds them
ASS = ("印度野驴是亚洲野驴的亚种，分布在南亚。印度野驴与非洲野驴有些分别。牠们的毛多呈沙色，也有赤灰色至淡栗色。"
       "牠们背及颈上的鬃毛正立及深色，其后至尾巴有一道深褐色的斑纹。印度野驴在日出及黄昏期间觅食。")
TOWNSHIP = ("乡里制是中国古代的基层组织制度。其特点主要有以下三点：第一，职官与长者并用。既设立行政官吏，又注意发挥地方长老作用。"
            "第二，刑禁与教化并施。对居民既施行什伍连坐，又进行以「孝」、「悌」为核心内容的教育感化。"
            "第三，秩序制和晋升制于一体，形成「宰相起于州部，猛将出于卒伍」的运行机制。")


@pytest.fixture(scope="module")
def docs_kb(tmp_path_factory):
    folder = tmp_path_factory.mktemp("docs")
    shutil.copy(REAL / "DataX-MysqlReader插件文档.md", folder)
    (folder / "印度野驴.md").write_text(f"# 印度野驴\n\n{ASS}\n", encoding="utf-8")
    (folder / "乡里制.md").write_text(f"# 乡里制\n\n{TOWNSHIP}\n", encoding="utf-8")
    return ingested_kb(tmp_path_factory, [folder])


def _said(kb, question: str) -> str:
    ans = flow.ask(kb, Query(question, mode=Mode.BM25, use_cache=False))
    assert not ans.refused
    return ans.text


@pytest.mark.integration
@pytest.mark.parametrize(("question", "quoted", "beside"), [
    ("为什么MysqlReader不需要用户指定编码？", "因此MysqlReader不需用户指定编码", "JDBC天然适配各类编码"),
    ("印度野驴与非洲野驴的分别是什么？", "印度野驴与非洲野驴有些分别", "牠们的毛多呈沙色"),
    ("乡里制的特点是什么？", "第一，职官与长者并用", "第三，秩序制和晋升制于一体"),
])
def test_the_sentence_the_source_leaves_the_answer_to_is_quoted(docs_kb, question, quoted, beside):
    on, off = _said(docs_kb, question), _said(with_config(docs_kb, answer_around=False), question)
    assert quoted in on and beside in on
    assert quoted in off and beside not in off


@pytest.mark.integration
def test_a_source_answering_by_itself_is_quoted_alone(docs_kb):
    """The twin of the why-question: asked whether MysqlReader needs the encoding, the
    consequence answers by itself; the reason before it is not added."""
    q = "MysqlReader需要用户指定编码吗？"
    assert _said(docs_kb, q) == _said(with_config(docs_kb, answer_around=False), q)
    assert "JDBC天然适配各类编码" not in _said(docs_kb, q)


@pytest.fixture(scope="module")
def faq_kb(tmp_path_factory):
    """The documents of tests/data/real/fresh10 (a troubleshooting page of error entries in
    plain text among them), with the bundled embedder's vectors: asked as the product asks,
    hybrid; beside the tool's other manuals the entry's cause sentence is the best quote."""
    return ingested_kb(tmp_path_factory, [REAL / "fresh10"], dense=True)


def _hybrid(kb, question: str) -> str:
    ans = flow.ask(kb, Query(question, use_cache=False))
    assert not ans.refused
    return ans.text


@pytest.mark.integration
def test_the_sentence_naming_the_thing_asked_which_of_follows_the_source(faq_kb):
    """Asked which file to delete, the entry's cause sentence is the best-covering quote; the
    sentence after it names the file (删除下述配置文件即可：) and brings the path."""
    question = "把 win10 上用过的 Umi-OCR 原样拷到 win7 后提示已停止工作，该删哪个文件？"
    on = _hybrid(faq_kb, question)
    off = _hybrid(with_config(faq_kb, answer_asked_next=False), question)
    assert "导致配置冲突" in on and ".pre_settings" in on
    assert "导致配置冲突" in off and ".pre_settings" not in off


@pytest.mark.integration
def test_a_source_naming_the_thing_asked_is_quoted_as_before(faq_kb):
    """The twin: asked which patch is missing, the quoted sentence names 补丁 itself; nothing
    after it is added either way."""
    question = "win7 上 Umi-OCR 保存双层可搜索PDF时崩溃，缺的是哪个补丁？"
    on = _hybrid(faq_kb, question)
    assert on == _hybrid(with_config(faq_kb, answer_asked_next=False), question)
    assert "KB4534310" in on
