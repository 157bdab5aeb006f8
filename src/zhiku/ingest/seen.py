"""What each ingested file looked like (size, mtime, ctime, its sidecar's) and the document it
gave, so a later ingest skips unchanged files without reading them."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from zhiku import __version__

# A file changed this recently may change again within its file system's timestamp
# granularity without its mtime moving (the "racy" case of git's index): it is not recorded,
# so the next ingest reads it again.
RACY_NS = 2_000_000_000


def signature(file: Path) -> str | None:
    """The file's and its ``.meta.toml`` sidecar's size, mtime and ctime, and the zhiku
    version that read it (another version's loaders may read it differently); None:
    unreadable."""
    try:
        st = file.stat()
    except OSError:
        return None
    sig = f"{__version__};{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"
    try:
        side = file.with_name(file.name + ".meta.toml").stat()
        sig += f"|{side.st_size}:{side.st_mtime_ns}:{side.st_ctime_ns}"
    except OSError:
        pass
    return sig


def settled(sig: str | None, read_ns: int) -> str | None:
    """``sig`` if it may be recorded: None when the file (or its sidecar) was modified
    less than :data:`RACY_NS` before it was read at ``read_ns``."""
    if sig is None:
        return None
    stats = sig.split(";", 1)[1]
    racy = any(read_ns - int(part.split(":")[1]) < RACY_NS for part in stats.split("|"))
    return None if racy else sig


class SeenFiles:
    """``$ZHIKU_HOME/files.sqlite``: (root, path) → signature and document id.

    A record only ever lets a file be skipped when the document it names is still stored,
    in force at that path and with the groups the current rules give it; anything else,
    or a different signature, and the file is read and hashed as before.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._rows: dict[tuple[str, str], tuple[str, str]] | None = None

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        con = sqlite3.connect(self.path)
        con.execute("CREATE TABLE IF NOT EXISTS files (root TEXT, path TEXT, sig TEXT, doc_id TEXT, "
                    "PRIMARY KEY (root, path))")
        return con

    def _load(self) -> dict[tuple[str, str], tuple[str, str]]:
        if self._rows is None:
            self._rows = {}
            if self.path.is_file():
                con = self._connect()
                try:
                    self._rows = {(r, p): (s, d) for r, p, s, d in con.execute("SELECT * FROM files")}
                finally:
                    con.close()
        return self._rows

    def unchanged(self, root: str, rel: str, sig: str | None, docs: Mapping[str, Any],
                  groups: Callable[[str, Mapping[str, Any]], tuple[str, ...]]) -> bool:
        """Whether the file at ``rel`` under ``root`` is known unchanged without reading it.

        Args:
            root: the resolved folder it was found under.
            rel: its path relative to ``root`` (the stored document path).
            sig: its :func:`signature` now.
            docs: the stored documents by id.
            groups: the groups the current rules give a document (path, metadata).
        """
        got = self._load().get((root, rel))
        if got is None or sig is None or got[0] != sig:
            return False
        d = docs.get(got[1])
        return (d is not None and not d.deleted and rel in (d.path, *d.aliases)
                and tuple(d.groups) == tuple(groups(rel, d.metadata)))

    def record(self, entries: Iterable[tuple[str, str, str | None, str]]) -> None:
        """Remember (root, path, signature, document id) of files whose documents are
        stored now (call after the ingest published them); those without a signature
        (unreadable, or not :func:`settled`) are left out."""
        rows = [(r, p, s, d) for r, p, s, d in entries if s is not None]
        if not rows:
            return
        con = self._connect()
        try:
            with con:
                con.executemany("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?)", rows)
        finally:
            con.close()
        self._rows = None
