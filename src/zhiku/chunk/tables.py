"""Tables in three views: a summary chunk, one sentence per row, and the raw Markdown.

Seed: "表格三维拆解" — a table is found by what it is about (summary), by a value in a
row (row sentences with column=value pairs) and cited as printed (the Markdown table).
"""

from __future__ import annotations

import re

from zhiku.types import Chunk, Document, Table, content_hash

#: Canonical unit → the ways documents write it. Searchable text gets every form.
UNITS: dict[str, tuple[str, ...]] = {
    "m³/h": ("立方米每小时", "立方米/小时", "方每小时", "m³/h", "m3/h"),
    "kW": ("千瓦", "kW", "KW", "kw"),
    "mm": ("毫米", "mm"),
    "m": ("米", "m"),
    "r/min": ("转每分钟", "转每分", "转/分", "r/min", "rpm"),
    "kg": ("千克", "公斤", "kg"),
    "MPa": ("兆帕", "MPa"),
    "℃": ("摄氏度", "℃"),
}
_ALIAS_RE = re.compile(
    "|".join(
        (re.escape(a) if not a.isascii() else rf"(?<![A-Za-z]){re.escape(a)}(?![A-Za-z0-9/³])")
        for a in sorted({a for v in UNITS.values() for a in v}, key=len, reverse=True)
    )
)
_CANON = {a: canon for canon, aliases in UNITS.items() for a in aliases}
_HEADER_UNIT_RE = re.compile(r"^(?P<name>.+?)\s*[（(\[](?P<unit>[^()（）\[\]]{1,12})[)）\]]\s*$")


def unit_forms(text: str) -> str:
    """Every written form of the units that occur in ``text``, space-separated.

    ``扬程 32 米`` → ``米 m``; ``100 m3/h`` → ``立方米每小时 立方米/小时 … m³/h m3/h``.
    Appended to the searchable text so 「30米」 finds a row written ``32 m``.

    Args:
        text: any text.

    Returns:
        The forms, or "" when no unit occurs.
    """
    canon = dict.fromkeys(_CANON[m.group()] for m in _ALIAS_RE.finditer(text))
    return " ".join(a for c in canon for a in UNITS[c])


def split_header(column: str) -> tuple[str, str]:
    """Split ``扬程(米)`` into (``扬程``, ``米``); a header without a unit keeps "".

    Args:
        column: the header cell.

    Returns:
        (name, unit); the part in brackets counts as a unit only when it is one.
    """
    match = _HEADER_UNIT_RE.match(column.strip())
    if match and (_ALIAS_RE.fullmatch(match["unit"]) or re.fullmatch(r"[A-Za-z°%/³²·.]+", match["unit"])):
        return match["name"].strip(), match["unit"].strip()
    return column.strip(), ""


def row_sentence(table: Table, row: tuple[str, ...]) -> str:
    """One row as a sentence of column-value pairs: ``型号 IS100-65-200，扬程 32 米``.

    Args:
        table: the table (its caption prefixes the sentence).
        row: the row's cells, aligned with ``table.columns``.

    Returns:
        The sentence, ending with 。; empty cells are left out, and a cell's own closing
        。 or ； is dropped (a cell of prose, ``…融资途径。``, would end the sentence before
        the columns after it: ``…融资途径。，指导部门 …``).
    """
    pairs = []
    for col, value in zip(table.columns, row):
        value = value.rstrip("。；; ")
        if not value:
            continue
        name, unit = split_header(col)
        pairs.append(f"{name} {value} {unit}".strip() if unit and not value.endswith(unit)
                     else f"{name} {value}".strip())
    head = f"{table.caption}：" if table.caption else ""
    return head + "，".join(pairs) + "。"


def summary_sentence(table: Table, section: str) -> str:
    """What the table is: caption, section, columns and row count.

    Args:
        table: the table.
        section: the label of the section holding it ("" for none).

    Returns:
        e.g. ``表格「水泵参数表」（第三章 选型）共 2 行，列：型号、扬程(米)、流量。``
    """
    name = f"「{table.caption}」" if table.caption else ""
    where = f"（{section}）" if section else ""
    return f"表格{name}{where}共 {len(table.rows)} 行，列：{'、'.join(c for c in table.columns if c)}。"


def table_chunks(doc: Document, table: Table, section_id: str,
                 section_path: tuple[str, ...]) -> list[Chunk]:
    """The three views of one table as chunks, all carrying its section and page.

    Args:
        doc: the document holding the table.
        table: the table; its span in ``doc.body`` is the Markdown rendering.
        section_id: id of the section holding it.
        section_path: labels of that section from the top.

    Returns:
        The ``table`` chunk (Markdown, citable as printed), a ``table_summary`` chunk
        and one ``table_row`` chunk per row; summary and rows name the table chunk as
        ``parent_id`` and their span is the table's; a row's page is the page its line
        of the table is printed on.
    """
    md = doc.body[table.start:table.end]
    page = table.page if table.page is not None else doc.page_at(table.start)

    lines = [0] + [i + 1 for i, ch in enumerate(md) if ch == "\n"]

    def make(text: str, kind: str, parent: str | None, at: int | None = None) -> Chunk:
        return Chunk(id=content_hash(doc.id, section_id, kind, text), doc_id=doc.id,
                     doc_path=doc.path, title=doc.title, section_id=section_id,
                     section_path=section_path, article=None, text=text, start=table.start,
                     end=table.end, version_date=doc.version_date, kind=kind,
                     page=page if at is None or not doc.pages else doc.page_at(at),
                     parent_id=parent)

    raw = make(md, "table", None)
    label = section_path[-1] if section_path else ""
    out = [raw, make(summary_sentence(table, label), "table_summary", raw.id)]
    out += [make(row_sentence(table, row), "table_row", raw.id,
                 table.start + lines[min(i + 2, len(lines) - 1)])
            for i, row in enumerate(table.rows)]
    return out
