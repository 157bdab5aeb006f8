"""Rule-based conditions from a question: comparisons, ranges, units and categorical values.

「扬程不低于30米且材质为不锈钢」 → 扬程 ≥ 30 m 且 材质 含 不锈钢. Columns are found by
name, synonym, a name stem (耐腐蚀等级 → 耐腐蚀) or description words; a number with a
unit but no column goes to the only column of that dimension (30米 → 扬程).
"""

from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any

from sqlglot import exp

from zhiku.structured.schema import Column, TableSchema
from zhiku.structured.units import Quantity, convert, fold, quantities

_OPS = (  # longest first inside each group; checked in the gap before the number
    (">=", ("大于等于", "大于或等于", "不低于", "不少于", "不小于", "至少", "最少", "起码", ">=", "≥", "达到")),
    ("<=", ("小于等于", "小于或等于", "不超过", "不高于", "不大于", "不多于", "至多", "最多", "最高",
            "<=", "≤")),
    (">", ("大于", "高于", "超过", "多于", "超出", ">")),
    ("<", ("小于", "低于", "少于", "不足", "<")),
    ("=", ("等于", "为", "是", "=")),
)
OP_WORDS = frozenset(w for _, ws in _OPS for w in ws) | {"以上", "以下", "以内", "之内", "之间", "及以上",
                                                      "及以下", "或以上", "或以下", "级"}
_SUFFIX = re.compile(r"\s*(及以上|或以上|以上|或更高|或更多|及以下|或以下|以下|以内|之内)")
_RANGE = re.compile(r"\s*(?:到|至|~|～|-|—|–|and|AND)\s*")
_NEED = re.compile(r"满足|达到|需要|要求|能够|能")
_SUPER = re.compile(r"最(高|大|多|贵|长|重|低|小|少|便宜|短|轻)")
_CLAUSE = re.compile(r"[，,。；;？?！!]")
_SEPARATORS = re.compile(r"^[\s、的为是在:：=和且及与,，]*$")
_VALUE_LEAD = r"[\s为是=:：的]*(?:不低于|不差于|至少|达到|不高于|高于|低于)?[\s为是=:：的]*"
_GRADE_UP = re.compile(r"^\s*级?\s*(及以上|或以上|以上|或更好|或更高)")
_GRADE_DOWN = re.compile(r"^\s*级?\s*(及以下|或以下|以下)")
_STEM_PREFIXES = ("额定", "标称", "最大", "最高", "单台", "单价")
_STEM_SUFFIXES = ("等级", "标准", "限额", "上限", "金额", "费用", "费", "型号", "名称")
#: The longest cell value whose words stand for it in a question (a category or a model
#: name: 不锈钢316L, 新增python sig); longer cells are sentences.
LABEL_CHARS = 16
DISPLAY = {">": ">", ">=": "≥", "<": "<", "<=": "≤", "=": "=", "!=": "≠"}


