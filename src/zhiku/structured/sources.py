"""Structured sources in one catalog: CSV/XLSX files and tables of ingested documents are
loaded into one SQLite file under ``$ZHIKU_HOME/structured``; database URLs are queried
directly, read-only, through SQLAlchemy."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import weakref
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.index.store import CHUNK_COLUMNS, row_to_chunk
from zhiku.structured.schema import (TableSchema, apply_spec, guess_key, infer_columns,
                                     merge_edits, typed_value, write_schema)
from zhiku.structured.spec import SourceSpec
from zhiku.structured.sql import Rows, dialect_of, run_engine, run_sqlite, validate
from zhiku.types import Table, content_hash


@dataclass
class Catalog:
    """Every queryable table and how to run a validated SELECT on it."""

    tables: list[TableSchema]
    db_path: Path
    row_limit: int
    timeout: float
    engines: dict[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> TableSchema:
        """The table called ``name``.

        Raises:
            ZhikuError: no such table; the message lists the known ones.
        """
        for t in self.tables:
            if name in (t.name, f"{t.source}.{t.title}"):
                return t
        raise ZhikuError(f"no structured table {name!r}; see `zhiku tables` for: "
                         f"{', '.join(t.name for t in self.tables) or '(none)'}")

    def dialect(self, table: TableSchema) -> str:
        """The sqlglot dialect queries on ``table`` are written in."""
        eng = self.engines.get(table.source)
        return dialect_of(eng) if eng is not None else "sqlite"

    def run(self, table: TableSchema, sql: str, limit: int | None = None) -> Rows:
        """Validate ``sql`` (one SELECT on this table) and run it read-only.

        Raises:
            SQLRejected: the statement is not allowed.
            ZhikuError: timeout or database error.
        """
        limit = min(limit or self.row_limit, self.row_limit)
        safe = validate(sql, [table.name], limit, self.dialect(table))
        eng = self.engines.get(table.source)
        if eng is not None:
            return run_engine(eng, safe, limit, self.timeout)
        return run_sqlite(self.db_path, safe, limit, self.timeout)


# -- building ------------------------------------------------------------------------------
def _schema_path(home: Path, name: str) -> Path:
    return home / "structured" / "schemas" / f"{name}.json"


def _finish(home: Path, generated: TableSchema, spec: SourceSpec | None) -> TableSchema:
    """Honour the user's edits to the schema file, rewrite it, apply the config."""
    path = _schema_path(home, generated.name)
    merged = merge_edits(generated, path) if path.is_file() else generated
    write_schema(merged, path)
    return apply_spec(merged, spec)


def _file_tables(spec: SourceSpec) -> list[tuple[str, Table, str]]:
    """(title, table, kind) of every table in a CSV/XLSX source."""
    from zhiku.ingest.sheets import load_csv, load_xlsx

    path = Path(spec.path).expanduser()
    if not path.is_file():
        raise ZhikuError(f"structured source {spec.name!r}: file {path} does not exist; "
                         "fix its path in structured_sources")
    loader = {".csv": load_csv, ".xlsx": load_xlsx}.get(path.suffix.lower())
    if loader is None:
        raise ZhikuError(f"structured source {spec.name!r}: {path.name} is not .csv or .xlsx; "
                         "use a spreadsheet or a database url")
    doc = loader(path, path.parent)
    out = [(t.caption or path.stem, t, path.suffix.lower()[1:]) for t in doc.tables]
    if spec.table:
        out = [o for o in out if o[0] == spec.table]
        if not out:
            raise ZhikuError(f"structured source {spec.name!r}: {path.name} has no sheet "
                             f"{spec.table!r}; sheets: {', '.join(t.caption for t in doc.tables)}")
    return out


def _local_schema(name: str, source: str, title: str, kind: str, origin: str, table: Table,
                  doc: dict[str, Any] | None = None) -> TableSchema:
    cols = infer_columns(table.columns, table.rows)
    return TableSchema(name=name, source=source, title=title, kind=kind, origin=origin,
                       key=guess_key(cols, table.rows), columns=cols, rows=len(table.rows),
                       doc=doc or {})


