"""The stages of the ask as named functions ``stage(run, note, ...)``, run in order by
:func:`zhiku.ask.flow.ask_stream`; the slow or fallible ones through their role."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from dataclasses import dataclass, replace
from typing import Any

from zhiku.answer.finish import finish as finish_answer
from zhiku.answer.finish import cites_names, missing_names
from zhiku.answer.finish import refusal as refusal_answer
from zhiku.answer.prompts import QType
from zhiku.answer.respond import Draft, Verified
from zhiku.answer.respond import verify as verify_draft
from zhiku.ask.query import Query, validate
from zhiku.ask.rewrite import RewriterRole, Turn
from zhiku.ask.roles import completed, perform, submit
from zhiku.ask.search import Mode, Prepared, Retrieval, fused, prepare, reuses_first
from zhiku.ask.workers import (AnswererRole, Drafting, Ranked, RerankerRole, RouterRole, Routing,
                               Searched, SearcherRole, SearchJob, WebSearcherRole)
from zhiku.retrieve.learned import judged_order
from zhiku.types import Answer, Hit, Route
from zhiku.verify.confidence import confidence, shown_confidence


def validated(run: Any, note: dict, q: Query) -> Query:
    """The query checked (see :func:`zhiku.ask.query.validate`)."""
    out = validate(run.kb, q)
    note.update({"mode": out.mode.value, "history": len(out.history)})
    return out


def rewrite(run: Any, note: dict, q: Query) -> Query:
    """A follow-up made standalone from the conversation (rewriter role); the question
    as it is when there is no history."""
    if not q.history:
        note.update({"how": "none"})
        return q
    rw = perform(RewriterRole(run.kb), Turn(q.question, q.history), run.trace, run.started)
    note.update({"from": q.question, "to": rw.standalone, "how": rw.how, "carried": list(rw.carried)})
    return q.but(question=rw.standalone)


def encode_early(run: Any, q: Query) -> None:
    """Start encoding the (standalone) question now when the ask searches vectors: the
    encoding runs beside the cache lookup, the tables and the keyword search instead of
    before the vector query."""
    if q.mode is not Mode.BM25:
        run.kb.encode_soon(q.question)


def cache_key(kb: Any, q: Query) -> str:
    """What a cached answer depends on besides its question: scope, mode, question type,
    options, settings and the zhiku release (an upgrade may answer differently)."""
    from zhiku import __version__

    cfg = kb.config.model_dump(mode="json")
    raw = json.dumps({"scope": repr(q.scope), "mode": q.mode.value, "qtype": q.qtype, "tables": q.tables,
                      "agent": q.agent, "config": cfg, "zhiku": __version__},
                     sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha1(raw.encode()).hexdigest()


def uses_cache(kb: Any, q: Query) -> bool:
    """Whether this ask consults and fills the answer cache."""
    return kb.config.cache if q.use_cache is None else q.use_cache


def cache_lookup(run: Any, note: dict, q: Query) -> Answer | None:
    """The cached answer to the (standalone) question, or None."""
    if not uses_cache(run.kb, q):
        note.update({"cache": "off"})
        return None
    from zhiku.ask.cache import cache_for

    hit, detail = cache_for(run.kb).lookup(q.question, cache_key(run.kb, q))
    note.update(detail)
    return None if hit is None else replace(hit, question=q.question)


def cache_store(run: Any, note: dict, q: Query, ans: Answer) -> None:
    """Keep the answer for the next ask of the same question."""
    if uses_cache(run.kb, q):
        from zhiku.ask.cache import cache_for

        note.update({"stored": cache_for(run.kb).store(q.question, cache_key(run.kb, q), ans)})


def agent_mode(run: Any, note: dict, q: Query) -> Answer | None:
    """The agent's answer when ``agent`` is asked for (None: it fell back; the ask goes on)."""
    if not q.agent:
        return None
    from zhiku.agents.agent import run_agent

    ans = run_agent(run.kb, q.question, run.trace)
    note.update({"answered": ans is not None})
    return ans


def structured(run: Any, note: dict, q: Query):
    """A condition question over a structured source, answered from its rows (None: not one)."""
    if not q.tables:
        note.update({"tables": "off"})
        return None
    from zhiku.structured.answer import table_answer

    t = table_answer(run.kb, q.question, q.scope)
    note.update({"matched": False} if t is None else t.detail())
    return t


def documents_query(q: Query, table: Any) -> Query | None:
    """What the documents answer: the question, what a table's conditions leave of it, or
    nothing."""
    if table is None:
        return q
    return q.but(question=table.rest) if table.rest else None


