"""The leak suite: two groups' documents with distinctive facts behind one server; a key of
one group tries every read path to reach the other's content (ask, chat, streams, search,
listings, counts, guessed document, section and chunk ids, titles, MCP tools, agent tools,
tables, the answer cache after the other group asked, the routing log). Every probe is
counted; not one may show the other group's content. Run on LanceDB and Milvus Lite."""

from __future__ import annotations

import asyncio
import json

import httpx
import pytest

pytestmark = pytest.mark.integration

HR_DOC = """# 薪酬制度

## 第一章 高管薪酬

第一条 总经理的年薪为八百八十八万元，由董事会薪酬委员会每年三月确定。

## 第二章 奖金

第二条 年终奖金计划的代号为赤兔计划，按绩效系数发放。
"""
FIN_DOC = """# 预算制度

## 第一章 年度预算

第一条 集团年度总预算为四十二亿元，预算项目的代号为青龙七号。

## 第二章 审批

第二条 单笔超过五百万元的支出须经财务总监紫薇审批。

| 部门 | 年度预算 | 负责人 |
| --- | --- | --- |
| 研发部 | 十二亿元 | 紫薇 |
| 市场部 | 九亿元 | 青龙 |
| 行政部 | 三亿元 | 白虎 |
"""
PUBLIC_DOC = """# 员工手册

## 第一章 休假

员工每年享有带薪年假十五天，年假应当在当年休完。
"""
SECRETS = {"hr": ("八百八十八万", "赤兔计划", "薪酬制度", "hr/"),
           "finance": ("四十二亿", "青龙七号", "紫薇", "预算制度", "研发部", "finance/")}
QUESTIONS = {"hr": ["总经理的年薪是多少？", "赤兔计划是什么？", "薪酬制度第二条"],
             "finance": ["集团年度总预算是多少？", "青龙七号是什么项目？", "谁审批超过五百万元的支出？",
                         "研发的年度预算是多少钱？", "预算制度第一条"]}
KEYS = {"hr": "key-hr-1", "finance": "key-fin-2"}
ADMIN = "key-admin-3"


class Probes:
    """Counts probes and records any response that shows another group's content."""

    def __init__(self) -> None:
        self.n, self.leaks = 0, []

    def check(self, who: str, what: str, body: object, echo: str = "") -> None:
        other = "finance" if who == "hr" else "hr"
        text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False, default=str)
        for e in filter(None, echo.split("\x1f")):
            text = text.replace(e, "")  # an error repeating the caller's own input is no leak
        self.n += 1
        self.leaks += [(who, what, m) for m in self.markers[other] if m in text]

    markers: dict[str, tuple[str, ...]] = {}


@pytest.fixture(scope="module", params=["lancedb", "milvus-lite"])
def world(request, tmp_path_factory):
    """A knowledge base with hr, finance and public documents under [[access]] rules,
    served over HTTP and MCP, with its ids as the admin sees them."""
    from zhiku.config import load_config
    from zhiku.index.store import Scope
    from zhiku.kb import KnowledgeBase
    from zhiku.server.app import create_app
    from zhiku.server.auth import Keys
    from zhiku.server.mcp_server import build_mcp, http_app
    from zhiku.server.run import background

    if request.param == "milvus-lite":
        pytest.importorskip("milvus_lite")
    root = tmp_path_factory.mktemp("corpus")
    for rel, text in (("hr/薪酬制度.md", HR_DOC), ("finance/预算制度.md", FIN_DOC),
                      ("public/员工手册.md", PUBLIC_DOC)):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    home = tmp_path_factory.mktemp(request.param)
    cfg = load_config(home=home, store="lancedb" if request.param == "lancedb" else "index.db",
                      api_keys=f"{KEYS['hr']}:hr,{KEYS['finance']}:finance", admin_keys=ADMIN,
                      access=[{"paths": ["hr/**"], "groups": ["hr"]},
                              {"paths": ["finance/**"], "groups": ["finance"]}])
    kb = KnowledgeBase(cfg)
    rep = kb.ingest([root], progress=False)
    assert not rep.failed and rep.added == 3
    docs = {d.path.split("/")[0]: d for d in kb.store.documents()}
    chunks = {g: [c.id for c in kb.store.find(Scope(doc_ids=(docs[g].doc_id,), versions="all"), limit=500)]
              for g in ("hr", "finance")}
    Probes.markers = {g: (*SECRETS[g], docs[g].doc_id, *chunks[g]) for g in ("hr", "finance")}
    with background(create_app(cfg, kb)) as url, \
            background(http_app(build_mcp(cfg, kb), Keys.from_config(cfg))) as mcp_url:
        yield {"url": url, "mcp": mcp_url, "kb": kb, "cfg": cfg, "docs": docs, "chunks": chunks}
    if request.param == "milvus-lite":
        from zhiku.index.milvus_conn import release

        release(kb.store.target)


