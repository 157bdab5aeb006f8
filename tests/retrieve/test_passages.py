"""Dense scoring of the keyword candidates only (passage_similarity): real law files
(tests/data), real store, keyword index, the bundled embedder reading each candidate's short form."""

from pathlib import Path

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.embed.base import VectorCache
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.passages import short_form

LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"
# everyday words (男朋友, 领证) share little with 第一千零四十七条 (法定婚龄); its own words
# (结婚年龄, 男不得早于二十二周岁) say what the question asks
MARRIAGE_AGE = "我男朋友今年才二十一岁，我们现在能去民政局领证吗？"


@pytest.fixture(scope="module")
def kbs(tmp_path_factory):
    """The test laws, keyword only, the heading cosine off (the lever measured on its own)."""
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home"), heading_similarity=0.0,
                                   routing=False))
    assert not kb.ingest([LAWS], dense=False, progress=False).failed
    # the forms encoded as the asks meet them (passage_encode): the same vectors embed_short_forms stores
    return kb, KnowledgeBase(kb.config.model_copy(update={"passage_similarity": 0.3, "passage_encode": True}))


def _rank(hits, article: str) -> int:
    return next((i for i, h in enumerate(hits, 1) if h.chunk.article == article), 999)


@pytest.mark.integration
def test_the_article_whose_words_mean_the_question_moves_up(kbs):
    off, on = kbs
    before = retrieve(off, MARRIAGE_AGE, Mode.BM25).hits
    after = retrieve(on, MARRIAGE_AGE, Mode.BM25).hits
    assert _rank(after, "第一千零四十七条") < _rank(before, "第一千零四十七条")
    n = on.config.passage_candidates
    # the same candidates; the best passage_candidates carry their cosine, the rest keep their order
    assert {h.chunk.id for h in after} == {h.chunk.id for h in before}
    assert all("bm25" in h.sources and "passage" in h.sources for h in after[:n])
    assert [h.chunk.id for h in after[n:]] == [h.chunk.id for h in before[n:]]
    fuse = next(t for t in retrieve(on, MARRIAGE_AGE, Mode.BM25).trace if t.stage == "fuse")
    assert fuse.detail["passages"] == n


@pytest.mark.integration
def test_each_short_form_is_embedded_once_and_kept_in_the_vector_cache(kbs):
    _, on = kbs
    hits = retrieve(on, MARRIAGE_AGE, Mode.BM25).hits[:on.config.passage_candidates]
    forms = [short_form(h.chunk, on.config.passage_chars) for h in hits]
    cache = VectorCache(on.config.cache_path)
    try:
        assert len(cache.get_many(on.embedder.name, [VectorCache.key(t) for t in forms])) == len(set(forms))
    finally:
        cache.close()
    # the short form: title, last heading, the text's opening words without the article's number
    law = next(h.chunk for h in hits if h.chunk.article == "第一千零四十七条")
    form = short_form(law, 16)
    assert form.startswith(law.title) and "第一千零四十七条" not in form and "结婚" in form


@pytest.mark.integration
def test_the_exact_clause_the_flat_baseline_and_a_dense_list_are_left_alone(kbs, tmp_path):
    off, on = kbs
    exact = retrieve(on, "婚姻家庭编第1079条讲的是什么", Mode.BM25).hits
    # the article named and found leads: the others are not embedded either
    assert exact[0].chunk.article == "第一千零七十九条" and not any("passage" in h.sources for h in exact)
    flat_on = retrieve(on, MARRIAGE_AGE, Mode.BM25, structured=False).hits
    flat_off = retrieve(off, MARRIAGE_AGE, Mode.BM25, structured=False).hits
    assert [h.chunk.id for h in flat_on] == [h.chunk.id for h in flat_off]
    # beside a dense list the candidates' own vectors already speak: no second cosine
    dense = KnowledgeBase(load_config(home=tmp_path, heading_similarity=0.0, routing=False,
                                      passage_similarity=0.3))
    assert not dense.ingest([LAWS / "民法典"], progress=False).failed
    hybrid = retrieve(dense, MARRIAGE_AGE, Mode.HYBRID).hits
    assert hybrid and not any("passage" in h.sources for h in hybrid)


@pytest.mark.integration
def test_the_ask_reads_stored_short_forms_and_encodes_none(tmp_path, monkeypatch):
    """Without ``passage_encode`` an ask never encodes a short form: before the forms are stored
    the keyword order stands (the same on every ask), after ``embed_short_forms`` the candidates
    are ordered by their stored forms' cosine with no encoder call (the marriage-age article
    first); the index stays keyword-only."""
    kb = KnowledgeBase(load_config(home=tmp_path, routing=False, heading_similarity=0.0,
                                   passage_similarity=0.3))
    assert not kb.ingest([LAWS / "民法典"], dense=False, progress=False).failed  # one book: ~100 forms
    off = KnowledgeBase(kb.config.model_copy(update={"passage_similarity": 0.0}))
    calls: list[int] = []
    encode = kb.embedder.embed_passages
    monkeypatch.setattr(kb.embedder, "embed_passages", lambda texts: calls.append(len(texts)) or encode(texts))
    keyword = [h.chunk.id for h in retrieve(off, MARRIAGE_AGE, Mode.BM25).hits]
    cold = retrieve(kb, MARRIAGE_AGE, Mode.BM25)
    assert [h.chunk.id for h in cold.hits] == keyword and not calls
    fuse = next(t for t in cold.trace if t.stage == "fuse")
    assert fuse.detail["passages_missing"] == kb.config.passage_candidates
    n = kb.embed_short_forms(progress=False)
    assert n == len(kb.store.all_chunks()) > kb.config.passage_candidates and calls
    assert kb.store.count()["vectors"] == 0 and not kb.has_vectors()
    calls.clear()
    assert kb.embed_short_forms(progress=False) == n and not calls  # every form already cached
    warm = retrieve(kb, MARRIAGE_AGE, Mode.BM25)
    assert not calls
    n = kb.config.passage_candidates
    assert next(t for t in warm.trace if t.stage == "fuse").detail["passages"] == n
    assert all("passage" in h.sources for h in warm.hits[:n]) and [h.chunk.id for h in warm.hits] != keyword
    assert warm.hits[0].chunk.article == "第一千零四十七条"


@pytest.mark.integration
def test_each_short_form_is_encoded_on_its_own_while_the_ingest_batches(tmp_path, monkeypatch):
    """With ``passage_encode`` an ask encodes its candidates' missing short forms one per encoder call (one thread each, as a
    question is: a batch on both cores of a busy machine took twice as long); the ranking is
    the one the lever's other tests check, and an ingest's heading phase still batches."""
    kb = KnowledgeBase(load_config(home=tmp_path, routing=False, passage_similarity=0.3, passage_encode=True))
    calls: list[int] = []
    encode = kb.embedder.embed_passages
    monkeypatch.setattr(kb.embedder, "embed_passages", lambda texts: calls.append(len(texts)) or encode(texts))
    assert not kb.ingest([LAWS], dense=False, progress=False).failed
    assert max(calls) > 1  # the chapter headings, embedded at a keyword-only ingest, in batches
    calls.clear()
    hits = retrieve(kb, MARRIAGE_AGE, Mode.BM25).hits
    assert calls and set(calls) == {1}
    assert len(calls) == len({short_form(h.chunk, 64) for h in hits[:kb.config.passage_candidates]})
    calls.clear()
    assert [h.chunk.id for h in retrieve(kb, MARRIAGE_AGE, Mode.BM25).hits] == [h.chunk.id for h in hits]
    assert not calls  # asked again: every form comes from the vector cache
