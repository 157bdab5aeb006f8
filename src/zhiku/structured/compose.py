"""Structured results in words: the conditions, the rows cited one by one, the closest
rows when none match, a calculation or an aggregate with each number cited, and the
documents' part."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from zhiku.structured.aggexec import AggResult, AggValue, value_text
from zhiku.structured.aggregate import group_key
from zhiku.structured.answer import Result, citation_for
from zhiku.structured.conditions import fmt
from zhiku.structured.conditions import OP_WORDS as _OP_WORDS
from zhiku.structured.units import fold, is_unit
from zhiku.types import Answer, Citation

SHOWN = 20  # rows listed in the text; the trace and citations keep them all
_FILLER = frozenset("""哪款 哪些 哪个 哪种 型号 款 产品 记录 满足 符合 条件 列出 有 的 且 并且 同时 和 与 及
    或 能 能够 可以 请问 是 为 在 以上 以下 之间 哪 什么 多少 需要 要求 一共 合计 总共 共""".split())


def row_line(res: Result, row: dict[str, Any]) -> str:
    """One row in words: ``IH80-65-160：扬程 32 m，流量 50 m³/h，…`` (condition columns first)."""
    t = res.table
    key = t.key_column
    first = [c.column for c in res.parsed.conditions] + list(res.parsed.mentioned)
    cols = list(dict.fromkeys([c for c in first if c in t.columns] + list(t.columns)))
    pairs = []
    for c in cols:
        v = row.get(c.sql)
        if c is key or v is None or v == "":
            continue
        pairs.append(f"{c.name} {fmt(v)}{' ' + c.unit if c.unit else ''}")
    return f"{fmt(row.get(key.sql))}：" + "，".join(pairs[:8])


def compose(kb: Any, res: Result) -> tuple[str, list[Citation]]:
    """The answer text with ``[n]`` after each row, and one citation per row.

    Args:
        kb: the knowledge base (for the pages of document table rows).
        res: the structured result.

    Returns:
        (text, citations).
    """
    where = f"{res.table.source} › {res.table.title}"
    cond = f"「{res.conditions}」" if res.conditions else ""
    cites: list[Citation] = []
    lines: list[str] = []

    def cite(row: dict[str, Any]) -> int:
        line = row_line(res, row)
        cites.append(citation_for(res, row, len(cites) + 1, line))
        return cites[-1].marker

    if res.aggregate is not None and res.rows:
        lines += aggregate_lines(res, res.aggregate, cite)
    elif res.calculation is not None and res.rows:
        m = cite(res.rows[0])
        calc = replace(res.calculation, terms=tuple((n, v, u, m if mk else 0)
                                                    for n, v, u, mk in res.calculation.terms))
        lines.append(f"按{where}（{fmt(res.rows[0].get(res.table.key_column.sql))}），"
                     f"{calc.text()}。")
    elif res.rows:
        lines.append(f"{where} 中满足{cond}的记录共 {len(res.rows)} 条：")
        for i, row in enumerate(res.rows[:SHOWN], 1):
            line = row_line(res, row)
            lines.append(f"{i}. {line} [{cite(row)}]")
        if len(res.rows) > SHOWN:
            lines.append(f"……另有 {len(res.rows) - SHOWN} 条未列出。")
    else:
        lines.append(f"{where} 中没有满足{cond}的记录。")
        if res.aggregate is not None:
            lines += [f"{v.aggregate.label()}为 0 {res.aggregate.query.classifier}。"
                      if v.aggregate.func.value == "count" else f"因此无法计算{v.aggregate.label()}。"
                      for v in res.aggregate.values]
        if res.closest:
            lines.append("最接近的是：")
            for row in res.closest:
                lines.append(f"- {row_line(res, row)} [{cite(row)}]")
    lines += list(res.parsed.notes)
    return "\n".join(lines), _with_pages(kb, res, cites)


def aggregate_lines(res: Result, agg: AggResult, cite) -> list[str]:  # noqa: ANN001 - cite: row → marker
    """An aggregate in words: the conditions, the value(s) with units, the formula over
    the cited cells, then the rows (every covered row is cited, in formula order).

    Args:
        res: the structured result.
        agg: its aggregate.
        cite: cites a row and returns its marker (markers follow ``agg.rows``).

    Returns:
        The lines of the answer.
    """
    marks = [cite(row) for row in agg.rows]
    t, q = res.table, agg.query
    where = f"{t.source} › {t.title} 中满足「{res.conditions}」的记录" if res.conditions \
        else f"{t.source} › {t.title} 的全部记录"
    lines = []
    if q.group is None:
        said = "；".join(f"{v.aggregate.label()}为 {value_text(v, q.classifier)}{_holders(res, agg, v)}"
                        for v in agg.values)
        lines.append(f"{where}共 {len(agg.rows)} 条，{said}。")
        lines += [f"计算：{v.aggregate.label()} = {v.calculation.text()}" for v in agg.values if v.calculation]
    else:
        groups = list(dict.fromkeys(v.group for v in agg.values))
        lines.append(f"{where}按 {q.group.name} 分为 {len(groups)} 组：")
        for g in groups:
            lines.append(f"- {g}：" + "；".join(_group_part(agg, v, q.classifier)
                                               for v in agg.values if v.group == g))
    if not agg.complete:
        lines.append(f"（记录超过 {len(agg.rows)} 条的上限，数值由数据库按全部记录计算，只引用前 "
                     f"{len(agg.rows)} 条）")
    for i, row in enumerate(agg.rows[:SHOWN] if q.group is None else (), 1):
        lines.append(f"{i}. {row_line(res, row)} [{marks[i - 1]}]")
    rest = marks[SHOWN:] if q.group is None else []
    if rest:
        lines.append(f"……另有 {len(rest)} 条未列出（[{rest[0]}]–[{rest[-1]}]）。")
    return lines


def _holders(res: Result, agg: AggResult, v: AggValue) -> str:
    """The rows holding a largest / smallest value: ``（IH80-50-200 [4]）``."""
    if not v.extreme:
        return ""
    key = res.table.key_column.sql
    return "（" + "、".join(f"{fmt(agg.rows[m - 1].get(key))} [{m}]" for m in v.extreme) + "）"


def _group_part(agg: AggResult, v: AggValue, classifier: str) -> str:
    """One group's value: its formula, or for a count the cited rows of the group."""
    if v.calculation is not None:
        return f"{v.aggregate.label()} = {v.calculation.text()}"
    g = agg.query.group
    marks = [i for i, r in enumerate(agg.rows, 1) if g is not None and group_key(r.get(g.sql)) == v.group]
    return f"{v.aggregate.label()} {value_text(v, classifier)} " + " ".join(f"[{m}]" for m in marks)


