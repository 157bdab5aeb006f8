"""The ask path in one short function per step: resolve → retrieve → fuse → compose → verify."""

from __future__ import annotations

import datetime as dt
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from zhiku.answer.extractive import coverage
from zhiku.answer.finish import finish, refusal
from zhiku.answer.prompts import QType
from zhiku.answer.respond import respond
from zhiku.errors import ZhikuError
from zhiku.registry import Choice
from zhiku.index.store import Scope
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.clause import ClauseRef
from zhiku.retrieve.fusion import FusionMode, fuse
from zhiku.rerank import rerank
from zhiku.retrieve.segment import focus_terms, query_terms
from zhiku.retrieve.terms import keyword_terms
from zhiku.retrieve.twins import drop_twins
from zhiku.retrieve.synonyms import load_synonyms
from zhiku.types import Answer, AskEvent, Hit, Route, TraceStep


class Mode(Choice):
    """Retrieval mode: keyword only, dense only, both fused, or the whole ask path."""

    BM25 = "bm25"
    DENSE = "dense"
    HYBRID = "hybrid"
    FULL = "full"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "mode"


@dataclass
class Retrieval:
    """Ranked hits for a question and how they were found."""

    hits: list[Hit]
    terms: list[str]
    ref: ClauseRef
    exact: bool
    trace: list[TraceStep] = field(default_factory=list)
    route: Route | None = None
    groups: dict[str, list[int]] = field(default_factory=dict)


class _Timer:
    def __init__(self, trace: list[TraceStep], stage: str) -> None:
        self.trace, self.stage, self.detail = trace, stage, {}

    def __enter__(self) -> dict[str, Any]:
        self.t = time.perf_counter()
        return self.detail

    def __exit__(self, *exc: object) -> None:
        self.trace.append(TraceStep(self.stage, time.perf_counter() - self.t, dict(self.detail)))


def _brief(hits: list[Hit], n: int = 5) -> list[dict[str, Any]]:
    return [{"doc": h.chunk.doc_path, "article": h.chunk.article, "score": round(h.score, 4)}
            for h in hits[:n]]


def _narrow(scope: Scope, doc_ids: tuple[str, ...]) -> Scope | None:
    """The caller's scope limited to ``doc_ids`` (None when nothing is left)."""
    if scope.doc_ids:
        doc_ids = tuple(d for d in doc_ids if d in scope.doc_ids)
        if not doc_ids:
            return None
    return replace(scope, doc_ids=doc_ids)


def _exact(kb: KnowledgeBase, ref: ClauseRef, terms: list[str], k: int, scope: Scope) -> list[Hit]:
    """Chunks holding the named article; when no version in scope has it but an older
    version does, those are returned (the answer then says the version is superseded)."""
    if not ref.article:
        return []
    if ref.doc_ids:
        narrowed = _narrow(scope, ref.doc_ids)
        if narrowed is None:
            return []
        found = kb.store.find(replace(narrowed, article=ref.article))
        if not found and scope.versions != "all":
            found = kb.store.find(replace(narrowed, article=ref.article, versions="all"))
        rank = {d: i for i, d in enumerate(ref.doc_ids)}
        found.sort(key=lambda c: rank.get(c.doc_id, 99))
        return [Hit(c, 1.0, "clause", {"clause": (i, 1.0)}) for i, c in enumerate(found, 1)]
    hits = kb.store.keyword(terms, k, replace(scope, article=ref.article))
    return [Hit(h.chunk, h.score, "clause", {"clause": (i, h.score)}) for i, h in enumerate(hits, 1)]


def version_notes(kb: KnowledgeBase, cites, day: str) -> list[str]:
    """Sentences saying which cited versions are no longer (or not yet) in force on ``day``."""
    notes = []
    by_path = {d.path: d for d in kb.store.documents()}
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


def _fuzzy(kb, question: str, terms: list[str], mode: Mode, scope: Scope, k: int,
           trace: list[TraceStep], feedback: bool = False) -> list[list[Hit]]:
    lists: list[list[Hit]] = []
    if mode is not Mode.DENSE:
        with _Timer(trace, "keyword") as d:
            lists.append(_keyword(kb, terms, k, scope, d, feedback))
            d.update(terms=terms, top=_brief(lists[-1]))
    if mode is not Mode.BM25 and kb.has_vectors():
        with _Timer(trace, "dense") as d:
            lists.append(kb.dense(question, k, scope))
            d.update(top=_brief(lists[-1]))
    return lists


