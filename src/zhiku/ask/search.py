"""The search stages of an ask: prepare the question (terms, named documents, the exact
clause), search, search where the router sends it, fuse; :func:`retrieve` runs them in order."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from zhiku.ask.lists import Mode, _Timer, brief, fuzzy  # noqa: F401  (Mode, fuzzy re-exported)
from zhiku.index.store import Scope
from zhiku.retrieve.answertype import offence_first
from zhiku.retrieve.citations import named_citations
from zhiku.retrieve.clause import ClauseRef, named_first, release_first
from zhiku.retrieve.fusion import fuse_search, fusion_of, has_dense
from zhiku.retrieve.inforce import ended, in_force_first
from zhiku.retrieve.offences import named_offence_first
from zhiku.retrieve.segment import focus_terms, query_terms
from zhiku.retrieve.terms import keyword_terms
from zhiku.retrieve.twins import drop_twins
from zhiku.retrieve.synonyms import load_synonyms
from zhiku.route.search import note_route
from zhiku.types import Hit, Route, TraceStep


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
    question: str = ""


@dataclass(frozen=True)
class Prepared:
    """A question made ready to search: its terms (``terms`` for scoring, ``kw_terms`` for
    the keyword index), the documents and article it names, and that article's chunks."""

    question: str
    terms: list[str]
    kw_terms: list[str]
    ref: ClauseRef
    exact: list[Hit]
    mode: Mode
    scope: Scope
    candidates: int
    asks: tuple[Any, ...] = ()  # the answer types the question asks for (none in the flat baseline)
    inner_terms: tuple[str, ...] = ()  # keyword terms inside the named documents (their names cut)
    added: tuple[str, ...] = ()  # the vocabulary's neighbours of the keyword terms, searched below them
    structured: bool = True  # False: the flat baseline (plain BM25 order)
    # the documents defining a short or long form the question holds and the other form's
    # words, searched in them below the question's words (config ``short_form_search``)
    defined: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def narrow(scope: Scope, doc_ids: tuple[str, ...]) -> Scope | None:
    """The caller's scope limited to ``doc_ids`` (None when nothing is left)."""
    if scope.doc_ids:
        doc_ids = tuple(d for d in doc_ids if d in scope.doc_ids)
        if not doc_ids:
            return None
    return replace(scope, doc_ids=doc_ids)


def _exact(kb: Any, ref: ClauseRef, terms: list[str], k: int, scope: Scope) -> list[Hit]:
    """Chunks holding the named article; when no version in scope has it but an older
    version does, those are returned (the answer then says the version is superseded)."""
    if not ref.article:
        return []
    if ref.doc_ids:
        narrowed = narrow(scope, ref.doc_ids)
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


