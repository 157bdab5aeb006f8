"""Term expansion from the index vocabulary (bundled embedder) and ages in digits searched as
the age bounds the laws state. Real labour laws (tests/data), real store, real embedder."""

from pathlib import Path

import numpy as np
import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.config import load_config
from zhiku.embed.base import normalise
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.ages import age_terms
from zhiku.retrieve.expand import Expansions, load_expansions, neighbours, table_path, vocabulary

LABOUR_LAWS = Path(__file__).resolve().parents[1] / "data" / "laws" / "社会法"

MINORS = "我开了个小饭馆，亲戚家15岁的孩子暑假想来帮工挣钱，我能雇他吗？"
MINORS_GOLD = ("劳动法(2018-12-29).md", "第十五条")


@pytest.fixture(scope="module")
def expanding_kb(tmp_path_factory):
    """The labour laws, keyword index, with both expansions on: the ingest builds the table."""
    cfg = load_config(home=tmp_path_factory.mktemp("home"), heading_similarity=0.0,
                      term_expansion=3, question_expansion=5, expansion_floor=0.0)
    kb = KnowledgeBase(cfg)
    rep = kb.ingest([LABOUR_LAWS], dense=False, progress=False)
    assert not rep.failed
    return kb


@pytest.mark.unit
def test_vocabulary_keeps_words_of_two_characters_held_twice():
    counts = {"劳动": 40, "劳": 90, "试用期": 3, "孤词": 1, "hr": 5, "十六周岁": 2}
    assert vocabulary(counts) == sorted(["劳动", "试用期", "十六周岁"])


@pytest.mark.integration
def test_neighbours_are_the_nearest_other_words_best_first(expanding_kb):
    words = ["怀孕", "孕期", "工资", "劳动报酬", "罚款", "合同"]
    vecs = normalise(expanding_kb.embedder.embed_passages(words))
    near, cos = neighbours(vecs, k=3)
    sims = vecs @ vecs.T
    for i in range(len(words)):
        assert i not in near[i]  # never its own neighbour
        assert list(cos[i]) == sorted(cos[i], reverse=True)
        others = np.delete(sims[i], i)
        assert cos[i][0] == pytest.approx(others.max(), abs=1e-5)  # the best is the brute-force best


@pytest.mark.integration
def test_the_ingest_builds_the_table_once_per_vocabulary(expanding_kb):
    kb = expanding_kb
    path = table_path(kb.config.home)
    table = load_expansions(path)
    assert table is not None and table.embedder == kb.embedder.name
    assert set(table.words) == set(vocabulary(kb.store.term_counts()))
    assert table.near.shape == (len(table.words), 8)
    before = path.stat().st_mtime_ns
    kb.ingest([LABOUR_LAWS], dense=False, progress=False)  # nothing new: the table is kept
    assert path.stat().st_mtime_ns == before


@pytest.mark.integration
def test_expansion_adds_vocabulary_words_below_the_question_words(expanding_kb):
    kb = expanding_kb
    r = retrieve(kb, "试用期最长可以约定多久？", Mode.BM25, route=False)
    step = next(t for t in r.trace if t.stage == "expansion")
    added = step.detail["added"]
    kw = next(t for t in r.trace if t.stage == "keyword").detail["terms"]
    table = load_expansions(table_path(kb.config.home))
    assert added and not set(added) & set(kw)  # new words only
    assert set(added) <= set(table.words)  # each one a word the index holds
    assert r.hits  # and the search still answers
    off = retrieve(KnowledgeBase(kb.config.model_copy(update={"term_expansion": 0, "question_expansion": 0})),
                   "试用期最长可以约定多久？", Mode.BM25, route=False)
    assert not any(t.stage == "expansion" for t in off.trace)


@pytest.mark.unit
def test_expand_reads_the_neighbours_above_the_floor():
    words = ("工资", "劳动报酬", "薪酬", "罚款")
    near = np.array([[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]], dtype=np.int32)
    cos = np.array([[0.95, 0.9, 0.5]] * 4, dtype=np.float32)
    t = Expansions("k", "e", words, np.eye(4, dtype=np.float32), near, cos)
    assert t.expand(["工资"], 3, 0.8) == ["劳动报酬", "薪酬"]
    assert t.expand(["工资", "薪酬"], 1, 0.8) == ["劳动报酬"]  # a question word is never added
    assert t.expand(["加班"], 3, 0.0) == []  # a word outside the vocabulary adds nothing
    assert t.nearest(np.array([0, 0, 1, 0], dtype=np.float32), 2, exclude=["薪酬"])[0] in words


