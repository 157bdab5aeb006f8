"""A standard's numbered clauses are its chapter tree (``standard_clauses``) and its cover is
metadata (``standard_cover``). The lines are real: Guangdong's DB 44/2208-2019 (the fresh14
text PDF) and the national GB 34330-2017, GB 8702-2014 and DB 44/765-2019 (fresh16); each
negative (a sentence clause, a list item, a subscript or axis label, a contents list, a
cover without 实施 date) has its positive twin beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.ingest import load_file
from zhiku.ingest.preamble import standard_cover
from zhiku.structure import build_tree
from zhiku.structure.numbering import clause_headings, clause_title

pytestmark = pytest.mark.unit

REAL = Path(__file__).resolve().parent.parent / "data" / "real"
DB44_2208_PDF = REAL / "fresh14" / "DB44-2208-2019农村生活污水处理排放标准.pdf"

# GB 34330-2017 (clauses 1 to 4, as a text layer gives them, wrapped lines and all)
GB34330 = """1 适用范围
本标准不适用于放射性废物的鉴别。
2 规范性引用文件
本标准内容引用了下列文件中的条款。凡是不注明日期的引用文件，其最新版本适用于本标准。
GB 18599 一般工业固体废物贮存、处置场污染控制标准
3 术语和定义
下列术语和定义适用于本标准。
3.1 固体废物 solid wastes
是指在生产、生活和其他活动中产生的丧失原有利用价值或者虽未丧失利用价值但被抛弃或者放弃
的固态、半固态和置于容器中的气态的物品、物质以及法律、行政法规规定纳入固体废物管理的物品、
物质。
3.2 固体废物鉴别 solid waste identification
是指判断物质是否属于固体废物的活动。
4 依据产生来源的固体废物鉴别
下列物质属于固体废物（章节6包括的物质除外）。
4.1 丧失原有使用价值的物质，包括以下种类：
a）在生产过程中产生的因为不符合国家、地方制定或行业通行的产品标准（规范），或者因为质量
h）因丧失原有功能而无法继续使用的物质；
4.2 生产过程中产生的副产物，包括以下种类：
1）在黑色金属冶炼或加工过程中产生的高炉渣、钢渣、轧钢氧化皮、铁合金渣、锰渣；
4.3 环境治理和污染控制过程中产生的物质，包括以下种类：
m）在污染地块修复、处理过程中，采用下列任何一种方式处置或利用的污染土壤：
1）填埋；
2）焚烧；
4.4 其他：
a）法律禁止使用的物质；"""

# DB 44/2208-2019: a term's number alone over its name, sentence clauses, a limit table's values
DB44_2208 = """1 适用范围
本标准规定了农村生活污水处理设施的水污染物排放控制、监测、标准的实施与监督等要求。
2 规范性引用文件
GB 3097 海水水质标准
3 术语和定义
3.1
农村生活污水 rural sewage
农村居民生活活动所产生的污水，主要包括冲厕、洗涤、洗浴和厨房排水，不包括工业废水。
3.2
农村生活污水处理设施 rural sewage treatment facility
对农村生活污水进行收集处理的建筑物、构筑物及设备。
4 一般要求
4.1 农村生活污水的处理，应从农村实际出发，因地制宜采用污染治理和资源利用相结合、工程措施与生态措施相结合、集中和分散相结合的建设模式和处理工艺。
5 水污染物排放控制要求
5.2 根据农村生活污水处理设施出水排放去向和处理规模，将农村生活污水处理设施水污染物排放标准分为一级标准、二级标准和三级标准。
5.2.1 出水排入环境功能明确的水体，执行表1中的一级标准。
5.2.2 处理规模20 m3/d 及以上的设施出水排入环境功能未明确的水体，执行表 1中的二级标准。
6 水污染物监测要求"""


def test_clauses_in_order_with_titles_are_headings_and_their_sentences_and_list_items_text():
    found = clause_headings(GB34330.split("\n"))
    assert sorted(found.values()) == ["1 适用范围", "2 规范性引用文件", "3 术语和定义", "3.1 固体废物 solid wastes",
                                      "3.2 固体废物鉴别 solid waste identification", "4 依据产生来源的固体废物鉴别"]
    lines = GB34330.split("\n")
    # 4.1-4.4 open sentences (a colon, a comma): text, and so are a) and 1) items inside them
    assert not [lines[i] for i in found if lines[i].startswith(("4.", "a）", "1）"))]


def test_a_terms_number_alone_takes_its_name_and_a_sentence_clause_stays_text():
    found = clause_headings(DB44_2208.split("\n"))
    assert "3.1 农村生活污水 rural sewage" in found.values()
    assert "3.2 农村生活污水处理设施 rural sewage treatment facility" in found.values()
    assert "5 水污染物排放控制要求" in found.values() and "6 水污染物监测要求" in found.values()
    assert not [v for v in found.values() if v.startswith(("4.1", "5.2"))]


def test_a_number_out_of_the_clauses_order_is_text():
    # DB 44/765-2019: 「SO 2 、NO X」's subscripts fall on a line of their own (「2 X」) inside
    # clause 2; GB 8702-2014: a figure's axis labels (1.E+05) after clause 6
    lines = ["1 适用范围", "本标准规定了锅炉烟气中颗粒物的最高允许排放浓度限值。", "2 规范性引用文件",
             "HJ 75 固定污染源烟气（SO 、NO 、颗粒物）排放连续监测技术规范", "2 X",
             "3 术语和定义", "3.1 锅炉 boiler", "3.2 在用锅炉 in-use boiler", "1.E+05", "0 0"]
    found = clause_headings(lines)
    assert "2 X" not in found.values() and not [v for v in found.values() if v.startswith(("1.E", "0"))]
    assert "3 术语和定义" in found.values()  # its twin: the clause after it is still found


def test_a_contents_list_alone_or_a_text_without_sub_clauses_has_no_clause_tree():
    contents = ["1 适用范围", "2 规范性引用文件", "3 术语和定义", "4 一般要求", "5 水污染物排放控制要求"]
    assert clause_headings(contents) == {}
    assert clause_headings(contents + ["5.1 自本标准实施之日起，新建农村生活污水处理设施执行本标准。",
                                       "5.2 根据出水排放去向和处理规模分为一级标准、二级标准和三级标准。"])


def test_a_title_is_short_and_no_sentence():
    assert clause_title("无组织排放控制要求") and clause_title("大气污染物特别排放限值 special limitation for air pollutants")
    assert not clause_title("其他：") and not clause_title("本标准由县级以上生态环境部门负责监督实施。")


def test_a_standards_cover_gives_its_number_and_dates():
    cover = ["DB44", "ICS 13.060.30", "Z 77", "广 东 省 地 方 标 准", "DB 44/2208-2019", "农村生活污水处理排放标准",
             "（发布稿）", "2019-11-22 发布 2020-01-01 实施", "广 东 省 生 态 环 境 厅", "发布", "广东省市场监督管理局"]
    assert standard_cover(cover) == {"standard": "DB 44/2208-2019", "promulgated": "2019-11-22",
                                     "effective": "2020-01-01"}
    assert standard_cover(["GB 34330—2017", "固体废物鉴别标准 通则", "2017-08-31 发布 2017-10-01 实施"])["standard"] \
        == "GB 34330—2017"
    # a page naming a standard without an 实施 date is no cover (a law's preamble, a reference)
    assert standard_cover(["GB 18918 城镇污水处理厂污染物排放标准", "2019年11月22日发布"]) == {}
    assert standard_cover(["DB 44/2208-2019", "本标准于2019年11月22日首次发布，自2020年1月1日起实施。"]) == {}


def test_the_standard_pdf_has_its_clauses_as_tree_and_its_cover_as_metadata(tmp_path):
    doc = load_file(DB44_2208_PDF, DB44_2208_PDF.parent)
    labels = [s.label for s in build_tree(doc)]
    assert labels[:3] == ["前言", "1 适用范围", "2 规范性引用文件"]
    assert "3.1 农村生活污水 rural sewage" in labels and "5 水污染物排放控制要求" in labels
    assert not {"DB44", "广东省市场监督管理局", "农村生活污水处理排放标准"} & set(labels)
    assert doc.metadata["effective"] == "2020-01-01" and doc.metadata["standard"] == "DB 44/2208-2019"
    # the twin, both settings off: the cover's lines nest the tree, the clauses are text
    old = load_file(DB44_2208_PDF, DB44_2208_PDF.parent, standard_clauses=False, standard_cover=False)
    old_labels = [s.label for s in build_tree(old)]
    assert "DB44" in old_labels and "5 水污染物排放控制要求" not in old_labels
    assert "effective" not in old.metadata


def test_a_plain_text_standard_has_the_same_tree(tmp_path):
    path = tmp_path / "GB-34330-2017.txt"
    path.write_text(GB34330, encoding="utf-8")
    doc = load_file(path, tmp_path)
    tree = build_tree(doc)
    assert [s.label for s in tree if s.level == 2] == ["3.1 固体废物 solid wastes",
                                                       "3.2 固体废物鉴别 solid waste identification"]
    assert not [s for s in tree if s.label.startswith("4.")]
    # the twin without the setting: 「4.4 其他：」 is text still, but 3.x terms are not nested by order
    assert not [s for s in build_tree(doc, clauses=False) if s.label.startswith("4.4")]


def test_a_specifications_numbered_rules_and_version_numbers_are_no_clauses():
    # the SemVer specification (fresh14): 「2.0.0」 in its title, rules numbered 「1.」, 「2.」
    semver = (REAL / "fresh14" / "语义化版本2.0.0规范.md").read_text(encoding="utf-8").split("\n")
    assert clause_headings(semver) == {}
    # its twin: the same lines after a standard's clauses leave those clauses found
    found = clause_headings(DB44_2208.split("\n") + semver)
    assert "6 水污染物监测要求" in found.values() and not [v for v in found.values() if "2.0.0" in v]


def test_each_bare_article_of_a_regulation_without_chapters_is_its_own_chunk():
    from zhiku.chunk.chunker import chunk_document

    path = REAL / "fresh14" / "北京市医院安全秩序管理规定.md"
    doc = load_file(path, path.parent)
    chunks = [c for c in chunk_document(doc, build_tree(doc)) if c.kind == "article"]
    assert [c.article for c in chunks][:3] == ["第一条", "第二条", "第三条"] and len(chunks) == 31
    assert chunks[11].article == "第十二条" and chunks[11].text.startswith("第十二条")
    # its twin: a line opening with a reference to an article out of order is no article
    from zhiku.chunk.chunker import article_starts

    body = chunks[0].text + "\n第二十条规定的情形除外。"
    assert [label for _, label in article_starts(body, loose=True)] == ["第一条"]


def test_an_annex_after_the_clauses_heads_its_own_clauses():
    # GB/T 1.1's layout of a normative annex: 附录 A, its kind, its title, then A.1, A.2
    lines = DB44_2208.split("\n") + ["附 录 A", "（规范性附录）", "A.1 采样方法", "A.2 样品保存"]
    found = clause_headings(lines)
    assert ["附 录 A", "A.1 采样方法", "A.2 样品保存"] == [found[i] for i in sorted(found) if i >= len(lines) - 4]
    # its twin: an A.1 with no annex open is text (a grade or a table's row label)
    assert not [v for v in clause_headings(DB44_2208.split("\n") + ["A.1 采样方法"]).values() if v.startswith("A.")]


def _standard_pdf(path: Path, marks: list[str], breaks: bool = True) -> Path:
    """GB 34330's clauses 1 to 4 as a PDF the way national standards are printed: the number
    ruled in a box on the cover and repeated atop every later page, the dates under the
    title, and bookmarks for ``marks`` only (often a lone 「前言」)."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A5
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    body = ParagraphStyle("body", fontName="STSong-Light", fontSize=10, leading=15, wordWrap="CJK")
    big = ParagraphStyle("big", parent=body, fontSize=16, leading=24)

    class Doc(SimpleDocTemplate):
        def afterFlowable(self, flowable):  # noqa: N802 - reportlab hook name
            text = flowable.getPlainText() if isinstance(flowable, Paragraph) else ""
            if text in marks:
                key = f"m{id(flowable)}"
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(text, key, level=0)

    def later(canvas, doc):
        canvas.saveState()
        canvas.setFont("STSong-Light", 8)
        canvas.drawRightString(A5[0] - 40, A5[1] - 30, "GB 34330—2017")
        canvas.restoreState()

    number = Table([["", "GB 34330—2017"], ["代替 GB 5085.7-2007 中的部分内容", ""]])
    number.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "STSong-Light"),
                                ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black)]))
    story = [Paragraph("ICS 13.030", body), Paragraph("中华人民共和国国家标准", big), number,
             Paragraph("固体废物鉴别标准 通则", big),
             Paragraph("2017-08-31 发布 2017-10-01 实施", body),
             Paragraph("环境保护部 发布", body), PageBreak(), Paragraph("前言", big),
             Paragraph("为贯彻《中华人民共和国固体废物污染环境防治法》，制定本标准。", body), PageBreak()]
    if not breaks:  # an older standard: its clauses begin on the cover's page
        story = [f for f in story if not isinstance(f, PageBreak)][:6]
    story += [Paragraph(line, body) for line in GB34330.split("\n")]
    Doc(str(path), pagesize=A5).build(story, onLaterPages=later)
    return path


