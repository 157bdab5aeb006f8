"""Parent-child on the ask path: children are searched, the parent section is quoted."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from zhiku.ask.search import Mode
from tests.asking import ask

pytestmark = pytest.mark.integration

GUIDE = Path(__file__).parent / "data" / "laws" / "其他" / "劳动仲裁和劳动诉讼的攻略.md"


def test_answer_quotes_parents_and_verifies(tmp_path):
    kb = KnowledgeBase(load_config(home=tmp_path, chunk_size=150, parent_size=600))
    kb.ingest([GUIDE], dense=False, progress=False)
    ans = ask(kb, "综合计算工时制适用于哪些人员", Mode.BM25)
    assert not ans.refused, ans.reason
    cited = kb.store.get_chunks([c.chunk_id for c in ans.citations])
    assert cited and all(c.kind == "parent" for c in cited.values())
    assert all(h.chunk.kind != "parent" for h in ans.hits)  # parents are never searched
    verify = next(t for t in ans.trace if t.stage == "verify")
    assert verify.detail["unsupported"] == 0


def test_merged_short_section_is_found_under_both_section_ids(tmp_path):
    from zhiku.index.store import Scope

    doc = tmp_path / "差旅.md"
    doc.write_text("# 差旅\n\n## 适用范围\n\n本办法适用于全体员工。\n\n## 住宿标准\n\n"
                   + "一线城市每晚不超过五百元，其他城市每晚不超过三百五十元。" * 3, encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp_path / "h", min_section=30))
    kb.ingest([doc], dense=True, progress=False)
    for sid in ("1", "2"):  # the "# 差旅" line is the title: 适用范围 is 1, 住宿标准 2
        hits = kb.store.keyword(["全体", "员工"], 5, Scope(section_id=sid))
        assert hits and hits[0].chunk.section_ids == ("1", "2"), sid
        vec = kb.embedder.embed_query("住宿标准")
        assert kb.store.dense(vec, 5, Scope(section_id=sid)), sid
