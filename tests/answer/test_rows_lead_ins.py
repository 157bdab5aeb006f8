"""The offline composer on real documents (tests/data/real, see its SOURCE.md): a table row read
whole, a lead-in announcing items of another kind than asked, the kind a which-question asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.answer.extractive import compose
from zhiku.answer.reading import listed_kind
from zhiku.chunk import chunk_document
from zhiku.config import Config
from zhiku.ingest import load_file
from zhiku.retrieve.segment import query_terms, segmenters
from zhiku.structure import build_tree
from zhiku.types import Chunk, Hit

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit

BOUNTY = "fresh3/OpenHarmony安全漏洞奖励计划.md"
OTA = "fresh5/RT-Thread-OTA用户手册.pdf"


def _chunks(name: str) -> tuple[Chunk, ...]:
    return real_chunks(name)


def _terms(question: str) -> list[str]:
    return query_terms(segmenters.create("words")(question))


def _row(level: str) -> Chunk:
    return next(c for c in _chunks(BOUNTY) if c.kind == "table_row" and c.text.startswith(f"漏洞等级 {level}，"))


def _bounty(question: str, rows_whole: bool) -> str:
    hits = [Hit(_row(level), 0.05 - 0.01 * i, "rrf") for i, level in enumerate(("低", "中", "严重"))]
    return compose(_terms(question), hits, lambda t: 1.0, rows_whole=rows_whole)[0]


def test_a_table_row_is_quoted_whole_with_the_value_its_first_cell_names():
    # the 严重 row's cells hold 。 and ；: split there, its last piece states the sum without
    # 严重, and the better-ranked 低 row (one sentence either way) was quoted instead
    question = "严重等级的漏洞最高奖励多少钱？"
    text = _bounty(question, True)
    assert text.startswith("漏洞等级 严重，") and "最高1,000,000元" in text
    assert "1,000,000" not in _bounty(question, False)  # the setting off


def test_the_row_asked_by_its_first_value_is_still_the_one_quoted():
    # the positive twin: 低, whose row is one sentence either way, is quoted with its sum
    for whole in (True, False):
        text = _bounty("低等级的漏洞最高奖励多少钱？", whole)
        assert text.startswith("漏洞等级 低，") and "最高10,000元" in text


def _ota(holding: str) -> Chunk:
    return next(c for c in _chunks(OTA) if c.kind == "text" and holding in c.text)


#: the question's words as the index of the fresh5 documents weighs them (its IDF)
_WEIGHTS = {"rt-thread": 2.97, "ota": 1.75, "固件": 2.11, "加密": 2.97, "算法": 3.63}


def _manual_idf(term: str) -> float:
    return _WEIGHTS.get(term, 3.0)


def _algorithm(question: str, lead_ins: float) -> str:
    hits = [Hit(_ota("基本操作步骤如下"), 0.05, "rrf"), Hit(_ota("支持 AES-256 加密算法"), 0.04, "rrf")]
    return compose(_terms(question), hits, _manual_idf, doc_name=True, lead_ins=lead_ins)[0]


def test_a_lead_in_announcing_steps_is_not_the_answer_to_which_algorithm():
    # 「…提供多种压缩算法和加密算法支持，基本操作步骤如下：」 holds every word of the question and
    # announces steps; the feature list states the algorithm
    question = "RT-Thread 的 OTA 固件加密用的是什么算法？"
    assert "AES-256" in _algorithm(question, 0.8)
    assert "AES-256" not in _algorithm(question, 1.0)  # the setting off: the lead-in and its steps


def test_a_lead_in_announcing_what_is_asked_is_still_quoted_with_its_items():
    # the positive twin: asked for the steps it announces, the lead-in is the answer
    text = _algorithm("OTA 固件打包的基本操作步骤是什么？", 0.8)
    assert "基本操作步骤如下：" in text and "选择加密算法" in text


def test_the_kind_a_which_question_asks_may_start_one_character_in():
    question = "rt_ota 支持哪几种解压缩算法？"
    assert listed_kind(question, _terms(question), prefixed=True) == "压缩算法"
    assert listed_kind(question, _terms(question)) == ""  # off: 解 | 压缩算法 names no kind
    # a kind right after 哪些 is read as before, with or without the setting
    question = "政府网站集约化试点选了哪些地区？"
    for prefixed in (True, False):
        assert listed_kind(question, _terms(question), prefixed=prefixed) == "地区"


def test_a_list_of_steps_is_not_the_list_of_algorithms_asked():
    # with the kind read, the lead-in announcing steps is no list of 压缩算法: the sentence
    # naming the algorithms is quoted
    question = "rt_ota 支持哪几种解压缩算法？"
    hits = [Hit(_ota("基本操作步骤如下"), 0.05, "rrf"), Hit(_ota("Quicklz、Fastlz 和 MiniLZO"), 0.04, "rrf")]
    terms = _terms(question)
    text = compose(terms, hits, lambda t: 1.0, lists=True, listed=listed_kind(question, terms, True))[0]
    assert "Quicklz 和 Fastlz" in text
    assert "Quicklz 和 Fastlz" not in compose(terms, hits, lambda t: 1.0, lists=True, listed="")[0]


def test_a_provision_s_lead_in_is_quoted_with_its_items_either_way():
    # the twin in statute text: 「有限责任公司章程应当载明下列事项：」 announces 事项, which the
    # question does not name, yet a numbered provision's items are the rule's own cases
    law = Path(__file__).resolve().parent.parent / "data" / "laws" / "民法商法" / "公司法(2018-10-26).md"
    cfg = Config()
    doc = load_file(law, law.parent)
    chunks = chunk_document(doc, build_tree(doc), size=cfg.chunk_size, overlap=cfg.chunk_overlap,
                            parent_size=cfg.parent_size, min_section=cfg.min_section)
    article = next(c for c in chunks if c.article and "章程应当载明下列事项" in c.text)
    question = "有限责任公司的章程里要写什么？"
    for lead_ins in (0.8, 1.0):
        text = compose(_terms(question), [Hit(article, 0.05, "rrf")], lambda t: 1.0, lead_ins=lead_ins)[0]
        assert "章程应当载明下列事项：" in text and "公司名称和住所" in text
