"""Run an aggregate query read-only and compute its values from the rows it covers.

The aggregate statement (``SELECT 材质, AVG("价格"), COUNT(*) … WHERE … GROUP BY 材质``)
runs with the catalog's validation, row limit and timeout; the rows are then re-selected
with the same WHERE so every row the value covers can be cited. When all of them came
back, each value is recomputed from the cited cells with the safe calculator (the formula
the answer shows); when the row limit cut them, the database's value stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlglot import exp

from zhiku.structured.aggregate import Aggregate, AggFunc, AggQuery, group_key
from zhiku.structured.calc import Calculation, evaluate
from zhiku.structured.conditions import fmt
from zhiku.structured.schema import TableSchema
from zhiku.structured.sources import Catalog, row_dicts

COUNT_ALIAS = "zhiku_n"


@dataclass(frozen=True)
class AggValue:
    """One aggregate over one group (``group`` None: over all covered rows)."""

    aggregate: Aggregate
    group: str | None
    value: float | int | None
    count: int
    calculation: Calculation | None = None
    extreme: tuple[int, ...] = ()  # markers of the rows holding a max / min


@dataclass(frozen=True)
class AggResult:
    """The values, the rows they cover (in citation order), and the statements run."""

    query: AggQuery
    values: tuple[AggValue, ...]
    rows: tuple[dict[str, Any], ...]
    sql: str
    rows_sql: str
    complete: bool

    def value(self) -> float | int | dict[str, float | int | None] | None:
        """The primary aggregate's value, or group → value for a grouped query."""
        prim = self.query.primary
        mine = [v for v in self.values if v.aggregate == prim]
        if self.query.group is None:
            return mine[0].value if mine else None
        return {v.group or "": v.value for v in mine}

    def detail(self) -> dict[str, Any]:
        """Trace detail: what was aggregated, the values and formulas, the row SQL."""
        return {"label": self.query.label(), "group": self.query.group.name if self.query.group else None,
                "values": [{"aggregate": v.aggregate.label(), "group": v.group, "value": v.value,
                            "count": v.count, "formula": v.calculation.text() if v.calculation else None}
                           for v in self.values],
                "rows_sql": self.rows_sql, "complete": self.complete}


def aggregate_sql(table: TableSchema, where: exp.Expression | None, query: AggQuery, dialect: str) -> str:
    """The aggregate statement: group column, each aggregate under its alias, and the
    covered-row count, over the rows satisfying ``where``.

    Args:
        table: the table.
        where: the conditions (None: every row).
        query: the aggregates, group, and any HAVING / ORDER BY / LIMIT.
        dialect: sqlglot dialect.

    Returns:
        The statement (not yet validated).
    """
    cols: list[exp.Expression] = []
    if query.group is not None:
        cols.append(exp.column(query.group.sql, quoted=True))
    for i, a in enumerate(query.aggregates):
        cols.append(exp.alias_(a.sql(), a.alias or f"a{i}", quoted=True))
    cols.append(exp.alias_(exp.Count(this=exp.Star()), COUNT_ALIAS, quoted=True))
    stmt = exp.select(*cols).from_(exp.Table(this=exp.to_identifier(table.name, quoted=True)))
    if where is not None:
        stmt = stmt.where(where.copy())
    if query.group is not None:
        stmt = stmt.group_by(exp.column(query.group.sql, quoted=True))
    for part in ("having", "order", "limit"):
        node = getattr(query, part)
        if node is not None:
            stmt.set(part, node.copy())
    return stmt.sql(dialect=dialect)


def rows_sql(table: TableSchema, where: exp.Expression | None, dialect: str) -> str:
    """``SELECT *`` over the rows satisfying ``where`` (the rows to cite)."""
    stmt = exp.select("*").from_(exp.Table(this=exp.to_identifier(table.name, quoted=True)))
    return (stmt.where(where.copy()) if where is not None else stmt).sql(dialect=dialect)