def test_a_standard_bookmarked_only_at_its_foreword_has_its_clauses_as_tree(tmp_path):
    # the lone 「前言」 bookmark is no tree of a standard in numbered clauses; its cover, the
    # number in a ruled box and repeated as the running header, is still metadata
    pdf = _standard_pdf(tmp_path / "GB-34330-2017.pdf", ["前言"])
    doc = load_file(pdf, tmp_path)
    labels = [s.label for s in build_tree(doc) if s.label]
    assert {"1 适用范围", "3 术语和定义", "3.1 固体废物 solid wastes", "4 依据产生来源的固体废物鉴别"} <= set(labels)
    assert "4.1 丧失原有使用价值的物质，包括以下种类：" not in labels  # a clause's sentence stays text
    assert doc.metadata["standard"].replace(" ", "").startswith("GB34330")
    assert (doc.metadata["promulgated"], doc.metadata["effective"]) == ("2017-08-31", "2017-10-01")
    assert "中华人民共和国国家标准" not in labels


def test_bookmarks_over_every_top_clause_stay_the_tree(tmp_path):
    tops = ["1 适用范围", "2 规范性引用文件", "3 术语和定义", "4 依据产生来源的固体废物鉴别"]
    pdf = _standard_pdf(tmp_path / "GB-34330-2017.pdf", ["前言", *tops])
    labels = [s.label for s in build_tree(load_file(pdf, tmp_path)) if s.label]
    assert [label for label in labels if label[0].isdigit()] == tops  # the bookmarks' own tree


