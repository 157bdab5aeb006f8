"""Only one validated, row-limited SELECT ever runs, on a read-only connection, with a timeout.

Checks (sqlglot): exactly one statement; a SELECT (or UNION of SELECTs) at the top; no
DDL/DML/PRAGMA/ATTACH/SELECT INTO anywhere; no function that reads files, loads code or
sleeps; only the allowed tables. Then a LIMIT no larger than the row limit is set.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError

from zhiku.errors import ZhikuError

_FORBIDDEN_NODES = tuple(getattr(exp, n) for n in (
    "Insert", "Update", "Delete", "Drop", "Create", "Alter", "Command", "Merge", "TruncateTable",
    "Pragma", "Attach", "Detach", "Transaction", "Commit", "Rollback", "Set", "Use", "Copy",
    "Into", "LoadData", "Grant", "Revoke", "Analyze", "Refresh", "Cache", "Uncache",
) if hasattr(exp, n))
# functions that touch files, load code, reach the network or stall the server
_FORBIDDEN_FUNCS = frozenset("""
load_extension readfile writefile edit fts3_tokenizer zipfile sqlar_compress sqlar_uncompress
pg_read_file pg_read_binary_file pg_ls_dir pg_stat_file lo_import lo_export lo_get dblink
dblink_exec pg_sleep sleep benchmark load_file xp_cmdshell openrowset opendatasource
openquery bulk randomblob zeroblob current_setting set_config pg_terminate_backend
query_to_xml utl_http utl_file dbms_pipe copy
""".split())


class SQLRejected(ZhikuError):
    """A statement failed validation; the message says which rule it broke."""


@dataclass(frozen=True)
class Rows:
    """What a query returned: column names and rows (at most the limit)."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    sql: str


def validate(sql: str, tables: Iterable[str], limit: int, dialect: str = "sqlite") -> str:
    """Check one statement and return it with a LIMIT of at most ``limit`` rows.

    Args:
        sql: the statement (from the rule parser or a model).
        tables: table names it may read.
        limit: the row limit.
        dialect: sqlglot dialect of the database.

    Returns:
        The statement as it will run.

    Raises:
        SQLRejected: it does not parse, is several statements, is not a SELECT, writes,
            calls a forbidden function or reads another table.
    """
    try:
        trees = [t for t in sqlglot.parse(sql, read=dialect) if t is not None]
    except (ParseError, sqlglot.errors.TokenError) as e:
        raise SQLRejected(f"the SQL does not parse: {str(e).splitlines()[0][:120]}") from None
    if len(trees) != 1:
        raise SQLRejected(f"only one statement may run, got {len(trees)}")
    tree = trees[0]
    if not isinstance(tree, (exp.Select, exp.Union, exp.Intersect, exp.Except)):
        raise SQLRejected(f"only SELECT may run, got {tree.key.upper()}")
    allowed = {t.lower() for t in tables}
    ctes = {c.alias_or_name.lower() for c in tree.find_all(exp.CTE)}
    for node in tree.walk():
        if isinstance(node, _FORBIDDEN_NODES):
            raise SQLRejected(f"{node.key.upper()} is not allowed in a query")
        if isinstance(node, exp.Func):
            name = (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()
            if name in _FORBIDDEN_FUNCS:
                raise SQLRejected(f"function {name} is not allowed")
        if isinstance(node, exp.Table) and node.name:
            if node.args.get("db") or node.args.get("catalog"):
                raise SQLRejected(f"table {node.sql(dialect)} is outside the source")
            if node.name.lower() not in allowed | ctes:
                raise SQLRejected(f"table {node.name!r} is not one of the source's tables")
    return _limited(tree, limit).sql(dialect=dialect)


def _limited(tree: exp.Expression, limit: int) -> exp.Expression:
    if isinstance(tree, exp.Select):
        cur = tree.args.get("limit")
        val = cur.expression if cur is not None else None
        if isinstance(val, exp.Literal) and val.is_int and int(val.this) <= limit:
            return tree
        return tree.limit(limit, copy=True)
    return exp.select("*").from_(tree.subquery("q")).limit(limit)


def _deadline(seconds: float) -> Callable[[], int]:
    end = time.monotonic() + seconds
    return lambda: int(time.monotonic() > end)


def run_sqlite(path: Path, sql: str, limit: int, timeout: float, params: Sequence[Any] = ()) -> Rows:
    """Run a validated statement on a SQLite file opened read-only (``mode=ro``).

    Raises:
        ZhikuError: the query ran longer than ``timeout`` seconds or the database failed.
    """
    con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout)
    try:
        return _fetch(con, sql, limit, timeout, params)
    finally:
        con.close()


def _fetch(con: Any, sql: str, limit: int, timeout: float, params: Sequence[Any] = ()) -> Rows:
    """Execute on a DB-API connection (SQLite: interrupted after ``timeout``)."""
    if isinstance(con, sqlite3.Connection):
        con.set_progress_handler(_deadline(timeout), 1000)
    try:
        cur = con.cursor()
        cur.execute(sql, tuple(params))
        rows = cur.fetchmany(limit)
        cols = tuple(d[0] for d in cur.description or ())
    except sqlite3.OperationalError as e:
        if "interrupted" in str(e):
            raise ZhikuError(f"the query ran longer than {timeout:g} s and was stopped; "
                             "ask a narrower question or raise structured_timeout") from None
        raise ZhikuError(f"the table query failed: {e}") from None
    return Rows(cols, tuple(tuple(r) for r in rows), sql)


def run_engine(engine: Any, sql: str, limit: int, timeout: float) -> Rows:
    """Run a validated statement through a SQLAlchemy engine, in a transaction that is
    always rolled back (read-only where the database supports it).

    Raises:
        ZhikuError: timeout or a database error.
    """
    import sqlalchemy as sa

    name = engine.dialect.name
    try:
        with engine.connect() as conn:
            raw = conn.connection.driver_connection
            if isinstance(raw, sqlite3.Connection):
                raw.set_progress_handler(_deadline(timeout), 1000)
            elif name == "postgresql":
                conn.exec_driver_sql("SET TRANSACTION READ ONLY")
                conn.exec_driver_sql(f"SET LOCAL statement_timeout = {int(timeout * 1000)}")
            elif name == "mysql":
                conn.exec_driver_sql(f"SET SESSION MAX_EXECUTION_TIME = {int(timeout * 1000)}")
            try:
                res = conn.exec_driver_sql(sql)
                rows = res.fetchmany(limit)
                return Rows(tuple(res.keys()), tuple(tuple(r) for r in rows), sql)
            finally:
                conn.rollback()
    except sa.exc.OperationalError as e:
        if "interrupted" in str(e) or "timeout" in str(e).lower():
            raise ZhikuError(f"the query ran longer than {timeout:g} s and was stopped; "
                             "ask a narrower question or raise structured_timeout") from None
        raise ZhikuError(f"the database query failed: {str(e.orig)[:160]}") from None
    except sa.exc.SQLAlchemyError as e:
        raise ZhikuError(f"the database query failed: {str(e)[:160]}") from None


def dialect_of(engine: Any) -> str:
    """The sqlglot dialect name of a SQLAlchemy engine."""
    return {"postgresql": "postgres", "mssql": "tsql"}.get(engine.dialect.name, engine.dialect.name)
