"""Loading real law files into Documents: title, body, version date, metadata, ids."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from zhiku.errors import ZhikuError
from zhiku.ingest import INFO_END, load_file
from zhiku.types import content_hash

pytestmark = pytest.mark.unit

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
CONTRACT = LAWS / "社会法" / "劳动合同法(2012-12-28).md"
MARRIAGE = LAWS / "民法典" / "婚姻家庭编.md"


def test_contract_law_document() -> None:
    doc = load_file(CONTRACT, LAWS)
    assert doc.path == "社会法/劳动合同法(2012-12-28).md"
    assert doc.title == "中华人民共和国劳动合同法"
    assert doc.version_date == "2012-12-28"
    assert doc.body.startswith("## 第一章 总则\n\n第一条 为了完善劳动合同制度")
    assert INFO_END not in doc.body and "第十届全国人民代表大会" not in doc.body
    assert doc.id == content_hash(doc.body)
    meta = doc.metadata
    assert meta["adopted"] == "2007-06-29"
    assert meta["amended"] == ["2012-12-28"]
    assert meta["effective"] == "2008-01-01"  # 本法自2008年1月1日起施行
    assert len(meta["preamble"]) == 2 and meta["preamble"][0].startswith("2007年6月29日")


def test_two_title_headings_are_joined() -> None:
    doc = load_file(MARRIAGE, LAWS)
    assert doc.title == "中华人民共和国民法典 婚姻家庭编"
    assert doc.version_date is None
    assert doc.metadata["adopted"] == "2020-05-28"
    assert doc.body.startswith("## 第一章\u2002\u2002一般规定")  # EN SPACEs, as in the source


def test_company_law_versions_are_distinct_documents() -> None:
    old = load_file(LAWS / "民法商法" / "公司法(2018-10-26).md", LAWS)
    new = load_file(LAWS / "民法商法" / "公司法(2023-12-29).md", LAWS)
    assert old.title == new.title == "中华人民共和国公司法"
    assert (old.version_date, new.version_date) == ("2018-10-26", "2023-12-29")
    assert old.id != new.id
    assert old.metadata["adopted"] == new.metadata["adopted"] == "1993-12-29"
    assert "2023-12-29" in new.metadata["amended"] and "2023-12-29" not in old.metadata["amended"]


def test_identical_copies_in_two_folders_share_an_id(tmp_path: Path) -> None:
    for folder in ("社会法", "行政法"):
        (tmp_path / folder).mkdir()
        shutil.copy(CONTRACT, tmp_path / folder / CONTRACT.name)
    a = load_file(tmp_path / "社会法" / CONTRACT.name, tmp_path)
    b = load_file(tmp_path / "行政法" / CONTRACT.name, tmp_path)
    assert a.id == b.id and a.path != b.path
    assert b.path == "行政法/劳动合同法(2012-12-28).md"


def test_gb18030_copy_loads_to_the_same_document(tmp_path: Path) -> None:
    gb = tmp_path / CONTRACT.name
    gb.write_bytes(CONTRACT.read_text(encoding="utf-8").encode("gb18030"))
    assert load_file(gb, tmp_path).id == load_file(CONTRACT, LAWS).id


def test_prose_guide_has_preamble_lines_and_no_dates() -> None:
    doc = load_file(LAWS / "其他" / "劳动仲裁和劳动诉讼的攻略.md", LAWS)
    assert doc.title == "劳动仲裁和劳动诉讼的攻略"
    assert doc.version_date is None
    assert doc.metadata["adopted"] is None and doc.metadata["amended"] == []
    assert doc.metadata["preamble"][0] == "该攻略出自"


def test_full_width_parens_date_in_file_name(tmp_path: Path) -> None:
    path = tmp_path / "劳动法（2018-12-29）.md"
    shutil.copy(LAWS / "社会法" / "劳动法(2018-12-29).md", path)
    doc = load_file(path, tmp_path)
    assert doc.version_date == "2018-12-29"
    assert doc.title == "中华人民共和国劳动法"


def test_no_info_end_strips_title_heading(tmp_path: Path) -> None:
    path = tmp_path / "规章(2020-01-02).md"
    path.write_text("# 员工手册\n\n## 第一章 总则\n\n第一条 本手册适用于全体员工。\n", "utf-8")
    doc = load_file(path, tmp_path)
    assert doc.title == "员工手册"
    assert doc.body == "## 第一章 总则\n\n第一条 本手册适用于全体员工。"
    assert doc.metadata["preamble"] == []


def test_front_matter_keys_title_and_version(tmp_path: Path) -> None:
    path = tmp_path / "faq.md"
    path.write_text(
        "---\ntitle: \"报销常见问题\"\nversion: 2024-3-1\ntags: [财务, 报销]\nowner: 财务部\n---\n"
        "问：差旅费多久内报销？\n\n答：出差结束后三十日内。\n",
        "utf-8",
    )
    doc = load_file(path, tmp_path)
    assert doc.title == "报销常见问题"
    assert doc.version_date == "2024-03-01"
    assert doc.metadata["tags"] == ["财务", "报销"] and doc.metadata["owner"] == "财务部"
    assert doc.body.startswith("问：差旅费多久内报销？")


def test_plain_text_title_is_the_stem_without_date(tmp_path: Path) -> None:
    path = tmp_path / "考勤制度(2021-07-01).txt"
    path.write_text("第一条 员工应按时上下班。\n第二条 迟到三次视为旷工半天。\n", "utf-8")
    doc = load_file(path, tmp_path)
    assert (doc.title, doc.version_date, doc.path) == ("考勤制度", "2021-07-01", path.name)


def test_layout_comments_are_dropped(tmp_path: Path) -> None:
    path = tmp_path / "宪法节选.md"
    path.write_text(
        "# 中华人民共和国宪法\n\n<!-- INFO END -->\n\n## 序言\n\n"
        "中国是世界上历史最悠久的国家之一。\n\n<!-- FORCE BREAK -->\n\n"
        "二十世纪，中国发生了翻天覆地的伟大历史变革。\n",
        "utf-8",
    )
    doc = load_file(path, tmp_path)
    assert "<!--" not in doc.body
    assert doc.body == (
        "## 序言\n\n中国是世界上历史最悠久的国家之一。\n\n二十世纪，中国发生了翻天覆地的伟大历史变革。"
    )


def test_chinese_numeral_dates_and_promulgation(tmp_path: Path) -> None:
    path = tmp_path / "规定.md"
    path.write_text(
        "# 工资支付暂行规定\n\n一九九四年十二月六日 劳动部发布\n\n1995年1月1日 执行\n\n"
        "<!-- INFO END -->\n\n第一条 为维护劳动者通过劳动获得劳动报酬的权利，制定本规定。\n",
        "utf-8",
    )
    meta = load_file(path, tmp_path).metadata
    assert meta["promulgated"] == "1994-12-06"
    assert meta["effective"] == "1995-01-01"
    assert meta["adopted"] is None


@pytest.mark.parametrize("content", [b"", b"  \n\n", "# 只有标题\n\n<!-- INFO END -->\n".encode()])
def test_empty_files_are_a_clear_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.md"
    path.write_bytes(content)
    with pytest.raises(ZhikuError, match="empty|no text"):
        load_file(path, tmp_path)
