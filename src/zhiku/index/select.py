"""Which store backend a configuration names: ``lancedb`` (default), ``lancedb:///path``,
``milvus://host:19530``, ``milvus-lite:///path/x.db`` or a path ending in ``.db``."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from zhiku.config import Config
from zhiku.errors import ZhikuError
from zhiku.index import lancedb_store, milvus_store  # noqa: F401  (register the built-in stores)
from zhiku.index.manifest import read_manifest
from zhiku.index.milvus_conn import MilvusTarget, parse_milvus
from zhiku.index.store import stores

FORMS = "lancedb, lancedb:///path, milvus://host:19530, milvus-lite:///path/x.db or a path ending in .db"


def locate(config: Config) -> tuple[str, Any]:
    """The backend name and where its data lives, from ``config.store``.

    Args:
        config: the configuration; relative paths are relative to ``config.home``.

    Returns:
        ``("lancedb", folder)`` or ``("milvus", MilvusTarget)``; any other registered
        name is returned with ``config.store_path``.

    Raises:
        ZhikuError: the value is none of the accepted forms.
    """
    value = config.store.strip()
    scheme = urlsplit(value).scheme if "://" in value else ""
    if scheme == "lancedb":
        rest = value.split("://", 1)[1]
        return "lancedb", _under(config, rest) if rest else config.store_path
    if scheme in ("milvus", "milvus+tls", "milvus-lite"):
        return "milvus", parse_milvus(value, config.home, config.vector_index)
    if scheme:
        raise ZhikuError(f"unknown store URI scheme {scheme!r} in {value!r}; use {FORMS}")
    if value == "milvus-lite":
        return "milvus", MilvusTarget.lite_file(config.home / "index.db")
    if value.endswith(".db"):
        return "milvus", MilvusTarget.lite_file(_under(config, value))
    if value in stores.names():
        return value, config.store_path
    raise ZhikuError(f"unknown store {value!r}; use {FORMS}")


def _under(config: Config, path: str) -> Path:
    p = Path(path).expanduser()
    return p if p.is_absolute() else config.home / p


def open_store(config: Config, embedder: str | None, dim: int | None, version: str = "") -> Any:
    """Open (or create) the store ``config.store`` names.

    Args:
        config: the configuration (store, home, segmenter, the vector text recipe a new index pins).
        embedder: embedder name to pin or check; None accepts the stored one.
        dim: vector size to pin or check; None accepts the stored one.
        version: embedder version to pin or check.

    Returns:
        A backend implementing :class:`zhiku.index.protocol.Store`.

    Raises:
        ZhikuError: unknown store, unreachable server, or an index built otherwise.
    """
    from zhiku.index.vector_spec import VectorIndexSpec

    name, where = locate(config)
    store = stores.create(name, where, embedder, dim, config.segmenter, version=version,
                          vector_text=config.vector_text)
    store.vector_spec = VectorIndexSpec.from_config(config)
    return store


def peek_manifest(config: Config) -> dict[str, Any] | None:
    """The stored manifest of the configured store, or None for a new index (read without
    opening the store, so the embedder is only loaded when the index does not pin it)."""
    name, where = locate(config)
    if name == "milvus":
        from zhiku.index.milvus_store import read_milvus_manifest

        return read_milvus_manifest(where)
    return read_manifest(Path(where))