@dataclass(frozen=True)
class Condition:
    """One condition on one column. ``values`` are numbers in the column's unit, or text;
    ``op`` is one of > >= < <= = != between in like."""

    column: Column
    op: str
    values: tuple[Any, ...]
    span: tuple[int, int] = (0, 0)

    def label(self) -> str:
        """Human form: ``扬程 ≥ 30 m``, ``扬程 在 20–40 m 之间``, ``材质 含 不锈钢``."""
        u = f" {self.column.unit}" if self.column.unit else ""
        v = [fmt(x) for x in self.values]
        if self.op == "between":
            return f"{self.column.name} 在 {v[0]}–{v[1]}{u} 之间"
        if self.op == "in":
            return f"{self.column.name} ∈ {{{', '.join(v)}}}"
        if self.op == "like":
            return f"{self.column.name} 含 {v[0]}"
        return f"{self.column.name} {DISPLAY[self.op]} {v[0]}{u}"

    def sql(self) -> exp.Expression:
        """The condition as a sqlglot expression (values as escaped literals)."""
        col = exp.column(self.column.sql, quoted=True)
        lit = [exp.Literal.number(x) if isinstance(x, (int, float)) else exp.Literal.string(str(x))
               for x in self.values]
        if self.op == "between":
            return exp.Between(this=col, low=lit[0], high=lit[1])
        if self.op == "in":
            return exp.In(this=col, expressions=lit)
        if self.op == "like":
            pat = str(self.values[0]).replace("%", "").replace("_", "")
            return exp.Like(this=col, expression=exp.Literal.string(f"%{pat}%"))
        cls = {">": exp.GT, ">=": exp.GTE, "<": exp.LT, "<=": exp.LTE, "=": exp.EQ, "!=": exp.NEQ}
        return cls[self.op](this=col, expression=lit[0])

    def miss(self, value: Any) -> float:
        """How far ``value`` is from meeting the condition: 0 when it does, else a gap
        relative to the bound (numbers) or 1 (text)."""
        if value is None:
            return 1.0
        if self.column.numeric and isinstance(value, (int, float)):
            lo, hi = self._bounds()
            gap = max(lo - value, 0.0, value - hi)
            if self.op in (">", "<", "!=") and gap == 0 and value in self.values:
                gap = 1e-9
            return gap / max(abs(float(self.values[0])), 1.0)
        text = str(value)
        if self.op == "like":
            return 0.0 if str(self.values[0]) in text else 1.0
        ok = text in map(str, self.values)
        return 0.0 if ok != (self.op == "!=") else 1.0

    def _bounds(self) -> tuple[float, float]:
        v, inf = [float(x) for x in self.values], float("inf")
        return {">": (v[0], inf), ">=": (v[0], inf), "<": (-inf, v[0]), "<=": (-inf, v[0]),
                "between": (min(v), max(v))}.get(self.op, (v[0], v[0]))


@dataclass(frozen=True)
class Order:
    """A superlative: sort by ``column``, descending or not, and keep the first row."""

    column: Column
    desc: bool

    def label(self) -> str:
        """``扬程 最高``."""
        return f"{self.column.name} 最{'高' if self.desc else '低'}"


@dataclass(frozen=True)
class Parsed:
    """What the rule parser found in a question for one table."""

    conditions: tuple[Condition, ...]
    order: Order | None = None
    mentioned: tuple[Column, ...] = ()
    notes: tuple[str, ...] = ()
    table_named: bool = False
    spans: tuple[tuple[int, int], ...] = field(default_factory=tuple)

    def label(self) -> str:
        """All conditions joined: ``扬程 > 30 m 且 耐腐蚀等级 = A``."""
        parts = [c.label() for c in self.conditions] + ([self.order.label()] if self.order else [])
        return " 且 ".join(parts)

    @property
    def score(self) -> float:
        """How surely this is a condition question over the table (0 = not at all)."""
        if not self.conditions and not self.order:
            return 0.0
        return len(self.conditions) + 0.5 * bool(self.order) + 0.5 * len(self.mentioned) + self.table_named


def fmt(x: Any) -> str:
    """A value for display: 32.0 → 32, 7.50 → 7.5."""
    if isinstance(x, float):
        return f"{x:.6g}" if not x.is_integer() else str(int(x))
    return str(x)


@lru_cache(maxsize=8192)
def column_terms(c: Column) -> tuple[tuple[str, bool], ...]:
    """Words naming a column, with whether each is strong (name, synonym) or weak
    (stem, description word); worked out once per column, not once per question."""
    strong = [c.name, c.sql, *c.synonyms]
    weak = [c.name[: -len(s)] for s in _STEM_SUFFIXES if c.name.endswith(s) and len(c.name) - len(s) >= 2]
    weak += [c.name[len(p):] for p in _STEM_PREFIXES if c.name.startswith(p) and len(c.name) - len(p) >= 2]
    weak += [w for w in re.split(r"[\s，。；、,.;:：()（）]+", c.description) if len(w) >= 2]
    return tuple([(t, True) for t in strong if t] + [(t, False) for t in weak])