def _keyword(kb, terms: list[str], k: int, scope: Scope, detail: dict[str, Any], feedback: bool) -> list[Hit]:
    """BM25, with pseudo-relevance feedback when on (see :mod:`zhiku.retrieve.prf`)."""
    cfg = kb.config
    if not feedback or not cfg.feedback_terms:
        return kb.store.keyword(terms, k, scope)
    from zhiku.retrieve.prf import Feedback, keyword_with_feedback

    hits, extra = keyword_with_feedback(kb.store.keyword, kb.segment, kb.idf, terms, k, scope,
                                        Feedback(cfg.feedback_docs, cfg.feedback_terms))
    detail.update(feedback=extra)
    return hits


def retrieve(kb: KnowledgeBase, question: str, mode: Mode = Mode.HYBRID, scope: Scope = Scope(),
             structured: bool = True, k: int | None = None, route: bool | Route | None = None) -> Retrieval:
    """Rank chunks for a question inside ``scope``.

    With ``structured`` on, a question naming a law and an article resolves that
    article exactly first, and a named law adds a search scoped to it. With ``route``
    (default: the ``routing`` setting) the fuzzy search runs only where the router sends
    it (sub-indexes, then chapters first; see :mod:`zhiku.route`); a ``Route`` given here
    is a decision already made (by the agents' router role) and is not routed again.
    """
    cfg = kb.config
    k = k or cfg.candidates
    routing = cfg.routing if route is None else bool(route)
    trace: list[TraceStep] = []
    canon, used = load_synonyms(cfg).canonical(question)
    terms = query_terms(kb.words(canon if used else question))
    df = kb.store.doc_frequency
    kw_terms = keyword_terms(kb.segment, question, df, structured and cfg.query_focus,
                             structured and cfg.char_backoff)
    if used:  # the term dictionary: search the words documents use as well (报账 → 报销)
        kw_terms = list(dict.fromkeys(kw_terms + keyword_terms(
            kb.segment, canon, df, structured and cfg.query_focus, structured and cfg.char_backoff)))
        trace.append(TraceStep("synonyms", 0.0, {"replaced": used}))
    # a long narrative searches its telling words only (not in the flat baseline)
    focused = focus_terms(kw_terms, kb.store.doc_frequency, kb.chunk_count()) if structured else kw_terms
    if len(focused) < len(kw_terms):
        trace.append(TraceStep("focus", 0.0, {"terms": len(kw_terms), "kept": len(focused)}))
        kw_terms = focused
    ref = ClauseRef((), (), None)
    exact: list[Hit] = []
    if structured:
        with _Timer(trace, "resolve") as d:
            ref = kb.titles().resolve(question)
            exact = _exact(kb, ref, kw_terms, k, scope)
            d.update(names=list(ref.names), article=ref.article, exact=_brief(exact))
    routed = None
    if routing:
        routed = _route(kb, question, kw_terms, terms, mode, scope, k, ref, trace,
                        route if isinstance(route, Route) else None)
        lists = [routed.hits]
    else:
        lists = _fuzzy(kb, question, kw_terms, mode, scope, k, trace, structured)
    named = replace(scope, versions="all") if ref.version else scope  # 「2018年修正的公司法」
    scoped = _narrow(named, ref.doc_ids) if structured and ref.doc_ids and not exact else None
    if scoped is not None:
        lists += _fuzzy(kb, question, kw_terms, mode, scoped, k, trace, structured)
    with _Timer(trace, "fuse") as d:
        fmode = FusionMode.from_str(cfg.fusion)
        fused = fuse(lists, fmode, k=cfg.rrf_k, alpha=cfg.alpha) if len(lists) > 1 else (lists or [[]])[0]
        seen = {h.chunk.id for h in exact}
        hits = exact + [h for h in fused if h.chunk.id not in seen]
        if structured and cfg.drop_twins:
            hits = drop_twins(hits, kb.titles().twins)
        if ref.other_versions:  # 「2018年修正的公司法」: not the 2023 公司法
            hits = [h for h in hits if h.chunk.doc_id not in ref.other_versions]
        d.update(mode=fmode.value, lists=len(lists), top=_brief(hits))
    groups = {}
    if routed:
        from zhiku.route.search import group_by_document

        groups = group_by_document(hits[:k])
    return Retrieval(hits[:k], terms, ref, bool(exact), trace, routed and routed.route, groups)