def prepare(kb: Any, question: str, mode: Mode, scope: Scope, trace: list[TraceStep],
            structured: bool = True, candidates: int | None = None) -> Prepared:
    """Terms of the question (term dictionary applied, a long narrative focused on its
    telling words) and, with ``structured`` on, the documents and article it names —
    resolved once per ask — with that article's chunks.

    Args:
        kb: the knowledge base.
        question: the (standalone) question.
        mode: retrieval mode.
        scope: where to search.
        trace: receives the ``synonyms``, ``focus`` and ``resolve`` steps.
        structured: resolve named documents and articles (off: the flat baseline).
        candidates: hits fetched per retriever (default: the ``candidates`` setting).
    """
    k = candidates or kb.config.candidates
    canon, used = load_synonyms(kb.config).canonical(question)
    terms = query_terms(kb.words(canon if used else question))
    cfg, df = kb.config, kb.store.doc_frequency
    focus, backoff = structured and cfg.query_focus, structured and cfg.char_backoff
    kw_terms = keyword_terms(kb.segment, question, df, focus, backoff)
    if used:  # the term dictionary: search the words documents use as well (报账 → 报销)
        kw_terms = list(dict.fromkeys(kw_terms + keyword_terms(kb.segment, canon, df, focus, backoff)))
        trace.append(TraceStep("synonyms", 0.0, {"replaced": used}))
    # a long narrative searches its telling words only (not in the flat baseline)
    focused = focus_terms(kw_terms, kb.store.doc_frequency, kb.chunk_count()) if structured else kw_terms
    if len(focused) < len(kw_terms):
        trace.append(TraceStep("focus", 0.0, {"terms": len(kw_terms), "kept": len(focused)}))
        kw_terms = focused
    if structured and cfg.age_bounds:  # 15岁 → 十五岁, 十四周岁, 十六周岁 (see zhiku.retrieve.ages)
        from zhiku.retrieve.ages import age_terms

        kw_terms = list(dict.fromkeys(kw_terms + age_terms(question, df)))
    if structured and cfg.version_forms:  # 4.8.9 → v4.8.9 as the index spells it (retrieve/terms.py)
        from zhiku.retrieve.terms import version_forms

        kw_terms = [*kw_terms, *version_forms(kw_terms, df)]
    ref, exact = ClauseRef((), (), None), []
    if structured:
        with _Timer(trace, "resolve") as d:
            ref = kb.titles().resolve(question)
            exact = _exact(kb, ref, kw_terms, k, scope)
            d.update(names=list(ref.names), article=ref.article, exact=brief(exact))
    inner: tuple[str, ...] = ()
    if structured and cfg.name_free_inside and ref.doc_ids and ref.names and not exact:
        texts = (question, canon) if used else (question,)
        inner = tuple(dict.fromkeys(t for q in texts for t in _without_names(kb, q, ref.names, df, focus, backoff)))
    added: tuple[str, ...] = ()
    if structured and (cfg.thesaurus_expansion or cfg.term_expansion or cfg.question_expansion
                       or cfg.rare_bridges):  # expand.py
        from zhiku.retrieve.expand import added_words

        added = tuple(added_words(kb, kw_terms, question))
        trace.append(TraceStep("expansion", 0.0, {"added": list(added)}))
    defined: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    if structured and cfg.short_form_search:  # ACL → 权限控制 in the documents defining it
        from zhiku.chunk.shortforms import counterparts

        other = counterparts(question, kb.short_forms())
        words = [t for form in other for t in keyword_terms(kb.segment, form, df, False, False)]
        words = list(dict.fromkeys(t for t in words if t not in kw_terms and t not in added))
        if words:
            defined = (tuple(dict.fromkeys(d for docs in other.values() for d in docs)), tuple(words))
            trace.append(TraceStep("short_forms", 0.0, {"forms": list(other), "added": words,
                                                        "documents": len(defined[0])}))
    asks = ()
    if structured and cfg.answer_type_weight:  # 多久 → passages stating a period first
        from zhiku.retrieve.answertype import answer_types

        asks = answer_types(question, cfg.offence_type)
    return Prepared(question, terms, kw_terms, ref, exact, mode.retrievers(), scope, k, asks, inner, added,
                    structured, defined)


def _without_names(kb: Any, question: str, names: tuple[str, ...], df: Any, focus: bool,
                   backoff: bool) -> list[str]:
    """Keyword terms of ``question`` with the names of the documents it names cut out: the
    search inside a named law (劳动争议调解仲裁法) ranks its articles, and every one of them
    is about what the name says, so the name's words and characters (劳动, 争议, 仲, 裁)
    only favour its shortest articles. Empty when nothing else is left."""
    from zhiku.retrieve.segment import normalise

    q = normalise(question)
    for n in sorted(names, key=len, reverse=True):
        q = q.replace(n, " ")
    return focus_terms(keyword_terms(kb.segment, q, df, focus, backoff), df, kb.chunk_count())


def route_question(kb: Any, p: Prepared) -> Route:
    """The router's decision for a prepared question (sub-indexes, question type)."""
    return kb.router().route(p.question, p.scope, p.ref)


