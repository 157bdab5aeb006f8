"""Chapters by meaning as a source of candidates (chapter_search): real labour laws
(tests/data), real store, keyword index, the bundled embedder."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.chapter_meaning import chapter_list, interleaved, relaxed, unit_text

# everyday words: 辞退 is no word of 第四章 劳动合同的解除和终止, whose meaning the question shares
DISMISSED = "公司要辞退我，能拿到补偿吗？"
OVERTIME = "厂里旺季天天让加班，一个月最多能加多少小时？"


@pytest.fixture(scope="module")
def kbs(labour_kb):
    """The labour laws with chapter_search off (as shipped) and on (3 chapters)."""
    return labour_kb, KnowledgeBase(labour_kb.config.model_copy(update={"chapter_search": 3}))


def test_a_chapter_is_embedded_with_its_law_title():
    # 第四章 劳动合同的解除和终止 alone could be any law's; with the title it is one law's
    assert unit_text("中华人民共和国劳动合同法", ("第四章 劳动合同的解除和终止",)) == \
        "中华人民共和国劳动合同法 第四章 劳动合同的解除和终止"
    assert unit_text("中华人民共和国劳动法", ("第四章 工作时间和休息休假", "")) == \
        "中华人民共和国劳动法 第四章 工作时间和休息休假"
    # a document without chapters is its title
    assert unit_text("女职工劳动保护特别规定", ()) == "女职工劳动保护特别规定"


def test_relaxed_terms_add_the_characters_of_words_only():
    assert relaxed(["辞退", "补偿"]) == ["辞退", "补偿", "辞", "退", "补", "偿"]
    # a single character is a term already: not repeated
    assert relaxed(["岁", "加班"]) == ["岁", "加班", "加", "班"]


@pytest.mark.integration
def test_the_nearest_chapters_are_those_the_question_means(kbs):
    _, on = kbs
    cv = on.chapter_vectors()
    assert len(cv.units) > 10 and cv.matrix.shape[0] == len(cv.units)
    near = cv.nearest(on.dense_query(DISMISSED), 3)
    hits = chapter_list(on.store.keyword, near, ["辞退", "补偿"], Scope(), 2)
    assert hits and all(h.source == "chapters" and "chapters" in h.sources for h in hits)
    # 劳动合同法 第四章 劳动合同的解除和终止 is among them, by meaning alone
    assert any("劳动合同法" in h.chunk.doc_path and h.chunk.section_path[0].startswith("第四章")
               for h in hits)
    # every hit lies in a chapter found, at most two per chapter
    found = {(d, s) for d, s, _ in near}
    def under(h, u):
        return h.chunk.doc_id == u[0] and (h.chunk.section_id + ".").startswith(u[1] + ".")

    assert all(any(under(h, u) for u in found) for h in hits)
    assert len(hits) <= 2 * len(found)
    # a document left out is skipped: the next nearest chapters come instead
    skip = {near[0][0]}
    assert all(d not in skip for d, _, _ in cv.nearest(on.dense_query(DISMISSED), 3, skip))


@pytest.mark.integration
def test_the_search_step_runs_only_when_on_and_not_for_a_named_article(kbs):
    off, on = kbs
    stages = [t.stage for t in retrieve(off, OVERTIME, Mode.BM25, route=False).trace]
    assert "chapter_search" not in stages
    r = retrieve(on, OVERTIME, Mode.BM25, route=False)
    assert "chapter_search" in [t.stage for t in r.trace]
    assert r.hits[0].chunk.article == "第四十一条"  # the keyword list's best keeps its place
    # a question naming its article is answered there: no chapter search
    exact = retrieve(on, "劳动法第四十一条是怎么规定的", Mode.BM25, route=False)
    assert exact.hits[0].source == "clause" and "chapter_search" not in [t.stage for t in exact.trace]


@pytest.mark.integration
def test_interleaved_gives_the_new_hits_a_share_and_keeps_the_rest(kbs):
    off, _ = kbs
    hits = retrieve(off, OVERTIME, Mode.BM25, route=False).hits[:8]
    other = retrieve(off, DISMISSED, Mode.BM25, route=False).hits
    new = [h for h in other if h.chunk.id not in {x.chunk.id for x in hits}][:2]
    out = interleaved(hits, [hits[0], *new], 3)
    # places 3 and 6 are the new hits; the list's own hits keep their order and scores
    assert [h.chunk.id for h in out[2:6:3]] == [h.chunk.id for h in new]
    assert [h for h in out if h.chunk.id not in {n.chunk.id for n in new}] == hits
    assert out[2].score == out[1].score and len(out) == len(hits) + 2
    # no share, or nothing new: the list as it was
    assert interleaved(hits, new, 0) == hits
    assert interleaved(hits, hits[:3], 3) == hits