def prepared(run: Any, note: dict, q: Query) -> Prepared:
    """Terms, the documents and article named (resolved once per ask), the exact clause."""
    p = prepare(run.kb, q.question, q.mode, q.scope, run.trace)
    note.update({"terms": len(p.terms), "exact": len(p.exact)})
    return p


def start_route(run: Any, p: Prepared):
    """The router role, started now so it runs beside the first search (not at all when
    the ``routing`` setting is off); a route the rules decide is known at once."""
    if not run.kb.config.routing:
        return None, p
    try:
        quick = run.kb.router().by_rules(p.question, p.scope, p.ref)
    except Exception:  # noqa: BLE001 - the role meets the same error and falls back
        quick = None
    if quick is not None:
        return completed(Routing(quick, p.ref)), p
    return submit(RouterRole(run.kb), p), p


def route(run: Any, note: dict, started: Any) -> Routing:
    """The router's decision (waited for within its timeout; the default route after it).
    With routing off there is none: the step says so and the first search stands."""
    fut, p = started
    if fut is None:
        note.update({"routing": "off", "decided": False})
        return Routing(Route(reason="routing is off", tier="fallback"), p.ref, False)
    r = perform(RouterRole(run.kb), p, run.trace, run.started, fut)
    note.update({**r.route.to_dict(), "decided": r.decided})
    return r


def search(run: Any, note: dict, p: Prepared, routing: Any = (None, None)) -> Searched:
    """The unrouted search (keyword and dense inside the query's scope); skipped when the
    rules have already sent the question to its own sub-indexes, whose search would not
    reuse it."""
    fut = routing[0]
    r = fut.result() if fut is not None and fut.done() and fut.exception() is None else None
    if isinstance(r, Routing) and r.decided and not reuses_first(run.kb, p, r.route):
        note.update({"lists": 0, "skipped": "routed to its sub-indexes"})
        return Searched(())
    s = perform(SearcherRole(run.kb), SearchJob(p, None, ()), run.trace, run.started)
    run.trace.extend(s.trace)
    note.update({"lists": len(s.lists)})
    return s


def routed_search(run: Any, note: dict, p: Prepared, r: Routing, first: Searched) -> Retrieval:
    """Search where the router sends the question (sub-indexes, then chapters first;
    the default route reuses the first search); the first search when routing is off or
    the router failed. The route goes into the routing log here, once per ask."""
    if not r.decided:
        note.update({"routed": False})
        return fused(run.kb, p, first.lists, run.trace)
    s = perform(SearcherRole(run.kb), SearchJob(p, r.route, first.lists), run.trace, run.started)
    run.trace.extend(s.trace)
    res = s.retrieval
    route_step = [t for t in run.trace if t.stage == "route"]
    note.update({"routed": True, "chapters": len(res.route.chapters) if res.route else 0})
    if res.route is not None:
        log_route(run.kb, p.question, res.route, sum(t.seconds for t in route_step))
    return res


def log_route(kb: Any, question: str, route: Any, seconds: float) -> None:
    """Append the route to the routing log (``route_log``)."""
    if kb.config.route_log:
        from zhiku.route.log import record

        record(kb.config, question, route, seconds, getattr(kb.store, "groups", None))


def rerank(run: Any, note: dict, r: Retrieval) -> Ranked:
    """The hits reordered by the configured reranker (the fused order after a failure)."""
    ranked = perform(RerankerRole(run.kb), r, run.trace, run.started)
    note.update({"hits": len(ranked.hits)})
    run.absorb(note, ranked.trace, "rerank")
    return ranked


def confident(run: Any, note: dict, ranked: Ranked) -> Confidence:
    """The evidence's confidence and whether it is too weak to answer from."""
    r = ranked.retrieval  # the model and the keyword veto read the order they were fitted on
    conf, why = confidence(run.kb, replace(r, hits=judged_order(run.kb.config, r.hits)), note=note)
    refuse = conf < run.kb.config.min_confidence or not ranked.hits
    composed = ""
    if refuse and "vetoed" in note and run.kb.config.veto_quote:  # a second look at what the answer would quote
        conf, refuse, composed = _looked_again(run.kb, ranked, note, conf)
    conf = shown_confidence(conf, refuse, note)  # decided on the keyword model; with vectors the hybrid part may show
    note.update({"confidence": round(conf, 4), "why": why, "refuse": refuse})
    return Confidence(conf, why, refuse, composed)


