"""Dense search joins a search only where every chunk has its vector: an index still being
embedded serves keyword search, and each sub-index turns hybrid as it is finished."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.coverage import VectorCoverage

LABOUR = "社会法/劳动法(2018-12-29).md"
GUIDE = "其他/劳动仲裁和劳动诉讼的攻略.md"


def test_coverage_of_rows():
    rows = [{"id": "a", "doc_id": "d1", "subindex": "x"}, {"id": "b", "doc_id": "d1", "subindex": "x"},
            {"id": "c", "doc_id": "d2", "subindex": "y"}, {"id": "d", "doc_id": "d3", "subindex": "y"}]
    cov = VectorCoverage.of(rows, {"a", "b", "c"})
    assert not cov.complete and cov.subindexes == {"x"} and cov.docs == {"d1", "d2"}
    assert cov.covers(Scope(subindexes=("x",)))
    assert not cov.covers(Scope(subindexes=("x", "y")))
    assert cov.covers(Scope(doc_ids=("d2",))) and not cov.covers(Scope(doc_ids=("d2", "d3")))
    assert not cov.covers(Scope())
    assert VectorCoverage.of(rows, {"a", "b", "c", "d"}).covers(Scope())


def _keyword_only(tmp_path, laws_dir) -> tuple[KnowledgeBase, dict[str, str]]:
    """A keyword index of two sub-indexes (社会法, 其他), and each document's sub-index."""
    for rel in (LABOUR, GUIDE):
        (tmp_path / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(laws_dir / rel, tmp_path / "src" / rel)
    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    kb.ingest([tmp_path / "src"], dense=False, progress=False)
    return kb, {d.doc_id: d.subindex for d in kb.store.documents()}


@pytest.fixture()
def partly_embedded(tmp_path, laws_dir):
    """Vectors for the guide's sub-index only (as a background ``zhiku embed`` leaves it
    halfway)."""
    kb, sub = _keyword_only(tmp_path, laws_dir)
    todo = kb.store.chunks_without_vectors()
    kb._embed([c for c in todo if sub[c.doc_id] == "其他"], False)
    return kb


@pytest.mark.integration
def test_dense_joins_only_where_the_vectors_are_complete(partly_embedded):
    kb = partly_embedded
    assert kb.has_vectors()
    assert not kb.vectors_cover(Scope())
    assert kb.vectors_cover(Scope(subindexes=("其他",)))
    assert not kb.vectors_cover(Scope(subindexes=("社会法",)))
    q = "劳动争议仲裁要交费吗"
    everywhere = retrieve(kb, q, Mode.HYBRID, route=False).hits
    assert everywhere and not any("dense" in h.sources for h in everywhere)  # the keyword ranking
    assert everywhere == retrieve(kb, q, Mode.BM25, route=False).hits
    guide = retrieve(kb, q, Mode.HYBRID, Scope(subindexes=("其他",)), route=False).hits
    assert any("dense" in h.sources for h in guide)
    assert kb.embed_missing(progress=False) > 0
    assert kb.store.count()["vectors"] == kb.store.searched_count()
    # every searched chunk has its vector: known from two counts, without reading every row
    # (the whole-document bags, doc_keyword, read them once per generation: built first)
    kb.doc_bags()
    kb.store.rows = None  # type: ignore[method-assign]
    assert kb.vectors_cover(Scope())
    assert any("dense" in h.sources for h in retrieve(kb, q, Mode.HYBRID, route=False).hits)


@pytest.mark.integration
def test_embedding_finishes_the_smallest_sub_index_first(tmp_path, laws_dir, monkeypatch):
    kb, sub = _keyword_only(tmp_path, laws_dir)
    seen: list[str] = []
    monkeypatch.setattr(kb, "_embed", lambda chunks, progress: seen.extend(sub[c.doc_id] for c in chunks))
    n = kb.embed_missing(progress=False)
    sizes = {s: seen.count(s) for s in set(seen)}
    assert n == len(seen) and len(sizes) == 2
    small = min(sizes, key=sizes.get)
    assert seen == [small] * sizes[small] + [s for s in seen if s != small]  # one block each, smallest first


def test_short_forms_finish_the_smallest_sub_index_first(tmp_path, laws_dir, monkeypatch):
    """``zhiku embed --short-forms`` encodes the short forms one sub-index at a time, the smallest
    first, into the vector cache; the index stays keyword-only."""
    import zhiku.kb as kb_module

    kb, sub = _keyword_only(tmp_path, laws_dir)
    calls: list[int] = []
    real = kb_module.embed_cached
    monkeypatch.setattr(kb_module, "embed_cached",
                        lambda emb, cache, texts, *a, **k: calls.append(len(texts)) or real(emb, cache, texts, *a, **k))
    n = kb.embed_short_forms(progress=False)
    sizes = Counter(sub[c.doc_id] for c in kb.store.all_chunks())
    assert len(sizes) == 2 and n == sum(calls) == sum(sizes.values())
    assert calls == sorted(sizes.values())  # one call per sub-index, the smallest first
    assert kb.store.count()["vectors"] == 0
