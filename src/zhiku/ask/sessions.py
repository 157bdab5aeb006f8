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
from zhiku.errors import NotFoundError, ZhikuError

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
    # the key that created a session (a hash; '' without keys and for the CLI)
    ("002_session_owner", "ALTER TABLE sessions ADD COLUMN owner TEXT NOT NULL DEFAULT ''"),
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

    def check_owner(self, sid: str, owner: str | None) -> None:
        """Refuse a session another key created (None: any owner, the CLI).

        Raises:
            NotFoundError: the session exists and belongs to another key.
        """
        if owner is None:
            return
        with self._lock:
            row = self._db.execute("SELECT owner FROM sessions WHERE id = ?", (sid,)).fetchone()
        if row is not None and row[0] != owner:
            raise NotFoundError(f"no session {sid!r} for this key; omit session_id to start a new one")

    def history(self, sid: str, limit: int = 50, owner: str | None = None) -> list[dict[str, Any]]:
        """The last ``limit`` messages of a session, oldest first (empty if unknown).

        Raises:
            NotFoundError: ``owner`` is given and another key created the session.
        """
        self.check_owner(sid, owner)
        with self._lock:
            rows = self._db.execute(
                "SELECT role, text, answer, created FROM messages WHERE session_id = ? "
                "ORDER BY id DESC LIMIT ?", (sid, limit)).fetchall()
        return [{"role": r, "text": t, "answer": json.loads(a) if a else None, "created": c}
                for r, t, a, c in reversed(rows)]

    def add_turn(self, sid: str | None, question: str, answer: dict[str, Any], owner: str = "") -> str:
        """Store a question and its answer; creates the session (owned by ``owner``) when new.

        Returns:
            The session id (a new one when ``sid`` is None).

        Raises:
            NotFoundError: another key created the session.
        """
        sid = check_session_id(sid) if sid else uuid.uuid4().hex
        self.check_owner(sid, owner)
        now = time.time()
        with self._lock:
            self._db.execute("BEGIN")
            self._db.execute("INSERT OR IGNORE INTO sessions (id, created, owner) VALUES (?, ?, ?)",
                             (sid, now, owner))
            self._db.execute("INSERT INTO messages (session_id, role, text, answer, created) "
                             "VALUES (?, 'user', ?, NULL, ?)", (sid, question, now))
            self._db.execute("INSERT INTO messages (session_id, role, text, answer, created) "
                             "VALUES (?, 'assistant', ?, ?, ?)",
                             (sid, answer.get("answer", ""), json.dumps(answer, ensure_ascii=False), now))
            self._db.execute("COMMIT")
        return sid

    def clear(self, sid: str, owner: str | None = None) -> bool:
        """Delete a session and its messages; whether it existed.

        Raises:
            NotFoundError: ``owner`` is given and another key created the session.
        """
        self.check_owner(sid, owner)
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
