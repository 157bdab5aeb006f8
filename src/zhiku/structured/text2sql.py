"""Text-to-SQL with the ``sql`` model role, constrained to one table's schema.

The model's statement goes through the same validation as the rule parser's, and must
name only the table's columns. A row query keeps only its WHERE / ORDER BY / LIMIT, on a
``SELECT *`` of the table, so every row can be cited; an aggregate query (COUNT / SUM /
AVG / MIN / MAX of a column, optionally GROUP BY one column, with HAVING / ORDER BY /
LIMIT) is read into an :class:`AggQuery` and its rows are re-selected with the same WHERE.
Anything else is rejected and the caller falls back to the rule parser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlglot
from pydantic import BaseModel
from sqlglot import exp

from zhiku.structured.aggregate import Aggregate, AggFunc, AggQuery
from zhiku.structured.conditions import DISPLAY, fmt
from zhiku.structured.schema import TableSchema
from zhiku.structured.sql import SQLRejected, validate

_AGGS = {exp.Count: AggFunc.COUNT, exp.Avg: AggFunc.AVG, exp.Sum: AggFunc.SUM, exp.Max: AggFunc.MAX,
         exp.Min: AggFunc.MIN}
_OPS = {exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=", exp.EQ: "=", exp.NEQ: "!="}


class SQLReply(BaseModel):
    """What the model must return."""

    sql: str


@dataclass(frozen=True)
class Constrained:
    """The model's statement as it will run: the row query (``SELECT *`` with its filters),
    its WHERE condition, and the aggregate it asks for (None: a row question)."""

    sql: str
    where: exp.Expression | None
    aggregate: AggQuery | None = None


def prompt(table: TableSchema, question: str, dialect: str) -> list[dict[str, str]]:
    """Messages asking for one SELECT over ``table``, with columns, units and sample values."""
    cols = []
    for c in table.columns:
        extra = [f"单位 {c.unit}" if c.unit else "", c.description,
                 f"取值如 {'、'.join(c.values[:8])}" if c.values else ""]
        cols.append(f'- "{c.sql}" {"数值" if c.numeric else "文本"}'
                    + "".join(f"；{x}" for x in extra if x))
    system = ("你把用户的问题翻译成一条只读的 SQL 查询。只能用一条 SELECT 语句，只能查询给定的表和列，"
              "数值按列的单位换算后再比较。问数量、平均、合计、最高或最低值时用 COUNT/SUM/AVG/MIN/MAX，"
              "分组统计用 GROUP BY 一列。只输出 JSON：{\"sql\": \"SELECT ...\"}。")
    user = (f"数据库方言：{dialect}\n表 \"{table.name}\"（{table.source} › {table.title}）的列：\n"
            + "\n".join(cols) + f"\n\n问题：{question}")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def constrain(sql: str, table: TableSchema, limit: int, dialect: str) -> Constrained:
    """Validate the model's statement; rebuild a row query as ``SELECT *`` with its
    filters, and read an aggregate query into an :class:`AggQuery`.

    Args:
        sql: the model's statement.
        table: the only table it may read.
        limit: row limit.
        dialect: sqlglot dialect.

    Returns:
        The row statement to run, its WHERE condition, and the aggregate (or None).

    Raises:
        SQLRejected: invalid, not a single SELECT, writes, names unknown columns, or
            selects something other than aggregates of columns and the group column.
    """
    validate(sql, [table.name], limit, dialect)
    tree = sqlglot.parse_one(sql, read=dialect)
    if not isinstance(tree, exp.Select):
        raise SQLRejected("only a plain SELECT over the table is accepted from the model")
    known = {c.sql.lower() for c in table.columns}
    aliases = {a.alias.lower() for a in tree.find_all(exp.Alias)}
    for col in tree.find_all(exp.Column):
        if col.name.lower() not in known | aliases:
            raise SQLRejected(f"column {col.name!r} is not in table {table.name}")
    where = tree.args.get("where")
    cond = where.this if where is not None else None
    agg = aggregate_of(tree, table)
    out = exp.select("*").from_(exp.Table(this=exp.to_identifier(table.name, quoted=True)))
    if cond is not None:
        out = out.where(cond.copy())
    for part in ("order", "limit") if agg is None else ():
        if tree.args.get(part) is not None:
            out.set(part, tree.args[part].copy())
    return Constrained(validate(out.sql(dialect=dialect), [table.name], limit, dialect), cond, agg)


def aggregate_of(tree: exp.Select, table: TableSchema) -> AggQuery | None:
    """The aggregate a validated SELECT asks for, or None when it selects rows.

    Raises:
        SQLRejected: it groups by more than one column or by an expression, or selects
            anything but COUNT(*) / COUNT/SUM/AVG/MIN/MAX of one column and the group column.
    """
    group = tree.args.get("group")
    if group is None and not any(type(n) in _AGGS for n in tree.find_all(exp.AggFunc)):
        return None
    keys = group.expressions if group is not None else []
    if len(keys) > 1 or (keys and not isinstance(keys[0], exp.Column)):
        raise SQLRejected("an aggregate may be grouped by one column only")
    gcol = table.column(keys[0].name) if keys else None
    aggs = []
    for e in tree.expressions:
        inner = e.this if isinstance(e, exp.Alias) else e
        if isinstance(inner, exp.Column) and gcol is not None and table.column(inner.name) == gcol:
            continue
        aggs.append(Aggregate(*_one(inner, table), alias=e.alias if isinstance(e, exp.Alias) else ""))
    if not aggs:
        raise SQLRejected("an aggregate statement must select COUNT/SUM/AVG/MIN/MAX")
    return AggQuery(tuple(aggs), gcol, having=_part(tree, "having"), order=_part(tree, "order"),
                    limit=_part(tree, "limit"))


def _one(e: exp.Expression, table: TableSchema) -> tuple[AggFunc, Any]:
    """(function, column or None) of one selected aggregate."""
    func = _AGGS.get(type(e))
    arg = e.this if func is not None else None
    if func is AggFunc.COUNT and isinstance(arg, exp.Star):
        return func, None
    col = table.column(arg.name) if isinstance(arg, exp.Column) else None
    if func is None or col is None:
        raise SQLRejected(f"{e.sql()[:60]} is not COUNT/SUM/AVG/MIN/MAX of one column "
                          "(or the GROUP BY column)")
    if func is not AggFunc.COUNT and not col.numeric:
        raise SQLRejected(f"{func.value.upper()} of text column {col.name!r} is not a number")
    return func, col


def _part(tree: exp.Select, name: str) -> exp.Expression | None:
    node = tree.args.get(name)
    return node.copy() if node is not None else None


def label(cond: exp.Expression | None, table: TableSchema) -> str:
    """A WHERE condition in words with units: ``扬程 > 30 m 且 耐腐蚀等级 = A``."""
    if cond is None:
        return ""
    if isinstance(cond, exp.Paren):
        return label(cond.this, table)
    if isinstance(cond, (exp.And, exp.Or)):
        sep = " 且 " if isinstance(cond, exp.And) else " 或 "
        return label(cond.left, table) + sep + label(cond.right, table)
    col = cond.this if isinstance(cond, exp.Expression) else None
    c = table.column(col.name) if isinstance(col, exp.Column) else None
    if c is None:
        return cond.sql()
    unit = f" {c.unit}" if c.unit else ""
    if type(cond) in _OPS and isinstance(cond.expression, exp.Literal):
        return f"{c.name} {DISPLAY[_OPS[type(cond)]]} {_lit(cond.expression)}{unit}"
    if isinstance(cond, exp.Between):
        return f"{c.name} 在 {_lit(cond.args['low'])}–{_lit(cond.args['high'])}{unit} 之间"
    if isinstance(cond, exp.Like):
        return f"{c.name} 含 {_lit(cond.expression).strip('%')}"
    if isinstance(cond, exp.In):
        return f"{c.name} ∈ {{{', '.join(_lit(e) for e in cond.expressions)}}}"
    return cond.sql()


def _lit(e: Any) -> str:
    if isinstance(e, exp.Literal):
        return fmt(float(e.this)) if not e.is_string else e.this
    return e.sql() if isinstance(e, exp.Expression) else str(e)
