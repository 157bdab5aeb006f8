"""The tables of ingested documents are read back whole from their table chunks, as the
structured catalog takes them, without mapping every chunk id to its row."""

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from zhiku.structured.sources import document_tables

DOC = """# 社会保险费缴费基数规定

## 第一章 缴费比例

| 险种 | 单位比例 | 个人比例 |
| --- | --- | --- |
| 养老保险 | 16% | 8% |
| 医疗保险 | 8% | 2% |
| 失业保险 | 0.5% | 0.5% |

用人单位应当按月足额缴纳。
"""


def test_document_tables_come_from_the_table_chunks(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "缴费规定.md").write_text(DOC, encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp_path / "h", route_embedding=False))
    kb.ingest([tmp_path / "docs"], dense=False, progress=False)
    kb.store._rowids = None
    got = document_tables(kb.store)
    assert len(got) == 1
    info, table = got[0]
    assert info["doc_path"] == "缴费规定.md" and info["title"]
    assert list(table.columns) == ["险种", "单位比例", "个人比例"]
    assert [r[0] for r in table.rows] == ["养老保险", "医疗保险", "失业保险"]
    assert kb.store._rowids is None  # no id-to-row map was built for them


def test_an_unchanged_schema_file_is_not_rewritten(tmp_path):
    from zhiku.structured.sources import build_catalog

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "缴费规定.md").write_text(DOC, encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp_path / "h", route_embedding=False))
    kb.ingest([tmp_path / "docs"], dense=False, progress=False)
    build_catalog(kb.config, kb.store)
    (schema,) = (tmp_path / "h" / "structured" / "schemas").glob("*.json")
    before = schema.stat().st_mtime_ns, schema.read_text(encoding="utf-8")
    build_catalog(kb.config, kb.store)
    assert (schema.stat().st_mtime_ns, schema.read_text(encoding="utf-8")) == before
