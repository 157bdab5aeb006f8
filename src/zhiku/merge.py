"""Deferred index merges: the rows a small re-ingest publishes outside the keyword and scalar
indexes (searchable at once, searched exactly) are folded into them off the ask path."""

from __future__ import annotations

import fcntl
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from zhiku.errors import BusyError
from zhiku.progress import Progress, as_progress
from zhiku.writer import MERGE, WriterLock, pid_alive

LOG = "merge.log"  # what the background merges of a home did, under ZHIKU_HOME
GIVE_UP = 3600.0  # seconds a background merge waits for a quiet moment before leaving it to the next


def merge(kb: Any, progress: bool | Progress = False) -> int:
    """Fold the rows waiting outside the indexes into them now, in one published
    transaction (readers keep the previous state until it ends). The caller holds the
    writer lock (see :mod:`zhiku.writer`).

    Returns:
        How many chunks were waiting (0: the indexes covered every row).
    """
    if not kb.store.unindexed_rows():
        return 0
    with as_progress(progress).phase("merging indexes"), kb.store.transaction():
        return kb.store.merge_indexes()


def spawn(home: Path, config_file: str | None = None) -> int:
    """Start ``zhiku merge --background`` for ``home`` as a detached process (it outlives
    the command that wrote; its output goes to ``$ZHIKU_HOME/merge.log``).

    Returns:
        Its process id.
    """
    cmd = [sys.executable, "-m", "zhiku.cli", "--home", str(home),
           *(["--config", config_file] if config_file else []), "merge", "--background"]
    with open(Path(home) / LOG, "ab") as log:
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             start_new_session=True, close_fds=True)
    return p.pid


def background(kb: Any, delay: float) -> int:
    """Merge once no writer has held the writer lock for ``delay`` seconds (a script
    re-ingesting file after file is merged once, after its last file), holding the lock
    as :data:`~zhiku.writer.MERGE` meanwhile: writers that start then wait for it
    instead of failing. Only one background merge of a home waits at a time; a later one
    leaves the work to it.

    Returns:
        How many chunks were merged (0: another merge waits, or nothing was waiting).
    """
    home = Path(kb.config.home)
    mine = open(home / "merge.lock", "a+", encoding="utf-8")
    try:
        fcntl.flock(mine, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        mine.close()
        return 0
    mine.truncate(0)
    mine.write(f"pid {os.getpid()}")
    mine.flush()
    lock, deadline = WriterLock(home), time.monotonic() + GIVE_UP
    try:
        while time.monotonic() < deadline:
            quiet = time.time() - _last_write(lock.path)
            if quiet < delay:
                time.sleep(delay - quiet)
                continue
            try:
                lock.acquire(MERGE)
            except BusyError:  # a writer is at work: wait for it to end, then be quiet
                time.sleep(max(delay, 0.2))
                continue
            try:
                return merge(kb)
            finally:
                lock.release()
        return 0
    finally:
        mine.truncate(0)
        fcntl.flock(mine, fcntl.LOCK_UN)
        mine.close()


def _last_write(path: Path) -> float:
    """When a writer last took or left the lock (it rewrites the lock file each time)."""
    try:
        return path.stat().st_mtime
    except FileNotFoundError:
        return 0.0


def state(kb: Any) -> tuple[int, str]:
    """Rows waiting for an index merge and what is happening to them, for ``zhiku status``."""
    waiting = kb.store.unindexed_rows()
    home = Path(kb.config.home)
    holder = WriterLock(home).holder() or ""
    if holder.startswith(MERGE):
        return waiting, f"merging now ({holder[len(MERGE):].strip()})"
    if not waiting:
        return 0, "none waiting: the indexes cover every row"
    try:
        pid = (home / "merge.lock").read_text(encoding="utf-8").strip()
    except OSError:
        pid = ""
    m = re.fullmatch(r"pid (\d+)", pid)  # what :func:`background` writes into it
    if m and pid_alive(int(m.group(1))):
        return waiting, f"searched exactly until the background merge ({pid}) folds them in"
    return waiting, "searched exactly; no merge scheduled: `zhiku merge` folds them in now"

