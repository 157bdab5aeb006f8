"""Publishing helpers of the Milvus store: one writer at a time, and how long superseded
generations stay readable."""

from __future__ import annotations

import fcntl
import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.index.milvus_conn import MilvusTarget

LEASE_SECONDS = 3600  # a remote writer's lock expires if its process died
GRACE = 60.0  # seconds a superseded generation stays readable for readers still on it


@contextmanager
def writer_lock(c: Any, target: MilvusTarget, owner: str) -> Iterator[bool]:
    """Hold the write lock of a knowledge base: a file lock beside a Milvus Lite file, a
    lease row in the ``meta`` collection on a server (re-read after writing to see who won).

    Yields:
        Whether an expired lease was found (its writer died: roll back its rows).

    Raises:
        ZhikuError: another writer holds the lock.
    """
    busy = ZhikuError(f"another zhiku process is writing {target.label}; wait for it to finish")
    if target.is_lite:
        f = open(target.uri + ".lock", "w")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            f.close()
            raise busy from None
        try:
            yield False
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)
            f.close()
        return
    meta = f"{target.prefix}_meta"

    def holder() -> dict | None:
        rows = c.query(meta, filter='key == "lock"', output_fields=["value"])
        return json.loads(rows[0]["value"]) if rows else None

    held = holder()
    if held and held["owner"] != owner and held["until"] > time.time():
        raise busy
    lease = {"owner": owner, "until": time.time() + LEASE_SECONDS, "pid": os.getpid()}
    c.upsert(meta, [{"key": "lock", "gen": 0, "value": json.dumps(lease), "_v": [1.0, 0.0]}])
    time.sleep(0.2)
    if (holder() or {}).get("owner") != owner:
        raise busy
    try:
        yield bool(held)
    finally:
        c.delete(meta, filter='key == "lock"')


def is_io_error(e: BaseException) -> bool:
    """Whether ``e`` is the storage failing (disk, network, server), not a caller's bug."""
    from pymilvus.exceptions import MilvusException

    return isinstance(e, (OSError, RuntimeError, MilvusException)) and not isinstance(e, ZhikuError)


def recent_floor(manifest: dict[str, Any], published: int) -> int:
    """The oldest generation published within the last GRACE seconds."""
    recent = [e[0] for e in manifest.get("published", []) if e[1] >= time.time() - GRACE]
    return min([*recent, published])
