"""Chapter trees of real laws: ids, labels, nesting, spans."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.structure import build_tree, normalize_label
from zhiku.types import Document, content_hash

pytestmark = pytest.mark.unit

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"

# Real excerpt of 刑法/刑法.md (LawRefBook/Laws): 编 > 章 > 节 at depths 2, 3, 4.
CRIMINAL_EXCERPT = """## 第一编 总则

### 第一章 刑法的任务、基本原则和适用范围

第一条 为了惩罚犯罪，保护人民，根据宪法，结合我国同犯罪作斗争的具体经验及实际情况，制定本法。

### 第二章 犯罪

#### 第一节 犯罪和刑事责任

第十四条 明知自己的行为会发生危害社会的结果，并且希望或者放任这种结果发生，因而构成犯罪的，是故意犯罪。

## 第二编 分则

### 第二章 危害公共安全罪

第一百二十条之一 资助恐怖活动组织、实施恐怖活动的个人的，或者资助恐怖活动培训的，处五年以下有期徒刑、拘役、管制或者剥夺政治权利，并处罚金；情节严重的，处五年以上有期徒刑，并处罚金或者没收财产。"""


def _doc(body: str, path: str) -> Document:
    return Document(id=content_hash(body), path=path, title="t", body=body)


@pytest.fixture(scope="module")
def contract():
    doc = load_file(LAWS / "社会法" / "劳动合同法(2012-12-28).md", LAWS)
    return doc, build_tree(doc)


def test_contract_law_chapters_and_sections(contract) -> None:
    doc, tree = contract
    labels = [s.label for s in tree]
    assert labels[:2] == ["第一章 总则", "第二章 劳动合同的订立"]
    assert len([s for s in tree if s.level == 1]) == 8
    by_label = {s.label: s for s in tree}
    chapter5 = by_label["第五章 特别规定"]
    collective = by_label["第一节 集体合同"]
    assert (chapter5.id, chapter5.level, chapter5.parent_id) == ("5", 1, None)
    assert (collective.id, collective.level, collective.parent_id) == ("5.1", 2, "5")
    assert [s.id for s in tree if s.parent_id == "5"] == ["5.1", "5.2", "5.3"]
    assert by_label["第六章 监督检查"].id == "6"


def test_spans_cover_headings_and_nest(contract) -> None:
    doc, tree = contract
    by_id = {s.id: s for s in tree}
    for sec in tree:
        assert doc.body[sec.start :].startswith("#")
        assert sec.label.split()[0] in doc.body[sec.start : sec.end]
        if sec.parent_id:
            parent = by_id[sec.parent_id]
            assert parent.start < sec.start and sec.end <= parent.end
    assert by_id["5"].end == by_id["6"].start == by_id["5.3"].end
    assert by_id["5.1"].end == by_id["5.2"].start
    assert tree[-1].end == len(doc.body)
    assert "第十九条" in doc.body[by_id["2"].start : by_id["2"].end]


def test_double_en_space_headings_are_normalised() -> None:
    doc = load_file(LAWS / "民法典" / "婚姻家庭编.md", LAWS)
    tree = build_tree(doc)
    assert tree[0].label == "第一章 一般规定"
    assert all("\u2002" not in s.label and "  " not in s.label for s in tree)


def test_company_law_spaced_names_are_joined() -> None:
    doc = load_file(LAWS / "民法商法" / "公司法(2023-12-29).md", LAWS)
    labels = [s.label for s in build_tree(doc)]
    assert labels[0] == "第一章 总则"  # source: "## 第一章 总 则"
    assert "第一节 设立" in labels


def test_bian_zhang_jie_nesting_by_depth() -> None:
    tree = build_tree(_doc(CRIMINAL_EXCERPT, "刑法.md"))
    got = [(s.id, s.label, s.parent_id) for s in tree]
    assert got == [
        ("1", "第一编 总则", None),
        ("1.1", "第一章 刑法的任务、基本原则和适用范围", "1"),
        ("1.2", "第二章 犯罪", "1"),
        ("1.2.1", "第一节 犯罪和刑事责任", "1.2"),
        ("2", "第二编 分则", None),
        ("2.1", "第二章 危害公共安全罪", "2"),
    ]
    assert [s.level for s in tree] == [1, 2, 2, 3, 1, 2]


def test_flat_depth_nests_by_rank() -> None:
    body = "## 第一章 总则\n\n第一条 甲。\n\n## 第一节 一般规定\n\n第二条 乙。\n\n## 第二节 特别规定\n\n第三条 丙。\n\n## 附则\n\n第四条 丁。"
    tree = build_tree(_doc(body, "flat.md"))
    assert [(s.id, s.parent_id) for s in tree] == [("1", None), ("1.1", "1"), ("1.2", "1"), ("2", None)]
    assert tree[0].end == tree[3].start


def test_plain_text_chapter_lines_are_headings() -> None:
    body = (
        "员工手册\n\n第一章  总则\n\n第一条 本手册适用于全体员工。\n\n第二章 考勤\n\n"
        "第一节 工作时间\n\n第二条 每日工作八小时。\n\n第二十条规定的情形除外。\n"
    )
    tree = build_tree(_doc(body, "manual.txt"))
    assert [(s.id, s.label) for s in tree] == [
        ("1", "第一章 总则"),
        ("2", "第二章 考勤"),
        ("2.1", "第一节 工作时间"),
    ]
    assert body[: tree[0].start].strip() == "员工手册"  # text before the first heading


def test_markdown_ignores_plain_chapter_lines() -> None:
    # 宪法修正案（2018年） quotes "第七节 监察委员会" as amended text, not a heading.
    body = "第五十二条 宪法第三章增加一节。\n\n第七节 监察委员会\n\n第一百二十三条 中华人民共和国各级监察委员会是国家的监察机关。"
    assert build_tree(_doc(body, "修正案.md")) == []


def _labour_law(chapter: str) -> str:
    """劳动法 (tests/data/laws) as a regulation kept in Markdown without ``#`` chapter headings:
    each ``## 第X章 名称`` line written as ``chapter`` gives it (``{}``: plain; ``**{}**``: bold)."""
    text = (LAWS / "社会法" / "劳动法(2018-12-29).md").read_text(encoding="utf-8")
    return re.sub(r"(?m)^## (第.+章.*)$", lambda m: chapter.format(m.group(1)), text)


