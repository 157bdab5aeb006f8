"""Append-only, named SQLite migrations, shared by every SQLite file zhiku keeps (sessions,
answer cache, routing log): a migration is never edited or reordered, only added
(simonw/llm ``migrations.py``)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence


def apply_migrations(db: sqlite3.Connection, migrations: Sequence[tuple[str, str]]) -> None:
    """Run every migration not yet recorded in ``_migrations``, each in one transaction
    with its record.

    Args:
        db: an open connection.
        migrations: (name, SQL script) pairs, oldest first; names are constants.
    """
    db.execute("CREATE TABLE IF NOT EXISTS _migrations (name TEXT PRIMARY KEY, applied REAL)")
    done = {r[0] for r in db.execute("SELECT name FROM _migrations")}
    for name, sql in migrations:
        if name not in done:
            db.executescript(f"BEGIN; {sql}; INSERT INTO _migrations VALUES ('{name}', {time.time()}); COMMIT;")