def _looked_again(kb: Any, ranked: Ranked, note: dict, conf: float) -> tuple[float, bool, str]:
    """The dense veto's refusal read again (config ``veto_quote``): the model's probability
    is kept when the sentence the offline answer would quote is close enough to the question
    (:func:`zhiku.verify.shown.second_look`); with it the offline answer it composed."""
    from zhiku.verify.shown import second_look

    r = ranked.retrieval
    near, text = second_look(kb, r.question, r.terms, evidence_of(kb, ranked), r.exact)
    note["quote_cosine"] = round(near, 4)
    if near < kb.config.veto_quote:
        return conf, True, ""
    note["veto_lifted"] = True
    return note["vetoed"], note["vetoed"] < kb.config.min_confidence, text


@dataclass(frozen=True)
class Confidence:
    """How sure the evidence answers the question, why, and whether to refuse; ``composed``:
    the offline answer the dense veto's second look composed from the answer's evidence (the
    draft reuses it), empty when none was."""

    value: float
    why: str
    refuse: bool
    composed: str = ""


def considered(kb: Any, ranked: Ranked) -> tuple[Hit, ...]:
    """The candidates shown with an answer."""
    return tuple(ranked.hits[: max(kb.config.answer_chunks, 10)])


def refuse(run: Any, note: dict, q: Query, ranked: Ranked, c: Confidence) -> Answer:
    """The refusal: the evidence is too weak."""
    cfg = run.kb.config
    note.update({"confidence": c.value, "why": c.why})
    return refusal_answer(run.kb, q.question, ranked.retrieval.terms, considered(run.kb, ranked), c.value,
                          f"{c.why}，低于阈值 {cfg.min_confidence:.2f}", ())


def answer_chunks(kb: Any, r: Retrieval) -> int:
    """How many passages the answer may use (from the question type when routed)."""
    if r.route is None:
        return kb.config.answer_chunks
    from zhiku.route import params_for

    return params_for(kb.config, r.route.qtype).answer_chunks or kb.config.answer_chunks


def evidence_of(kb: Any, ranked: Ranked) -> list[Hit]:
    """The blocks the answer is written from: the exact clause alone, else the first
    :func:`answer_chunks` hits, each child replaced by its parent."""
    r = ranked.retrieval
    return with_parents(kb, list(ranked.hits[:1] if r.exact else ranked.hits[: answer_chunks(kb, r)]))


def draft(run: Any, note: dict, q: Query, ranked: Ranked, c: Confidence | None = None):
    """The answer written from the evidence (answerer role: the LLM when configured,
    within ``answer_timeout``, else or after it the extractive composer, or the offline
    answer the confidence stage already composed from this evidence); LLM tokens are
    yielded as ``delta`` events while they arrive."""
    from zhiku.ask.roles import perform_stream

    r = ranked.retrieval
    qtype = q.qtype or (r.route.qtype if r.route is not None else QType.FACT.value)
    evidence = evidence_of(run.kb, ranked)
    job = Drafting(q.question, tuple(r.terms), tuple(evidence), r.exact, qtype, q.stream,
                   c.composed if c is not None else "")
    d = yield from perform_stream(AnswererRole(run.kb), job, run.trace, run.started)
    run.trace.extend(d.trace)
    run.streamed = run.streamed or (d.generator == "llm" and q.stream)
    note.update({"generator": d.generator, "blocks": len(d.blocks), "qtype": qtype})
    return d


def verify(run: Any, note: dict, d: Draft) -> Verified:
    """The draft checked against its evidence (see :func:`zhiku.answer.respond.verify`)."""
    v = verify_draft(run.kb, d)
    note.update({"refused": v.refused})
    run.absorb(note, v.trace, "verify")
    return v


def finish(run: Any, note: dict, q: Query, ranked: Ranked, v: Verified, c: Confidence) -> Answer:
    """The final answer: version and conflict notes, confidence adjusted by verification."""
    scope = q.scope
    day = dt.date.today().isoformat() if scope.versions in ("current", "all") else scope.versions
    notes = version_notes(run.kb, v.citations, day)
    ans = finish_answer(run.kb, q.question, ranked.retrieval.terms, v, c.value, c.why,
                        considered(run.kb, ranked), (), notes)
    if ans.refused and not v.refused and v.generator == "extractive":
        ans = _lower_evidence(run, note, q, ranked, c, ans, day)
    run.absorb(note, ans.trace, "finish")  # the answerability step it recorded
    note.update({"refused": ans.refused, "notes": len(notes)})
    return ans


