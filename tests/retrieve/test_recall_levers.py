"""The keyword-recall levers: question focus, single-character back-off, feedback (RM3),
twin documents cited once, version phrases. Real law files (tests/data), real store."""

import shutil
from pathlib import Path

import pytest

from zhiku.config import load_config
from zhiku.kb import KnowledgeBase
from zhiku.ask.search import Mode, retrieve
from zhiku.retrieve.clause import version_phrase
from zhiku.retrieve.prf import feedback_terms
from zhiku.retrieve.terms import char_backoff, focus_question, keyword_terms
from zhiku.retrieve.twins import drop_twins, find_twins
from zhiku.route.chapters import routed_docs
from zhiku.types import Chunk, Hit

DATA = Path(__file__).resolve().parents[1] / "data"
ID_CARD = DATA / "route/行政法/居民身份证法(2011-10-29).md"


@pytest.fixture(scope="module")
def laws_kb(tmp_path_factory):
    """The test laws plus one law filed twice: 行政法/ as copied, 宪法相关法/ with the
    chapter headings spaced (总 则), the kind of difference the shared corpus's twins have."""
    root = tmp_path_factory.mktemp("docs")
    shutil.copytree(DATA / "laws", root / "laws")
    (root / "laws/行政法").mkdir()
    shutil.copy(ID_CARD, root / "laws/行政法" / ID_CARD.name)
    (root / "laws/宪法相关法").mkdir()
    text = ID_CARD.read_text(encoding="utf-8").replace("总则", "总 则")
    (root / "laws/宪法相关法" / ID_CARD.name).write_text(text, encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp_path_factory.mktemp("home")))
    rep = kb.ingest([root / "laws"], dense=False, progress=False)
    assert not rep.failed
    return kb


@pytest.mark.unit
def test_focus_cuts_question_phrases_and_keeps_units():
    assert "多" not in focus_question("离婚冷静期是多长时间？") and "冷静期" in focus_question("离婚冷静期是多长时间？")
    q = focus_question("每天工作时间最长不超过几个小时？")
    assert "小时" in q and "几" not in q
    assert "酒吧" in focus_question("去酒吧喝酒可以吗？")  # 吧 is a particle only where a clause ends
    assert focus_question("是否？") == "是否?"  # nothing else left: the (normalised) question


@pytest.mark.unit
def test_char_backoff_keeps_characters_of_unseen_words_only():
    df = {"违反": 40, "治安": 12, "冷静": 0}.get
    tokens = ["违反", "违", "反", "治安", "治", "安", "冷静", "冷", "静", "卖"]
    kept = char_backoff(tokens, lambda t: df(t, 5))
    assert kept == ["违反", "治安", "冷静", "冷", "静", "卖"]


@pytest.mark.integration
def test_keyword_terms_drop_question_words(laws_kb):
    df = laws_kb.store.doc_frequency
    plain = keyword_terms(laws_kb.segment, "离婚冷静期是多长时间？", df, focus=False)
    focused = keyword_terms(laws_kb.segment, "离婚冷静期是多长时间？", df)
    assert "长时间" in plain and "长时间" not in focused and "离婚" in focused


@pytest.mark.integration
def test_feedback_terms_come_from_the_best_passages(laws_kb):
    kb = laws_kb
    hits = kb.store.keyword(["试用期"], 10)
    extra = feedback_terms(hits, kb.segment, kb.idf, ["试用期"], 5, 8)
    assert 0 < len(extra) <= 8 and "试用期" not in extra
    text = "".join(h.chunk.text for h in hits[:5])
    assert all(w in text and len(w) > 1 for w in extra)


@pytest.mark.integration
def test_twin_documents_are_cited_once(laws_kb):
    kb = laws_kb
    twins = find_twins(kb.store.documents())
    assert len(twins) == 2 and all(len(v) == 1 for v in twins.values())
    on = retrieve(kb, "居民身份证的有效期有几种", Mode.BM25, route=False)
    places = [(h.chunk.title, h.chunk.article) for h in on.hits]
    assert ("中华人民共和国居民身份证法", "第五条") in places or any(a == "第五条" for _, a in places)
    assert len(places) == len(set(places))  # no article twice
    raw = kb.store.keyword(on.terms, 50)
    assert len(drop_twins(raw, twins)) < len(raw)


@pytest.mark.unit
def test_version_phrases():
    assert version_phrase("按照2018年修正的公司法，股东能转让股权吗") == "2018"
    assert version_phrase("公司法（2023年版）怎么规定") == "2023"
    assert version_phrase("修订前的公司法怎么规定") == "previous"
    assert version_phrase("我2019年入职的") is None


@pytest.mark.integration
def test_a_named_version_scopes_the_search(laws_kb):
    kb = laws_kb
    q = "按照2018年修正的公司法，有限责任公司的股东之间可以相互转让股权吗？"
    r = retrieve(kb, q, Mode.BM25, route=False)
    assert r.ref.version == "2018" and len(r.ref.doc_ids) == 1
    company = [h for h in r.hits if "公司法" in h.chunk.doc_path]
    assert company[0].chunk.doc_path.endswith("公司法(2018-10-26).md")
    assert company[0].chunk.article == "第七十一条"
    newest = retrieve(kb, q.replace("按照2018年修正的", ""), Mode.BM25, route=False)
    assert newest.ref.version is None and len(newest.ref.doc_ids) == 2