def find_mentions(q: str, table: TableSchema) -> list[tuple[int, int, Column]]:
    """Non-overlapping mentions of columns in ``q``, longest words first."""
    low = q.lower()
    # only words the question holds at all are searched for (most of a table's are not)
    cands = [(t, c) for c in table.columns for t, _ in column_terms(c)
             if (len(t) >= 2 or t.isascii()) and t.lower() in low]
    cands.sort(key=lambda tc: -len(tc[0]))
    taken: list[tuple[int, int, Column]] = []
    for t, c in cands:
        for m in re.finditer(re.escape(t.lower()), low):
            if t.isascii() and t.isalnum() and _ascii_glued(low, m.start(), m.end()):
                continue
            if not any(s < m.end() and m.start() < e for s, e, _ in taken):
                taken.append((m.start(), m.end(), c))
    return sorted(taken, key=lambda x: x[0])


def _ascii_glued(text: str, s: int, e: int) -> bool:
    return (s > 0 and text[s - 1].isascii() and text[s - 1].isalnum()) or \
           (e < len(text) and text[e].isascii() and text[e].isalnum())


@lru_cache(maxsize=8192)
def _phrases(c: Column, key: bool) -> tuple[tuple[str, str], ...]:
    """(phrase, value) pairs a categorical column can be named by: the value itself, and
    (not for the key column) the Chinese runs and the alphanumeric runs holding a letter of
    a value that is a label (不锈钢316L → 不锈钢, 316L), longest first; worked out once per
    column. A value longer than a label (a topic, a decision, a URL: free text in a small
    sheet) lends no words: a word inside a sentence does not select rows."""
    out = []
    for v in c.values:
        out.append((v, v))
        if key or len(v) > LABEL_CHARS:
            continue
        for part in re.findall(r"[\u4e00-\u9fff]{2,}|[A-Za-z0-9]{3,}", v):
            if part != v and not part.isdigit():
                out.append((part, ""))
    return tuple(sorted(out, key=lambda pv: -len(pv[0])))


def _overlaps(spans: list[tuple[int, int]], s: int, e: int) -> bool:
    return any(a < e and s < b for a, b in spans)


def _categorical(q: str, table: TableSchema, mentions, spans: list[tuple[int, int]]) -> list[Condition]:
    """Conditions from cell values written in the question (材质 不锈钢, 耐腐蚀等级 A)."""
    found: dict[str, list[tuple[str, str, int, int]]] = {}
    low = q.lower()
    for c in table.columns:
        if c.numeric or not c.values:
            continue
        after = [e for s, e, col in mentions if col is c]
        for phrase, value in _phrases(c, c is table.key_column):
            if phrase.lower() not in low:  # no match: the regex below would find none
                continue
            short = len(phrase) <= 2 and phrase.isascii()
            for m in re.finditer(re.escape(phrase.lower()), low):
                s, e = m.start(), m.end()
                if _overlaps(spans, s, e) or (phrase.isascii() and _ascii_glued(low, s, e)):
                    continue
                if short and not any(re.fullmatch(_VALUE_LEAD + r"(?:[A-Za-z0-9]+(?:或|和|、|,|/))*",
                                                  low[a:s]) for a in after if a <= s):
                    continue
                grade = _grade(c, value, low, after, s, e) if short and value else None
                if grade is not None:
                    e = e + grade[1]
                    found.setdefault(c.name, []).extend((v, v, s, e) for v in grade[0])
                else:
                    found.setdefault(c.name, []).append((phrase, value, s, e))
                spans.append((s, e))
    out = []
    for name, hits in found.items():
        col = table.column(name)
        neg = any(re.search(r"(非|不是|不要|除了|除)\s*$", q[max(0, s - 3):s]) for _, _, s, _ in hits)
        span = (min(h[2] for h in hits), max(h[3] for h in hits))
        exact = list(dict.fromkeys(v for _, v, _, _ in hits if v))
        if exact and len(exact) == len(hits):
            op = ("!=" if neg else "=") if len(exact) == 1 else "in"
            out.append(Condition(col, op, tuple(exact), span))
        else:
            out.append(Condition(col, "like", (hits[0][0],), span))
    return out