def _http_probes(world, who: str, p: Probes) -> None:
    url, h = world["url"], {"X-API-Key": KEYS[who]}
    other = "finance" if who == "hr" else "hr"
    od = world["docs"][other]
    for path in ("/api/documents", "/api/subindexes", "/api/status", f"/api/documents?subindex={other}"):
        p.check(who, path, httpx.get(url + path, headers=h).text)
    for ref in (od.doc_id, od.path, od.title, "预算制度" if other == "finance" else "薪酬制度"):
        for suffix in ("", "/text", *[f"/sections/{s.id}" for s in od.sections]):
            r = httpx.get(f"{url}/api/documents/{ref}{suffix}", headers=h)
            assert r.status_code == 404, (ref, suffix, r.text)
            p.check(who, f"document {suffix}", r.text, ref + "\x1f" + suffix.rsplit("/", 1)[-1])
    for path in (f"/api/library?q={od.title}", f"/api/library?subindex={other}", "/api/library",
                 "/v1/models", "/api/sync"):
        p.check(who, path, httpx.get(url + path, headers=h).text, od.title + f"\x1f{other}")
    assert httpx.get(f"{url}/api/sync", headers=h).status_code == 403  # it names files
    for suffix in ("/chunks", "/pages/1.png"):
        r = httpx.get(f"{url}/api/documents/{od.doc_id}{suffix}", headers=h)
        assert r.status_code == 404
        p.check(who, suffix, r.text, od.doc_id)
    for q in QUESTIONS[other]:
        for model in ("zhiku", f"zhiku/{other}"):
            for stream in (False, True):
                r = httpx.post(f"{url}/v1/chat/completions", headers={"Authorization": f"Bearer {KEYS[who]}"},
                               json={"model": model, "stream": stream, "messages": [
                                   {"role": "user", "content": "你好"}, {"role": "assistant", "content": "您好"},
                                   {"role": "user", "content": q}]}, timeout=60)
                p.check(who, f"/v1/chat/completions {model}", r.text, q + f"\x1f{model}\x1f{other}")
    for cid in world["chunks"][other]:
        r = httpx.get(f"{url}/api/chunks/{cid}", headers=h)
        assert r.status_code == 404
        p.check(who, "chunk", r.text, cid)
    for q in QUESTIONS[other]:
        for mode in ("bm25", "dense", "hybrid"):
            r = httpx.post(f"{url}/api/search", json={"query": q, "k": 20, "mode": mode}, headers=h, timeout=60)
            p.check(who, f"search {mode}", r.text, q)
        for path in ("/api/ask", "/api/chat"):
            p.check(who, path, httpx.post(url + path, json={"question": q}, headers=h, timeout=60).text, q)
        for path in ("/api/ask/stream", "/api/chat/stream"):
            with httpx.stream("POST", url + path, json={"question": q}, headers=h, timeout=60) as r:
                p.check(who, path, r.read().decode(), q)
        for extra in ({"doc": od.doc_id}, {"doc": od.title}, {"subindex": [other]}, {"versions": "all"}):
            r = httpx.post(f"{url}/api/ask", json={"question": q, **extra}, headers=h, timeout=60)
            p.check(who, f"ask {extra}", r.text, q + "\x1f" + "\x1f".join(map(str, extra.values())) + f"\x1f{other}")


def _mcp_probes(world, who: str, p: Probes) -> None:
    import httpx2
    from mcp import Client
    from mcp.client.streamable_http import streamable_http_client

    other = "finance" if who == "hr" else "hr"
    od = world["docs"][other]

    async def run() -> None:
        async with httpx2.AsyncClient(headers={"X-API-Key": KEYS[who]}, timeout=120) as http:
            async with Client(streamable_http_client(f"{world['mcp']}/mcp", http_client=http)) as c:
                calls = [("list_chapters", {}), ("list_chapters", {"document": od.title}),
                         ("list_chapters", {"document": od.doc_id})]
                calls += [("read_section", {"document": ref, "section_id": s.id})
                          for ref in (od.title, od.doc_id, od.path) for s in od.sections]
                calls.append(("read_section", {"document": od.doc_id, "section_id": ""}))
                for q in QUESTIONS[other]:
                    calls += [("search_knowledge", {"query": q, "k": 20}), ("ask", {"question": q}),
                              ("search_knowledge", {"query": q, "subindex": other}),
                              ("ask", {"question": q, "document": od.title})]
                for name, args in calls:
                    res = await c.call_tool(name, args)
                    body = [x.text for x in res.content if hasattr(x, "text")]
                    p.check(who, f"mcp {name}", body, "\x1f".join(map(str, args.values())))

    asyncio.run(run())