@pytest.mark.parametrize("chapter", ["{}", "**{}**"])
def test_markdown_regulation_with_plain_chapter_lines_gets_its_chapters(chapter: str) -> None:
    from zhiku.chunk import chunk_document

    doc = _doc(_labour_law(chapter), "劳动法.md")
    tree = build_tree(doc)
    assert [(s.id, s.label) for s in tree[:3]] == [
        ("1", "中华人民共和国劳动法"), ("1.1", "第一章 总则"), ("1.2", "第二章 促进就业")]
    assert len(tree) == 14 and all(s.parent_id == "1" for s in tree[1:])
    article = next(c for c in chunk_document(doc, tree) if c.article == "第四十四条")
    assert article.section_path == ("中华人民共和国劳动法", "第四章 工作时间和休息休假")
    # off (config ``markdown_divisions``): the title alone, the articles under no chapter
    assert [s.label for s in build_tree(doc, divisions=False)] == ["中华人民共和国劳动法"]


def test_markdown_chapter_headings_are_the_same_with_divisions_on_or_off() -> None:
    # the positive twin: the law as published, its chapters ``##`` headings, keeps its tree
    doc = load_file(LAWS / "社会法" / "劳动法(2018-12-29).md", LAWS)
    assert build_tree(doc) == build_tree(doc, divisions=False) and len(build_tree(doc)) == 13


def test_headings_in_code_fences_are_ignored() -> None:
    body = "# 说明\n\n```\n# 不是标题\n```\n\n## 用法\n\n正文。"
    assert [s.label for s in build_tree(_doc(body, "readme.md"))] == ["说明", "用法"]


@pytest.mark.parametrize(
    ("raw", "label"),
    [
        ("第一章  一般规定", "第一章 一般规定"),
        ("第一章\u2002\u2002基本规定", "第一章 基本规定"),
        ("第一章 总 则", "第一章 总则"),
        ("第三分编 准 合 同", "第三分编 准合同"),
        ("六、附 则", "六、附则"),
        ("最高人民法院 最高人民检察院", "最高人民法院 最高人民检察院"),
        ("第五章", "第五章"),
    ],
)
def test_normalize_label(raw: str, label: str) -> None:
    assert normalize_label(raw) == label


def test_an_faq_entry_on_a_bold_list_item_is_a_section_under_its_heading():
    # RocketMQ's FAQ (tests/data/real): 「2. **我是否需要安装其他的软件…例如zookeeper？**」 under
    # 「## 1 基本」; before, the four ## headings held every entry and the answer quoted a question
    real = Path(__file__).resolve().parents[1] / "data" / "real"
    doc = load_file(real / "RocketMQ常见问题.md", real)
    tree = build_tree(doc)
    entry = next(s for s in tree if "zookeeper" in s.label)
    assert entry.label == "我是否需要安装其他的软件才能使用RocketMQ，例如zookeeper？"
    assert next(s for s in tree if s.id == entry.parent_id).label == "1 基本"
    assert "不需要" in doc.body[entry.start:entry.end]
    # an entry without a question mark counts when it is a whole bold numbered item
    assert any(s.label == "消费者无法在广播模式下开始加载 json 文件" for s in tree)
    # a bold line that asks nothing and is not a numbered item stays text (「**1）启动NameServer**」)
    deploy = build_tree(load_file(real / "RocketMQ部署方式.md", real))
    assert not any("启动" in s.label for s in deploy)


def test_an_attachment_of_a_plain_text_notice_holds_its_own_chapters() -> None:
    # GB/T 9704 layout: the notice's items, 附件：… as a line of its text, then the
    # attachment on its own page opened by a bare 附件 line and its title
    body = ("关于开展试点工作的通知\n\n一、试点范围\n\n在三个省份开展。\n\n二、工作要求\n\n"
            "按期报送。\n\n附件：试点工作方案\n\n办公厅\n\n附件\n\n试点工作方案\n\n第一章 总则\n\n"
            "试点期限为一年。\n\n"
            "第二章 保障\n\n经费由省级财政安排。\n\n附件2\n\n一、联系人名单\n\n张三。")
    tree = build_tree(_doc(body, "通知.txt"))
    assert [(s.id, s.label) for s in tree] == [
        ("1", "一、试点范围"), ("2", "二、工作要求"), ("3", "附件 试点工作方案"),
        ("3.1", "第一章 总则"), ("3.2", "第二章 保障"), ("4", "附件2"), ("4.1", "一、联系人名单")]
    assert "附件：试点工作方案" in body[tree[1].start:tree[1].end]
