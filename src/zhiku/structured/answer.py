"""Decide whether a question is a condition question over a known table, and answer it.

Rules first find the best table and its conditions (a score says how sure); with a
``sql`` model configured the model writes the query, validated the same way, and the
rule query is the fallback. An aggregate question (count, average, sum, largest or
smallest value) is computed over the rows the conditions select, and cites them. No
matching row: say so and name the closest rows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from zhiku.errors import ZhikuError
from zhiku.structured.aggexec import AggResult, execute
from zhiku.structured.aggregate import AggQuery, detect, evidence
from zhiku.structured.calc import Calculation, total
from zhiku.structured.conditions import Parsed, fmt, parse
from zhiku.structured.schema import TableSchema
from zhiku.structured.sources import Catalog, catalog_for, row_dicts
from zhiku.types import Answer, Citation, Hit, TraceStep

CLOSEST = 3


@dataclass(frozen=True)
class Result:
    """A structured answer before it becomes an :class:`Answer`: the table, how it was
    queried, the matching rows (or the closest ones) and an optional calculation."""

    table: TableSchema
    parsed: Parsed
    sql: str
    via: str
    conditions: str
    rows: tuple[dict[str, Any], ...]
    closest: tuple[dict[str, Any], ...] = ()
    calculation: Calculation | None = None
    rejected: str = ""
    seconds: float = 0.0
    aggregate: AggResult | None = None

    def keys(self, rows: tuple[dict[str, Any], ...] | None = None) -> list[str]:
        """Key-column values of the matching rows (or of ``rows``)."""
        k = self.table.key_column.sql
        return [fmt(r.get(k)) for r in (self.rows if rows is None else rows)]

    def trace(self) -> dict[str, Any]:
        """Detail of the ``structured`` trace step."""
        return {"source": self.table.source, "table": self.table.name, "title": self.table.title,
                "via": self.via, "sql": self.sql, "conditions": self.conditions,
                "score": self.parsed.score, "rows": self.keys(), "closest": self.keys(self.closest),
                "rejected": self.rejected or None,
                "calculation": self.calculation.text() if self.calculation else None,
                **({"value": self.aggregate.value(), "aggregate": self.aggregate.detail()}
                   if self.aggregate is not None else {})}


@dataclass(frozen=True)
class Pick:
    """The table a question is about, its parse, the evidence score and the aggregate
    it asks for (None: a row question)."""

    table: TableSchema
    parsed: Parsed
    score: float
    aggregate: AggQuery | None = None


@dataclass(frozen=True)
class Plan:
    """How the rows are queried: who wrote the query, its WHERE, the conditions in words,
    the row statement and the aggregate (None: list the rows)."""

    via: str
    where: exp.Expression | None
    label: str
    sql: str
    aggregate: AggQuery | None = None


def _evidence(table: TableSchema, p: Parsed) -> float:
    """How strongly the question points at ``table``: a condition on a named column
    counts 1, one found by its value or unit alone ½, a key lookup counts the other
    columns named, naming the table counts 1."""
    key = table.key_column.name
    mentioned = {c.name for c in p.mentioned}
    score = float(p.table_named)
    conds = [c for c in p.conditions if c.column.name != key]
    for c in conds:
        score += 1.0 if c.column.name in mentioned else 0.5
    if len(conds) < len(p.conditions):
        score += len(mentioned - {key} - {c.column.name for c in conds})
    if p.order is not None:
        score += 0.5 + (p.order.column.name in mentioned)
    return score


def _needed(t: TableSchema) -> float:
    """Evidence a table needs: 2 for a table inside a prose document, else 1."""
    sheet = t.origin.lower().endswith((".csv", ".xlsx"))
    return 2.0 if t.kind == "document" and not sheet else 1.0


def in_scope(t: TableSchema, scope: Any) -> bool:
    """Whether a table may answer inside ``scope``: a scope naming documents or a section
    keeps only tables of those documents (and sections); configured sources are outside."""
    if scope is None or not (scope.doc_ids or scope.section_id):
        return True
    if t.kind != "document":
        return False
    sec = str(t.doc.get("section_id", ""))
    return ((not scope.doc_ids or t.doc.get("doc_id") in scope.doc_ids)
            and (not scope.section_id or sec == scope.section_id or sec.startswith(scope.section_id + ".")))


def choose(catalog: Catalog, question: str, scope: Any = None) -> Pick | None:
    """The table a condition or aggregate question is about, its parse and the evidence.

    Tables inside ingested prose documents need stronger evidence (2) than configured
    sources and ingested spreadsheets (1), so a law that happens to hold a table does
    not capture ordinary questions.

    Args:
        catalog: every table.
        question: the question.
        scope: the ask's Scope (documents, section), or None for everything.

    Returns:
        The pick, or None when no table fits.
    """
    best = None
    for t in catalog.tables:
        if not in_scope(t, scope):
            continue
        p = parse(question, t)
        found = detect(question, t, p)
        agg, p = found if found is not None else (None, p)
        if not p.conditions and p.order is None and (agg is None or not (p.table_named or agg.group)):
            continue  # an aggregate over a whole table names the table or a group column
        ev = _evidence(t, p) + evidence(agg, p)
        if ev < _needed(t):
            continue
        rank = (ev, t.kind != "document")
        if best is None or rank > best[0]:
            best = (rank, Pick(t, p, ev, agg))
    return None if best is None else best[1]


def rule_sql(table: TableSchema, p: Parsed, dialect: str) -> str:
    """The rule parser's conditions as one SELECT (values as escaped literals)."""
    stmt = exp.select("*").from_(exp.Table(this=exp.to_identifier(table.name, quoted=True)))
    if p.conditions:
        stmt = stmt.where(exp.and_(*[c.sql() for c in p.conditions]))
    if p.order is not None:
        col = exp.column(p.order.column.sql, quoted=True)
        stmt = stmt.order_by(exp.Ordered(this=col, desc=p.order.desc)).limit(1)
    return stmt.sql(dialect=dialect)


