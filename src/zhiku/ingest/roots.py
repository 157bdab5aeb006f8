"""Which server-side paths the HTTP ingest may read: only under ``ingest_roots``, and no
file whose real location (after following symlinks) lies outside them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from zhiku.errors import ZhikuError


def _inside(path: Path, roots: Sequence[Path]) -> bool:
    return any(path == r or r in path.parents for r in roots)


def check_roots(paths: Sequence[str], roots: Sequence[Path]) -> list[str]:
    """The requested paths, if every file they lead to really lies under a root.

    Args:
        paths: files or folders on the server, as the client sent them.
        roots: the configured ``ingest_roots``.

    Returns:
        The paths, unchanged (the ingest walks them itself).

    Raises:
        ZhikuError: no roots are configured, a path is outside them, or a file under it
            is a symbolic link leading out of them.
    """
    from zhiku.ingest.files import iter_files

    if not roots:
        raise ZhikuError("server-side ingest is off; set ingest_roots in the config to the folders "
                         "/api/ingest may read, or upload the files instead")
    real = [Path(r).expanduser().resolve() for r in roots]
    shown = ", ".join(str(r) for r in real)
    for raw in paths:
        p = Path(raw).expanduser()
        if not p.is_absolute() or not _inside(p.resolve(), real):
            raise ZhikuError(f"Path {raw!r} is outside ingest_roots ({shown}); give an absolute path "
                             "under one of them or add its folder to ingest_roots.")
    for file, _ in iter_files(list(paths)):
        target = file.resolve()
        if not _inside(target, real):
            raise ZhikuError(f"File {str(file)!r} is a symbolic link to {str(target)!r} outside "
                             f"ingest_roots ({shown}); remove the link or move the file inside.")
    return list(paths)