def _with_pages(kb: Any, res: Result, cites: list[Citation]) -> list[Citation]:
    if res.table.kind != "document" or not cites:
        return cites
    chunks = kb.store.get_chunks([c.chunk_id for c in cites])
    return [replace(c, page=chunks[c.chunk_id].page, quote=chunks[c.chunk_id].text)
            if c.chunk_id in chunks else c for c in cites]


def remainder(kb: Any, question: str, res: Result) -> str:
    """What the conditions leave of the question, when it still asks something of the
    documents (「…的泵有哪些？采购审批需要谁签字？」 → 「采购审批需要谁签字」), else "".

    Args:
        kb: the knowledge base (its word segmenter).
        question: the question.
        res: the structured result (its parse spans and table words).

    Returns:
        The remaining question, or "" when nothing but filler is left.
    """
    q = fold(question)
    # A sentence that carries a condition belongs to the table, whole: 「…的泵有哪些？」
    sentences = [(m.start(), m.end()) for m in re.finditer(r"[^。？?；;！!]+[。？?；;！!]?", q)]
    untouched = [q[a:b] for a, b in sentences
                 if not any(s < b and e > a for s, e in res.parsed.spans)]
    if untouched and len(sentences) > 1:
        q = "".join(untouched)
        if len("".join(w for w in kb.words(q) if w not in _FILLER)) < 4:
            return ""
        return q.strip(" ，,。？?；;")
    chars = list(q)
    for s, e in res.parsed.spans:
        for i in range(s, min(e, len(chars))):
            chars[i] = " "
    rest = "".join(chars)
    t = res.table
    for w in sorted({t.source, t.title, *t.synonyms, *[c.name for c in t.columns]}, key=len, reverse=True):
        if w and len(w) >= 2:
            rest = rest.replace(w, " ")
    for syn in t.synonyms:
        rest = rest.replace(syn, " ")
    words = [w for w in kb.words(rest) if len(w.strip()) >= 2 and w not in _FILLER and w not in _OP_WORDS
             and not is_unit(w) and not re.fullmatch(r"[\d.]+", w)]
    if len("".join(words)) < 4:
        return ""
    parts = [p.strip(" ，,。？?；;") for p in re.split(r"[，,。？?；;！!]", rest)]
    return "，".join(p for p in parts if len(p.strip()) >= 2).strip()


def combine(text: str, cites: list[Citation], doc: Answer) -> tuple[str, list[Citation]]:
    """Append the documents' answer, its markers shifted after the table's citations."""
    shift = len(cites)
    moved = re.sub(r"\[(\d+)\]", lambda m: f"[{int(m[1]) + shift}]", doc.text)
    extra = [replace(c, marker=c.marker + shift) for c in doc.citations]
    return f"{text}\n{moved}", cites + extra
