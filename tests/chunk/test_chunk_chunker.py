"""Chunking real laws and prose: one chunk per article, overlapping prose windows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zhiku.chunk import chunk_document
from zhiku.errors import ZhikuError
from zhiku.ingest import load_file
from zhiku.structure import build_tree
from zhiku.structure.numbering import heading_like
from zhiku.types import Chunk, Document, content_hash

pytestmark = pytest.mark.unit

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
CONTRACT = LAWS / "社会法" / "劳动合同法(2012-12-28).md"
GUIDE = LAWS / "其他" / "劳动仲裁和劳动诉讼的攻略.md"

# Real excerpt of a 司法解释 (LawRefBook/Laws): prose before the first article, no headings.
TAIWAN_RULES = """# 最高人民法院关于人民法院办理接收在台湾地区服刑的大陆居民回大陆服刑案件的规定

<!-- INFO END -->

为落实《海峡两岸共同打击犯罪及司法互助协议》，保障接收在台湾地区服刑的大陆居民回大陆服刑工作顺利进行，根据《中华人民共和国刑法》《中华人民共和国刑事诉讼法》等有关法律，制定本规定。

第一条 人民法院办理接收在台湾地区服刑的大陆居民（以下简称被判刑人）回大陆服刑案件（以下简称接收被判刑人案件），应当遵循一个中国原则，遵守国家法律的基本原则，秉持人道和互惠原则，不得违反社会公共利益。