def _llm_plan(cfg: Any, catalog: Catalog, pick: Pick, question: str) -> Plan | None:
    """The ``sql`` model's query as a plan, or None offline. A row query for a question
    the rules read as an aggregate keeps the rules' aggregate. Raises SQLRejected or
    ZhikuError when its statement is unusable."""
    from zhiku.llm import client_for
    from zhiku.structured.text2sql import SQLReply, constrain, label, prompt

    client = client_for(cfg, "sql")
    if client is None:
        return None
    dialect = catalog.dialect(pick.table)
    reply = client.json(prompt(pick.table, question, dialect), SQLReply)
    c = constrain(reply.sql, pick.table, catalog.row_limit, dialect)
    return Plan("llm", c.where, label(c.where, pick.table), c.sql, c.aggregate or pick.aggregate)


def _rule_plan(catalog: Catalog, pick: Pick) -> Plan:
    p = pick.parsed
    where = exp.and_(*[c.sql() for c in p.conditions]) if p.conditions else None
    return Plan("rules", where, p.label(), rule_sql(pick.table, p, catalog.dialect(pick.table)),
                pick.aggregate)


def _execute(catalog: Catalog, table: TableSchema, plan: Plan):
    """(statement run, rows, aggregate result or None)."""
    if plan.aggregate is not None:
        res = execute(catalog, table, plan.where, plan.aggregate)
        return res.sql, res.rows, res
    rows = catalog.run(table, plan.sql)
    return rows.sql, tuple(row_dicts(rows)), None


def _closest(catalog: Catalog, table: TableSchema, p: Parsed) -> tuple[dict[str, Any], ...]:
    if not p.conditions:
        return ()
    q = exp.select("*").from_(exp.Table(this=exp.to_identifier(table.name, quoted=True)))
    rows = row_dicts(catalog.run(table, q.sql(dialect=catalog.dialect(table))))

    def cost(r: dict[str, Any]) -> tuple[int, float]:
        misses = [c.miss(r.get(c.column.sql)) for c in p.conditions]
        return sum(m > 0 for m in misses), sum(misses)

    return tuple(sorted(rows, key=cost)[:CLOSEST])