def _route(kb, question: str, kw_terms: list[str], terms: list[str], mode: Mode, scope: Scope,
           k: int, ref: ClauseRef, trace: list[TraceStep], given: Route | None = None):
    """The routing step: choose sub-indexes and question type, then search there (and in
    the chosen chapters first); recorded as a ``route`` trace step."""
    from zhiku.route import params_for, routed_search

    with _Timer(trace, "route") as d:
        route = given or kb.router().route(question, scope, ref)
        p = params_for(kb.config, route.qtype)
        kk, alpha = p.top_k or k, kb.config.alpha if p.alpha is None else p.alpha
        d.update(route.to_dict())
    routed = routed_search(kb, route, scope, lambda s, t: _fuzzy(kb, question, kw_terms, mode, s, kk, t, True),
                           terms, ref.doc_ids, alpha, trace)
    i = max(i for i, t in enumerate(trace) if t.stage == "route")
    trace[i] = replace(trace[i], detail={**trace[i].detail, **routed.route.to_dict(),
                                         "groups": dict(list(routed.groups.items())[:5])})
    return routed


def confidence(kb: KnowledgeBase, r: Retrieval) -> tuple[float, str]:
    """How sure the evidence answers the question (0..1), and why.

    An exact clause hit is near-certain. Otherwise: the IDF-weighted share of question
    terms found in the top three passages, blended with the best dense cosine
    (e5 cosines live in roughly 0.75–0.92, rescaled to 0..1).
    """
    if r.exact:
        return 0.95, "问题点名的条文已精确定位"
    if not r.hits:
        return 0.0, "没有检索到任何段落"
    top = r.hits[:3]
    cov = coverage(r.terms, "".join(h.chunk.text for h in top), kb.idf)
    dense = [h.sources["dense"][1] for h in r.hits[:10] if "dense" in h.sources]
    if not dense:
        return 0.9 * cov, f"最相关段落覆盖了问题关键词的 {cov:.0%}"
    dn = min(max((max(dense) - 0.78) / 0.12, 0.0), 1.0)
    conf = 0.9 * (0.6 * cov + 0.4 * dn)  # fuzzy evidence never reaches an exact clause's 0.95
    return conf, f"关键词覆盖 {cov:.0%}，语义相似度 {max(dense):.2f}"


def ask(kb: KnowledgeBase, question: str, mode: Mode = Mode.HYBRID, scope: Scope = Scope(),
        qtype: str | None = None, tables: bool = True) -> Answer:
    """Answer a question from the knowledge base, with verified citations: by the LLM
    answerer when one is configured, else offline by the extractive composer.

    With ``tables`` on, a condition question over a structured source is answered from
    its rows first (the documents answer what the conditions leave of the question).
    ``qtype`` overrides the router's question type.

    Raises:
        ZhikuError: the question is empty, ``qtype`` unknown, or a structured source broken.
    """
    ans = None
    for ev in ask_stream(kb, question, mode, scope, qtype, stream=False, tables=tables):
        ans = ev.answer or ans
    assert ans is not None
    return ans


def _answer_chunks(kb: KnowledgeBase, question: str, r: Retrieval) -> int:
    """How many passages the answer may use (from the question type when routed); the
    route is appended to the routing log here, once per ask."""
    if r.route is None:
        return kb.config.top_k
    from zhiku.route import params_for
    from zhiku.route.log import record

    if kb.config.route_log:
        record(kb.config, question, r.route, sum(t.seconds for t in r.trace if t.stage == "route"))
    return params_for(kb.config, r.route.qtype).answer_chunks or kb.config.top_k


def _table_events(ans: Answer) -> Iterator[AskEvent]:
    yield from _steps(list(ans.trace))
    for piece in re.findall(r"[^。！？\n]*[。！？\n]?", ans.text):
        if piece:
            yield AskEvent("delta", text=piece)
    yield AskEvent("answer", answer=ans)


