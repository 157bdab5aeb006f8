"""The one writer of a knowledge base: a file lock under ``ZHIKU_HOME`` that the CLI's
writing commands and the server's ingest jobs take for their whole run, so a CLI ingest
during a server upload (or the reverse) is refused at once instead of interleaving."""

from __future__ import annotations

import fcntl
import os
import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from zhiku.errors import BusyError, ZhikuError

MERGE = "the background index merge"  # the holder a writer waits for instead of failing
MERGE_WAIT = 900.0  # seconds a writer waits for a merge at most
BLANK_WAIT = 1.0  # seconds a lock held under no name is looked at again (its holder is between
# taking the lock and writing its name, or between clearing its name and letting go)


class WriterLock:
    """The lock file ``writer.lock`` of one knowledge base (held by at most one process,
    and within it by one holder at a time)."""

    def __init__(self, home: Path) -> None:
        self.path = Path(home) / "writer.lock"
        self._f: IO[str] | None = None

    def acquire(self, who: str, on_wait: Callable[[str], None] | None = None) -> None:
        """Take the lock; wait only while the background index merge holds it (it ends
        within seconds; see :mod:`zhiku.merge`).

        Args:
            who: what is writing, for the message another writer gets.
            on_wait: told the holder once when this has to wait for a merge.

        Raises:
            BusyError: another command or server job holds it (or a merge for longer
                than ``MERGE_WAIT``).
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            f = open(self.path, "a+", encoding="utf-8")
        except OSError as e:
            raise ZhikuError(f"cannot open {self.path}: {e.strerror}; choose a writable ZHIKU_HOME") from e
        deadline, told = time.monotonic() + MERGE_WAIT, False
        blank_until = time.monotonic() + BLANK_WAIT
        while True:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                f.seek(0)
                holder = f.read().strip()
            if not holder and time.monotonic() < blank_until:
                time.sleep(0.02)  # the holder is naming itself or leaving: look again
                continue
            holder = holder or "another zhiku process"
            if not holder.startswith(MERGE) or time.monotonic() > deadline:
                f.close()
                raise BusyError(f"{holder} is writing the knowledge base at {self.path.parent}; "
                                "wait for it to finish and retry (nothing was changed)")
            if on_wait and not told:
                on_wait(holder)
                told = True
            time.sleep(0.1)
        f.seek(0)
        f.truncate()
        f.write(f"{who} (pid {os.getpid()})")
        f.flush()
        self._f = f

    def holder(self) -> str | None:
        """Who holds the lock now (None: nobody), from what the holder wrote into it; read
        without locking, so a writer starting meanwhile is never refused because of it."""
        try:
            text = self.path.read_text(encoding="utf-8").strip()
        except OSError:
            return None
        m = re.search(r"\(pid (\d+)\)$", text)
        if not m:
            return None
        return text if pid_alive(int(m.group(1))) else None  # a holder killed by a signal leaves its text

    def release(self) -> None:
        """Let the next writer in."""
        if self._f is not None:
            self._f.seek(0)
            self._f.truncate()
            fcntl.flock(self._f, fcntl.LOCK_UN)
            self._f.close()
            self._f = None


def pid_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (another user's process counts as alive)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


@contextmanager
def writing(home: Path, who: str, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the knowledge base's writer lock for a block (waiting for a background index
    merge to end first; ``on_wait`` is told when it does).

    Raises:
        BusyError: another writer holds it.
    """
    lock = WriterLock(home)
    lock.acquire(who, on_wait)
    try:
        yield
    finally:
        lock.release()