def run(kb: Any, question: str, scope: Any = None) -> Result | None:
    """Answer a condition question from the structured sources, or None when it is not one.

    Args:
        kb: the knowledge base (its config lists the sources; its documents' tables count).
        question: the question.
        scope: the ask's Scope, or None.

    Returns:
        The result, or None when no table fits the question.

    Raises:
        ZhikuError: a source is broken, or the query timed out.
    """
    t0 = time.perf_counter()
    catalog = catalog_for(kb)
    pick = choose(catalog, question, scope)
    if pick is None:
        return None
    table, p = pick.table, pick.parsed
    rejected, plan = "", None
    try:
        plan = _llm_plan(kb.config, catalog, pick, question)
        done = _execute(catalog, table, plan) if plan is not None else None
    except ZhikuError as e:  # SQLRejected, LLMError, a failing query: fall back to the rules
        rejected, plan = str(e), None
    if plan is None:
        plan = _rule_plan(catalog, pick)
        done = _execute(catalog, table, plan)
    sql, found, agg = done
    closest = () if found or plan.via == "llm" else _closest(catalog, table, p)
    calc = None
    if len(found) == 1 and agg is None:
        calc = total(question, found[0], list(p.mentioned), 1)
    return Result(table, p, sql, plan.via, plan.label or p.label(), found, closest, calc, rejected,
                  time.perf_counter() - t0, agg)


@dataclass(frozen=True)
class Tabled:
    """A condition question answered from a table: the rows' text and citations, their
    hits, the query result, and what the conditions leave of the question for the
    documents (empty: nothing)."""

    question: str
    text: str
    citations: tuple[Citation, ...]
    hits: tuple[Hit, ...]
    result: Any
    rest: str

    def detail(self) -> dict[str, Any]:
        """The ``structured`` trace step's detail (the SQL and the conditions)."""
        return {**self.result.trace(), "rest": self.rest}


def table_answer(kb: Any, question: str, scope: Any = None) -> Tabled | None:
    """The answer from the tables to a condition question over a known table, or None
    when the question is no such question.

    Args:
        kb: the knowledge base.
        question: the question.
        scope: the ask's Scope (a scope naming documents keeps only their tables).

    Raises:
        ZhikuError: a source is broken or the query timed out.
    """
    from zhiku.structured.compose import compose, remainder

    res = run(kb, question, scope)
    if res is None:
        return None
    text, cites = compose(kb, res)
    hits = row_hits(kb, res, cites)
    return Tabled(question, text, tuple(cites), tuple(hits), res, remainder(kb, question, res) or "")


def with_documents(kb: Any, t: Tabled, doc: Answer | None, trace: tuple[TraceStep, ...]) -> Answer:
    """The table's answer joined by the documents' answer to what the conditions leave of
    the question (a policy part), unless the documents refused or only found tables.

    Args:
        kb: the knowledge base.
        t: the table's answer.
        doc: the documents' answer to ``t.rest`` (None: no rest was asked).
        trace: the ask's trace.
    """
    from zhiku.structured.compose import combine

    text, cites = t.text, list(t.citations)
    hits = list(t.hits)
    if doc is not None and not doc.refused and not all(h.chunk.kind.startswith("table") for h in doc.hits[:3]):
        text, cites = combine(text, cites, doc)
    if doc is not None and not doc.refused:
        hits += list(doc.hits)
    conf = 0.9 if t.result.rows else 0.75
    why = f"按条件「{t.result.conditions}」查询了 {t.result.table.source} › {t.result.table.title}"
    return Answer(t.question, text, tuple(cites), conf, False, tuple(hits), trace, why)


def row_hits(kb: Any, res: Result, cites: list[Citation]) -> list[Hit]:
    """The cited rows of a document table as hits (their ``table_row`` chunks)."""
    if res.table.kind != "document" or not cites:
        return []
    chunks = kb.store.get_chunks([c.chunk_id for c in cites])
    found = [chunks[c.chunk_id] for c in cites if c.chunk_id in chunks]
    return [Hit(ch, 1.0, "structured", {"structured": (i, 1.0)}) for i, ch in enumerate(found, 1)]


def citation_for(res: Result, row: dict[str, Any], marker: int, quote: str) -> Citation:
    """The citation of one row: source › table › key column value."""
    from zhiku.types import content_hash

    t = res.table
    key = fmt(row.get(t.key_column.sql))
    if t.kind == "document":
        d = t.doc
        return Citation(marker, d.get("row_chunks", {}).get(key, content_hash(t.name, key)),
                        d["doc_path"], d["title"], tuple(d["section_path"]), None, quote,
                        d.get("version_date"), None, t.title, t.key_column.name, key)
    return Citation(marker, content_hash(t.name, key), t.origin, t.source, (), None, quote,
                    None, None, t.title, t.key_column.name, key)
