"""One client for any OpenAI-compatible chat endpoint (OpenAI, DeepSeek, Qwen/DashScope,
Ollama ``/v1``, vLLM, llama.cpp server), configured per role."""

from __future__ import annotations

import json
import os
import re
import socket
import threading
from pathlib import Path
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from zhiku.errors import ZhikuError
from zhiku.registry import Choice

M = TypeVar("M", bound=BaseModel)
Message = dict[str, Any]


class Role(Choice):
    """What a model is used for; each role may point at its own model (a light router,
    a heavy answerer)."""

    ROUTER = "router"
    RERANKER = "reranker"
    ANSWERER = "answerer"
    JUDGE = "judge"
    REWRITER = "rewriter"
    AGENT = "agent"
    SQL = "sql"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "LLM role"


class LLMError(ZhikuError):
    """The model could not be reached, refused, or answered in an unusable form."""


@dataclass(frozen=True)
class LLMSettings:
    """Connection and sampling settings of one role."""

    model: str
    base_url: str
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.1
    max_tokens: int = 1024
    timeout: float = 60.0
    retries: int = 2
    gguf: str = ""
    gguf_ctx: int = 4096

    @property
    def api_key(self) -> str:
        """The key read from ``api_key_env`` (local servers accept any placeholder)."""
        return os.environ.get(self.api_key_env, "") or "not-needed"


_FIELDS = ("model", "base_url", "api_key_env", "temperature", "max_tokens", "timeout", "retries", "gguf",
           "gguf_ctx")


def settings_for(cfg: Any, role: Role | str) -> LLMSettings | None:
    """The settings of ``role``: the ``llm_*`` defaults overridden by ``llm_roles[role]``.

    Args:
        cfg: the zhiku Config.
        role: a :class:`Role` or its name.

    Returns:
        The settings, or None when no model is configured for the role (offline mode).

    Raises:
        ZhikuError: the role name is unknown or an override names an unknown key.
    """
    role = Role.from_str(role) if isinstance(role, str) else role
    base = {f: getattr(cfg, f"llm_{f}") for f in _FIELDS}
    extra = dict(cfg.llm_roles.get(role.value, {}))
    unknown = sorted(set(extra) - set(_FIELDS))
    if unknown:
        raise ZhikuError(f"llm_roles.{role.value} has unknown keys {unknown}; "
                         f"valid keys: {', '.join(_FIELDS)}")
    merged = {**base, **extra}
    if merged["gguf"] and not merged["model"]:
        merged["model"] = Path(merged["gguf"]).stem
    if not merged["model"]:
        return None
    return LLMSettings(**merged)


_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def parse_json(text: str) -> Any:
    """The JSON value in a model reply: bare, inside a ``` fence, or the first {...}/[...].

    Raises:
        ValueError: no JSON value can be found.
    """
    text = text.strip()
    m = _FENCE.search(text)
    candidates = [m.group(1).strip()] if m else []
    candidates.append(text)
    for opener, closer in (("{", "}"), ("[", "]")):
        i, j = text.find(opener), text.rfind(closer)
        if 0 <= i < j:
            candidates.append(text[i : j + 1])
    for c in candidates:
        try:
            return json.loads(c)
        except json.JSONDecodeError:
            continue
    raise ValueError(f"no JSON in reply: {text[:80]!r}")


