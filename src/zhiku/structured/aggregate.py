"""Aggregate questions over the rows that satisfy the conditions: count, average, sum,
largest and smallest value, optionally per group.

「扬程大于30米的泵平均价格是多少」 → AVG(价格) over the rows with 扬程 > 30 m;
「各材质的泵有几款」 → COUNT(*) GROUP BY 材质; 「不锈钢泵的价格最高是多少」 → MAX(价格)
(a value, where 「价格最高的泵是哪款」 picks a row). The rule detector works offline; the
``sql`` model's aggregate statements are read into the same :class:`AggQuery`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from sqlglot import exp

from zhiku.registry import Choice
from zhiku.structured.conditions import Parsed, find_mentions
from zhiku.structured.schema import Column, TableSchema
from zhiku.structured.units import fold


class AggFunc(Choice):
    """The aggregate functions a question may ask for."""

    COUNT = "count"
    AVG = "avg"
    SUM = "sum"
    MAX = "max"
    MIN = "min"

    @property
    def word(self) -> str:
        """How the answer names it: 数量, 平均值, 合计, 最高值, 最低值."""
        return {"count": "数量", "avg": "平均值", "sum": "合计", "max": "最高值", "min": "最低值"}[self.value]

    def sql(self, arg: exp.Expression) -> exp.Expression:
        """The sqlglot aggregate over ``arg``."""
        cls = {"count": exp.Count, "avg": exp.Avg, "sum": exp.Sum, "max": exp.Max, "min": exp.Min}
        return cls[self.value](this=arg)


@dataclass(frozen=True)
class Aggregate:
    """One aggregate: a function over a column (None: ``COUNT(*)``), with the alias the
    statement gives it."""

    func: AggFunc
    column: Column | None = None
    alias: str = ""

    def sql(self) -> exp.Expression:
        """``AVG("价格")`` or ``COUNT(*)`` as a sqlglot expression."""
        arg = exp.Star() if self.column is None else exp.column(self.column.sql, quoted=True)
        return self.func.sql(arg)

    def label(self) -> str:
        """``价格平均值``, ``数量``."""
        return self.func.word if self.column is None else f"{self.column.name}{self.func.word}"

    @property
    def unit(self) -> str:
        """The unit of the value (the column's; none for a count)."""
        return "" if self.func is AggFunc.COUNT or self.column is None else self.column.unit


@dataclass(frozen=True)
class AggQuery:
    """What an aggregate question asks: the aggregates, an optional group column, and
    (from a model's statement) its HAVING / ORDER BY / LIMIT, kept as written."""

    aggregates: tuple[Aggregate, ...]
    group: Column | None = None
    classifier: str = "条"
    having: exp.Expression | None = None
    order: exp.Expression | None = None
    limit: exp.Expression | None = None

    @property
    def primary(self) -> Aggregate:
        """The aggregate the question is about: the first that is not a plain
        ``COUNT(*)`` beside others, else the first."""
        other = [a for a in self.aggregates if not (a.func is AggFunc.COUNT and a.column is None)]
        return other[0] if other else self.aggregates[0]

    def label(self) -> str:
        """``按 材质 分组：价格平均值``."""
        what = "、".join(a.label() for a in self.aggregates)
        return f"按 {self.group.name} 分组：{what}" if self.group is not None else what


_COUNT = re.compile(r"(?:几|多少)\s*(款|种|个|台|条|项|类|家|型)(?![月小天年人日周分秒])"
                    r"|(?:数量|总数|个数)\s*(?:是|为|有)?\s*多少")
_AVG = re.compile(r"平均值|平均数|平均|均价|均值")
_SUM = re.compile(r"总和|合计|总共|一共|共计|总计|加起来|总价|总额")
_TOTAL_PREFIX = re.compile(r"总")
_EXTREME = re.compile(r"最(高|大|低|小|贵|便宜|长|短|重|轻)")
_VALUE_Q = re.compile(r"多少|几|是什么|为何")
_WHICH = re.compile(r"哪|什么型号|什么产品")
_GROUP = re.compile(r"(?:各个|各|每种|每个|每类|每一种|按照|按|不同|分)\s*$")
_GAP_AFTER = re.compile(r"[^\d，,。；;？?！!]{0,5}")
_GAP_BEFORE = re.compile(r"[\s的之]{0,2}")
_MONEY_WORDS = re.compile(r"多少钱|价钱|价位|均价|总价")


def _money(table: TableSchema) -> Column | None:
    """The table's price column: its only money column, else a numeric column named …价…."""
    money = [c for c in table.columns if c.numeric and c.unit_obj and c.unit_obj.dimension == "money"]
    if len(money) == 1:
        return money[0]
    named = [c for c in table.columns if c.numeric and "价" in c.name]
    return named[0] if len(named) == 1 else None


def _near(q: str, s: int, e: int, mentions, after: int = 5) -> Column | None:
    """The numeric column named next to ``q[s:e]``: right after it (within ``after``
    characters) or right before it, the closer one first (after on a tie)."""
    near = [(ms - e, 0, c) for ms, me, c in mentions
            if c.numeric and e <= ms <= e + after and _GAP_AFTER.fullmatch(q[e:ms])]
    near += [(s - me, 1, c) for ms, me, c in mentions
             if c.numeric and me <= s and _GAP_BEFORE.fullmatch(q[me:s])]
    return min(near, key=lambda x: x[:2])[2] if near else None


def _count(q: str, mentions) -> Aggregate | None:
    for m in _COUNT.finditer(q):
        if not any(ms < m.end() and m.start() < me for ms, me, _ in mentions):
            return Aggregate(AggFunc.COUNT)
    return None


def _classifier(q: str) -> str:
    m = _COUNT.search(q)
    return m[1] if m and m[1] else "条"


def _average(q: str, table: TableSchema, mentions) -> Aggregate | None:
    for m in _AVG.finditer(q):
        col = _money(table) if m[0] == "均价" else _near(q, m.start(), m.end(), mentions)
        if col is None and _MONEY_WORDS.search(q[m.end():]):
            col = _money(table)
        if col is not None:
            return Aggregate(AggFunc.AVG, col)
    return None


def _sum(q: str, table: TableSchema, mentions) -> Aggregate | None:
    for m in _SUM.finditer(q):
        col = _money(table) if m[0] in ("总价", "总额") else _near(q, m.start(), m.end(), mentions)
        if col is None and _MONEY_WORDS.search(q[m.end():]):
            col = _money(table)
        if col is not None:
            return Aggregate(AggFunc.SUM, col)
    for m in _TOTAL_PREFIX.finditer(q):  # 总功率, 总库存数量: 总 glued to a numeric column
        col = next((c for ms, _, c in mentions if ms == m.end() and c.numeric), None)
        if col is not None:
            return Aggregate(AggFunc.SUM, col)
    return None


def _extreme(q: str, table: TableSchema, mentions) -> Aggregate | None:
    """最高/最低 … 是多少 as a value: the column next to the superlative, no 哪 in the
    question, and no other numeric column asked after it (「扬程最高的泵价格是多少」 asks
    a row's price)."""
    if _WHICH.search(q):
        return None
    for m in _EXTREME.finditer(q):
        if re.match(r"\s*\d", q[m.end():]) or not _VALUE_Q.search(q[m.end():]):
            continue
        money = m[1] in ("贵", "便宜")
        col = _money(table) if money else _near(q, m.start(), m.end(), mentions, after=3)
        if col is None:
            continue
        later = {c.name for ms, _, c in mentions if ms >= m.end() and c.numeric} - {col.name}
        if later:
            return None
        desc = m[1] in ("高", "大", "贵", "长", "重")
        return Aggregate(AggFunc.MAX if desc else AggFunc.MIN, col)
    return None


def _group(q: str, table: TableSchema, mentions) -> Column | None:
    for s, _, c in mentions:
        if not c.numeric and c is not table.key_column and _GROUP.search(q[max(0, s - 3):s]):
            return c
    return None


def detect(question: str, table: TableSchema, parsed: Parsed) -> tuple[AggQuery, Parsed] | None:
    """The aggregate a question asks for over ``table``, or None for a row question.

    A condition pinning one row by its key (「上海」 in a rate table) leaves the question to
    the per-row calculation; so does a question naming days (「出差三天…一共」).

    Args:
        question: the question.
        table: the table chosen for it.
        parsed: the rule parser's conditions for that table.

    Returns:
        (the aggregate query, the parse without the superlative order it replaces and
        without the note on the group column), or None.
    """
    from zhiku.structured.calc import days_in

    q = fold(question)
    if any(c.column is table.key_column and c.op == "=" for c in parsed.conditions):
        return None
    mentions = find_mentions(q, table)
    found = [a for a in (_extreme(q, table, mentions), _average(q, table, mentions)) if a]
    if not found and days_in(q) is None:
        found += [a for a in (_sum(q, table, mentions),) if a]
    if not found:
        found += [a for a in (_count(q, mentions),) if a]
    if not found:
        return None
    group = _group(q, table, mentions)
    notes = tuple(n for n in parsed.notes if group is None or f"「{group.name}」" not in n)
    query = AggQuery(tuple(found), group, _classifier(q))
    return query, replace(parsed, order=None, notes=notes)


def evidence(query: AggQuery | None, parsed: Parsed) -> float:
    """How much an aggregate adds to a table's evidence: ½ for asking one, ½ more when
    its column is named in the question, 1 more for a group column (named by definition)."""
    if query is None:
        return 0.0
    a = query.primary
    return 0.5 + 0.5 * (a.column is not None and a.column in parsed.mentioned) + (query.group is not None)


def group_key(value: Any) -> str:
    """A group value for display and matching (None → 空)."""
    from zhiku.structured.conditions import fmt

    return "（空）" if value is None or value == "" else fmt(value)