def _grade(c: Column, value: str, low: str, after: list[int], s: int, e: int):
    """Letter grades compared (「耐腐蚀等级不低于B」, 「B级以上」: A is best): the values
    meant and how far the suffix reaches, or None for a plain value."""
    if not (len(value) == 1 and value.isalpha()):
        return None
    lead = low[max([a for a in after if a <= s], default=s):s]
    up, down = _GRADE_UP.match(low[e:]), _GRADE_DOWN.match(low[e:])
    if up or re.search(r"不低于|不差于|至少|达到", lead):
        keep = sorted(v for v in c.values if len(v) == 1 and v.upper() <= value.upper())
    elif down or re.search(r"不高于", lead):
        keep = sorted(v for v in c.values if len(v) == 1 and v.upper() >= value.upper())
    else:
        return None
    return keep, (up or down).end() if (up or down) else 0


def _aliases(q: str, table: TableSchema, spans: list[tuple[int, int]]) -> list[Condition]:
    out = []
    for c in table.columns:
        for phrase, values in sorted(c.aliases.items(), key=lambda kv: -len(kv[0])):
            i = q.find(phrase)
            if i < 0 or _overlaps(spans, i, i + len(phrase)):
                continue
            if q[i:].startswith(c.name) and c.name != phrase:
                continue  # the column's full name, not the phrase
            spans.append((i, i + len(phrase)))
            out.append(Condition(c, "in" if len(values) > 1 else "=", tuple(values), (i, i + len(phrase))))
    return out


def _op_before(gap: str) -> str | None:
    best: tuple[int, str] | None = None
    for op, words in _OPS:
        for w in words:
            i = gap.rfind(w)
            if i >= 0 and (best is None or i + len(w) > best[0]):
                best = (i + len(w), op)
    return best[1] if best else None


def _column_for(qty: Quantity, q: str, mentions, last_end: int, table: TableSchema) -> Column | None:
    def fits(c: Column) -> bool:
        return c.numeric and (qty.unit is None or c.unit_obj is None
                              or convert(1.0, qty.unit, c.unit_obj) is not None)

    before = [(s, e, c) for s, e, c in mentions if last_end <= s and e <= qty.start and fits(c)
              and not _CLAUSE.search(q[e:qty.start])]
    if before:
        return before[-1][2]
    after = [c for s, e, c in mentions if qty.end <= s <= qty.end + 6 and fits(c)
             and _SEPARATORS.match(q[qty.end:s]) is not None]
    if after:
        return after[0]
    if qty.unit is not None:
        same = [c for c in table.columns if c.numeric and c.unit_obj is not None and fits(c)]
        if len(same) == 1:
            return same[0]
    return None