def _load_local(con: sqlite3.Connection, schema: TableSchema, table: Table) -> None:
    """(Re)create the table in the local SQLite file when its data or schema changed."""
    finger = content_hash(json.dumps([table.columns, table.rows], ensure_ascii=False),
                          json.dumps([(c.sql, c.type, c.unit) for c in schema.columns]))
    have = con.execute("SELECT fingerprint FROM _zhiku_tables WHERE name = ?", (schema.name,)).fetchone()
    if have and have[0] == finger:
        return
    q = _quote
    con.execute(f"DROP TABLE IF EXISTS {q(schema.name)}")
    cols = ", ".join(f"{q(c.sql)} {'REAL' if c.numeric else 'TEXT'}" for c in schema.columns)
    con.execute(f"CREATE TABLE {q(schema.name)} ({cols})")
    marks = ", ".join("?" for _ in schema.columns)
    con.executemany(f"INSERT INTO {q(schema.name)} VALUES ({marks})",
                    [[typed_value(r[i] if i < len(r) else "", c) for i, c in enumerate(schema.columns)]
                     for r in table.rows])
    con.execute("INSERT OR REPLACE INTO _zhiku_tables VALUES (?, ?)", (schema.name, finger))


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _slug(text: str) -> str:
    return re.sub(r"\W+", "_", text).strip("_") or "t"


def document_tables(store: Any) -> list[tuple[dict[str, Any], Table]]:
    """Tables of the ingested documents in force, rebuilt from their ``table`` chunks.

    Args:
        store: the knowledge base's store.

    Returns:
        (document info, table) pairs; the info has doc id, path, title, section id and
        path, version date, and the caption.
    """
    skip = set(store.excluded("current"))
    # read whole, by kind: fetching them by id would map every chunk id to its row first
    rows = store.rows("chunks", CHUNK_COLUMNS, kinds=("table", "table_summary"))
    chunks = {r["id"]: row_to_chunk(r) for r in rows if r["doc_id"] not in skip}
    captions = {c.parent_id: m[1] for c in chunks.values() if c.kind == "table_summary"
                and (m := re.match(r"表格「(.*?)」", c.text))}
    out = []
    for c in sorted((c for c in chunks.values() if c.kind == "table"), key=lambda c: (c.doc_path, c.start)):
        cols, rows = _parse_markdown(c.text)
        if not cols or len(rows) < 2:
            continue
        caption = captions.get(c.id, "")
        info = {"doc_id": c.doc_id, "doc_path": c.doc_path, "title": c.title, "section_id": c.section_id,
                "section_path": list(c.section_path), "version_date": c.version_date,
                "caption": caption, "chunk_id": c.id}
        out.append((info, Table(c.start, c.end, caption, cols, rows, c.page)))
    return out


def _parse_markdown(md: str) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]:
    def cells(line: str) -> tuple[str, ...]:
        inner = line.strip()[1:-1] if line.strip().startswith("|") else line
        return tuple(p.strip().replace("\\|", "|") for p in re.split(r"(?<!\\)\|", inner))

    lines = [ln for ln in md.splitlines() if ln.strip()]
    if len(lines) < 2 or not re.fullmatch(r"[\s|:\-]+", lines[1]):
        return (), ()
    head = cells(lines[0])
    return head, tuple(r for r in (cells(ln) for ln in lines[2:]) if len(r) == len(head))


def _row_chunks(schema: TableSchema, info: dict[str, Any], table: Table, gloss: bool = True) -> dict[str, str]:
    """Key value → id of the ``table_row`` chunk the ingest made for that row (``gloss``: config
    ``table_header_gloss``, as the ingest wrote the row)."""
    from zhiku.chunk.tables import row_sentence
    from zhiku.structured.conditions import fmt

    key = schema.key_column
    i = schema.columns.index(key)
    return {fmt(typed_value(r[i], key)): content_hash(info["doc_id"], info["section_id"], "table_row",
                                                      row_sentence(table, r, gloss))
            for r in table.rows}


