"""The LanceDB store's writes: a document is written already linked with the stored versions
of its law, and the stored versions it changes are updated, whichever batch each came in."""

from __future__ import annotations

import pytest

from .stores import open_backend

pytestmark = pytest.mark.integration

OLD, NEW = "民法商法/公司法(2018-10-26).md", "民法商法/公司法(2023-12-29).md"


@pytest.mark.parametrize("first, then", [(OLD, NEW), (NEW, OLD)], ids=["older-first", "newer-first"])
def test_a_version_written_in_a_later_batch_is_linked(tmp_path, laws, first, then):
    store = open_backend("lancedb", tmp_path, laws)
    for path in (first, then):
        with store.transaction():
            store.add([laws.item(path)], laws.roots)
    docs = {d.path: d for d in store.documents()}
    old, new = docs[OLD], docs[NEW]
    assert old.superseded_by == NEW and new.supersedes == OLD
    assert old.expiry == new.effective == "2024-07-01" and new.expiry is None  # 施行 date
    assert old.law_key == new.law_key


def test_a_version_written_with_the_other_in_one_batch_is_linked(tmp_path, laws):
    store = open_backend("lancedb", tmp_path, laws)
    with store.transaction():
        store.add([laws.item(NEW), laws.item(OLD)], laws.roots)
    docs = {d.path: d for d in store.documents()}
    assert docs[OLD].superseded_by == NEW and docs[NEW].supersedes == OLD


def test_a_replaced_version_leaves_the_links(tmp_path, laws):
    """The newer version's file replaced by other content: the older one is in force again."""
    import dataclasses

    store = open_backend("lancedb", tmp_path, laws)
    with store.transaction():
        store.add([laws.item(OLD), laws.item(NEW)], laws.roots)
    doc, sections, chunks, segs = laws.item(NEW)
    moved = dataclasses.replace(doc, id="f" * 16, version_date=None)
    cs = [dataclasses.replace(c, id="f" + c.id[1:], doc_id=moved.id) for c in chunks]
    with store.transaction():
        assert store.add([(moved, sections, cs, segs)], laws.roots)
    docs = {d.path: d for d in store.documents()}
    assert docs[NEW].doc_id == moved.id and docs[OLD].superseded_by is None and docs[OLD].expiry is None
