"""Routing on real law files: the catalog, each router tier (rules, embedding, LLM through a
loopback OpenAI-compatible server), the fallback, multi-route fusion, chapter routing with
widening and whole-document fallback, question types and the routing log."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from tests.llmserver import Reply, fake_llm
from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.ask.search import Mode, retrieve
from tests.asking import ask
from zhiku.route.log import list_routes
from zhiku.route.chapters import pick_chapters
from zhiku.route.qtype import QType, classify_rules, params_for

pytestmark = pytest.mark.integration

ROUTE_DATA = Path(__file__).parent.parent / "data" / "route"
RULES = """
[[rules]]
intent = "tax"
words = ["个税", "ＰＡＹ"]
regex = ["纳税.*申报"]
subindexes = ["经济法"]

[[rules]]
intent = "labour-and-id"
words = ["工作时间"]
subindexes = ["社会法", "行政法"]
"""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory, laws_dir) -> Path:
    """The test laws plus two more real laws (行政法, 经济法) in one folder tree."""
    root = tmp_path_factory.mktemp("corpus")
    shutil.copytree(laws_dir, root, dirs_exist_ok=True)
    shutil.copytree(ROUTE_DATA, root, dirs_exist_ok=True)
    return root


@pytest.fixture(scope="module")
def home(tmp_path_factory, corpus) -> Path:
    h = tmp_path_factory.mktemp("routehome")
    (h / "route_rules.toml").write_text(RULES, encoding="utf-8")
    KnowledgeBase(load_config(home=h)).ingest([corpus], dense=False, progress=False)
    return h


def open_kb(home: Path, **over) -> KnowledgeBase:
    """The routing knowledge base; the embedding tier only where a test is about it."""
    return KnowledgeBase(load_config(home=home, **{"route_embedding": False, **over}))


def subs_of(hits) -> set[str]:
    return {h.chunk.doc_path.split("/", 1)[0] for h in hits}


def test_catalog_drafts_summaries_per_folder_and_regenerates(home, corpus, tmp_path):
    kb = open_kb(home)
    subs = {s.name: s for s in kb.router().subs}
    assert set(subs) == {"其他", "民法典", "民法商法", "社会法", "行政法", "经济法"}
    assert "《劳动合同法》" in subs["社会法"].summary and "不适用于" in subs["社会法"].summary
    assert (home / "route" / "subindexes.json").is_file()
    # a declared sub-index (glob) and a summary override, from config
    kb2 = open_kb(home, subindexes={"劳动": {"globs": ["社会法/劳动*"], "summary": "劳动用工"},
                                    "经济法": {"summary": "税收"}})
    subs2 = {s.name: s for s in kb2.router().subs}
    assert subs2["劳动"].declared and subs2["劳动"].n_docs == 2 and subs2["劳动"].summary == "劳动用工"
    assert subs2["经济法"].summary == "税收" and subs2["经济法"].overridden
    hits = retrieve(kb2, "试用期", Mode.BM25, route=False).hits  # declared scope searches its docs
    scoped = subs2["劳动"].scope(Scope())
    assert scoped.doc_ids and all(h.chunk.doc_id in scoped.doc_ids
                                  for h in kb2.store.keyword(["试用期"], 20, scoped))
    assert hits
    # a new document changes the catalog at ingest time
    other = tmp_path / "h2"
    shutil.copytree(home, other)
    kb3 = open_kb(other)
    extra = tmp_path / "more" / "宪法相关法"
    extra.mkdir(parents=True)
    shutil.copy(corpus / "行政法" / "居民身份证法(2011-10-29).md", extra / "居民身份证法副本.md")
    (extra / "居民身份证法副本.md").write_text((extra / "居民身份证法副本.md").read_text() + "\n附注。",
                                            encoding="utf-8")
    kb3.ingest([extra.parent], dense=False, progress=False)
    saved = json.loads((other / "route" / "subindexes.json").read_text(encoding="utf-8"))
    assert "宪法相关法" in {s["name"] for s in saved["subindexes"]}


def test_rules_tier_is_normalised_and_fast(home):
    kb = open_kb(home)
    r = kb.router().route("ｐａｙ 个人的税怎么算")  # full-width, upper case in the rule
    assert r.tier == "rules" and r.subindexes == ("经济法",) and "tax" in r.rule
    assert r.scores["rules_ms"] < 50
    named = retrieve(kb, "居民身份证法规定的有效期", Mode.BM25)
    assert named.route.tier == "rules" and named.route.subindexes == ("行政法",)
    assert named.route.rule.startswith("title:")


def test_bad_rules_file_is_a_clear_error(home, tmp_path):
    bad = tmp_path / "rules.toml"
    bad.write_text('[[rules]]\nintent="x"\nwords=["a"]\nsubindexes=["刑法"]\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match="unknown sub-indexes"):
        open_kb(home, route_rules=bad).router()


def test_embedding_tier_and_threshold(home):
    kb = open_kb(home, route_threshold=0.0, route_margin=0.0, route_embedding=True)
    r = kb.router().route("个人所得税的税率和免税收入")
    assert r.tier == "embedding" and len(r.subindexes) == 1
    assert set(r.scores["embedding"]) == {s.name for s in kb.router().subs}
    assert r.subindexes[0] == max(r.scores["embedding"], key=r.scores["embedding"].get)
    strict = open_kb(home, route_threshold=0.99, route_embedding=True).router().route("个人所得税的税率和免税收入")
    assert strict.tier == "fallback" and strict.scores["llm"] == "not configured"
    assert len(strict.subindexes) == 6  # fallback: every sub-index


def _llm_kb(home, url):
    return open_kb(home, route_threshold=0.99, llm_model="fake-router", llm_base_url=url, llm_retries=0)


def test_llm_tier_valid_retry_malformed_and_500(home):
    good = json.dumps({"subindexes": ["民法典"], "qtype": "process", "confidence": 0.8, "reason": "婚姻"})
    with fake_llm([good]) as srv:
        r = _llm_kb(home, srv.base_url).router().route("离婚要走什么流程")
    assert (r.tier, r.subindexes, r.qtype, r.confidence) == ("llm", ("民法典",), "process", 0.8)
    assert "子库" in srv.requests[0]["messages"][1]["content"]
    with fake_llm(["这不是 JSON", good]) as srv:  # one retry repairs a malformed reply
        r = _llm_kb(home, srv.base_url).router().route("离婚要走什么流程")
    assert r.tier == "llm" and len(srv.requests) == 2
    with fake_llm(["不是 JSON", "还不是"]) as srv:
        r = _llm_kb(home, srv.base_url).router().route("离婚要走什么流程")
    assert r.tier == "fallback" and "valid JSON" in r.scores["llm"]["error"]
    with fake_llm([Reply(status=500)]) as srv:
        kb = _llm_kb(home, srv.base_url)
        res = retrieve(kb, "离婚要走什么流程", Mode.BM25)
    assert res.route.tier == "fallback" and "500" in res.route.scores["llm"]["error"] and res.hits
    step = next(t for t in res.trace if t.stage == "route")
    assert step.detail["tier"] == "fallback" and "error" in step.detail["scores"]["llm"]
    unknown = json.dumps({"subindexes": ["unknown"], "qtype": "unknown"})
    with fake_llm([unknown]) as srv:
        r = _llm_kb(home, srv.base_url).router().route("今天天气如何")
    assert r.tier == "fallback"


def test_multi_route_searches_each_subindex_and_fuses(home):
    kb = open_kb(home, route_docs=0)
    r = retrieve(kb, "工作时间和居民身份证", Mode.BM25)
    assert r.route.tier == "rules" and r.route.subindexes == ("社会法", "行政法")
    assert subs_of(r.hits) == {"社会法", "行政法"}  # the filter is always applied
    assert sum(t.stage == "keyword" for t in r.trace) == 2
    assert all(h.source == "rrf" for h in r.hits)
    # evidence grouped by document: each doc's ranks, best document first
    assert list(r.groups) == list(dict.fromkeys(h.chunk.doc_id for h in r.hits))
    assert sorted(i for v in r.groups.values() for i in v) == list(range(1, len(r.hits) + 1))
    # a caller's scope still bounds the route
    only = retrieve(kb, "工作时间", Mode.BM25, scope=Scope(subindexes=("社会法",)))
    assert subs_of(only.hits) == {"社会法"} and only.route.subindexes == ("社会法",)


def test_an_ask_routed_by_rules_searches_its_sub_indexes_only(home):
    kb = open_kb(home, route_docs=0, route_log=False)  # the shared home keeps an empty log
    ans = ask(kb, "工作时间和居民身份证", Mode.BM25, use_cache=False)
    first = next(t for t in ans.trace if t.stage == "search")
    assert first.detail.get("skipped")  # the rules route was ready: no unrouted search first
    assert sum(t.stage == "keyword" for t in ans.trace) == 2  # one per routed sub-index
    assert ans.hits and subs_of(ans.hits) == {"社会法", "行政法"}


def test_chapter_routing_picks_widens_and_falls_back(home):
    kb = open_kb(home)
    q = "劳动者每日工作时间不超过几小时，延长工作时间有什么限制"
    r = retrieve(kb, q, Mode.BM25)
    picks = r.route.chapters
    assert 1 <= len(picks) <= 3
    best = picks[0]
    assert "工作时间" in best.label and best.doc_path.endswith("劳动法(2018-12-29).md")
    assert best.confidence >= 0.7 and not best.widened
    assert r.hits[0].chunk.section_id.startswith(best.section_id)
    assert any(t.stage == "chapters" for t in r.trace)
    # a high bar widens every pick to its parent (the whole document for a top chapter)
    high = open_kb(home, chapter_confidence=0.999)
    plain = retrieve(open_kb(home, route_docs=0), q, Mode.BM25).hits  # the same search, unlifted
    wide = pick_chapters([high.store.get_doc(best.doc_id)], high.words(q), plain, high.config)
    assert wide and all(p.widened for p in wide) and wide[0].section_id == ""
    assert wide[0].picked == best.section_id
    # a widened pick is no choice: the route records no chapter and the order is the search's
    widened = retrieve(high, q, Mode.BM25)
    assert widened.route.chapters == ()
    assert [h.chunk.id for h in widened.hits] == [h.chunk.id for h in plain]


def test_chapter_without_hits_falls_back_to_whole_document(home):
    from zhiku.ask.search import fuzzy, prepare
    from zhiku.route.chapters import under
    from zhiku.route.search import in_chapters, routed_search

    kb = open_kb(home)
    q = "劳动者每日工作时间不超过几小时，延长工作时间有什么限制"
    route = kb.router().route(q)
    terms = kb.words(q)
    prepared = prepare(kb, q, Mode.BM25, Scope(), [], structured=False, candidates=50)
    calls = []

    def search(scope, trace):
        calls.append(scope)
        return fuzzy(kb, prepared, scope, trace)

    first = routed_search(kb, route, Scope(), search, terms, (), 0.5, [])
    chosen = [p for p in first.route.chapters if p.section_id]
    assert chosen and not any(s.chapters for s in calls)  # the chapters re-rank the candidates
    mine = in_chapters(first.hits, chosen)
    assert mine and first.hits[0] in mine  # the hits in the chapters come first

    def without(scope, trace):  # the real search, except that the chosen chapters hold nothing
        return [[h for h in hits if not any(p.doc_id == h.chunk.doc_id and under(
            p.section_id, (h.chunk.section_id, *h.chunk.section_ids)) for p in chosen)]
            for hits in fuzzy(kb, prepared, scope, trace)]

    # without its hits the chapter is sure by its title alone only under a lower bar
    out = routed_search(open_kb(home, chapter_confidence=0.3), route, Scope(), without, terms, (), 0.5, [])
    back = {p.picked: p for p in out.route.chapters}
    gone = [back[p.section_id] for p in chosen if p.section_id in back]
    assert gone and all(p.section_id == "" and p.widened for p in gone)
    assert out.hits


def test_a_chapter_only_the_hits_chose_does_not_reorder_guessed_documents(home):
    from zhiku.ask.search import fuzzy, prepare
    from zhiku.route.search import routed_search

    kb = open_kb(home, chapter_confidence=0.3)  # a low bar: where the hits cluster is sure
    q = "劳动者每日工作时间不超过几小时，延长工作时间有什么限制"
    route = kb.router().route(q)
    prepared = prepare(kb, q, Mode.BM25, Scope(), [], structured=False, candidates=50)

    def search(scope, trace):
        return fuzzy(kb, prepared, scope, trace)

    # the same sub-index searches without chapter routing
    unrouted = [h.chunk.id for h in routed_search(open_kb(home, route_docs=0), route, Scope(), search,
                                                  kb.words(q), (), 0.5, []).hits]
    titled = routed_search(kb, route, Scope(), search, kb.words(q), (), 0.5, [])
    assert [h.chunk.id for h in titled.hits] != unrouted  # 第四章 工作时间和休息休假 first
    # the same hits without the question's words in any chapter title: the picks come from
    # where the hits cluster only, which says nothing about the documents the hits guessed
    trace: list = []
    blind = routed_search(kb, route, Scope(), search, ["每日"], (), 0.5, trace)
    step = next(t for t in trace if t.stage == "chapters")
    assert step.detail["picks"] and blind.route.chapters == ()  # picked, not used
    assert step.detail["skipped"] == "no sure chapter's title holds the question's words"
    assert [h.chunk.id for h in blind.hits] == unrouted
    # a document the question names is decided: its sure chapter comes first as before
    law = titled.route.chapters[0].doc_id
    named = routed_search(kb, route, Scope(), search, ["每日"], (law,), 0.5, [])
    assert [h.chunk.id for h in named.hits] != unrouted


def test_question_types_and_their_parameters(home):
    assert classify_rules("劳动合同和劳务合同有什么区别") is QType.COMPARISON
    assert classify_rules("申请劳动仲裁的流程是怎样的") is QType.PROCESS
    assert classify_rules("总结一下关于加班的规定") is QType.SYNTHESIS
    assert classify_rules("试用期最长多久") is None
    kb = open_kb(home, qtypes={"comparison": {"answer_chunks": 4, "alpha": 0.3}})
    p = params_for(kb.config, "comparison")
    assert (p.candidates, p.alpha, p.answer_chunks) == (80, 0.3, 4)
    r = kb.router().route("试用期最长多久")
    assert r.qtype == "fact" and r.scores["qtype"] == "default"
    with pytest.raises(ZhikuError, match="question type"):
        load_config(home=home, qtypes={"opinion": {}})


def test_clause_lookup_stays_exact_with_routing(home):
    kb = open_kb(home)
    r = retrieve(kb, "劳动合同法第十九条规定了什么", Mode.BM25)
    assert r.exact and r.hits[0].chunk.article == "第十九条"
    assert "劳动合同法" in r.hits[0].chunk.doc_path
    off = retrieve(kb, "试用期最长多久", Mode.BM25, route=False)
    assert off.route is None and not any(t.stage == "route" for t in off.trace)


def test_ask_records_routes_in_the_log(home, tmp_path):
    h = tmp_path / "logged"
    shutil.copytree(home, h)
    kb = open_kb(h)
    a1 = ask(kb, "个税怎么申报", Mode.BM25)
    ask(kb, "离婚冷静期是多久", Mode.BM25)
    assert any(t.stage == "route" for t in a1.trace)
    rows = list_routes(kb.config)
    assert [r["question"] for r in rows] == ["离婚冷静期是多久", "个税怎么申报"]
    assert [r["question"] for r in list_routes(kb.config, tier="rules")] == ["个税怎么申报"]
    assert [r["question"] for r in list_routes(kb.config, subindex="经济法", tier="rules")] == ["个税怎么申报"]
    assert list_routes(kb.config, subindex="刑法") == []  # a fallback lists every sub-index there is
    assert {r["question"] for r in list_routes(kb.config, below=0.5)} == {"离婚冷静期是多久"}
    assert list_routes(kb.config, since="2999-01-01") == []
    assert rows[0]["scores"] and isinstance(rows[0]["chapters"], list)
    off = open_kb(h, route_log=False)
    ask(off, "试用期最长多久", Mode.BM25)
    assert len(list_routes(kb.config)) == 2


def test_cli_routes_and_no_route(home, tmp_path, monkeypatch):
    from tests.test_cli import zhiku

    monkeypatch.setenv("ZHIKU_ROUTE_EMBEDDING", "false")  # no model load per process

    h = tmp_path / "cli"
    shutil.copytree(home, h)
    out = json.loads(zhiku(h, "ask", "--json", "--mode", "bm25", "个税怎么申报").stdout)
    assert {"route", "role:router"} <= {t["stage"] for t in out["trace"]}
    plain = json.loads(zhiku(h, "ask", "--json", "--no-route", "--mode", "bm25", "试用期").stdout)
    steps = {t["stage"]: t["detail"] for t in plain["trace"]}
    assert steps["route"] == {"routing": "off", "decided": False}  # no route decision
    assert steps["routed search"] == {"routed": False}
    assert not any(t["stage"] == "role:router" for t in plain["trace"])  # the router never ran
    rows = json.loads(zhiku(h, "routes", "--json", "--tier", "rules").stdout)
    assert len(rows) == 1 and rows[0]["subindexes"] == ["经济法"]
    assert "个税怎么申报" in zhiku(h, "routes").stdout


def test_eval_reports_routing_on_and_off(home, corpus, tmp_path, monkeypatch):
    from tests.test_cli import zhiku

    monkeypatch.setenv("ZHIKU_ROUTE_EMBEDDING", "false")

    gate = Path(__file__).parent.parent / "data" / "eval" / "gate.jsonl"
    out = zhiku(tmp_path / "ev", "eval", str(gate), "--corpus", str(corpus), "--no-dense",
                "--mode", "bm25", "--limit", "6", "--quiet", "--json", str(tmp_path / "e.json")).stdout
    assert "bm25+route" in out and "gold article in chosen chapters" in out
    data = json.loads((tmp_path / "e.json").read_text(encoding="utf-8"))
    row = data["sets"]["gate"]["routing"][0]
    assert row["mode"] == "bm25+route" and 0.0 <= row["chapter_acc"] <= 1.0 and row["n"] > 0


def test_summaries_are_the_same_text_in_every_process(tmp_path):
    """Re-ingesting must not re-embed summaries: their text may not depend on hash order."""
    import os
    import subprocess
    import sys

    script = r"""
import sys
from pathlib import Path
from zhiku.config import load_config
from zhiku.index.store import DocRecord
from zhiku.ingest import iter_files, load_file
from zhiku.route.subindex import build_catalog
from zhiku.structure import build_tree
docs = []
for f, root in iter_files([sys.argv[1]]):
    d = load_file(f, root)
    secs = tuple(build_tree(d))
    docs.append(DocRecord(d.id, d.path, (), d.title, d.version_date, d.path.split("/")[0], 10, {}, secs))
print("\n".join(s.summary for s in build_catalog(load_config(home=sys.argv[2]), docs)))
"""
    laws = Path(__file__).resolve().parents[1] / "data" / "laws"
    outs = {subprocess.run([sys.executable, "-c", script, str(laws), str(tmp_path)], capture_output=True,
                           text=True, check=True, env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2", "3")}
    assert len(outs) == 1 and "主要章节" in next(iter(outs))
