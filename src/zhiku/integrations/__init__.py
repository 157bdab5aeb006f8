"""Retrievers for other frameworks (LangChain, Haystack): the knowledge base's search as their types."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError

FILTER_FIELDS = ("subindex", "doc", "versions")


def open_kb(home: str | Path | None, kb: Any = None):
    """The knowledge base given, or the one under ``home`` (ZHIKU_HOME when None).

    Raises:
        ZhikuError: the knowledge base cannot be opened.
    """
    if kb is not None:
        return kb
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    cfg = load_config(home=Path(home)) if home else load_config()
    if not cfg.home.exists():
        raise ZhikuError(f"there is no knowledge base at {cfg.home}; run `zhiku ingest PATH` first")
    return KnowledgeBase(cfg)


def search(kb, query: str, k: int, mode: str = "hybrid", subindex: tuple[str, ...] | list[str] = (),
           doc: str | None = None, versions: str = "current") -> list[tuple[str, dict[str, Any], float]]:
    """Ranked passages as (text, citation metadata, score): the same search as the HTTP
    ``/api/search`` and the MCP tools.

    Raises:
        ZhikuError: an empty query, a bad mode, scope or version selector.
    """
    from zhiku import library as service

    scope = service.make_scope(kb, doc, None, list(subindex), versions)
    out = []
    for h in service.search(kb, query, k, scope, mode):
        meta = service.hit_dict(h)
        text = meta.pop("text")
        c = h.chunk
        meta.update({"chapter": " › ".join(s for s in c.section_path if s), "version_date": c.version_date,
                     "citation": " › ".join([c.title or c.doc_path, *[s for s in c.section_path if s],
                                             *([c.article] if c.article else [])])})
        out.append((text, meta, meta["score"]))
    return out


def scope_from_filters(filters: dict[str, Any] | None) -> dict[str, Any]:
    """Haystack-style filters (``{"field": "meta.subindex", "operator": "==", "value": …}``,
    or ``AND`` of such) as search arguments: ``subindex`` (== or in), ``doc`` (==),
    ``versions`` (==).

    Raises:
        ZhikuError: an unknown field or operator.
    """
    if not filters:
        return {}
    conds = filters.get("conditions") if filters.get("operator") == "AND" else [filters]
    out: dict[str, Any] = {}
    for c in conds or []:
        field = str(c.get("field", "")).removeprefix("meta.")
        op, value = c.get("operator"), c.get("value")
        if field not in FILTER_FIELDS:
            raise ZhikuError(f"cannot filter on {c.get('field')!r}; valid fields: "
                             f"{', '.join('meta.' + f for f in FILTER_FIELDS)} (combined with AND)")
        if field == "subindex" and op in ("==", "in"):
            out["subindex"] = [value] if op == "==" else list(value)
        elif op == "==":
            out[field] = value
        else:
            raise ZhikuError(f"operator {op!r} is not supported on {field}; use == (or in for subindex)")
    return out