def _numeric(q: str, table: TableSchema, mentions, spans: list[tuple[int, int]]) -> list[Condition]:
    qs = [x for x in quantities(q) if not _overlaps(spans, x.start, x.end)
          and not (x.start > 0 and q[x.start - 1].isascii() and q[x.start - 1].isalnum())]
    out: list[Condition] = []
    i, last_end = 0, 0
    while i < len(qs):
        a = qs[i]
        b = qs[i + 1] if i + 1 < len(qs) else None
        is_range = b is not None and _RANGE.fullmatch(q[a.end:b.start]) is not None
        unit = (b.unit if is_range else None) or a.unit
        probe = Quantity(a.value, unit, a.start, b.end if is_range else a.end)
        col = _column_for(probe, q, mentions, last_end, table)
        end = probe.end
        if col is None:
            i += 2 if is_range else 1
            continue
        conv = lambda x: _round(convert(x.value, x.unit or unit, col.unit_obj))  # noqa: E731
        if is_range:
            tail = re.match(r"\s*之间", q[end:])
            end += tail.end() if tail else 0
            lo, hi = sorted([conv(a), conv(b)])
            out.append(Condition(col, "between", (lo, hi), (a.start, end)))
        else:
            gap_start = max([e for s, e, c in mentions if e <= a.start] + [last_end])
            op = _op_before(q[gap_start:a.start])
            suf = _SUFFIX.match(q[end:])
            if suf:
                op = ">=" if "上" in suf[1] or "更" in suf[1] else "<="
                end += suf.end()
            if op is None:
                op = ">=" if _NEED.search(q[:a.start]) else "="
            out.append(Condition(col, op, (conv(a),), (a.start, end)))
        spans.append((a.start, end))
        last_end = end
        i += 2 if is_range else 1
    return out


def _round(x: float | None) -> float:
    return float(f"{x:.9g}") if x is not None else 0.0


def _superlative(q: str, table: TableSchema, mentions) -> Order | None:
    for m in _SUPER.finditer(q):
        if re.match(r"\s*\d", q[m.end():]):
            continue  # 最高15千瓦 is a bound, not a superlative
        desc = m[1] in "高大多贵长重"
        near = [c for s, e, c in mentions if c.numeric and (0 <= m.start() - e <= 4 or 0 <= s - m.end() <= 4)]
        if near:
            return Order(near[0], desc)
        if m[1] in ("贵", "便宜"):
            money = [c for c in table.columns if c.numeric and c.unit_obj and c.unit_obj.dimension == "money"]
            if len(money) == 1:
                return Order(money[0], desc)
    return None


def _own_name_spans(q: str, table: TableSchema) -> list[tuple[int, int]]:
    """Where the question writes a word of the table's own name (PMC of 「PMC 议题收集模版」):
    such a word says which table, not which rows, so no cell value is read there."""
    low = q.lower()
    words = {w.lower() for name in (table.title, table.source)
             for w in re.findall(r"[\u4e00-\u9fff]{2,}|[A-Za-z0-9]{2,}", name or "")}
    return [(m.start(), m.end()) for w in words for m in re.finditer(re.escape(w), low)
            if not (w.isascii() and _ascii_glued(low, m.start(), m.end()))]


def parse(question: str, table: TableSchema) -> Parsed:
    """Conditions of ``question`` over ``table``.

    Args:
        question: the question as asked.
        table: the table's schema (columns, units, values, aliases).

    Returns:
        The conditions (values converted to column units), a superlative order if any,
        the columns mentioned, notes on mentions that gave no condition, and whether the
        table itself is named.
    """
    q = fold(question)
    mentions = find_mentions(q, table)
    spans = _own_name_spans(q, table)
    conds = _categorical(q, table, mentions, spans)
    conds += _aliases(q, table, spans)
    conds += _numeric(q, table, mentions, spans)
    order = _superlative(q, table, mentions)
    used = {c.column.name for c in conds} | ({order.column.name} if order else set())
    notes = tuple(f"问题提到「{c.name}」，但未识别出取值条件" for c in
                  dict.fromkeys(c for _, _, c in mentions if c.name not in used and not c.numeric
                                and c.name != table.key))
    words = [w for w in (table.source, table.title, *table.synonyms) if w and len(w) >= 2]
    named = any(w.lower() in q.lower() for w in words)
    conds.sort(key=lambda c: c.span)
    mentioned = tuple(dict.fromkeys(c for _, _, c in mentions))
    all_spans = tuple(spans) + tuple((s, e) for s, e, _ in mentions)
    return Parsed(tuple(conds), order, mentioned, notes, named, all_spans)