def _engine_for(spec: SourceSpec) -> Any:
    """A SQLAlchemy engine for ``spec.url``; SQLite files are opened read-only."""
    import sqlalchemy as sa

    try:
        url = sa.engine.make_url(spec.url)
    except sa.exc.ArgumentError as e:
        raise ZhikuError(f"structured source {spec.name!r}: {spec.url!r} is not a database URL "
                         "(e.g. sqlite:///erp.db or postgresql://user@host/db)") from e
    if url.get_backend_name() == "sqlite":
        db = Path(url.database or "")
        if not url.database or not db.is_file():
            raise ZhikuError(f"structured source {spec.name!r}: SQLite file {db} does not exist; "
                             "fix its url in structured_sources")
        uri = f"{db.resolve().as_uri()}?mode=ro"
        return sa.create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True,
                                                                             check_same_thread=False))
    try:
        return sa.create_engine(url, pool_pre_ping=True)
    except Exception as e:  # missing driver, bad options
        raise ZhikuError(f"structured source {spec.name!r}: cannot open {url.render_as_string()}: "
                         f"{e}; install the database driver or fix the url") from e


def _db_tables(home: Path, spec: SourceSpec, eng: Any, row_limit: int, timeout: float) -> list[TableSchema]:
    """Schemas of the tables of a database source (introspected, read-only)."""
    import sqlalchemy as sa

    try:
        insp = sa.inspect(eng)
        names = insp.get_table_names()
    except sa.exc.SQLAlchemyError as e:
        raise ZhikuError(f"structured source {spec.name!r}: cannot read the database ({str(e)[:120]}); "
                         "check the url and that the server is up") from e
    if spec.table:
        if spec.table not in names:
            raise ZhikuError(f"structured source {spec.name!r} has no table {spec.table!r}; "
                             f"tables: {', '.join(names)}")
        names = [spec.table]
    out = []
    for n in names[:50]:
        numeric = {c["name"]: isinstance(c["type"], (sa.Integer, sa.Numeric, sa.Float))
                   for c in insp.get_columns(n)}
        rows = run_engine(eng, f"SELECT * FROM {_quote(n)}", 1000, timeout).rows
        cells = tuple(tuple("" if v is None else str(v) for v in r) for r in rows)
        cols = tuple(replace(c, sql=name, type="number" if numeric[name] else c.type)
                     for c, name in zip(infer_columns(tuple(numeric), cells), numeric))
        pk = insp.get_pk_constraint(n).get("constrained_columns") or []
        key = next((c.name for c in cols if c.sql in pk and not c.numeric), "") or guess_key(cols, cells)
        count = run_engine(eng, f"SELECT COUNT(*) FROM {_quote(n)}", 1, timeout).rows[0][0]
        gen = TableSchema(name=n, source=spec.name, title=n, kind="database",
                          origin=eng.url.render_as_string() if eng.url.drivername != "sqlite" else spec.url,
                          key=key, columns=cols, rows=int(count))
        out.append(_finish_db(home, gen, spec))
    return out


def _finish_db(home: Path, gen: TableSchema, spec: SourceSpec) -> TableSchema:
    path = _schema_path(home, f"{spec.name}.{gen.name}")
    merged = merge_edits(gen, path) if path.is_file() else gen
    write_schema(merged, path)
    return apply_spec(merged, spec)


