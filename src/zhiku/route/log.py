"""The routing log: every ask's route in SQLite under ``$ZHIKU_HOME`` (append-only, named
migrations), listed and filtered by ``zhiku routes`` so misroutes can be reviewed."""

from __future__ import annotations

import atexit
import datetime as dt
import json
import queue
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.migrations import apply_migrations
from zhiku.types import Route

# Append-only: never edit or reorder a migration, add a new one (simonw/llm migrations.py).
MIGRATIONS: list[tuple[str, str]] = [
    ("m001_routes", """CREATE TABLE routes (
        id INTEGER PRIMARY KEY AUTOINCREMENT, ts TEXT NOT NULL, question TEXT NOT NULL,
        tier TEXT NOT NULL, subindexes TEXT NOT NULL, chapters TEXT NOT NULL, qtype TEXT,
        confidence REAL, reason TEXT, rule TEXT, scores TEXT, seconds REAL)"""),
    ("m002_routes_index", "CREATE INDEX routes_ts ON routes (ts)"),
    # who asked: the caller's groups as JSON, NULL for a caller who sees everything
    ("m003_routes_groups", "ALTER TABLE routes ADD COLUMN groups TEXT"),
]


def log_path(cfg: Any) -> Path:
    """The routing log's file."""
    return cfg.home / "routes.sqlite"


def _connect(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(str(path), timeout=10)
        apply_migrations(db, MIGRATIONS)
        return db
    except sqlite3.Error as e:
        raise ZhikuError(f"cannot open the routing log {path}: {e}; check that ZHIKU_HOME is "
                         "writable or set route_log = false") from e


def _now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")


def record(cfg: Any, question: str, route: Route, seconds: float,
           groups: tuple[str, ...] | None = None) -> None:
    """Append one route to the log with the groups of the caller who asked, off the ask
    path: the row is queued and a background thread writes it (flushed before the process
    exits and before routes are listed).

    Args:
        cfg: the Config (``home`` names the log file).
        question: the question asked.
        route: the router's decision.
        seconds: how long routing took.
        groups: the asking caller's groups (None: a caller who sees everything).
    """
    row = (_now(), question, route.tier, json.dumps(list(route.subindexes), ensure_ascii=False),
           json.dumps(route.to_dict()["chapters"], ensure_ascii=False), route.qtype,
           route.confidence, route.reason, route.rule,
           json.dumps(route.scores, ensure_ascii=False, default=str), seconds,
           None if groups is None else json.dumps(sorted(groups), ensure_ascii=False))
    _writer().put((log_path(cfg), row))


def flush() -> None:
    """Wait until every queued route is written."""
    if _queue is not None:
        _queue.join()


_queue: queue.Queue | None = None
_qlock = threading.Lock()


def _writer() -> queue.Queue:
    global _queue
    with _qlock:
        if _queue is None:
            _queue = queue.Queue()
            threading.Thread(target=_drain, args=(_queue,), name="route-log", daemon=True).start()
            atexit.register(flush)
        return _queue


def _drain(q: queue.Queue) -> None:
    while True:
        path, row = q.get()
        try:
            _write(path, row)
        except ZhikuError as e:  # a broken log must never break an ask
            print(f"zhiku: {e}", file=sys.stderr)
        finally:
            q.task_done()


def _write(path: Path, row: tuple) -> None:
    db = _connect(path)
    try:
        with db:
            db.execute(
                "INSERT INTO routes (ts, question, tier, subindexes, chapters, qtype, confidence, "
                "reason, rule, scores, seconds, groups) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", row)
    except sqlite3.Error as e:
        raise ZhikuError(f"cannot write the routing log {path}: {e}") from e
    finally:
        db.close()


def list_routes(cfg: Any, subindex: str | None = None, tier: str | None = None,
                below: float | None = None, since: str | None = None,
                limit: int = 50, groups: tuple[str, ...] | None = None) -> list[dict[str, Any]]:
    """Logged routes, newest first, filtered.

    Args:
        cfg: the Config.
        subindex: only routes that chose this sub-index.
        tier: only routes decided by this tier (rules, embedding, llm, fallback, single).
        below: only routes with confidence under this value.
        since: only routes on or after this date (YYYY-MM-DD) or ISO time.
        limit: at most this many.
        groups: only routes asked by callers whose groups are all among these (None:
            every route); a caller never sees questions of a group it is not in.

    Returns:
        One dict per route (JSON fields decoded).
    """
    flush()
    path = log_path(cfg)
    if not path.is_file():
        return []
    where, args = [], []
    if tier:
        where.append("tier = ?")
        args.append(tier)
    if below is not None:
        where.append("confidence < ?")
        args.append(below)
    if since:
        where.append("ts >= ?")
        args.append(since)
    if groups is not None:
        where.append("groups IS NOT NULL AND NOT EXISTS (SELECT 1 FROM json_each(routes.groups) "
                     f"WHERE value NOT IN ({', '.join('?' * len(groups)) or 'NULL'}))")
        args.extend(groups)
    if subindex:
        where.append("EXISTS (SELECT 1 FROM json_each(routes.subindexes) WHERE value = ?)")
        args.append(subindex)
    sql = "SELECT * FROM routes" + (" WHERE " + " AND ".join(where) if where else "")
    db = _connect(path)
    try:
        db.row_factory = sqlite3.Row
        rows = db.execute(sql + " ORDER BY id DESC LIMIT ?", (*args, limit)).fetchall()
    finally:
        db.close()
    out = []
    for r in rows:
        d = dict(r)
        for k in ("subindexes", "chapters", "scores", "groups"):
            d[k] = json.loads(d[k]) if d[k] else None
        out.append(d)
    return out
