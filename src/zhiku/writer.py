"""The one writer of a knowledge base: a file lock under ``ZHIKU_HOME`` that the CLI's
writing commands and the server's ingest jobs take for their whole run, so a CLI ingest
during a server upload (or the reverse) is refused at once instead of interleaving."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from zhiku.errors import BusyError, ZhikuError


class WriterLock:
    """The lock file ``writer.lock`` of one knowledge base (held by at most one process,
    and within it by one holder at a time)."""

    def __init__(self, home: Path) -> None:
        self.path = Path(home) / "writer.lock"
        self._f: IO[str] | None = None

    def acquire(self, who: str) -> None:
        """Take the lock without waiting.

        Args:
            who: what is writing, for the message another writer gets.

        Raises:
            BusyError: another command or server job holds it.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            f = open(self.path, "a+", encoding="utf-8")
        except OSError as e:
            raise ZhikuError(f"cannot open {self.path}: {e.strerror}; choose a writable ZHIKU_HOME") from e
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.seek(0)
            holder = f.read().strip() or "another zhiku process"
            f.close()
            raise BusyError(f"{holder} is writing the knowledge base at {self.path.parent}; "
                            "wait for it to finish and retry (nothing was changed)") from None
        f.seek(0)
        f.truncate()
        f.write(f"{who} (pid {os.getpid()})")
        f.flush()
        self._f = f

    def release(self) -> None:
        """Let the next writer in."""
        if self._f is not None:
            self._f.seek(0)
            self._f.truncate()
            fcntl.flock(self._f, fcntl.LOCK_UN)
            self._f.close()
            self._f = None


@contextmanager
def writing(home: Path, who: str) -> Iterator[None]:
    """Hold the knowledge base's writer lock for a block.

    Raises:
        BusyError: another writer holds it.
    """
    lock = WriterLock(home)
    lock.acquire(who)
    try:
        yield
    finally:
        lock.release()
