"""A safe calculation step: arithmetic on retrieved values, nothing else.

「去上海出差三天，住宿和交通一共能报销多少？」 → 住宿标准 600 元/天 × 3 天 + 交通费 1200 元.
Expressions are parsed with :mod:`ast` and only numbers, names bound to values, + - × ÷,
parentheses and the two calls ``max(…)`` / ``min(…)`` are evaluated (no other calls,
attributes, subscripts or comprehensions).
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass

from zhiku.errors import ZhikuError
from zhiku.structured.conditions import fmt
from zhiku.structured.schema import Column
from zhiku.structured.units import quantities

_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos}
_CALLS = {"max": max, "min": min}
TOTAL = re.compile(r"一共|合计|总共|共计|总计|加起来|总额|总费用|最多能报|共能|共可")


def evaluate(expression: str, values: Mapping[str, float]) -> float:
    """Evaluate an arithmetic expression over named values.

    Args:
        expression: e.g. ``"rate * days + fare"``; only + - * / ( ) numbers, names and
            ``max(a, b, …)`` / ``min(a, b, …)``.
        values: name → number.

    Returns:
        The result.

    Raises:
        ZhikuError: anything other than arithmetic, an unknown name, or division by zero.
    """
    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError as e:
        raise ZhikuError(f"cannot calculate {expression!r}: not an arithmetic expression") from e

    def ev(node: ast.AST) -> float:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and type(node.value) in (int, float):
            return float(node.value)
        if isinstance(node, ast.Name) and node.id in values:
            return float(values[node.id])
        if isinstance(node, ast.BinOp) and type(node.op) in _BIN:
            return _BIN[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](ev(node.operand))
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS
                and node.args and not node.keywords
                and not any(isinstance(a, ast.Starred) for a in node.args)):
            return _CALLS[node.func.id](ev(a) for a in node.args)
        raise ZhikuError(f"cannot calculate {expression!r}: {ast.dump(node)[:40]} is not allowed")

    try:
        return ev(tree)
    except ZeroDivisionError:
        raise ZhikuError(f"cannot calculate {expression!r}: division by zero") from None


@dataclass(frozen=True)
class Calculation:
    """A computed total: the expression, the values with their origin, and the result."""

    expression: str
    terms: tuple[tuple[str, float, str, int], ...]  # name, value, unit, citation marker (0 = question)
    result: float
    unit: str

    def text(self) -> str:
        """``住宿标准 600 元/天 [1] × 3 天 + 交通费 1200 元 [1] = 3000 元``."""
        pieces = []
        for name, value, unit, marker in self.terms:
            mark = f" [{marker}]" if marker else ""
            pieces.append(" ".join(x for x in (name, fmt(value), unit) if x) + mark)
        expr = self.expression.replace("*", "×").replace("/", "÷")
        for i, p in enumerate(pieces):
            expr = re.sub(rf"\bv{i}\b", lambda _m, p=p: p, expr)
        return f"{expr} = {fmt(round(self.result, 2))} {self.unit}".strip()


def days_in(question: str) -> float | None:
    """The number of days a question names (「三天」「5日」), or None."""
    for q in quantities(question):
        if q.unit is not None and q.unit.dimension == "days":
            return q.value
    return None


def total(question: str, row: Mapping[str, object], columns: list[Column], marker: int) -> Calculation | None:
    """The total a 「一共/合计」 question asks for over one row's money columns.

    A per-day column (unit 元/天) is multiplied by the days the question names; a
    one-off column (元) is added once.

    Args:
        question: the question.
        row: the row, by SQL column name.
        columns: the money columns the question mentions.
        marker: citation marker of the row.

    Returns:
        The calculation, or None when the question asks for no total.
    """
    if not TOTAL.search(question):
        return None
    money = [c for c in columns if c.numeric and c.unit_obj and c.unit_obj.dimension.startswith("money")
             and isinstance(row.get(c.sql), (int, float))]
    if not money:
        return None
    days = days_in(question)
    terms: list[tuple[str, float, str, int]] = []
    parts = []
    for c in money:
        terms.append((c.name, float(row[c.sql]), c.unit, marker))
        i = len(terms) - 1
        if c.unit_obj.dimension == "money/day" and days is not None:
            terms.append(("", days, "天", 0))
            parts.append(f"v{i} * v{i + 1}")
        else:
            parts.append(f"v{i}")
    expr = " + ".join(parts)
    result = evaluate(expr, {f"v{i}": t[1] for i, t in enumerate(terms)})
    return Calculation(expr, tuple(terms), result, "元")