def qtype_applies(kb: Any, p: Prepared, route: Route) -> bool:
    """Whether the question type's search parameters (``candidates``, ``alpha``) apply: the
    route decided, and the question is no narrative of more than ``qtype_max_words`` words
    (the type classifier reads questions; a case narrative's 「…不同意…」 holds 不同, so it
    was a comparison, and that type's deeper keyword list moved the order: 刑法 第三百五十八条 2 → 3)."""
    from zhiku.route.search import decides

    cfg = kb.config
    return decides(route, cfg.route_min_confidence) and not 0 < cfg.qtype_max_words < len(p.terms)


def route_candidates(kb: Any, p: Prepared, route: Route) -> int:
    """Hits per retriever of the routed search: the question type's count where it applies
    (:func:`qtype_applies`), else routing off's (a route that did not decide ranks as
    routing off does, and a deeper keyword list would move its order: a document's evidence
    and the fusion read the whole list)."""
    from zhiku.route import params_for

    if not qtype_applies(kb, p, route):
        return p.candidates
    return params_for(kb.config, route.qtype).candidates or p.candidates


def reuses_first(kb: Any, p: Prepared, route: Route) -> bool:
    """Whether the routed search of ``route`` reuses the first, unrouted search: a route
    that does not narrow it (the fallback, below ``route_min_confidence``, or a question
    naming documents) with the candidate count unchanged (see :func:`route_candidates`)."""
    from zhiku.route.search import narrows

    return not narrows(route, kb.config, p.ref.doc_ids) and route_candidates(kb, p, route) == p.candidates


def routed(kb: Any, p: Prepared, route: Route, first: list[list[Hit]], trace: list[TraceStep],
           structured: bool = True) -> Retrieval:
    """Search where ``route`` sends the question: its sub-indexes (in parallel), then its
    chapters first (see :func:`zhiku.route.search.routed_search`), fused as
    :func:`fused` does. A route that does not narrow reuses ``first``, the unrouted
    search, instead of searching again (and one that did not decide takes none of its
    question type's parameters, ranking as routing off does); the chapters of documents
    the question names are picked from the search inside them (which the fusion uses too).
    Where no tier decided, the law step (:func:`zhiku.route.laws.law_route`) may send the
    question to the law its candidates point at: that law is then searched as a named one.

    Returns:
        The retrieval, its route completed with the chapters used.
    """
    from zhiku.route import params_for
    from zhiku.route.laws import law_route
    from zhiku.route.search import fused_order, routed_search

    params = params_for(kb.config, route.qtype)
    k = route_candidates(kb, p, route)  # the question type's parameters only where the route decided
    own = params.alpha is not None and qtype_applies(kb, p, route)
    alpha = params.alpha if own else kb.config.alpha
    reuse = reuses_first(kb, p, route)

    def search(scope: Scope, t: list[TraceStep]) -> list[list[Hit]]:
        if reuse and scope == p.scope:
            return first
        return fuzzy(kb, p, scope, t, k)

    inner = inside(kb, p, trace, structured)
    if structured and first and not inner:  # no tier decided: the law step may (route_laws)
        route = law_route(kb, route, fused_order(first, kb.config, alpha, len(p.terms)), p.ref.doc_ids, trace)
    chosen = chosen_law(kb, p, route)
    if chosen and not inner:  # the law tier's law is searched as a named one would be
        scoped = narrow(p.scope, chosen)
        inner = fuzzy(kb, p, scoped, trace, k) if scoped is not None else []
    evidence = fused_order(inner, kb.config, alpha, len(p.terms)) if inner else None
    named = p.ref.doc_ids or chosen
    got = routed_search(kb, route, p.scope, search, p.terms, named, alpha, trace, evidence)
    return fused(kb, p, got.lists, trace, got.route, structured, alpha, inner, lead=named)