def build_catalog(cfg: Any, store: Any | None = None) -> Catalog:
    """Load every configured source (and, with ``structured_documents``, every table of
    the ingested documents) and return the catalog.

    Args:
        cfg: the Config (``structured_sources``, ``structured_documents``, limits).
        store: the knowledge base's store, for document tables (None: none).

    Returns:
        The catalog.

    Raises:
        ZhikuError: a source is missing, unreadable or names a sheet, table or column
            it does not have.
    """
    home = Path(cfg.home)
    db = home / "structured" / "tables.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    cat = Catalog([], db, cfg.structured_row_limit, cfg.structured_timeout)
    con = sqlite3.connect(db)
    try:
        con.execute("CREATE TABLE IF NOT EXISTS _zhiku_tables (name TEXT PRIMARY KEY, fingerprint TEXT)")
        local: list[tuple[TableSchema, Table]] = []
        for spec in cfg.structured_sources:
            if spec.url:
                eng = cat.engines[spec.name] = _engine_for(spec)
                cat.tables += _db_tables(home, spec, eng, cfg.structured_row_limit, cfg.structured_timeout)
                continue
            files = _file_tables(spec)
            for title, t, kind in files:
                name = spec.name if len(files) == 1 else f"{spec.name}__{_slug(title)}"
                gen = _local_schema(name, spec.name, title, kind, spec.path, t)
                local.append((_finish(home, gen, spec), t))
        if cfg.structured_documents and store is not None:
            for info, t in document_tables(store):
                name = f"doc_{content_hash(info['chunk_id'], length=10)}"
                title = t.caption or (info["section_path"][-1] if info["section_path"] else "表格")
                gen = _local_schema(name, info["title"], title, "document", info["doc_path"], t, info)
                schema = _finish(home, gen, None)
                local.append((replace(schema, doc={**info, "row_chunks": _row_chunks(schema, info, t, cfg.table_header_gloss)}), t))
        for schema, t in local:
            _load_local(con, schema, t)
        names = {s.name for s, _ in local}
        for (old,) in con.execute("SELECT name FROM _zhiku_tables").fetchall():
            if old not in names:
                con.execute(f"DROP TABLE IF EXISTS {_quote(old)}")
                con.execute("DELETE FROM _zhiku_tables WHERE name = ?", (old,))
        con.commit()
        cat.tables += [s for s, _ in local]
    finally:
        con.close()
    return cat


_cache: weakref.WeakKeyDictionary[Any, tuple[Any, Catalog]] = weakref.WeakKeyDictionary()
_lock = threading.Lock()
_building = threading.Lock()  # one build at a time: concurrent first asks wait for it


def catalog_for(kb: Any) -> Catalog:
    """The catalog of a knowledge base, rebuilt only when the index was republished, a
    source file or a schema file changed, or the config changed.

    Raises:
        ZhikuError: as :func:`build_catalog`.
    """
    with _building:
        return _catalog(kb)


def _catalog(kb: Any) -> Catalog:
    cfg = kb.config
    gen = kb.generation()  # re-reads the published state
    files = [Path(s.path) for s in cfg.structured_sources if s.path]
    files += [Path(s.url.split("///", 1)[-1]) for s in cfg.structured_sources if s.url.startswith("sqlite")]
    sdir = Path(cfg.home) / "structured" / "schemas"
    schemas = sorted(sdir.glob("*.json")) if sdir.is_dir() else []
    finger = (gen, cfg.model_dump_json(),
              tuple((str(p), p.stat().st_mtime_ns if p.exists() else 0) for p in files + schemas))
    with _lock:
        hit = _cache.get(kb)
        if hit is not None and hit[0] == finger:
            return hit[1]
    cat = build_catalog(cfg, kb.store)
    schemas = sorted(sdir.glob("*.json")) if sdir.is_dir() else []
    finger = finger[:2] + (tuple((str(p), p.stat().st_mtime_ns if p.exists() else 0)
                                 for p in files + schemas),)
    with _lock:
        _cache[kb] = (finger, cat)
    return cat


def row_dicts(rows: Rows) -> list[dict[str, Any]]:
    """Rows as dicts keyed by column name."""
    return [dict(zip(rows.columns, r)) for r in rows.rows]