def _lower_evidence(run: Any, note: dict, q: Query, ranked: Ranked, c: Confidence, ans: Answer,
                    day: str) -> Answer:
    """The offline answer the answerability check refused, composed once more from the next
    candidates below the evidence (config ``answer_lower_evidence`` of them, among the ones
    shown with an answer) and kept when it passes the same verification and check: an FAQ
    entry whose question is its heading and whose answer is a word (「### Arthas 能否跟踪 native
    函数」 over 「不能。」) ranks below longer passages that share the question's words but not
    the thing it asks of; ``ans`` (the refusal) otherwise."""
    kb = run.kb
    n, r = kb.config.answer_lower_evidence, ranked.retrieval
    missing = missing_names(ans)
    if n <= 0 or r.exact or not missing:
        return ans
    shown = considered(kb, ranked)
    first = evidence_of(kb, ranked)
    used = {h.chunk.id for h in first}
    lower = [h for h in with_parents(kb, list(shown[answer_chunks(kb, r):]))[:n] if h.chunk.id not in used]
    if not lower:
        return ans
    qtype = q.qtype or (r.route.qtype if r.route is not None else QType.FACT.value)
    job = Drafting(q.question, tuple(r.terms), tuple(lower), False, qtype, False)
    v = verify_draft(kb, AnswererRole(kb).fallback(job))
    if v.refused:
        return ans
    again = finish_answer(kb, q.question, r.terms, v, c.value, c.why, shown, (),
                          version_notes(kb, v.citations, day))
    named = not again.refused and cites_names(v, missing, kb.config.answerability_name_values)
    note["lower_evidence"] = {"blocks": len(lower), "refused": again.refused, "named": named}
    return again if named else ans


def version_notes(kb: Any, cites, day: str) -> list[str]:
    """Sentences saying which cited versions are no longer (or not yet) in force on ``day``."""
    notes = []
    by_path = kb.doc_paths()
    for c in cites:
        d = by_path.get(c.doc_path)
        if d is None or not d.effective:
            continue
        if d.expiry and d.expiry <= day:
            newer = by_path.get(d.superseded_by or "")
            what = f"{newer.title}（{newer.version_date} 版）" if newer else (d.superseded_by or "新版本")
            notes.append(f"注意：引用 {c.marker} 的 {d.version_date} 版已于 {d.expiry} 失效，被 {what} 取代。")
        elif d.effective > day:
            notes.append(f"注意：引用 {c.marker} 的 {d.version_date} 版自 {d.effective} 起施行。")
    return notes


def with_parents(kb: Any, hits: list[Hit]) -> list[Hit]:
    """Replace each child chunk by its parent (the whole section the answer quotes),
    keeping the child's score and sources; hits sharing a parent become one.

    Args:
        kb: the knowledge base whose store holds the parents.
        hits: ranked hits of searched (child) chunks.

    Returns:
        Hits in the same order, parents in place of children; table rows keep their
        own sentence (their parent is the raw table).
    """
    ids = [h.chunk.parent_id for h in hits if h.chunk.parent_id and h.chunk.kind in ("text", "article")]
    parents = kb.store.get_chunks(list(dict.fromkeys(ids))) if ids else {}
    out: list[Hit] = []
    seen: set[str] = set()
    for h in hits:
        p = parents.get(h.chunk.parent_id or "") if h.chunk.kind in ("text", "article") else None
        h = replace(h, chunk=p) if p is not None else h
        if h.chunk.id not in seen:
            seen.add(h.chunk.id)
            out.append(h)
    return out


def joined(run: Any, note: dict, table: Any, doc: Answer | None) -> Answer:
    """The documents' answer, or the table's joined by the documents' part."""
    if table is None:
        assert doc is not None
        return doc
    from zhiku.structured.answer import with_documents

    note.update({"documents": doc is not None and not doc.refused})
    return with_documents(run.kb, table, doc, ())


def web(run: Any, note: dict, q: Query, ans: Answer) -> Answer:
    """A refusal of the documents with a labelled web part appended, when ``web_search``
    is on (documents first, web second); anything else as it is."""
    if not (ans.refused and run.kb.config.web_search) or ans.web:  # an agent may have searched it
        note.update({"searched": False})
        return ans
    from zhiku.agents.web import web_text

    found = perform(WebSearcherRole(run.kb), q.question, run.trace, run.started)
    text = web_text(found.query, found.sources)
    note.update({"searched": True, "results": len(found.sources), "used": bool(text),
                 "urls": [s.url for s in found.sources]})
    if not text:
        return ans
    return replace(ans, text=f"{ans.text}\n{text}", web=found.sources,
                   reason=f"{ans.reason}；知识库证据不足，已附网络搜索结果（已标注）")


def done(run: Any, q: Query, ans: Answer) -> Answer:
    """The answer to the standalone question, carrying the whole trace."""
    return replace(ans, question=q.question, trace=tuple(run.trace))