def _hit(doc_id: str) -> Hit:
    c = Chunk(id=doc_id + "-c", doc_id=doc_id, doc_path=doc_id + ".md", title=doc_id, section_id="1",
              section_path=(), article="第一条", text="第一条", start=0, end=3)
    return Hit(c, 1.0, "bm25")


@pytest.mark.unit
def test_chapter_routing_keeps_to_the_named_documents_by_their_hits():
    hits = [_hit(d) for d in ("合同编", "总则", "行政诉讼法", "物权编", "合同编")]
    named = ("人格权编", "侵权责任编", "合同编", "总则", "物权编")  # 民法典: every part named
    assert routed_docs(hits, named, 3) == ["合同编", "总则", "物权编"]
    assert routed_docs(hits, (), 2) == ["合同编", "总则"]  # nothing named: the best hits' documents


@pytest.mark.integration
def test_chapter_routing_keeps_the_article_found_without_it(laws_kb):
    kb = laws_kb
    q = "民法典规定夫妻一方婚前的个人财产，结婚以后算不算共同财产？"
    on = retrieve(kb, q, Mode.BM25, route=True)
    off = retrieve(kb, q, Mode.BM25, route=False)
    chapters = next((t for t in on.trace if t.stage == "chapters"), None)
    assert chapters is not None
    gold = ("民法典/婚姻家庭编.md", "第一千零六十三条")
    assert gold in [(h.chunk.doc_path, h.chunk.article) for h in off.hits[:5]]
    assert gold in [(h.chunk.doc_path, h.chunk.article) for h in on.hits[:5]]


def test_routing_off_ask_naming_a_law_also_searches_inside_it(laws_kb):
    """The one ask with routing off passes its first search on as a tuple; a question naming
    a law (no article) adds the search inside that law to it."""
    import copy

    from tests.asking import ask

    k = copy.copy(laws_kb)
    k.config = laws_kb.config.model_copy(update={"routing": False})
    ans = ask(k, "劳动合同法对试用期是怎么规定的？", Mode.BM25)
    assert ans.hits and "劳动合同法" in ans.hits[0].chunk.doc_path
    assert "试用期" in " ".join(h.chunk.text for h in ans.hits[:3])


@pytest.mark.integration
def test_the_search_inside_a_named_law_leaves_its_name_out(laws_kb):
    import copy

    from zhiku.ask.search import prepare
    from zhiku.index.store import Scope

    kb = laws_kb
    q = "按劳动合同法，试用期最长能约定多久？"
    p = prepare(kb, q, Mode.BM25, Scope(), [])
    assert "劳动合同法" in p.ref.names and p.ref.doc_ids
    assert {"劳动", "合同"} <= set(p.kw_terms)  # the search of the whole index still reads the name
    assert "试用期" in p.inner_terms and not {"劳动合同", "劳动", "合同", "法"} & set(p.inner_terms)
    r = retrieve(kb, q, Mode.BM25, route=False)
    searched = [t.detail["terms"] for t in r.trace if t.stage == "keyword"]
    assert list(p.inner_terms) in searched and p.kw_terms in searched
    places = [(h.chunk.doc_path, h.chunk.article) for h in r.hits[:3]]
    assert ("社会法/劳动合同法(2012-12-28).md", "第十九条") in places
    # a question naming no law, and the setting off: one search, with the question's terms
    assert prepare(kb, "试用期最长能约定多久？", Mode.BM25, Scope(), []).inner_terms == ()
    off = copy.copy(kb)
    off.config = kb.config.model_copy(update={"name_free_inside": False})
    assert prepare(off, q, Mode.BM25, Scope(), []).inner_terms == ()



@pytest.mark.integration
def test_a_named_law_ranks_first_among_the_best_hits(laws_kb):
    import copy

    from zhiku.retrieve.clause import NAMED_WINDOW

    kb = laws_kb
    q = "按公司法，劳动合同怎么签？"  # the law named is not where most matching words are
    off = copy.copy(kb)
    off.config = kb.config.model_copy(update={"named_first": False})
    before = retrieve(off, q, Mode.BM25, route=False)
    after = retrieve(kb, q, Mode.BM25, route=False)
    named = [h.chunk.doc_id in after.ref.doc_ids for h in after.hits]
    mixed = [h.chunk.doc_id in before.ref.doc_ids for h in before.hits]
    assert after.ref.doc_ids and not all(mixed[:NAMED_WINDOW])
    head = named[:NAMED_WINDOW]
    assert head == sorted(head, reverse=True) and sum(head) == sum(mixed[:NAMED_WINDOW])
    # only the order of the best hits changes: other laws stay among the candidates
    assert [h.chunk.id for h in after.hits[NAMED_WINDOW:]] == [h.chunk.id for h in before.hits[NAMED_WINDOW:]]
    assert not all(named)
    # its positive twin: a question naming no law keeps its order
    q2 = "劳动合同怎么签？"
    assert [h.chunk.id for h in retrieve(kb, q2, Mode.BM25, route=False).hits] == \
        [h.chunk.id for h in retrieve(off, q2, Mode.BM25, route=False).hits]