def test_clauses_printed_under_the_cover_on_its_page_stay_headings(tmp_path):
    pdf = _standard_pdf(tmp_path / "GB-34330-2017.pdf", [], breaks=False)
    doc = load_file(pdf, tmp_path)
    labels = [s.label for s in build_tree(doc) if s.label]
    assert doc.metadata["effective"] == "2017-10-01"
    assert labels[:3] == ["1 适用范围", "2 规范性引用文件", "3 术语和定义"]
    assert "固体废物鉴别标准 通则" not in labels  # the cover's lines above them are text


@pytest.mark.parametrize("point", [".", "．"])
def test_a_clause_numbered_alone_keeps_its_sentence_as_text_with_either_point(tmp_path, point):
    # a boiler standard's clauses in the form of GB 13271-2014 (its 4.5 opens a sentence after
    # a titled clause as deep): the number alone is the heading, the sentence is the section's
    # text — with a full-width point (4．2) too, which the chunker once read as no clause
    # number, so the sentence was taken for the heading's second line and lost
    text = "\n".join(["1 适用范围", "本标准规定了锅炉大气污染物的排放限值。", "2 规范性引用文件",
                      "GB 5468 锅炉烟尘测试方法", "3 术语和定义", "3.1 锅炉 boiler",
                      "利用燃料燃烧释放的热能加热水的设备。", "3.2 在用锅炉 in-use boiler",
                      "本标准实施之日前已建成投产的锅炉。", "4 大气污染物排放控制要求", "4.1 排放浓度限值",
                      "在用锅炉执行表1规定的限值。",
                      f"4{point}2 每个新建燃煤锅炉房只能设一根烟囱，烟囱高度应根据锅炉房装机总容量确定。",
                      "5 监测要求", "5.1 采样", "按GB 5468的规定采样。"])
    from zhiku.chunk.chunker import chunk_document
    path = tmp_path / "GB-13271.txt"
    path.write_text(text, encoding="utf-8")
    doc = load_file(path, tmp_path)
    tree = build_tree(doc)
    assert f"4{point}2" in [s.label for s in tree]
    texts = [c.text for c in chunk_document(doc, tree)]
    assert any(t.startswith("每个新建燃煤锅炉房只能设一根烟囱") for t in texts)
    assert any("在用锅炉执行表1规定的限值" in t for t in texts)  # the titled clause's text beside it


