"""Living knowledge: versions in force, as-of answers, atomic swaps, prune, doctor, crash safety."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.index.doctor import check
from zhiku.index.store import Scope
from zhiku.index.versions import link
from zhiku.kb import KnowledgeBase
from zhiku.ask.search import Mode, retrieve
from tests.asking import ask

pytestmark = pytest.mark.integration
DATA = Path(__file__).parent / "data"
CAPITAL = "有限责任公司股东认缴的出资额应当在多少年内缴足？"


def test_link_versions_unit():
    info = link([
        ("a", "x/公司法(2018-10-26).md", "公司法", "2018-10-26", {}),
        ("b", "x/公司法(2023-12-29).md", "公司法", "2023-12-29", {"effective": "2024-07-01"}),
        ("c", "y/其他.md", "其他", None, {}),
    ])
    assert info["a"].expiry == "2024-07-01" and info["a"].superseded_by == "x/公司法(2023-12-29).md"
    assert info["b"].effective == "2024-07-01" and info["b"].supersedes == "x/公司法(2018-10-26).md"
    assert info["c"].expiry is None and info["c"].law_key != info["a"].law_key


def test_company_law_five_year_rule_by_date(kb):
    docs = {d.path: d for d in kb.store.documents()}
    old, new = docs["民法商法/公司法(2018-10-26).md"], docs["民法商法/公司法(2023-12-29).md"]
    assert old.superseded_by == new.path and new.supersedes == old.path
    now = ask(kb, CAPITAL)
    assert "五年内缴足" in now.text
    assert {c.version_date for c in now.citations if "公司法" in c.title} == {"2023-12-29"}
    then = ask(kb, CAPITAL, scope=Scope(versions="2019-01-01"))
    assert "五年内缴足" not in then.text
    assert all(c.version_date != "2023-12-29" for c in then.citations)
    hits = retrieve(kb, CAPITAL, Mode.HYBRID, Scope(versions="2019-01-01")).hits
    assert hits and all(h.chunk.version_date != "2023-12-29" for h in hits)


def test_superseded_clause_says_so(kb):
    ans = ask(kb, "公司法第四十七条规定了什么", scope=Scope(versions="all"))
    assert ans.citations[0].version_date == "2023-12-29"
    old = ask(kb, "公司法第二十六条规定了什么", scope=Scope(versions="2019-01-01"))
    assert old.citations[0].version_date == "2018-10-26" and "失效" not in old.text
    old_doc = next(d for d in kb.store.documents() if d.path == "民法商法/公司法(2018-10-26).md")
    stale = ask(kb, "公司法第二十六条规定了什么", scope=Scope(doc_ids=(old_doc.doc_id,)))
    assert stale.citations and stale.citations[0].version_date == "2018-10-26"
    assert "已于 2024-07-01 失效" in stale.text and "2023-12-29 版" in stale.text


def test_charity_law_versions(tmp_path):
    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    kb.ingest([DATA / "versions"], dense=False, progress=False)
    q = "慈善组织登记满几年才能申请公开募捐资格？"
    assert "登记满一年" in ask(kb, q, Mode.BM25).text
    assert "登记满二年" in ask(kb, q, Mode.BM25, Scope(versions="2020-01-01")).text


def _law(tmp_path) -> Path:
    src = tmp_path / "src" / "社会法"
    src.mkdir(parents=True)
    shutil.copy(DATA / "laws/社会法/劳动合同法(2012-12-28).md", src)
    return src / "劳动合同法(2012-12-28).md"


def test_swap_is_atomic_for_a_reader(tmp_path):
    f = _law(tmp_path)
    home = tmp_path / "h"
    writer = KnowledgeBase(load_config(home=home))
    writer.ingest([f.parent.parent], dense=False, progress=False)
    reader = KnowledgeBase(load_config(home=home))
    seen: list[tuple[int, str]] = []
    stop = threading.Event()

    def read() -> None:
        while not stop.is_set():
            found = reader.store.find(Scope(article="第十九条"))
            seen.append((len(found), found[0].text[-8:] if found else ""))

    t = threading.Thread(target=read)
    t.start()
    try:
        for i in range(3):
            text = f.read_text(encoding="utf-8").replace("试用期包含在劳动合同期限内。", f"试用期版本{i}。")
            f.write_text(text, encoding="utf-8")
            writer.ingest([f.parent.parent], dense=False, progress=False)
            time.sleep(0.2)
    finally:
        stop.set()
        t.join()
    assert seen and all(n == 1 for n, _ in seen), {n for n, _ in seen}
    assert reader.store.count()["documents"] == 1


def test_prune_compact_and_doctor(tmp_path):
    f = _law(tmp_path)
    other = f.parent / "劳动法(2018-12-29).md"
    shutil.copy(DATA / "laws/社会法/劳动法(2018-12-29).md", other)
    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    kb.ingest([f.parent.parent], dense=False, progress=False)
    other.unlink()
    rep = kb.ingest([f.parent.parent], dense=False, progress=False, prune=True)
    assert rep.pruned == 1
    assert all("劳动法(2018" not in h.chunk.doc_path for h in retrieve(kb, "工作时间", Mode.BM25).hits)
    doc = check(kb)
    assert doc.problems["deleted documents awaiting compact"] == 1
    assert doc.problems["chunks without vectors"] == 0  # keyword-only is not a problem
    fixed = check(kb, fix=True)
    assert not fixed.healthy and check(kb).healthy
    assert kb.store.count()["documents"] == 1


def test_compact_command_keeps_the_index_searchable(tmp_path, capsys):
    from zhiku.cli import main

    f = _law(tmp_path)
    other = f.parent / "劳动法(2018-12-29).md"
    shutil.copy(DATA / "laws/社会法/劳动法(2018-12-29).md", other)
    home = tmp_path / "h"
    kb = KnowledgeBase(load_config(home=home))
    kb.ingest([f.parent.parent], dense=False, progress=False)
    other.unlink()
    kb.ingest([f.parent.parent], dense=False, progress=False, prune=True)
    before = [h.chunk.id for h in retrieve(kb, "试用期", Mode.BM25).hits]
    assert main(["--home", str(home), "compact"]) == 0
    assert "removed 1 deleted documents" in capsys.readouterr().out
    again = KnowledgeBase(load_config(home=home))
    assert again.store.count()["documents"] == 1
    after = [h.chunk.id for h in retrieve(again, "试用期", Mode.BM25).hits]
    # the deleted rows no longer count in BM25 statistics, so only the tail may reorder
    assert after[:5] == before[:5] and set(after) <= set(before) | set(after[len(before):])


def test_kill_during_ingest_then_resume(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(DATA / "laws" / "社会法", src / "社会法")
    home = tmp_path / "h"
    env = {**os.environ, "ZHIKU_HOME": str(home), "ZHIKU_INGEST_BATCH": "40", "OMP_NUM_THREADS": "1"}
    p = subprocess.Popen([sys.executable, "-m", "zhiku.cli", "ingest", "--quiet", str(src)], env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    manifest = home / "index" / "manifest.json"
    deadline = time.time() + 120
    while time.time() < deadline:  # wait until some vectors are published, then kill -9
        if manifest.exists() and json.loads(manifest.read_text()).get("published", {}).get("vectors", 1) > 3:
            break
        time.sleep(0.1)
    p.send_signal(signal.SIGKILL)
    p.wait()
    kb = KnowledgeBase(load_config(home=home))
    n = kb.store.count()
    assert 0 < n["vectors"] < n["chunks"]
    assert ask(kb, "劳动合同法第十九条规定了什么", Mode.BM25).citations[0].article == "第十九条"
    rep = kb.ingest([src], progress=False)
    assert rep.added == 0 and rep.unchanged == 2
    after = kb.store.count()
    assert after["chunks"] == n["chunks"] == after["vectors"]
    ids = [r["id"] for r in kb.store.rows("chunks", ["id"])]
    assert len(ids) == len(set(ids))
    assert check(kb).healthy


def test_sidecar_links_a_renamed_policy_and_sets_expiry(tmp_path):
    d = tmp_path / "policies"
    d.mkdir()
    (d / "差旅管理办法.md").write_text(
        "# 差旅管理办法\n\n## 第二章 住宿\n\n第五条 员工出差住宿标准为每晚不超过三百五十元。\n", encoding="utf-8")
    (d / "差旅管理办法.md.meta.toml").write_text('law = "差旅"\nversion_date = "2023-01-01"\n', encoding="utf-8")
    (d / "新差旅规定.md").write_text(
        "# 新差旅规定\n\n## 第二章 住宿\n\n第五条 员工出差住宿标准为每晚不超过四百五十元。\n", encoding="utf-8")
    (d / "新差旅规定.md.meta.toml").write_text('law = "差旅"\neffective = "2025-01-01"\n'
                                             'version_date = "2024-12-01"\n', encoding="utf-8")
    (d / "旧通知.md").write_text("# 旧通知\n\n会议室预订须提前一天。\n", encoding="utf-8")
    (d / "旧通知.md.meta.toml").write_text('version_date = "2019-01-01"\nexpiry = "2020-01-01"\n',
                                         encoding="utf-8")
    (d / "坏.md").write_text("# 坏\n\n内容。\n", encoding="utf-8")
    (d / "坏.md.meta.toml").write_text('owner = "x"\n', encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    rep = kb.ingest([d], dense=False, progress=False)
    assert len(rep.failed) == 1 and "unknown keys" in rep.failed[0][1]
    q = "出差住宿标准每晚多少钱？"
    now = ask(kb, q, Mode.BM25)
    assert "四百五十元" in now.text and "三百五十元" not in now.text
    then = ask(kb, q, Mode.BM25, Scope(versions="2024-06-01"))
    assert "三百五十元" in then.text and "四百五十元" not in then.text
    both = ask(kb, q, Mode.BM25, Scope(versions="all"))
    assert "已于 2025-01-01 失效" in both.text
    assert not retrieve(kb, "会议室预订", Mode.BM25).hits
    assert retrieve(kb, "会议室预订", Mode.BM25, Scope(versions="2019-06-01")).hits


def test_write_failure_is_a_clear_error_and_keeps_the_published_state(tmp_path, monkeypatch):
    from zhiku.errors import ZhikuError

    f = _law(tmp_path)
    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    kb.ingest([f.parent.parent], dense=False, progress=False)
    before = kb.store.count()

    def full(*a, **k):
        raise OSError(28, "No space left on device")

    f.write_text(f.read_text(encoding="utf-8") + "\n第九十九条 新增。\n", encoding="utf-8")
    monkeypatch.setattr(kb.store._w["chunks"], "add", full)
    with pytest.raises(ZhikuError, match="free disk space"):
        kb.ingest([f.parent.parent], dense=False, progress=False)
    monkeypatch.undo()
    assert kb.store.count() == before
    assert retrieve(kb, "劳动合同法第十九条", Mode.BM25).hits[0].chunk.article == "第十九条"
    assert kb.ingest([f.parent.parent], dense=False, progress=False).added == 1


def test_a_pruned_file_that_comes_back_is_indexed_once(tmp_path):
    f = _law(tmp_path)
    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    first = kb.ingest([f.parent.parent], dense=False, progress=False)
    kept = f.read_bytes()
    f.unlink()
    assert kb.ingest([f.parent.parent], dense=False, progress=False, prune=True).pruned == 1
    f.write_bytes(kept)
    assert kb.ingest([f.parent.parent], dense=False, progress=False).added == 1
    assert kb.store.count()["documents"] == 1 and not kb.store.documents()[0].deleted
    ids = [r["id"] for r in kb.store.rows("chunks", ["id"])]
    assert len(ids) == len(set(ids)) == first.chunks
    assert retrieve(kb, "劳动合同法第十九条", Mode.BM25).hits[0].chunk.article == "第十九条"