def chosen_law(kb: Any, p: Prepared, route: Route) -> tuple[str, ...]:
    """The documents of the law the law tier chose (``route_laws``), or none: the route
    did not decide by that tier, or the question names its documents itself."""
    from zhiku.route.laws import LAWS_TIER
    from zhiku.route.search import decides

    if route.tier != LAWS_TIER or p.ref.doc_ids or not decides(route, kb.config.route_min_confidence):
        return ()
    return route.doc_ids


def inside(kb: Any, p: Prepared, trace: list[TraceStep], structured: bool = True) -> list[list[Hit]]:
    """The keyword and dense lists inside the documents the question names (their names'
    words left out), or none: no document named, or the named article found exactly."""
    widen = p.ref.version or ended(kb, p.ref.doc_ids, p.scope.versions)  # 「2018年修正的公司法」, a repealed law
    named = replace(p.scope, versions="all") if widen else p.scope
    scoped = narrow(named, p.ref.doc_ids) if structured and p.ref.doc_ids and not p.exact else None
    if scoped is None:
        return []
    # inside the law its name's words are left out; so is its name from the dense query (dense_nameless)
    asked = nameless(p.question, p.ref.names) if kb.config.dense_nameless else ""
    return fuzzy(kb, p, scoped, trace, terms=p.inner_terms, asked=asked)


def nameless(question: str, names: tuple[str, ...]) -> str:
    """``question`` with the names of the documents it names cut, and the word that led to
    one (按, 依, 根据, 依照, 按照) with it: every passage inside a named law is about what its
    name says, so the name only blurs the question's vector there (config ``dense_nameless``).
    The question itself when nothing else is left."""
    import re

    out = question
    for n in sorted(names, key=len, reverse=True):
        out = re.sub(rf"(?:根据|依照|按照|依据|按|依)?《?{re.escape(n)}》?(?:规定|的规定)?[，,]?", "", out)
    return out if re.search(r"\w", out) else question


