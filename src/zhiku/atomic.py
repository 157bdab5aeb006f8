"""Files written whole or not at all, safe when several threads or processes write one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_text(path: Path, text: str, durable: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file of its own in the same folder,
    renamed over ``path``: readers see the old or the new file, never a part, and two
    writers never share (or rename away) each other's temporary file.

    Args:
        path: the file to write.
        text: its new content.
        durable: flush it to disk before the rename (an index manifest survives a power cut).

    Raises:
        OSError: the folder cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
