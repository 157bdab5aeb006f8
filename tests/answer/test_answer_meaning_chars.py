"""The offline answer's meaning check on an index holding no vectors encodes each evidence block's
short form (title, last chapter heading, its first ``answer_meaning_chars`` characters: the form
the passage cosine embeds), not its whole text, and keeps it in the vector cache. Real law files
(tests/data/laws), real store, the bundled embedder."""

from __future__ import annotations

import pytest

from zhiku.answer.meaning import meaning_bonus
from zhiku.ask import Query, ask
from zhiku.ask.search import Mode, retrieve
from zhiku.embed.base import VectorCache
from zhiku.retrieve.passages import short_form
from tests.answer.conftest import with_config

# 劳动法 第四十一条 (overtime) ranks above 第三十六条 (the working day: 每日工作时间不超过八小时)
WORKING_DAY = "劳动者每日工作时间最长不超过几个小时？"


def _cached(kb, texts: list[str]) -> set[str]:
    """Which of ``texts`` the knowledge base's vector cache holds a vector of."""
    cache = VectorCache(kb.config.cache_path)
    try:
        found = cache.get_many(kb.embedder.name, [VectorCache.key(t) for t in texts])
    finally:
        cache.close()
    return {t for t in texts if VectorCache.key(t) in found}


@pytest.mark.integration
def test_the_short_forms_are_encoded_and_cached_not_the_whole_texts(laws_kb):
    assert not laws_kb.has_vectors()
    hits = retrieve(laws_kb, WORKING_DAY, Mode.BM25).hits[:5]  # the heading cosine encoded the question
    shorts = [short_form(h.chunk, 128) for h in hits]
    wholes = [h.chunk.text for h in hits]
    bonus = meaning_bonus(laws_kb, WORKING_DAY, hits, 12.0, encode=True, chars=128)
    assert len(bonus) == 5 and min(bonus) == 0.0 and max(bonus) > 0.0
    assert _cached(laws_kb, shorts) == set(shorts)
    assert _cached(laws_kb, wholes) == set()  # nothing encoded the whole blocks
    # 0 = the whole text, as before
    meaning_bonus(laws_kb, WORKING_DAY, hits, 12.0, encode=True, chars=0)
    assert _cached(laws_kb, wholes) == set(wholes)


@pytest.mark.integration
@pytest.mark.parametrize("question, article", [(WORKING_DAY, "第三十六条"),
                                               ("试用期最长可以约定多久？", "第二十一条")])
def test_a_keyword_index_answers_from_the_short_forms_and_a_second_ask_encodes_nothing(
        laws_kb, monkeypatch, question, article):
    """The short form still tells the working day's article from the overtime article above it;
    the twin whose words already choose its article keeps it. Asked again, every block's short
    form is read from the vector cache: the embedder encodes no passage."""
    kb = with_config(laws_kb, answer_meaning_encode=True, answer_meaning_chars=128)
    first = ask(kb, Query(question, mode=Mode.BM25, use_cache=False))
    assert [c.article for c in first.citations] == [article]
    encoded: list[str] = []
    emb = laws_kb.embedder
    real = emb.embed_passages
    monkeypatch.setattr(emb, "embed_passages", lambda texts: encoded.extend(texts) or real(texts))
    again = ask(kb, Query(question, mode=Mode.BM25, use_cache=False))
    assert encoded == []
    assert again.text == first.text and [c.article for c in again.citations] == [article]