def fused(kb: Any, p: Prepared, lists: list[list[Hit]], trace: list[TraceStep],
          route: Route | None = None, structured: bool = True, alpha: float | None = None,
          inner: list[list[Hit]] | None = None, lead: tuple[str, ...] = ()) -> Retrieval:
    """The exact clause first, then the fused lists (plus the search inside the documents
    the question names — ``inner`` when already made, see :func:`inside` — or inside the
    law the router chose, ``lead``: those documents' hits first), cut to the
    candidate count; ``alpha`` (default: the setting) weighs dense in weighted fusion, and the
    cited articles' list counts once per whole-index list that voted in it (``cited_per_list``)."""
    k = p.candidates
    inner = inside(kb, p, trace, structured) if inner is None else inner
    cited = named_citations(kb, p, lists if inner else [])  # see retrieve.citations
    # the cited list carries the votes of each whole-index list (keyword, dense) it was made from
    votes = sum(1 for x in lists if x) if cited and kb.config.cited_per_list else 1
    factors = [1.0] * (len(lists) + len(inner)) + [float(votes)] * len(cited) if votes > 1 else None
    lists = [*lists, *inner, *cited]
    dense = has_dense(lists)  # keyword only or not: one answer for every stage below
    near = chapter_candidates(kb, p, trace) if structured and not dense and lists else []
    with _Timer(trace, "fuse") as d:
        out = (fuse_search(lists, kb.config, alpha, factors, len(p.terms), dense) if len(lists) > 1
               else (lists or [[]])[0])
        seen = {h.chunk.id for h in p.exact}
        if near:  # the chapters nearest the question's meaning, searched inside (retrieve/chapter_meaning.py)
            from zhiku.retrieve.chapter_meaning import interleaved

            out = interleaved(out, near, kb.config.chapter_search_every)
        hits = p.exact + [h for h in out if h.chunk.id not in seen]
        if structured and kb.config.drop_twins:  # one law version in two folders: cited once
            hits = drop_twins(hits, kb.titles().twins)
        if p.ref.other_versions:  # 「2018年修正的公司法」: not the 2023 公司法
            hits = [h for h in hits if h.chunk.doc_id not in p.ref.other_versions]
        n = len(p.exact)  # the exact clause stays first
        if structured and not dense:  # the candidates by meaning, when no dense list ranked them
            hits = hits[:n] + by_meaning(kb, p, hits[n:k], d) + hits[k:]
        if structured and kb.config.in_force_first and p.scope.versions == "all" and not p.ref.version:
            hits = hits[:n] + in_force_first(kb, hits[n:], named=p.ref.doc_ids)  # 公司法 2023 before 2018
        if inner and kb.config.named_first:  # 按劳动争议调解仲裁法…: that law's hits first
            hits = named_first(hits, lead or p.ref.doc_ids)  # (zhiku.retrieve.clause)
        hits = hits[:n] + offence_first(hits[n:], p.asks, kb.config.offence_window)  # 适用刑法哪一条
        if structured:  # 盗窃 → 盗窃罪 → 第二百六十四条 (zhiku.retrieve.offences)
            hits = hits[:n] + named_offence_first(kb, p, hits[n:], dense)
        if structured and kb.config.learned_rank and learned_applies(kb, p, dense):  # zhiku.retrieve.learned
            from zhiku.retrieve.learned import learned_order

            hits = hits[:n] + learned_order(kb, p, hits[n:], kb.config.learned_rank_depth, d)
            if inner and kb.config.named_first:  # the law the question names still leads
                hits = named_first(hits, lead or p.ref.doc_ids)
        if structured and kb.config.release_first:  # 「v1.44.0 是哪天发布的」: that release's section
            hits = hits[:n] + release_first(hits[n:], p.question)
        d.update(mode=fusion_of(kb.config, lists, len(p.terms), dense), lists=len(lists), top=brief(hits))
        if votes > 1:
            d["cited_weight"] = votes
    groups: dict[str, list[int]] = {}
    if route is not None:
        from zhiku.route.search import group_by_document

        groups = group_by_document(hits[:k])
    return Retrieval(hits[:k], p.terms, p.ref, bool(p.exact), trace, route, groups, p.question)


def chapter_candidates(kb: Any, p: Prepared, trace: list[TraceStep]) -> list[Hit]:
    """Candidates a keyword-only search may lack (``chapter_search``): the best articles of the
    chapters whose document title and headings are nearest the question's vector (the bundled
    embedder's, which the heading cosine reads too), searched inside by keyword with the
    question's words relaxed (:func:`zhiku.retrieve.chapter_meaning.chapter_list`). None for a
    question naming a document or an article (searched there), nor for a narrative of more than
    ``heading_max_words`` words (its names and places blur its vector)."""
    cfg = kb.config
    if not cfg.chapter_search or p.exact or p.ref.doc_ids or p.ref.article or not p.kw_terms:
        return []
    if 0 < cfg.heading_max_words < len(p.terms):
        return []
    from zhiku.retrieve.chapter_meaning import chapter_list

    with _Timer(trace, "chapter_search") as d:
        skip = set(kb.store.excluded(p.scope.versions))
        near = kb.chapter_vectors().nearest(kb.dense_query(p.question), cfg.chapter_search, skip)
        hits = chapter_list(kb.store.keyword, near, p.kw_terms, p.scope, cfg.chapter_search_per)
        d.update(chapters=len(near), top=brief(hits))
    return hits