def execute(catalog: Catalog, table: TableSchema, where: exp.Expression | None,
            query: AggQuery) -> AggResult:
    """Run the aggregate statement and re-select its rows, read-only, within the row limit.

    Args:
        catalog: the catalog (validation, limit, timeout).
        table: the table.
        where: the conditions (None: every row).
        query: what to aggregate.

    Returns:
        The values per group with their formulas, and the rows they cover.

    Raises:
        SQLRejected: a statement failed validation.
        ZhikuError: timeout or a database error.
    """
    dialect = catalog.dialect(table)
    agg = catalog.run(table, aggregate_sql(table, where, query, dialect))
    fetched = catalog.run(table, rows_sql(table, where, dialect))
    rows = row_dicts(fetched)
    lead = 1 if query.group is not None else 0
    groups = [(group_key(r[0]) if lead else None, r) for r in agg.rows]
    if query.group is not None:
        by: dict[str, list[dict[str, Any]]] = {}
        for row in rows:
            by.setdefault(group_key(row.get(query.group.sql)), []).append(row)
        cited = [row for g, _ in groups for row in by.get(g or "", [])]
    else:
        by, cited = {"": rows}, rows
    total = sum(int(r[-1] or 0) for _, r in groups)
    complete = len(rows) < catalog.row_limit or (query.group is None and len(rows) == total)
    marks = {id(row): i for i, row in enumerate(cited, 1)}
    values = []
    for g, r in groups:
        mine = [(marks[id(row)], row) for row in by.get(g or "", [])]
        n = int(r[-1] or 0)
        for i, a in enumerate(query.aggregates):
            values.append(_value(a, g, r[lead + i], n, mine if complete else None))
    return AggResult(query, tuple(values), tuple(cited), agg.sql, fetched.sql, complete)


def _value(a: Aggregate, group: str | None, sql_value: Any, n: int,
           rows: list[tuple[int, dict[str, Any]]] | None) -> AggValue:
    """One value: recomputed from the cited cells when ``rows`` holds them all, else the
    database's."""
    if rows is None:
        return AggValue(a, group, _number(sql_value), n)
    if a.func is AggFunc.COUNT:
        counted = len(rows) if a.column is None else sum(r.get(a.column.sql) is not None for _, r in rows)
        return AggValue(a, group, counted, n)
    assert a.column is not None
    cells = [(m, float(r[a.column.sql])) for m, r in rows if isinstance(r.get(a.column.sql), (int, float))]
    if not cells:
        return AggValue(a, group, None, n)
    calc = formula(a, cells)
    extreme = tuple(m for m, v in cells if v == calc.result) if a.func in (AggFunc.MAX, AggFunc.MIN) else ()
    return AggValue(a, group, calc.result, n, calc, extreme)


def formula(a: Aggregate, cells: list[tuple[int, float]]) -> Calculation:
    """The calculation of ``a`` over cited cells, evaluated by the safe calculator:
    ``(2100 [1] + 2600 [2]) ÷ 2``, ``max(2100 [1], 2600 [2])``.

    Args:
        a: an AVG, SUM, MAX or MIN aggregate.
        cells: (citation marker, value) of each covered row.

    Returns:
        The calculation (expression over v0…vN, terms with their markers, result, unit).
    """
    names = [f"v{i}" for i in range(len(cells))]
    expr = {AggFunc.SUM: " + ".join(names),
            AggFunc.AVG: f"({' + '.join(names)}) / {len(cells)}",
            AggFunc.MAX: f"max({', '.join(names)})",
            AggFunc.MIN: f"min({', '.join(names)})"}[a.func]
    result = evaluate(expr, {n: v for n, (_, v) in zip(names, cells)})
    terms = tuple(("", v, "", m) for m, v in cells)
    return Calculation(expr, terms, result, a.unit)


def _number(x: Any) -> float | int | None:
    if x is None or isinstance(x, (int, float)):
        return x
    try:
        return float(x)
    except (TypeError, ValueError):
        return None


def value_text(v: AggValue, classifier: str) -> str:
    """A value in words with its unit: ``6957.14 元``, ``14 款``, ``无数值``."""
    if v.value is None:
        return "无数值"
    if v.aggregate.func is AggFunc.COUNT:
        return f"{fmt(v.value)} {classifier}"
    return f"{fmt(round(float(v.value), 2))} {v.aggregate.unit}".strip()
