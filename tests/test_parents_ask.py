"""Parent-child on the ask path: children are searched, the parent section is quoted."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from zhiku.pipeline import Mode, ask

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
