"""Rare-word bridges: a question word the index rarely or never holds searches the index's own
word for it when the bundled embedder and the thesaurus or a shared character agree. Real
民法典 婚姻家庭编 (tests/data), real store, real embedder."""

from pathlib import Path

import numpy as np
import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.embed.base import normalise
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.bridges import MAX_WORDS, RARE, Vocabulary, bridgeable, bridges
from zhiku.retrieve.expand import load_expansions, table_path

FAMILY = Path(__file__).resolve().parents[1] / "data" / "laws" / "民法典"
ABUSE = "老公家暴怎么办？"


@pytest.fixture(scope="module")
def bridging_kb(tmp_path_factory):
    """婚姻家庭编, keyword index, bridges on: the ingest embeds the vocabulary once."""
    cfg = load_config(home=tmp_path_factory.mktemp("home"), heading_similarity=0.0, rare_bridges=1)
    kb = KnowledgeBase(cfg)
    assert not kb.ingest([FAMILY], dense=False, progress=False).failed
    return kb


@pytest.mark.unit
def test_only_rare_dictionary_words_are_bridged():
    df = {"家暴": 0, "离婚": 300, "我结": 0, "房子": 2, "扔": 0}.get
    got = bridgeable(["家暴", "离婚", "我结", "房子", "扔"], lambda w: df(w, 0))
    # 离婚 is the law's own word, 我结 a segmentation accident, 扔 a single character
    assert got == ["家暴", "房子"]
    many = ["孩子", "房子", "爸妈", "老公", "家暴", "别人"]
    counts = dict(zip(many, [RARE, 5, 0, 3, 1, RARE + 1]))
    assert MAX_WORDS == 4
    assert bridgeable(many, counts.get) == ["房子", "爸妈", "老公", "家暴"]  # the four rarest, in question order


@pytest.mark.integration
def test_a_bridge_needs_the_embedder_and_a_shared_character_or_synonym(bridging_kb):
    table = load_expansions(table_path(bridging_kb.config.home))
    assert table is not None and "家庭暴力" in table.row
    vocab = Vocabulary(table.words, table.vectors)
    df = bridging_kb.store.doc_frequency
    v = normalise(bridging_kb.embedder.embed_passages(["家暴"]))
    got = bridges(["家暴"], v, vocab, df, lambda w: (), 1, 4.0)
    assert got == {"家庭暴力": "家暴"}  # the law's word for it, sharing 家 and 暴
    # the spread read from an even sample is the spread of the cosines to every word
    sims = table.vectors @ v[0]
    sampled = Vocabulary(table.words, table.vectors)
    sampled.__dict__["sample"] = table.vectors[::7]  # a sample of a seventh, as of a large vocabulary
    for voc in (vocab, sampled):
        mu, sd = voc.spread(v[0])
        assert mu == pytest.approx(float(sims.mean()), abs=0.005) and sd == pytest.approx(float(sims.std()), rel=0.1)
    # without a shared character or a synonym the embedder's neighbour alone is no bridge
    other = Vocabulary(tuple(w for w in table.words if not set(w) & {"家", "暴"}),
                       np.stack([table.vectors[table.row[w]] for w in table.words if not set(w) & {"家", "暴"}]))
    assert bridges(["家暴"], v, other, df, lambda w: (), 1, 4.0) == {}
    # a thesaurus synonym is a candidate, kept only when close enough
    assert bridges(["家暴"], v, other, df, lambda w: ("虐待",), 1, 0.0) == {"虐待": "家暴"}
    assert bridges(["家暴"], v, other, df, lambda w: ("虐待",), 1, 50.0) == {}


@pytest.mark.integration
def test_bridges_search_the_law_word_below_the_question_words(bridging_kb):
    kb = bridging_kb
    r = retrieve(kb, ABUSE, Mode.BM25, route=False)
    added = next(t for t in r.trace if t.stage == "expansion").detail["added"]
    assert added == ["家庭暴力"]
    assert all("家庭暴力" in h.chunk.text for h in r.hits[:2])  # 禁止家庭暴力, 实施家庭暴力…离婚损害赔偿
    off = retrieve(KnowledgeBase(kb.config.model_copy(update={"rare_bridges": 0})), ABUSE, Mode.BM25, route=False)
    assert not any(t.stage == "expansion" for t in off.trace)
    assert "家庭暴力" not in off.hits[0].chunk.text  # without it the question's other words lead elsewhere

    def rank(hits, article="第一千零四十二条"):
        return next(i for i, h in enumerate(hits) if h.chunk.article == article)

    assert rank(r.hits) < rank(off.hits)
