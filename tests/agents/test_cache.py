"""The semantic answer cache: hits for the same question however phrased, misses for a
different one, entries made stale by a re-ingest that touches their sources; and the term
dictionary on a small knowledge base of its own."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from zhiku.ask import Query, flow
from zhiku.ask.cache import close_cache
from zhiku.cli import main
from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from zhiku.ask.search import Mode

pytestmark = pytest.mark.integration
LABOUR_LAW = Path(__file__).parents[1] / "data/laws/社会法/劳动法(2018-12-29).md"
POLICY = """# 差旅费管理办法

第一条 为规范差旅费报销，制定本办法。

第二条 员工出差结束后十日内凭发票办理报销，逾期不予报销。

第三条 住宿费按每晚四百元以内的标准报销。
"""


class Asker:
    """Asks with the answer cache on (the ``cache`` setting), as every door does."""

    def __init__(self, kb):
        self.kb = kb

    def ask(self, question, **kw):
        return flow.ask(self.kb, Query(question, **kw))

    def close(self):
        close_cache(self.kb)


def _cache(ans):
    return next(t.detail for t in ans.trace if t.stage == "cache")


def test_cache_hit_for_rephrasing_miss_for_another_question(kb_with):
    orch = Asker(kb_with())
    first = orch.ask("试用期最长多久？")
    assert _cache(first)["cache"] == "miss"
    again = orch.ask("请问，试用期最长是多久")
    hit = _cache(again)
    assert hit["cache"] == "hit" and hit["similarity"] >= 0.95
    assert again.text == first.text and [c.chunk_id for c in again.citations] == \
        [c.chunk_id for c in first.citations]
    assert [h.chunk.id for h in again.hits] == [h.chunk.id for h in first.hits]
    assert not any(t.stage.startswith("role:") for t in again.trace)  # nothing recomputed
    other = orch.ask("试用期最短多久？")  # e5 cosine 0.978, but a different question
    assert _cache(other)["cache"] == "miss"
    assert _cache(orch.ask("劳动法的试用期最长多久？"))["cache"] == "miss"
    assert _cache(orch.ask("试用期最长多久？", mode=Mode.BM25))["cache"] == "miss"  # another context
    refused = orch.ask("华为Mate 60 手机的首发售价是多少？")
    assert refused.refused and _cache(orch.ask("华为Mate 60 手机的首发售价是多少？"))["cache"] == "miss"


def test_cache_invalidated_when_a_source_document_changes(tmp_path, capsys):
    docs = tmp_path / "docs" / "财务"
    docs.mkdir(parents=True)
    (docs / "差旅费管理办法.md").write_text(POLICY, encoding="utf-8")
    shutil.copy(LABOUR_LAW, docs / "劳动法.md")
    kb = KnowledgeBase(load_config(home=tmp_path / "home"))
    kb.ingest([tmp_path / "docs"], progress=False)
    orch = Asker(kb)
    q = "出差回来多少天内报账？"
    ans = orch.ask(q)
    syn = next(t.detail for t in ans.trace if t.stage == "synonyms")
    assert syn == {"replaced": {"报账": "报销"}}
    assert ans.citations[0].article == "第二条" and "十日内" in ans.text
    assert _cache(orch.ask(q))["cache"] == "hit"
    # a re-ingest that does not touch the source keeps the entry
    (docs / "新文件.md").write_text("# 会议室管理\n\n第一条 会议室须提前一天预约。\n", encoding="utf-8")
    kb.ingest([tmp_path / "docs"], progress=False)
    assert _cache(orch.ask(q))["cache"] == "hit"
    # the source changes: the cached answer is stale, the new one quotes the new text
    (docs / "差旅费管理办法.md").write_text(POLICY.replace("十日内", "十五日内"), encoding="utf-8")
    kb.ingest([tmp_path / "docs"], progress=False)
    fresh = orch.ask(q)
    assert _cache(fresh) == {"cache": "miss", "stale": 1, "similarity": 1.0}
    assert "十五日内" in fresh.text
    assert _cache(orch.ask(q))["cache"] == "hit"
    orch.close()
    assert main(["--home", str(tmp_path / "home"), "cache", "clear"]) == 0
    assert "removed 1 cached answers" in capsys.readouterr().out
    orch = Asker(kb)
    assert _cache(orch.ask(q))["cache"] == "miss"
    # the user's term dictionary adds words (and is re-read when it changes)
    (tmp_path / "home" / "synonyms.toml").write_text('[synonyms]\n"住宿费" = ["房费"]\n', encoding="utf-8")
    ans = orch.ask("房费每晚报账上限多少？")
    assert next(t.detail for t in ans.trace if t.stage == "synonyms")["replaced"] == \
        {"房费": "住宿费", "报账": "报销"}
    assert ans.citations[0].article == "第三条"
    orch.close()


def test_bad_term_dictionary_is_a_clear_error(tmp_path):
    from zhiku.errors import ZhikuError
    from zhiku.retrieve.synonyms import load_synonyms

    cfg = load_config(home=tmp_path)
    (tmp_path / "synonyms.toml").write_text('[synonyms]\n"报销" = 3\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match="synonyms.报销 must be a list of words"):
        load_synonyms(cfg)
    (tmp_path / "synonyms.toml").write_text('[synonyms]\n报销 = ["报账"]\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match="keys in quotes"):
        load_synonyms(cfg)
