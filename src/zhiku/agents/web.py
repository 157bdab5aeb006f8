"""Web search, second to the documents: a provider interface with HTTP providers for a
SearXNG-style and a Tavily-style JSON API, and the labelled web part of an answer."""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence
from typing import Any, Protocol

from zhiku.errors import ZhikuError
from zhiku.registry import Choice, Registry
from zhiku.types import WebSource
from zhiku.verify.citations import support

WEB_NOTE = "以下内容来自网络搜索，不是知识库中的文件，请自行核实："
_SENT = re.compile(r"[^。！？!?\n]+[。！？!?]?")


class WebProvider(Choice):
    """Which web search API ``web_url`` speaks."""

    SEARXNG = "searxng"
    TAVILY = "tavily"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "web_provider"


class WebError(ZhikuError):
    """The web search endpoint could not be reached or answered badly."""


class WebSearch(Protocol):
    """Finds web pages for a query."""

    def search(self, query: str, n: int) -> list[WebSource]:
        """Up to ``n`` results, best first, numbered W1, W2, …"""
        ...


web_providers: Registry[WebSearch] = Registry("web provider")


def _fetch(req: urllib.request.Request, timeout: float) -> Any:
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:  # noqa: S310 - configured URL
            return json.loads(resp.read().decode("utf-8"))
    except (urllib.error.URLError, OSError, ValueError) as e:
        raise WebError(f"web search at {req.full_url.split('?')[0]} failed: {e}; "
                       "check web_url or turn web_search off") from e


def _sources(items: Sequence[dict[str, Any]], n: int) -> list[WebSource]:
    out = []
    for it in items:
        text = str(it.get("content") or it.get("snippet") or "").strip()
        url = str(it.get("url") or "")
        if text and url:
            out.append(WebSource(f"W{len(out) + 1}", str(it.get("title") or url), url, text))
        if len(out) >= n:
            break
    return out


class HTTPSearch:
    """A JSON search API over HTTP: SearXNG (``GET ?q=…&format=json``, ``results[].content``)
    or Tavily (``POST {query, max_results}`` with the key, ``results[].content``)."""

    def __init__(self, cfg: Any, provider: WebProvider) -> None:
        if not cfg.web_url:
            raise ZhikuError("web_search is on but web_url is empty; set web_url to the search "
                             "endpoint (e.g. http://127.0.0.1:8888/search) or turn web_search off")
        self.url, self.provider, self.timeout = cfg.web_url, provider, cfg.web_timeout
        self.key_env = cfg.web_api_key_env

    def search(self, query: str, n: int) -> list[WebSource]:
        """Up to ``n`` results for ``query``.

        Raises:
            WebError: the endpoint failed or answered something else than JSON results.
        """
        if self.provider is WebProvider.SEARXNG:
            sep = "&" if "?" in self.url else "?"
            req = urllib.request.Request(
                f"{self.url}{sep}{urllib.parse.urlencode({'q': query, 'format': 'json'})}",
                headers={"Accept": "application/json"})
        else:
            body = {"query": query, "max_results": n, "api_key": os.environ.get(self.key_env, "")}
            req = urllib.request.Request(self.url, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json",
                                                  "Authorization": f"Bearer {body['api_key']}"})
        data = _fetch(req, self.timeout)
        items = data.get("results") if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise WebError(f"web search at {self.url} answered without a results list; "
                           f"is web_provider ({self.provider.value}) right?")
        return _sources([i for i in items if isinstance(i, dict)], n)


@web_providers.register("searxng")
def _searxng(cfg: Any) -> WebSearch:
    return HTTPSearch(cfg, WebProvider.SEARXNG)


@web_providers.register("tavily")
def _tavily(cfg: Any) -> WebSearch:
    return HTTPSearch(cfg, WebProvider.TAVILY)


def web_text(question: str, sources: Sequence[WebSource], max_sentences: int = 3) -> str:
    """The web part of an answer: a label, then snippet sentences each cited ``[Wn]``.

    Only sentences taken verbatim from a snippet are used, so each is supported by the
    source it cites (checked with the same bigram support as knowledge-base citations).

    Args:
        question: the question (sentences sharing its words come first).
        sources: the web results.
        max_sentences: most sentences used.

    Returns:
        The labelled text, or "" when no snippet has a usable sentence.
    """
    picked: list[tuple[float, str, str]] = []
    for s in sources:
        for sent in _SENT.findall(s.snippet):
            sent = sent.strip()
            if len(sent) >= 6 and support(sent, s.snippet) >= 0.99:
                picked.append((support(question, sent), sent, s.marker))
    picked.sort(key=lambda p: -p[0])
    lines = [f"{sent.rstrip('。！？!?')}[{m}]。" for _, sent, m in picked[:max_sentences]]
    return WEB_NOTE + "\n" + "".join(lines) if lines else ""
