"""Folder sync on real law files: add, change, delete and rename; watch sees a change
within its debounce."""

from __future__ import annotations

import shutil
import threading
import time

import pytest

pytestmark = pytest.mark.integration


@pytest.fixture
def folder(tmp_path, laws_dir):
    d = tmp_path / "laws"
    shutil.copytree(laws_dir / "社会法", d / "社会法")
    shutil.copytree(laws_dir / "民法典", d / "民法典")
    return d


def _kb(home):
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    return KnowledgeBase(load_config(home=home))


def _paths(kb):
    return sorted(d.path for d in kb.store.documents() if not d.deleted)


def test_sync_adds_changes_deletes_and_renames(tmp_path, folder, laws_dir):
    from zhiku.sync import last_sync, sync

    kb = _kb(tmp_path / "h")
    first = sync(kb, [folder], dense=False)
    assert len(first.added) == 3 and not first.deleted and not first.renamed
    assert _paths(kb) == sorted(first.added)

    again = sync(kb, [folder], dense=False)  # nothing changed: nothing to do
    assert (again.added, again.changed, again.deleted, again.renamed) == ((), (), (), ())
    assert again.unchanged == 3 and again.chunks == 0

    labour = folder / "社会法" / "劳动法(2018-12-29).md"
    labour.write_text(labour.read_text(encoding="utf-8").replace("第一条", "第一条（修改）", 1),
                      encoding="utf-8")
    (folder / "民法典" / "婚姻家庭编.md").rename(folder / "民法典" / "婚姻家庭.md")
    (folder / "社会法" / "劳动合同法(2012-12-28).md").unlink()
    shutil.copy(laws_dir / "民法商法" / "公司法(2023-12-29).md", folder / "公司法.md")
    rep = sync(kb, [folder], dense=False)
    assert rep.changed == ("社会法/劳动法(2018-12-29).md",)
    assert rep.renamed == (("民法典/婚姻家庭编.md", "民法典/婚姻家庭.md"),)
    assert rep.deleted == ("社会法/劳动合同法(2012-12-28).md",)
    assert rep.added == ("公司法.md",)
    assert _paths(kb) == ["公司法.md", "民法典/婚姻家庭.md", "社会法/劳动法(2018-12-29).md"]
    hits = kb.store.keyword(kb.segment("第一条（修改）"), 3)
    assert any("修改" in h.chunk.text for h in hits)
    assert last_sync(kb.config.home)["renamed"] == [["民法典/婚姻家庭编.md", "民法典/婚姻家庭.md"]]


def test_sync_refuses_a_missing_folder_and_keeps_the_index(tmp_path, folder):
    from zhiku.errors import ZhikuError
    from zhiku.sync import sync

    kb = _kb(tmp_path / "h")
    sync(kb, [folder], dense=False)
    with pytest.raises(ZhikuError, match="not a folder"):
        sync(kb, [folder, tmp_path / "nope"], dense=False)
    assert len(_paths(kb)) == 3


def test_watch_sees_a_change_within_its_debounce(tmp_path, folder, laws_dir):
    from zhiku.sync import watch

    kb = _kb(tmp_path / "h")
    reports, stop = [], threading.Event()
    t = threading.Thread(target=watch, args=(kb, [folder], 0.3, stop, reports.append, None, False), daemon=True)
    t.start()
    try:
        deadline = time.monotonic() + 60
        while not reports and time.monotonic() < deadline:
            time.sleep(0.05)
        assert reports and len(reports[0].added) == 3
        changed_at = time.monotonic()
        shutil.copy(laws_dir / "其他" / "劳动仲裁和劳动诉讼的攻略.md", folder / "攻略.md")
        while len(reports) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(reports) >= 2 and reports[-1].added == ("攻略.md",)
        # synced after the change settled for the debounce (0.3 s), not at the first event
        assert 0.3 <= time.monotonic() - changed_at < 60
    finally:
        stop.set()
        t.join(timeout=10)
    assert not t.is_alive()


def test_watch_ignores_hidden_entries_and_its_own_home(tmp_path):
    from zhiku.sync import _ignored

    root = str(tmp_path / ".hidden-parent" / "docs")  # a watched folder may sit under a hidden one
    home = root + "/.zhiku"
    assert not _ignored(f"{root}/a/规定.md", (root,), (home,))
    assert _ignored(f"{root}/.git/x.md", (root,), (home,))
    assert _ignored(f"{home}/index/data.lance", (root,), (home,))