def learned_applies(kb: Any, p: Prepared, dense: bool | None = None) -> bool:
    """Whether the learned order (``learned_rank``) reorders ``p``'s candidates: not when the
    question names an article (found exactly or not: a clause lookup keeps its order), nor for a
    narrative of more than ``heading_max_words`` words (a case description ranks by its own
    levers); the model was fitted on questions of neither kind. A keyword-only ranking (``dense``
    False: no dense list among the fused lists, see :func:`zhiku.retrieve.fusion.has_dense`)
    keeps its order when ``learned_rank_keyword`` is off (reordered, what judges its evidence reads
    it in the search's order: :func:`zhiku.retrieve.learned.judged_order`). ``dense`` None: the
    question's kind alone (the rows the model is fitted on, either mode)."""
    long = 0 < kb.config.heading_max_words < len(p.terms)
    if dense is False and not kb.config.learned_rank_keyword:
        return False
    return not (p.exact or p.ref.article or long)


def by_meaning(kb: Any, p: Prepared, hits: list[Hit], detail: dict[str, Any]) -> list[Hit]:
    """The candidates of a keyword-only ranking (no dense list among the fused lists: :func:`fused`
    asks :func:`zhiku.retrieve.fusion.has_dense`) re-ranked by meaning with the bundled embedder:
    their chapter headings' cosine (``heading_similarity``, :mod:`zhiku.retrieve.fields`), then
    the best ones' own words (``passage_similarity``, :mod:`zhiku.retrieve.passages`; not when
    the article the question names was found, which leads anyway). Their
    meaning stands in for the dense list a keyword-only ranking lacks; beside a dense list it
    only blurs it (gate set, hybrid: MRR@10 0.734 -> 0.720), and a narrative of more than
    ``heading_max_words`` words skips both (~400 ms to encode): its candidates of the documents
    it names are re-ranked by the narrative's own cosine with their text instead
    (``narrative_meaning``, :func:`zhiku.retrieve.passages.by_narrative`)."""
    cfg = kb.config
    if 0 < cfg.heading_max_words < len(p.terms):
        if not cfg.narrative_meaning:
            return hits
        from zhiku.retrieve.passages import by_narrative

        return by_narrative(kb, p.question, hits, p.ref.doc_ids, detail)
    if cfg.heading_similarity:
        from zhiku.retrieve.fields import by_headings

        hits = by_headings(kb, p.question, hits, detail)
    if cfg.passage_similarity and not p.exact:  # the article named and found leads: no encoder call
        from zhiku.retrieve.passages import by_passages

        hits = by_passages(kb, p.question, hits, detail)
    return hits


def retrieve(kb: Any, question: str, mode: Mode = Mode.HYBRID, scope: Scope = Scope(),
             structured: bool = True, candidates: int | None = None,
             route: bool | Route | None = None) -> Retrieval:
    """Rank chunks for a question inside ``scope``: the search stages of an ask in order,
    without its answer (search APIs, agent tools, retrieval metrics).

    With ``structured`` on, a question naming a law and an article resolves that article
    exactly first, and a named law adds a search scoped to it. With ``route`` (default:
    the ``routing`` setting) the search runs where the router sends it (sub-indexes, then
    chapters first; see :mod:`zhiku.route`); a ``Route`` given here is a decision
    already made and is not routed again.

    Args:
        kb: the knowledge base.
        question: the question or query.
        mode: retrieval mode.
        scope: where to search.
        structured: resolve named documents and articles.
        candidates: hits fetched per retriever (default: the ``candidates`` setting).
        route: route the search (True/False), or the route to use.

    Returns:
        The retrieval, its trace holding every step.
    """
    trace: list[TraceStep] = []
    p = prepare(kb, question, mode, scope, trace, structured, candidates)
    routing = kb.config.routing if route is None else bool(route)
    if not routing:
        return fused(kb, p, fuzzy(kb, p, scope, trace), trace, None, structured)
    with _Timer(trace, "route") as d:
        decided = route if isinstance(route, Route) else route_question(kb, p)
        d.update(decided.to_dict())
    first = fuzzy(kb, p, scope, trace) if reuses_first(kb, p, decided) else []
    r = routed(kb, p, decided, first, trace, structured)
    note_route(trace, r.route, r.groups)
    return r
