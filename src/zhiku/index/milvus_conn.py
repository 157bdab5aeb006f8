"""Milvus connection and schemas: where the server is (a cluster URI or a Milvus Lite file),
the collections a knowledge base uses, and how segmented tokens reach Milvus's BM25."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from zhiku.errors import ZhikuError

VARCHAR_MAX = 65535  # bytes: Milvus's limit for one VARCHAR value
PIECE = 20000  # characters per piece of a long JSON value (3 bytes per CJK character)
_HANGUL = 11172  # precomposed Hangul syllables U+AC00..U+D7A3
MAX_TOKENS = VARCHAR_MAX // 10  # 9-byte keys and a space
CONSISTENCY = ("Strong", "Bounded", "Session", "Eventually")
_PARAMS = ("db", "token_env", "consistency", "prefix", "tls", "ca", "index")


@dataclass(frozen=True)
class MilvusTarget:
    """Where a knowledge base lives in Milvus.

    ``uri`` is what ``MilvusClient`` takes (``http(s)://host:port`` or a Lite file);
    ``prefix`` starts every collection name, so several knowledge bases share a database.
    """

    uri: str
    token: str = ""
    db: str = ""
    consistency: str = "Strong"
    prefix: str = "zhiku"
    ca: str = ""
    index: str = "FLAT"

    @property
    def is_lite(self) -> bool:
        """Whether this is a Milvus Lite file (in-process, one writer at a time)."""
        return not self.uri.startswith(("http://", "https://"))

    @property
    def label(self) -> str:
        """The place in error messages (never the token)."""
        return self.uri + (f" (database {self.db})" if self.db else "")

    @classmethod
    def lite_file(cls, path: Path) -> MilvusTarget:
        """A Milvus Lite file with the default settings."""
        return cls(uri=str(path))


def parse_milvus(value: str, home: Path, vector_index: str = "ivf_hnsw_sq") -> MilvusTarget:
    """Parse ``milvus://host:port?...``, ``milvus+tls://host:port?...`` or
    ``milvus-lite:///path/x.db``.

    Query parameters: ``db`` (database), ``token_env`` (environment variable holding
    ``user:password`` or an API key; default ``MILVUS_TOKEN``), ``consistency`` (Strong,
    Bounded, Session, Eventually; default Strong), ``prefix`` (collection name prefix;
    default ``zhiku``), ``tls=1`` and ``ca=/path/ca.pem`` (TLS), ``index`` (dense index
    type; default FLAT on Lite, which is for small data, and on a server the config's
    ``vector_index`` as Milvus names it: FLAT, HNSW, IVF_SQ8 or IVF_PQ).

    Raises:
        ZhikuError: a bad parameter or a missing host.
    """
    u = urlsplit(value)
    q = {k: v[-1] for k, v in parse_qs(u.query).items()}
    bad = sorted(set(q) - set(_PARAMS))
    if bad:
        raise ZhikuError(f"unknown Milvus store parameter {bad[0]!r} in {value!r}; "
                         f"valid ones: {', '.join(_PARAMS)}")
    consistency = q.get("consistency", "Strong").capitalize()
    if consistency not in CONSISTENCY:
        raise ZhikuError(f"unknown Milvus consistency level {q['consistency']!r}; "
                         f"choose one of: {', '.join(CONSISTENCY)}")
    prefix = q.get("prefix", "zhiku")
    if not prefix.replace("_", "").isalnum() or prefix[0].isdigit():
        raise ZhikuError(f"Milvus collection prefix {prefix!r} must be letters, digits and _ "
                         "and start with a letter")
    common = dict(consistency=consistency, prefix=prefix, db=q.get("db", ""))
    if u.scheme == "milvus-lite":
        path = Path((u.netloc + u.path) or "index.db").expanduser()
        path = path if path.is_absolute() else home / path
        return MilvusTarget(uri=str(path), index=q.get("index", "FLAT"), **common)
    if not u.hostname:
        raise ZhikuError(f"the Milvus URI {value!r} names no host; write milvus://host:19530")
    tls = u.scheme == "milvus+tls" or q.get("tls", "") in ("1", "true", "yes")
    uri = f"{'https' if tls else 'http'}://{u.hostname}:{u.port or 19530}"
    token = os.environ.get(q.get("token_env", "MILVUS_TOKEN"), "")
    return MilvusTarget(uri=uri, token=token, ca=q.get("ca", ""),
                        index=q.get("index", DENSE[vector_index]), **common)


_CLIENTS: dict[MilvusTarget, Any] = {}


def client(target: MilvusTarget) -> Any:
    """A ``MilvusClient`` for ``target`` (one per target and process).

    Raises:
        ZhikuError: pymilvus is not installed, or the server cannot be reached.
    """
    if target in _CLIENTS:
        return _CLIENTS[target]
    try:
        from pymilvus import MilvusClient
    except ImportError:
        raise ZhikuError("the Milvus store needs pymilvus (and milvus-lite for a local file); "
                         "install them with: pip install 'zhiku[milvus]'") from None
    kw: dict[str, Any] = {"uri": target.uri}
    if target.is_lite:
        Path(target.uri).parent.mkdir(parents=True, exist_ok=True)
        # the in-process server drops clients that ping while idle ("too_many_pings")
        kw["grpc_options"] = {"grpc.keepalive_time_ms": 600_000,
                              "grpc.keepalive_permit_without_calls": False}
    else:
        kw.update(token=target.token, timeout=30)
        if target.ca:
            kw["server_pem_path"] = target.ca
    if target.db:
        kw["db_name"] = target.db
    try:
        c = MilvusClient(**kw)
    except Exception as e:  # pymilvus raises MilvusException, grpc errors, OSError
        raise ZhikuError(f"cannot reach Milvus at {target.label} ({str(e)[:160]}); check the URI, "
                         "that the server is up, the token and TLS settings") from e
    _CLIENTS[target] = c
    return c


def release(target: MilvusTarget) -> None:
    """Close this process's client of ``target`` (a Milvus Lite file can then be opened by
    another process: Lite serves one process at a time)."""
    c = _CLIENTS.pop(target, None)
    if c is not None:
        c.close()
    if target.is_lite and not any(t.uri == target.uri for t in _CLIENTS):
        from milvus_lite.server_manager import server_manager_instance

        server_manager_instance.release_server(target.uri)


def token_key(token: str) -> str:
    """The form a segmented token takes in Milvus: three Hangul syllables spelling 40 bits
    of its BLAKE2b hash (9 UTF-8 bytes).

    Milvus's ``standard`` tokenizer (the one every Milvus, Lite included, has) keeps such a
    word whole and never splits or merges it with others, so BM25 sees exactly zhiku's
    segmentation on every Milvus deployment. Hangul is used because it packs 13.4 bits per
    3-byte character, keeping long chunks under the VARCHAR limit.
    """
    n = int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=5).digest(), "big")
    out = []
    for _ in range(3):
        n, r = divmod(n, _HANGUL)
        out.append(chr(0xAC00 + r))
    return "".join(out)


def encode_seg(seg: str) -> str:
    """A segmented text (space-separated tokens) as token keys for the BM25 field; a text
    of more than :data:`MAX_TOKENS` tokens keeps its first ones (Milvus's VARCHAR limit)."""
    return " ".join(token_key(t) for t in seg.split()[:MAX_TOKENS])


def pieces(text: str) -> list[str]:
    """``text`` cut into VARCHAR-sized pieces (for long JSON such as a document's sections)."""
    return [text[i:i + PIECE] for i in range(0, len(text), PIECE)] or [""]


def check_size(field: str, value: str, where: str) -> None:
    """Refuse a value longer than a Milvus VARCHAR.

    Raises:
        ZhikuError: too long; says which chunk and what to do.
    """
    if len(value.encode("utf-8")) > VARCHAR_MAX:
        raise ZhikuError(f"the {field} of {where} is longer than Milvus's {VARCHAR_MAX}-byte limit; "
                         "lower chunk_size / parent_size for this kind of file")


def schemas(dim: int) -> dict[str, Any]:
    """Collection schemas (without names): chunks (BM25 over token keys, sub-index as
    partition key), documents (one row per document state), meta (manifest, term
    statistics), vectors (dense, cosine). Every row carries the generation ``gen`` that
    wrote it; readers see rows up to the published generation only."""
    from pymilvus import DataType, Function, FunctionType, MilvusClient

    def base(pk: str) -> Any:
        s = MilvusClient.create_schema(auto_id=False, enable_dynamic_field=False)
        s.add_field(pk, DataType.VARCHAR, is_primary=True, max_length=256)
        s.add_field("gen", DataType.INT64)
        return s

    def text(s: Any, name: str, **kw: Any) -> None:
        s.add_field(name, DataType.VARCHAR, max_length=VARCHAR_MAX, nullable=True, **kw)

    def strs(s: Any, name: str) -> None:
        s.add_field(name, DataType.ARRAY, element_type=DataType.VARCHAR, max_capacity=4096,
                    max_length=VARCHAR_MAX)

    def groups(s: Any) -> None:  # who may read the row (zhiku.access)
        s.add_field("groups", DataType.ARRAY, element_type=DataType.VARCHAR, max_capacity=256,
                    max_length=64)

    ch = base("id")
    ch.add_field("subindex", DataType.VARCHAR, max_length=512, is_partition_key=True)
    for f in ("doc_id", "doc_path", "title", "section_id", "article", "text", "seg",
              "version_date", "kind", "parent_id"):
        text(ch, f)
    text(ch, "seg_keys", enable_analyzer=True, analyzer_params={"tokenizer": "standard"})
    strs(ch, "section_path")
    strs(ch, "section_ids")
    groups(ch)
    for f in ("start", "end", "page"):
        ch.add_field(f, DataType.INT64, nullable=f == "page")
    ch.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
    ch.add_function(Function(name="bm25", function_type=FunctionType.BM25,
                             input_field_names=["seg_keys"], output_field_names=["sparse"]))

    docs = base("key")
    for f in ("doc_id", "path", "title", "version_date", "subindex", "metadata", "law_key",
              "effective", "expiry", "supersedes", "superseded_by", "source_root", "deleted"):
        text(docs, f)
    strs(docs, "aliases")
    strs(docs, "sections")
    groups(docs)
    docs.add_field("n_chunks", DataType.INT64)
    docs.add_field("dropped", DataType.BOOL)
    docs.add_field("_v", DataType.FLOAT_VECTOR, dim=2)  # Milvus needs a vector field

    meta = base("key")
    text(meta, "value")
    meta.add_field("_v", DataType.FLOAT_VECTOR, dim=2)

    vec = base("id")
    vec.add_field("subindex", DataType.VARCHAR, max_length=512, is_partition_key=True)
    for f in ("doc_id", "article", "section_id", "version_date"):
        text(vec, f)
    strs(vec, "section_ids")
    groups(vec)
    vec.add_field("vector", DataType.FLOAT_VECTOR, dim=dim)
    return {"chunks": ch, "documents": docs, "meta": meta, "vectors": vec}


def create(client_: Any, name: str, schema: Any, kind: str, target: MilvusTarget) -> None:
    """Create and load a collection with its index (without waiting on index-build polls,
    which Milvus Lite cannot answer; a new collection has nothing to build yet)."""
    client_.create_collection(name, schema=schema, consistency_level=target.consistency)
    client_.create_index(name, index_params(client_, kind, target.index), sync=False)
    client_.load_collection(name)


# Fields queries filter or look documents up by (ids are primary keys, sub-indexes
# partition keys: both indexed already).
SCALAR = {"chunks": ("doc_id", "kind"), "vectors": ("doc_id",), "documents": ("doc_id",)}
# The dense index each vector index choice of the config maps to (when the URI names none).
DENSE = {"flat": "FLAT", "ivf_hnsw_sq": "HNSW", "ivf_sq": "IVF_SQ8", "ivf_pq": "IVF_PQ"}


def index_params(client_: Any, kind: str, dense_index: str) -> Any:
    """Indexes of one collection: BM25 (k1=1.2, b=0.75, as LanceDB) on chunks, cosine on
    vectors, scalar indexes on the filtered fields."""
    ip = client_.prepare_index_params()
    if kind == "chunks":
        ip.add_index("sparse", index_type="SPARSE_INVERTED_INDEX", metric_type="BM25",
                     params={"bm25_k1": 1.2, "bm25_b": 0.75})
    elif kind == "vectors":
        ip.add_index("vector", index_type=dense_index, metric_type="COSINE")
    else:
        ip.add_index("_v", index_type="FLAT", metric_type="L2")
    for f in SCALAR.get(kind, ()):  # INVERTED: the scalar index both Lite and a server build
        ip.add_index(f, index_type="INVERTED")
    return ip
