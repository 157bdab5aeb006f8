"""Parent-child prose chunks, merging of short sections, chunk sizes per suffix or folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.chunk import chunk_document
from zhiku.config import load_config
from zhiku.ingest import load_file
from zhiku.structure import build_tree
from zhiku.types import Document, content_hash

pytestmark = pytest.mark.unit

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
GUIDE = LAWS / "其他" / "劳动仲裁和劳动诉讼的攻略.md"


def test_children_are_small_and_name_a_parent_that_holds_them():
    doc = load_file(GUIDE, LAWS)
    chunks = chunk_document(doc, build_tree(doc), size=150, parent_size=600)
    parents = {c.id: c for c in chunks if c.kind == "parent"}
    children = [c for c in chunks if c.kind == "text"]
    assert parents and len(children) > len(parents)
    for c in children:
        assert len(c.text) <= 150 and doc.body[c.start:c.end] == c.text
        if c.parent_id:
            p = parents[c.parent_id]
            assert p.start <= c.start < p.end and p.section_id == c.section_id
            assert len(p.text) <= 600 and doc.body[p.start:p.end] == p.text
    assert all(c.parent_id is None for c in chunks if c.kind == "parent")
    plain = chunk_document(doc, build_tree(doc), size=150)
    assert [c.id for c in chunks if c.kind != "parent"] == [c.id for c in plain]  # same windows


def test_short_lead_in_is_merged_with_its_sub_section_keeping_both_ids():
    body = ("# 差旅\n\n## 总则\n\n本办法适用于全体员工。\n\n### 住宿标准\n\n"
            + "一线城市每晚不超过五百元，其他城市每晚不超过三百五十元。" * 3)
    doc = Document(id=content_hash(body), path="差旅.md", title="差旅", body=body)
    chunks = chunk_document(doc, build_tree(doc), min_section=30)
    (merged,) = [c for c in chunks if "全体员工" in c.text]
    assert merged.section_ids == ("1.1.1", "1.1") and "住宿标准" in merged.text
    assert merged.section_id == "1.1.1" and merged.section_path == ("差旅", "总则", "住宿标准")
    unmerged = chunk_document(doc, build_tree(doc))
    assert all(not c.section_ids for c in unmerged)


def test_short_sibling_sections_keep_their_own_labels():
    # 人体损伤程度鉴定标准 5.2: 5.2.1 is one line, 5.2.2 a list; each is cited by its own label
    body = ("## 5.2 面部、耳廓\n\n#### 5.2.1 重伤一级\n\na)容貌毁损（重度）。\n\n#### 5.2.2 重伤二级\n\n"
            "a)面部条状瘢痕（50%以上位于中心区），单条长度10.0cm以上。\n\nb)一侧眼球萎缩或者缺失。")
    doc = Document(id=content_hash(body), path="标准.md", title="标准", body=body)
    chunks = chunk_document(doc, build_tree(doc), min_section=40)
    labels = {c.text.split("。")[0]: c.section_path[-1] for c in chunks}
    assert labels["a)容貌毁损（重度）"] == "5.2.1 重伤一级"
    assert all(lab == "5.2.2 重伤二级" for t, lab in labels.items() if "眼球" in t or "瘢痕" in t)


def test_chunk_size_per_suffix_and_folder():
    cfg = load_config(chunk_size=500, chunk_sizes={".pdf": 900, "faq": 200, "faq/long": 700})
    assert cfg.chunk_size_for("manual.pdf") == 900
    assert cfg.chunk_size_for("faq/q1.md") == 200
    assert cfg.chunk_size_for("faq/long/q.pdf") == 700
    assert cfg.chunk_size_for("notes/a.txt") == 500