def _library_probes(world, who: str, p: Probes) -> None:
    """Agent tools, the answer cache after the other group asked, tables, the routing log."""
    from zhiku.ask import Query, ask
    from zhiku.library import make_scope
    from zhiku.agents.tools import Toolbox, ToolError
    from zhiku.route.log import list_routes
    from zhiku.structured.sources import catalog_for

    kb, other = world["kb"], "finance" if who == "hr" else "hr"
    od = world["docs"][other]
    mine, theirs = kb.for_groups((who,)), kb.for_groups((other,))
    box = Toolbox(mine)
    calls = [("list_chapters", {}), ("list_chapters", {"document": od.title}),
             *[("read_section", {"document": od.doc_id, "section_id": s.id}) for s in od.sections],
             *[("search_knowledge", {"query": q, "k": 10}) for q in QUESTIONS[other]]]
    for name, args in calls:
        try:
            out = box.call(name, args)
        except ToolError as e:
            out = str(e)
        p.check(who, f"agent {name}", out, "\x1f".join(map(str, args.values())))
    p.check(who, "tables", [t.name + t.summary() for t in catalog_for(mine).tables])
    def hit(ans) -> bool:
        return any(t.stage == "cache" and t.detail.get("cache") == "hit" for t in ans.trace)

    stored = 0
    for q in QUESTIONS[other]:
        first = ask(theirs, Query(q, scope=make_scope(theirs), use_cache=True))  # fills the cache
        if not first.refused and first.citations:
            stored += 1
            assert hit(ask(theirs, Query(q, scope=make_scope(theirs), use_cache=True)))
        for scope in (make_scope(mine), make_scope(theirs)):  # even with the other group's scope
            ans = ask(mine, Query(q, scope=scope, use_cache=True))
            p.check(who, "cache", ans.to_dict(), q)  # a hit may only be this group's own answer
    assert stored  # the cache was filled, so the probes above could have hit it
    routes = list_routes(world["cfg"], groups=(who,), limit=1000)
    assert routes and all(r["groups"] == [who] for r in routes)  # only this group's own asks
    p.check(who, "route log", routes, "\x1f".join(QUESTIONS[other]))


def test_no_key_of_one_group_reaches_the_other_groups_documents(world):
    p = Probes()
    for who in ("hr", "finance"):
        _http_probes(world, who, p)
        _mcp_probes(world, who, p)
        _library_probes(world, who, p)
    assert p.n > 200 and p.leaks == [], (p.n, sorted(set(p.leaks)))


def test_each_group_and_admin_do_see_their_own(world):
    """The probes above are not vacuous: the same calls show a group its own facts."""
    url = world["url"]
    for who, q, fact in (("hr", "总经理的年薪是多少？", "八百八十八万"), ("finance", "青龙七号是什么项目？", "青龙七号")):
        for key in (KEYS[who], ADMIN):
            r = httpx.post(f"{url}/api/search", json={"query": q, "k": 5}, headers={"X-API-Key": key}, timeout=60)
            assert fact in r.text, (who, key)
        docs = httpx.get(f"{url}/api/documents", headers={"X-API-Key": KEYS[who]}).json()
        assert {d["path"].split("/")[0] for d in docs} == {who, "public"}
    models = {m["id"] for m in httpx.get(f"{url}/v1/models", headers={"X-API-Key": KEYS["hr"]}).json()["data"]}
    assert "zhiku/hr" in models and "zhiku/finance" not in models
    admin = httpx.get(f"{url}/api/documents", headers={"X-API-Key": ADMIN}).json()
    assert {d["path"].split("/")[0] for d in admin} == {"hr", "finance", "public"}
    fin = world["kb"].for_groups(("finance",))
    from zhiku.structured.sources import catalog_for

    assert any("研发部" in json.dumps([c.values for c in t.columns], ensure_ascii=False)
               or "预算" in t.summary() for t in catalog_for(fin).tables)