第二条 接收被判刑人案件由最高人民法院指定的中级人民法院管辖。
"""


def _chunks(path: Path, root: Path = LAWS, **kw) -> tuple[Document, list[Chunk]]:
    doc = load_file(path, root)
    return doc, chunk_document(doc, build_tree(doc), **kw)


def _check_invariants(doc: Document, chunks: list[Chunk]) -> None:
    for c in chunks:
        assert doc.body[c.start : c.end] == c.text
        assert c.text == c.text.strip() and c.text
        assert c.id == content_hash(doc.id, c.section_id, c.text)
        assert (c.doc_id, c.doc_path, c.title, c.version_date) == (
            doc.id, doc.path, doc.title, doc.version_date,
        )
    assert len({c.id for c in chunks}) == len(chunks)
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)


@pytest.fixture(scope="module")
def contract() -> tuple[Document, list[Chunk]]:
    return _chunks(CONTRACT)


def test_contract_law_has_98_articles(contract) -> None:
    doc, chunks = contract
    articles = [c.article for c in chunks if c.kind == "article"]
    assert len(articles) == 98 == len(set(articles))
    assert articles[0] == "第一条" and articles[-1] == "第九十八条"
    assert all(c.kind == "article" for c in chunks)  # no prose outside articles
    _check_invariants(doc, chunks)


def _contract_as(label: str) -> Document:
    """劳动合同法 (tests/data/laws) with every article label rewritten: ``label`` formats
    ``第X条`` (``**{}** ``: bold; ``{}``: run into its text, as some Markdown copies write them)."""
    doc = load_file(CONTRACT, LAWS)
    body = re.sub(r"(?m)^(第[一二三四五六七八九十百零]+条) ", lambda m: label.format(m.group(1)), doc.body)
    return Document(id=content_hash(body), path="劳动合同法.md", title=doc.title, body=body)


@pytest.mark.parametrize("label", ["**{}** ", "{}"])
def test_bold_and_run_in_article_labels_are_articles_in_order(label: str) -> None:
    doc = _contract_as(label)
    chunks = chunk_document(doc, build_tree(doc))
    articles = [c.article for c in chunks if c.kind == "article"]
    assert len(articles) == 98 and articles[18] == "第十九条" and articles[-1] == "第九十八条"
    nineteen = next(c for c in chunks if c.article == "第十九条")
    assert nineteen.section_path == ("第二章 劳动合同的订立",) and "试用期" in nineteen.text
    # off (config ``article_label_forms``): no article at all, the chapters cut into prose windows
    assert not any(c.article for c in chunk_document(doc, build_tree(doc), loose=False))


def test_a_line_opening_with_a_reference_out_of_order_is_no_article(tmp_path: Path) -> None:
    # the twin: 「第二十条规定的…」 opening a line after 第二条 is a reference, not an article
    doc = _contract_as("{}")
    body = doc.body.replace("第三条", "第二十条规定的情形除外。\n\n第三条", 1)
    doc = Document(id=content_hash(body), path="劳动合同法.md", title=doc.title, body=body)
    chunks = chunk_document(doc, build_tree(doc))
    assert [c.article for c in chunks if c.kind == "article"][:3] == ["第一条", "第二条", "第三条"]
    assert "第二十条规定的情形除外" in next(c.text for c in chunks if c.article == "第二条")
    # and the law as published chunks the same with the loose forms on or off
    law = load_file(CONTRACT, LAWS)
    assert [c.id for c in chunk_document(law, build_tree(law))] == \
        [c.id for c in chunk_document(law, build_tree(law), loose=False)]


def test_article_19_is_in_chapter_two_and_mentions_probation(contract) -> None:
    _, chunks = contract
    (art,) = [c for c in chunks if c.article == "第十九条"]
    assert art.section_path == ("第二章 劳动合同的订立",)
    assert art.section_id == "2"
    assert art.text.startswith("第十九条 劳动合同期限三个月以上不满一年的")
    assert "试用期" in art.text
    # continuation paragraphs stay with their article, up to the next article
    assert art.text.endswith("试用期不成立，该期限为劳动合同期限。")
    assert "第二十条" not in art.text


def test_nested_section_path(contract) -> None:
    _, chunks = contract
    (art,) = [c for c in chunks if c.article == "第五十一条"]
    assert art.section_path == ("第五章 特别规定", "第一节 集体合同")
    assert art.section_id == "5.1"
    last_of_chapter_four = [c for c in chunks if c.section_id == "4"][-1]
    assert "## 第五章" not in last_of_chapter_four.text  # an article ends at a heading


def test_ids_are_stable_across_runs(contract) -> None:
    _, first = contract
    _, second = _chunks(CONTRACT)
    assert [c.id for c in first] == [c.id for c in second]
    assert first == second


def test_two_versions_of_company_law_keep_their_dates() -> None:
    old_doc, old = _chunks(LAWS / "民法商法" / "公司法(2018-10-26).md")
    new_doc, new = _chunks(LAWS / "民法商法" / "公司法(2023-12-29).md")
    assert {c.version_date for c in old} == {"2018-10-26"}
    assert {c.version_date for c in new} == {"2023-12-29"}
    assert len([c for c in old if c.article]) == 218
    assert len([c for c in new if c.article]) == 266
    _check_invariants(old_doc, old)
    _check_invariants(new_doc, new)


def test_marriage_law_article_numbers_continue_the_code() -> None:
    doc, chunks = _chunks(LAWS / "民法典" / "婚姻家庭编.md")
    (art,) = [c for c in chunks if c.article == "第一千零四十七条"]
    assert "二十二周岁" in art.text
    assert art.section_path == ("第二章 结婚",)
    assert art.title == "中华人民共和国民法典 婚姻家庭编"


def test_prose_guide_is_split_inside_sections() -> None:
    doc, chunks = _chunks(GUIDE)
    assert chunks and all(c.kind == "text" and c.article is None for c in chunks)
    assert all(len(c.text) <= 500 for c in chunks)
    sections = {s.id: s for s in build_tree(doc)}
    for c in chunks:
        sec = sections[c.section_id]
        assert sec.start <= c.start and c.end <= sec.end
        assert c.section_path[-1] == sec.label
    _check_invariants(doc, chunks)


def test_prose_before_first_article_is_a_text_chunk(tmp_path: Path) -> None:
    path = tmp_path / "规定(2016-04-27).md"
    path.write_text(TAIWAN_RULES, encoding="utf-8")
    doc, chunks = _chunks(path, tmp_path)
    assert [(c.kind, c.article, c.section_id, c.section_path) for c in chunks] == [
        ("text", None, "0", ()),
        ("article", "第一条", "0", ()),
        ("article", "第二条", "0", ()),
    ]
    assert chunks[0].text.startswith("为落实《海峡两岸共同打击犯罪及司法互助协议》")
    _check_invariants(doc, chunks)


def test_plain_text_without_structure_gets_overlapping_windows(tmp_path: Path) -> None:
    guide = load_file(GUIDE, LAWS)
    text = "\n\n".join(  # its heading lines left out: numbered lines are headings in text too
        line.strip() for line in guide.body.split("\n\n")
        if line.strip() and not line.startswith("#") and not heading_like(line)
    )
    path = tmp_path / "攻略.txt"
    path.write_text(text, encoding="utf-8")
    doc, chunks = _chunks(path, tmp_path)
    assert build_tree(doc) == []
    assert len(chunks) >= len(doc.body) // 500
    assert all(c.kind == "text" and c.section_id == "0" for c in chunks)
    assert all(len(c.text) <= 500 for c in chunks)
    assert all(len(c.text) >= 250 for c in chunks[:-1])
    for a, b in zip(chunks, chunks[1:]):
        shared = a.end - b.start
        assert 40 <= shared <= 110, (shared, a.text[-30:], b.text[:30])  # ~10-20% of 500
        assert doc.body[b.start : a.end] in a.text and b.text.startswith(doc.body[b.start : a.end])
    # together the windows cover the whole text
    assert chunks[0].start == 0 and chunks[-1].end == len(doc.body)
    assert all(b.start < a.end for a, b in zip(chunks, chunks[1:]))
    _check_invariants(doc, chunks)


def test_windows_prefer_sentence_ends(tmp_path: Path) -> None:
    guide = load_file(GUIDE, LAWS)
    path = tmp_path / "one_line.txt"
    path.write_text(guide.body.replace("\n", ""), encoding="utf-8")  # no line breaks at all
    doc, chunks = _chunks(path, tmp_path, size=300, overlap=0.15)
    assert all(len(c.text) <= 300 for c in chunks)
    ends = [c.text[-1] for c in chunks[:-1]]
    assert sum(ch in "。！？；”）" for ch in ends) >= 0.8 * len(ends)


def test_long_articles_are_not_split(tmp_path: Path) -> None:
    body = "第一条 " + "用人单位应当依法支付劳动报酬。" * 120 + "\n\n第二条 短条文。"
    path = tmp_path / "长条文.txt"
    path.write_text(body, encoding="utf-8")
    doc, chunks = _chunks(path, tmp_path, size=100)
    assert [c.article for c in chunks] == ["第一条", "第二条"]
    assert len(chunks[0].text) > 3 * 100


def test_identical_text_in_one_section_is_kept_once(tmp_path: Path) -> None:
    path = tmp_path / "dup.txt"
    path.write_text("第一章 总则\n\n第一条 同样的话。\n\n第一条 同样的话。\n", encoding="utf-8")
    doc, chunks = _chunks(path, tmp_path)
    assert [c.article for c in chunks] == ["第一条"]


@pytest.mark.parametrize(("size", "overlap"), [(5, 0.15), (500, 0.6), (500, -0.1)])
def test_bad_parameters_are_a_clear_error(contract, size: int, overlap: float) -> None:
    doc, _ = contract
    with pytest.raises(ZhikuError):
        chunk_document(doc, [], size=size, overlap=overlap)