@pytest.mark.integration
def test_an_age_in_digits_searches_the_bounds_around_it(labour_kb):
    df = labour_kb.store.doc_frequency
    terms = age_terms(MINORS, df)
    assert "十六周岁" in terms  # the bound above 15 the labour law states (未满十六周岁)
    assert all(df(t) for t in terms)
    assert age_terms("我在这家公司工作了15年，能签无固定期限合同吗？", df) == []  # years of work are no age
    assert age_terms("孩子满200岁了", df) == []


@pytest.mark.integration
def test_age_bounds_bring_the_rule_on_minors_forward(labour_kb):
    def rank(kb):
        hits = retrieve(kb, MINORS, Mode.BM25, route=False).hits
        places = [(h.chunk.doc_path.rsplit("/", 1)[-1], h.chunk.article) for h in hits]
        return places.index(MINORS_GOLD) if MINORS_GOLD in places else len(places)

    on = KnowledgeBase(labour_kb.config.model_copy(update={"age_bounds": True}))
    assert rank(on) < rank(labour_kb) and rank(on) < 10
    # a question without an age keeps its terms
    q = "试用期最长可以约定多久？"
    assert (retrieve(on, q, Mode.BM25, route=False).trace[-1].detail
            == retrieve(labour_kb, q, Mode.BM25, route=False).trace[-1].detail)


def _chunk(doc: str, article: str, text: str):
    from zhiku.types import Chunk

    return Chunk(id=f"{doc}{article}", doc_id=doc, doc_path=f"{doc}.md", title=doc, section_id="1",
                 section_path=(), article=article, text=text, start=0, end=len(text))


@pytest.mark.unit
def test_unnumbered_hits_weigh_less_among_provisions():
    from zhiku.retrieve.provisions import unnumbered_down
    from zhiku.types import Hit

    case = Hit(_chunk("案例", "", "某公司辞退怀孕女职工案"), 10.0, "bm25", {"bm25": (1, 10.0)})
    rule = Hit(_chunk("劳动合同法", "第四十二条", "女职工在孕期…不得解除劳动合同"), 8.0, "bm25", {"bm25": (2, 8.0)})
    got = unnumbered_down([case, rule], 0.7)
    assert [h.chunk.article for h in got] == ["第四十二条", ""]
    assert got[1].score == pytest.approx(7.0) and got[1].sources["provision"] == (2, 0.7)
    assert case.score == 10.0  # a new hit, the old one untouched
    # a list of one kind keeps its order and scores: a manual without articles, or laws only
    guides = [case, Hit(_chunk("指南", "", "离职手续"), 9.0, "bm25")]
    assert unnumbered_down(guides, 0.7) == guides
    assert unnumbered_down([rule], 0.7) == [rule]
    assert unnumbered_down([case, rule], 1.0) == [case, rule]


@pytest.mark.integration
def test_the_rule_comes_before_the_guide_that_retells_it(tmp_path):
    """The labour laws plus a how-to guide (tests/data/laws/其他): with the weight on, a
    provision heads a question the laws answer; with it off the guide's passages do."""
    from tests.retrieve.test_recall_levers import DATA

    cfg = load_config(home=tmp_path, heading_similarity=0.0)
    kb = KnowledgeBase(cfg)
    kb.ingest([LABOUR_LAWS, DATA / "laws/其他"], dense=False, progress=False)
    off_kb = KnowledgeBase(cfg.model_copy(update={"unnumbered_weight": 1.0}))
    q = "劳动仲裁要交钱吗？"  # the guide retells the arbitration rules at length
    on, off = (retrieve(k, q, Mode.BM25, route=False).hits for k in (kb, off_kb))
    first_rule = lambda hits: next(i for i, h in enumerate(hits) if h.chunk.article)
    assert first_rule(on) == 0 < first_rule(off)
    assert {h.chunk.id for h in on} == {h.chunk.id for h in off}  # the same candidates, reordered
    plain = "试用期最长多久？"  # a question only provisions answer keeps its ranking
    assert ([h.chunk.id for h in retrieve(kb, plain, Mode.BM25, route=False).hits[:5]]
            == [h.chunk.id for h in retrieve(off_kb, plain, Mode.BM25, route=False).hits[:5]])
