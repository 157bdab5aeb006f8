"""Typed table schemas: column types, units, descriptions and synonyms.

A schema is generated from the data, written as JSON under ``$ZHIKU_HOME/structured/
schemas`` and read back on the next run, so descriptions, synonyms, units and the key
column a user edits there are honoured; the config's ``columns`` win over both.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from zhiku.chunk.tables import split_header
from zhiku.errors import ZhikuError
from zhiku.structured.spec import SourceSpec
from zhiku.structured.units import Unit, convert, fold, parse_cell, unit_of

MAX_VALUES = 60  # a text column with more distinct values is not categorical
_KEY_NAMES = ("型号", "编号", "代码", "编码", "物料号", "料号", "名称", "城市", "地区", "id", "code",
              "model", "sku", "name")
_HEADER = re.compile(r"^(?P<name>.+?)\s*[(\[](?P<unit>[^()\[\]]{1,16})[)\]]\s*$")


@dataclass(frozen=True)
class Column:
    """One column: display ``name``, ``sql`` name, type (number or text), canonical unit,
    description, synonyms, the distinct ``values`` of a categorical text column, and
    ``aliases`` (a phrase in questions → the values it means)."""

    name: str
    sql: str
    type: str = "text"
    unit: str = ""
    description: str = ""
    synonyms: tuple[str, ...] = ()
    values: tuple[str, ...] = ()
    aliases: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)

    @property
    def numeric(self) -> bool:
        """Whether values compare as numbers."""
        return self.type == "number"

    @property
    def unit_obj(self) -> Unit | None:
        """The canonical unit, or None."""
        return unit_of(self.unit) if self.unit else None


@dataclass(frozen=True)
class TableSchema:
    """One queryable table: where it comes from, its key column and its columns.

    ``kind`` is csv, xlsx, document or database; ``doc`` holds, for document tables,
    the document id, path, title, section id and path (for citing rows as chunks).
    """

    name: str
    source: str
    title: str
    kind: str
    origin: str
    key: str
    columns: tuple[Column, ...]
    rows: int = 0
    description: str = ""
    synonyms: tuple[str, ...] = ()
    doc: dict[str, Any] = field(default_factory=dict)

    def column(self, name: str) -> Column | None:
        """The column with this display or SQL name."""
        return next((c for c in self.columns if name in (c.name, c.sql)), None)

    @property
    def key_column(self) -> Column:
        """The column that names a row."""
        return self.column(self.key) or self.columns[0]

    def summary(self) -> str:
        """One line for routers and ``zhiku tables``: source › table, rows, columns."""
        cols = "、".join(c.name + (f"({c.unit})" if c.unit else "") for c in self.columns)
        desc = f"；{self.description}" if self.description else ""
        return f"{self.source} › {self.title}：{self.rows} 行，列 {cols}{desc}"


def split_unit(header: str) -> tuple[str, str]:
    """``扬程(m)`` → (``扬程``, ``m``); ``住宿标准（元/人·天）`` → (``住宿标准``, ``元/天``).

    Args:
        header: a header cell or database column name.

    Returns:
        (name, canonical unit or "").
    """
    text = fold(header).strip()
    m = _HEADER.match(text)
    if m and unit_of(m["unit"]):
        return m["name"].strip(), unit_of(m["unit"]).symbol
    name, unit = split_header(text)
    u = unit_of(unit) if unit else None
    return (name, u.symbol) if u else (text, "")


def _numeric(cells: list[str], unit: str) -> tuple[bool, str]:
    """Whether the non-empty cells are numbers of one dimension, and the unit to use."""
    filled = [c for c in cells if c.strip()]
    if not filled:
        return False, unit
    parsed = [parse_cell(c) for c in filled]
    if any(p is None for p in parsed):
        return False, unit
    units = {p[1] for p in parsed if p[1] is not None}
    if unit:
        ok = all(convert(1.0, u, unit_of(unit)) is not None for u in units)
        return ok, unit
    if len({u.dimension for u in units}) > 1:
        return False, unit
    return True, (next(iter(units)).symbol if units else "")


def typed_value(cell: str, col: Column) -> float | str | None:
    """A cell as stored: a number in the column's unit, the text, or None when empty."""
    if not cell.strip():
        return None
    if not col.numeric:
        return cell.strip()
    parsed = parse_cell(cell)
    if parsed is None:
        return None
    return convert(parsed[0], parsed[1], col.unit_obj)