class LLMClient:
    """Chat, streaming, schema-checked JSON and tool calls through the ``openai`` SDK.

    The SDK retries 408/409/429/5xx and connection errors with backoff (``retries``);
    anything still failing becomes an :class:`LLMError` naming the endpoint.
    """

    def __init__(self, settings: LLMSettings, role: str = "answerer") -> None:
        self.settings = settings
        self.role = role
        self._client: Any = None
        self._lock = threading.Lock()

    @property
    def client(self) -> Any:
        """The SDK client, created on first use."""
        with self._lock:
            if self._client is None:
                from openai import OpenAI

                s = self.settings
                base_url = local_server(s.gguf, s.gguf_ctx) if s.gguf else s.base_url
                self._client = OpenAI(base_url=base_url, api_key=s.api_key, timeout=s.timeout,
                                      max_retries=s.retries)
            return self._client

    def _call(self, messages: Sequence[Message], **kw: Any) -> Any:
        s = self.settings
        args = dict(model=s.model, messages=list(messages), temperature=s.temperature,
                    max_tokens=s.max_tokens)
        args.update(kw)
        client = self.client  # a local GGUF that cannot start raises its own LLMError here
        try:
            return client.chat.completions.create(**args)
        except Exception as e:  # the SDK's errors share no base with useful text
            raise LLMError(f"the {self.role} model {s.model} at {s.base_url} failed: "
                           f"{type(e).__name__}: {e}; check the server and llm_* settings") from e

    def chat(self, messages: Sequence[Message], **kw: Any) -> str:
        """The reply text of one completion.

        Raises:
            LLMError: the request failed or the reply is empty.
        """
        resp = self._call(messages, **kw)
        text = (resp.choices[0].message.content or "") if resp.choices else ""
        if not text.strip():
            raise LLMError(f"the {self.role} model {self.settings.model} returned an empty reply")
        return text

    def stream(self, messages: Sequence[Message], **kw: Any) -> Iterator[str]:
        """Reply text piece by piece as the server sends it.

        Raises:
            LLMError: the request failed (before or during the stream).
        """
        resp = self._call(messages, stream=True, **kw)
        try:
            for event in resp:
                if event.choices and event.choices[0].delta.content:
                    yield event.choices[0].delta.content
        except LLMError:
            raise
        except Exception as e:
            raise LLMError(f"the {self.role} model's stream broke off: {e}") from e

    def json(self, messages: Sequence[Message], schema: type[M], retries: int = 1) -> M:
        """A reply parsed as JSON and validated against ``schema``; on a malformed or
        invalid reply the error is sent back once (``retries``) for a corrected answer.

        Raises:
            LLMError: still no valid JSON after the retries.
        """
        msgs = list(messages)
        last = ""
        for _ in range(retries + 1):
            text = self.chat(msgs)
            try:
                return schema.model_validate(parse_json(text))
            except (ValueError, ValidationError) as e:
                last = str(e).splitlines()[0]
                msgs += [{"role": "assistant", "content": text},
                         {"role": "user", "content": f"上面的回复不是合法的 JSON 或不符合要求（{last}）。"
                                                     "请只输出符合要求的 JSON。"}]
        raise LLMError(f"the {self.role} model did not return valid JSON for {schema.__name__}: {last}")

    def tool_call(self, messages: Sequence[Message], tools: Sequence[dict[str, Any]]) -> Any:
        """One turn with OpenAI tool calling; returns the assistant message (with
        ``tool_calls`` when the model wants tools run).

        Raises:
            LLMError: the request failed.
        """
        resp = self._call(messages, tools=list(tools), tool_choice="auto")
        if not resp.choices:
            raise LLMError(f"the {self.role} model returned no choices")
        return resp.choices[0].message


_clients_lock = threading.Lock()
_servers: dict[tuple[str, int], Any] = {}


def local_server(gguf: str, ctx: int = 4096) -> str:
    """Serve a local GGUF model in-process with xllamacpp (llama.cpp's OpenAI-compatible
    server on 127.0.0.1) and return its ``/v1`` base URL; one server per file and context.

    Raises:
        LLMError: the file is missing, xllamacpp is not installed, or the model fails to load.
    """
    path = Path(gguf).expanduser()
    if not path.is_file():
        raise LLMError(f"the GGUF model {gguf} does not exist; set llm_gguf to a local .gguf file")
    key = (str(path.resolve()), ctx)
    with _clients_lock:
        if key not in _servers:
            try:
                import xllamacpp as xlc
            except ImportError as e:
                raise LLMError("llm_gguf needs the optional xllamacpp package: pip install 'zhiku[local]'") from e
            params = xlc.CommonParams()
            params.model.path = str(path)
            params.n_ctx = ctx
            params.hostnames = ["127.0.0.1"]
            params.verbosity = -1  # llama.cpp's per-token logs would land in `zhiku ask`'s stdout
            with socket.socket() as sock:
                sock.bind(("127.0.0.1", 0))
                params.port = sock.getsockname()[1]
            try:
                _servers[key] = xlc.Server(params)
            except Exception as e:  # llama.cpp reports load failures as plain RuntimeErrors
                raise LLMError(f"xllamacpp could not load {gguf}: {e}; is it a GGUF chat model?") from e
        return _servers[key].listening_address.rstrip("/") + "/v1"


_clients: dict[tuple[str, LLMSettings], LLMClient] = {}


def client_for(cfg: Any, role: Role | str) -> LLMClient | None:
    """The (shared) client of ``role``, or None when no model is configured for it.

    Raises:
        ZhikuError: as :func:`settings_for`.
    """
    s = settings_for(cfg, role)
    if s is None:
        return None
    key = (str(role), s)
    with _clients_lock:
        if key not in _clients:
            _clients[key] = LLMClient(s, Role.from_str(role).value if isinstance(role, str) else role.value)
        return _clients[key]
