"""Uploaded files: safe names, allowed types, size limits, stored under ``ZHIKU_HOME/uploads``."""

from __future__ import annotations

import os
import re
import unicodedata
import uuid
from pathlib import Path
from typing import BinaryIO

from zhiku.errors import ZhikuError

DEFAULT_SUBINDEX = "uploads"
_CHUNK = 1 << 20


class TooLarge(ZhikuError):
    """An upload over the size limit."""


def safe_name(name: str, what: str = "file name") -> str:
    """A single path component made from a client-supplied name.

    Folders are dropped (``../../etc/passwd`` → ``passwd``), control, format and
    reserved characters removed; Chinese and other letters are kept.

    Raises:
        ZhikuError: nothing usable is left (empty, dots only) or the name is hidden
            (starts with a dot; folder ingests skip those).
    """
    base = re.split(r"[\\/]", name or "")[-1]
    base = unicodedata.normalize("NFC", base)
    base = "".join(ch for ch in base if unicodedata.category(ch)[0] != "C")
    base = re.sub(r'[<>:"|?*]', "_", base).strip().rstrip(". ")
    if not base or base.startswith("."):
        raise ZhikuError(f"the {what} {name!r} is not usable; give a plain name such as 员工手册.md")
    if len(base.encode()) > 200:
        stem, dot, ext = base.rpartition(".")
        base = stem.encode()[:180].decode(errors="ignore") + dot + ext
    return base


def check_type(name: str) -> str:
    """The lower-case suffix if a loader reads it.

    Raises:
        ZhikuError: the suffix is not supported; the message lists the supported ones.
    """
    from zhiku.ingest.registry import suffixes

    suffix = Path(name).suffix.lower()
    if suffix not in suffixes():
        raise ZhikuError(f"{name!r} is not a supported type; upload one of {', '.join(suffixes())}")
    return suffix


def upload_root(home: Path) -> Path:
    """The folder holding uploaded files (the ingest root of their documents)."""
    return (home / "uploads").resolve()


def save(home: Path, subindex: str, name: str, stream: BinaryIO, max_bytes: int) -> Path:
    """Copy an upload to ``home/uploads/<subindex>/<name>``, atomically, within the limit.

    Args:
        home: ``ZHIKU_HOME``.
        subindex: sub-index (folder) to file it under; sanitised like a name.
        name: the client's file name; sanitised.
        stream: the upload's bytes.
        max_bytes: the size limit.

    Returns:
        The stored file.

    Raises:
        ZhikuError: a bad name or type.
        TooLarge: more than ``max_bytes``; nothing is kept.
    """
    name = safe_name(name)
    check_type(name)
    root = upload_root(home)
    folder = root / safe_name(subindex or DEFAULT_SUBINDEX, "sub-index name")
    dest = (folder / name).resolve()
    if dest.parent != folder.resolve() or root not in dest.parents:
        raise ZhikuError(f"the file name {name!r} is not usable; give a plain name")
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{uuid.uuid4().hex}.part"
    size = 0
    try:
        with open(tmp, "wb") as out:
            while block := stream.read(_CHUNK):
                size += len(block)
                if size > max_bytes:
                    raise TooLarge(f"{name} is larger than the upload limit of {max_bytes / 2**20:g} MB; "
                                   "split it or raise upload_max_mb")
                out.write(block)
        if size == 0:
            raise ZhikuError(f"{name} is empty; upload a file with content")
        os.replace(tmp, dest)
    finally:
        tmp.unlink(missing_ok=True)
    return dest
