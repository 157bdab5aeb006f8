"""Text-to-SQL with the ``sql`` model role, constrained to one table's schema.

The model's statement goes through the same validation as the rule parser's, and must
name only the table's columns; only its WHERE / ORDER BY / LIMIT are kept, on a
``SELECT *`` of the table, so every row can be cited. Anything else is rejected and the
caller falls back to the rule parser.
"""

from __future__ import annotations

from typing import Any

import sqlglot
from pydantic import BaseModel
from sqlglot import exp

from zhiku.structured.conditions import DISPLAY, fmt
from zhiku.structured.schema import TableSchema
from zhiku.structured.sql import SQLRejected, validate

_OPS = {exp.GT: ">", exp.GTE: ">=", exp.LT: "<", exp.LTE: "<=", exp.EQ: "=", exp.NEQ: "!="}


class SQLReply(BaseModel):
    """What the model must return."""

    sql: str


def prompt(table: TableSchema, question: str, dialect: str) -> list[dict[str, str]]:
    """Messages asking for one SELECT over ``table``, with columns, units and sample values."""
    cols = []
    for c in table.columns:
        extra = [f"单位 {c.unit}" if c.unit else "", c.description,
                 f"取值如 {'、'.join(c.values[:8])}" if c.values else ""]
        cols.append(f'- "{c.sql}" {"数值" if c.numeric else "文本"}'
                    + "".join(f"；{x}" for x in extra if x))
    system = ("你把用户的问题翻译成一条只读的 SQL 查询。只能用一条 SELECT 语句，只能查询给定的表和列，"
              "数值按列的单位换算后再比较。只输出 JSON：{\"sql\": \"SELECT ...\"}。")
    user = (f"数据库方言：{dialect}\n表 \"{table.name}\"（{table.source} › {table.title}）的列：\n"
            + "\n".join(cols) + f"\n\n问题：{question}")
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def constrain(sql: str, table: TableSchema, limit: int, dialect: str) -> tuple[str, exp.Expression | None]:
    """Validate the model's statement and rebuild it as ``SELECT *`` with its filters.

    Args:
        sql: the model's statement.
        table: the only table it may read.
        limit: row limit.
        dialect: sqlglot dialect.

    Returns:
        (the statement to run, its WHERE condition or None).

    Raises:
        SQLRejected: invalid, not a single SELECT, writes, or names unknown columns.
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
    out = exp.select("*").from_(exp.Table(this=exp.to_identifier(table.name, quoted=True)))
    if cond is not None:
        out = out.where(cond.copy())
    if tree.args.get("order") is not None:
        out.set("order", tree.args["order"].copy())
    if tree.args.get("limit") is not None:
        out.set("limit", tree.args["limit"].copy())
    return validate(out.sql(dialect=dialect), [table.name], limit, dialect), cond


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