def ask_stream(kb: KnowledgeBase, question: str, mode: Mode = Mode.HYBRID, scope: Scope = Scope(),
               qtype: str | None = None, stream: bool = True, tables: bool = True) -> Iterator[AskEvent]:
    """:func:`ask` as events for streaming clients (SSE, CLI): ``step`` per stage,
    ``delta`` pieces of text, then the final ``answer`` event.

    An LLM answerer streams its tokens as they arrive (provisional: the final answer
    carries the verified text); offline, the verified sentences are the deltas.

    Raises:
        ZhikuError: as :func:`ask` (before the first event).
    """
    question = question.strip()
    if not question:
        raise ZhikuError("the question is empty; ask something, e.g. zhiku ask \"试用期最长多久\"")
    if qtype:
        QType.from_str(qtype)
    if tables:
        from zhiku.structured import ask_structured

        sa = ask_structured(kb, question, lambda q: ask(kb, q, mode, scope, qtype, tables=False), scope)
        if sa is not None:
            yield from _table_events(sa)
            return
    r = retrieve(kb, question, Mode.HYBRID if mode is Mode.FULL else mode, scope)
    yield from answer_events(kb, question, r, scope, qtype, stream)


def answer_from(kb: KnowledgeBase, question: str, r: Retrieval, scope: Scope = Scope(),
                hits: list[Hit] | None = None, llm: bool = True) -> Answer:
    """The answer (or refusal) from a retrieval: the second half of :func:`ask`, run on
    its own by the agents' answerer role.

    Args:
        kb: the knowledge base.
        question: the question.
        r: its retrieval (hits and trace so far).
        scope: the scope searched (its version selector dates version notes).
        hits: already reranked hits (None: rerank ``r.hits`` here).
        llm: use the LLM answerer when one is configured (off: the extractive composer).
    """
    ans = None
    for ev in answer_events(kb, question, r, scope, None, False, hits, llm):
        ans = ev.answer or ans
    assert ans is not None
    return ans


def answer_events(kb: KnowledgeBase, question: str, r: Retrieval, scope: Scope, qtype: str | None,
                  stream: bool, hits: list[Hit] | None = None, llm: bool = True) -> Iterator[AskEvent]:
    """Rerank (unless ``hits`` are given), refuse or respond, verify and finish; as events."""
    trace = list(r.trace)
    qtype = qtype or (r.route.qtype if r.route is not None else QType.FACT.value)
    n = _answer_chunks(kb, question, r)
    hits = rerank(kb, question, r.hits, trace) if hits is None else hits
    yield from _steps(trace)
    conf, why = confidence(kb, r)
    considered = tuple(hits[: max(kb.config.top_k, 10)])
    if conf < kb.config.min_confidence or not hits:
        trace.append(TraceStep("refuse", 0.0, {"confidence": conf, "why": why}))
        yield AskEvent("answer", answer=refusal(kb, question, r.terms, considered, conf,
                                                f"{why}，低于阈值 {kb.config.min_confidence:.2f}", trace))
        return
    evidence = with_parents(kb, hits[:1] if r.exact else hits[:n])
    draft = yield from respond(kb, question, r.terms, evidence, r.exact, qtype, stream, llm)
    trace += draft.trace
    yield from _steps(draft.trace)
    day = dt.date.today().isoformat() if scope.versions in ("current", "all") else scope.versions
    notes = version_notes(kb, draft.citations, day)
    ans = finish(kb, question, r.terms, draft, conf, why, considered, trace, notes)
    if (draft.generator == "extractive" or not stream) and ans.text.startswith(draft.text) and draft.text:
        if ans.text[len(draft.text):]:
            yield AskEvent("delta", text=ans.text[len(draft.text):])
    yield AskEvent("answer", answer=ans)


def _steps(trace: list[TraceStep]) -> Iterator[AskEvent]:
    for t in trace:
        yield AskEvent("step", detail={"stage": t.stage, "seconds": round(t.seconds, 4)})


def with_parents(kb: KnowledgeBase, hits: list[Hit]) -> list[Hit]:
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
