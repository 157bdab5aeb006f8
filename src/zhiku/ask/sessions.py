"""Chat sessions: questions and answers per session id, in SQLite under ``ZHIKU_HOME``."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from zhiku.migrations import apply_migrations
from zhiku.errors import ZhikuError

# Append-only, named: a migration is never edited once released.
MIGRATIONS: list[tuple[str, str]] = [
    ("001_sessions", """
        CREATE TABLE sessions (id TEXT PRIMARY KEY, created REAL NOT NULL);
        CREATE TABLE messages (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            role TEXT NOT NULL, text TEXT NOT NULL, answer TEXT, created REAL NOT NULL);
        CREATE INDEX messages_session ON messages(session_id, id);
    """),
]
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def check_session_id(sid: str) -> str:
    """Validate a client-chosen session id.

    Raises:
        ZhikuError: not 1-64 letters, digits, ``-`` or ``_``.
    """
    if not _ID.fullmatch(sid or ""):
        raise ZhikuError(f"bad session id {sid!r}; use 1-64 letters, digits, - or _ (or omit it)")
    return sid


class Sessions:
    """Conversation history. One connection guarded by a lock (writes are tiny)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._lock = threading.Lock()
        self._migrate()

    def _migrate(self) -> None:
        with self._lock:
            apply_migrations(self._db, MIGRATIONS)

    def history(self, sid: str, limit: int = 50) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a session, oldest first (empty if unknown)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT role, text, answer, created FROM messages WHERE session_id = ? "
                "ORDER BY id DESC LIMIT ?", (sid, limit)).fetchall()
        return [{"role": r, "text": t, "answer": json.loads(a) if a else None, "created": c}
                for r, t, a, c in reversed(rows)]

    def add_turn(self, sid: str | None, question: str, answer: dict[str, Any]) -> str:
        """Store a question and its answer; creates the session when new.

        Returns:
            The session id (a new one when ``sid`` is None).
        """
        sid = check_session_id(sid) if sid else uuid.uuid4().hex
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN")
            self._db.execute("INSERT OR IGNORE INTO sessions VALUES (?, ?)", (sid, now))
            self._db.execute("INSERT INTO messages (session_id, role, text, answer, created) "
                             "VALUES (?, 'user', ?, NULL, ?)", (sid, question, now))
            self._db.execute("INSERT INTO messages (session_id, role, text, answer, created) "
                             "VALUES (?, 'assistant', ?, ?, ?)",
                             (sid, answer.get("answer", ""), json.dumps(answer, ensure_ascii=False), now))
            self._db.execute("COMMIT")
        return sid

    def clear(self, sid: str) -> bool:
        """Delete a session and its messages; whether it existed."""
        with self._lock:
            cur = self._db.execute("DELETE FROM sessions WHERE id = ?", (sid,))
        return cur.rowcount > 0

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


def history_for(sessions: Sessions, sid: str | None, turns: int) -> tuple:
    """The last ``turns`` exchanges of session ``sid`` (none for a new session), which a
    follow-up is rewritten from (see :class:`zhiku.ask.query.Query`).

    Raises:
        ZhikuError: the session id is malformed.
    """
    if not sid:
        return ()
    from zhiku.ask.rewrite import history_from

    check_session_id(sid)
    return history_from(sessions.history(sid, 2 * turns), turns)