def infer_columns(headers: tuple[str, ...], rows: tuple[tuple[str, ...], ...]) -> tuple[Column, ...]:
    """Typed columns from a header row and text cells.

    Args:
        headers: header cells (units in brackets are split off).
        rows: body rows.

    Returns:
        The columns; SQL names are the display names made unique.
    """
    out: list[Column] = []
    seen: set[str] = set()
    for i, h in enumerate(headers):
        name, unit = split_unit(h)
        sql = name or f"col{i + 1}"
        while sql in seen:
            sql += "_"
        seen.add(sql)
        cells = [r[i] if i < len(r) else "" for r in rows]
        numeric, unit = _numeric(cells, unit)
        values = tuple(dict.fromkeys(c.strip() for c in cells if c.strip()))
        out.append(Column(name=name or sql, sql=sql, type="number" if numeric else "text",
                          unit=unit, values=() if numeric or len(values) > MAX_VALUES else values))
    return tuple(out)


def guess_key(columns: tuple[Column, ...], rows: tuple[tuple[str, ...], ...]) -> str:
    """The column that names rows: a usual key name with unique values, else the first
    text column with unique values, else the first column."""
    def unique(i: int) -> bool:
        vals = [r[i] for r in rows if i < len(r)]
        return bool(vals) and all(vals) and len(set(vals)) == len(vals)

    for i, c in enumerate(columns):
        if c.name.lower() in _KEY_NAMES and unique(i):
            return c.name
    for i, c in enumerate(columns):
        if not c.numeric and unique(i):
            return c.name
    return columns[0].name if columns else ""


def apply_spec(schema: TableSchema, spec: SourceSpec | None) -> TableSchema:
    """The schema with the config's key, description, synonyms and column settings.

    Raises:
        ZhikuError: the config names a key or column the table does not have.
    """
    if spec is None:
        return schema
    names = {c.name for c in schema.columns} | {c.sql for c in schema.columns}
    for col in [spec.key, *spec.columns] if spec.key else list(spec.columns):
        if col not in names:
            raise ZhikuError(f"structured source {spec.name!r}: table {schema.title!r} has no column "
                             f"{col!r}; use one of {', '.join(c.name for c in schema.columns)}")
    cols = []
    for c in schema.columns:
        cs = spec.columns.get(c.name) or spec.columns.get(c.sql)
        if cs is not None:
            c = replace(c, description=cs.description or c.description,
                        synonyms=tuple(dict.fromkeys([*c.synonyms, *cs.synonyms])),
                        unit=(unit_of(cs.unit).symbol if unit_of(cs.unit) else cs.unit) or c.unit,
                        aliases={**c.aliases, **{k: tuple(v) for k, v in cs.values.items()}})
        cols.append(c)
    return replace(schema, columns=tuple(cols), key=spec.key or schema.key,
                   description=spec.description or schema.description,
                   synonyms=tuple(dict.fromkeys([*schema.synonyms, *spec.synonyms])))


# -- the editable JSON file ----------------------------------------------------------------
_EDITABLE_COL = ("type", "unit", "description", "synonyms", "aliases")


def to_json(schema: TableSchema) -> dict[str, Any]:
    """The schema as written to its JSON file."""
    d = asdict(schema)
    d["columns"] = [{k: v for k, v in asdict(c).items()} for c in schema.columns]
    return d


def merge_edits(generated: TableSchema, path: Path) -> TableSchema:
    """Apply what a user edited in the schema file at ``path`` (key, description,
    synonyms; per column type, unit, description, synonyms, aliases) to ``generated``.

    Raises:
        ZhikuError: the file is not valid JSON or a value has the wrong shape.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        edited = {c["name"]: c for c in data.get("columns", [])}
        cols = []
        for c in generated.columns:
            e = edited.get(c.name, {})
            kw = {k: e[k] for k in _EDITABLE_COL if k in e}
            if "synonyms" in kw:
                kw["synonyms"] = tuple(kw["synonyms"])
            if "aliases" in kw:
                kw["aliases"] = {str(k): tuple(v) for k, v in kw["aliases"].items()}
            if kw.get("type") not in (None, "number", "text"):
                raise ValueError(f"column {c.name}: type must be number or text")
            cols.append(replace(c, **kw))
        key = data.get("key") or generated.key
        if key not in {c.name for c in cols}:
            raise ValueError(f"key {key!r} is not a column")
        return replace(generated, columns=tuple(cols), key=key,
                       description=str(data.get("description", generated.description)),
                       synonyms=tuple(data.get("synonyms", generated.synonyms)))
    except (OSError, ValueError, TypeError, AttributeError, KeyError) as e:
        raise ZhikuError(f"schema file {path} is invalid ({e}); fix it or delete it to regenerate") from e


def write_schema(schema: TableSchema, path: Path) -> None:
    """Write the schema file (values included, so a user sees what a column holds),
    unless it holds that text already (each process building the catalog would otherwise
    rewrite and sync every schema file)."""
    from zhiku.atomic import write_text

    text = json.dumps(to_json(schema), ensure_ascii=False, indent=1)
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass  # missing or unreadable: written below
    write_text(path, text)