@pytest.mark.parametrize("suffix", [".docx", ".html"])
def test_a_standard_in_docx_or_html_without_heading_styles_has_its_clauses_as_tree(tmp_path, suffix):
    # a standard kept as a Word file or a web page whose paragraphs carry no heading style
    # (a draft for comment, a page converted from one) is plain text to the tree
    path = tmp_path / f"GB-34330-2017{suffix}"
    lines = ["固体废物鉴别标准 通则", *GB34330.split("\n")]
    if suffix == ".docx":
        import docx
        word = docx.Document()
        for line in lines:
            word.add_paragraph(line)
        word.save(path)
    else:
        path.write_text("<html><body>" + "".join(f"<p>{ln}</p>" for ln in lines) + "</body></html>",
                        encoding="utf-8")
    tree = build_tree(load_file(path, tmp_path))
    assert [s.label for s in tree if s.level == 1] == ["1 适用范围", "2 规范性引用文件", "3 术语和定义",
                                                       "4 依据产生来源的固体废物鉴别"]
    assert [s.label for s in tree if s.level == 2] == ["3.1 固体废物 solid wastes",
                                                       "3.2 固体废物鉴别 solid waste identification"]
    # its twin: the clauses opening sentences (4.1 丧失原有使用价值的物质，…) stay text
    assert not [s for s in tree if s.label.startswith("4.")]
