"""Routing: sub-indexes and their summaries, the router cascade (rules → embedding → LLM →
fallback), question types, chapter routing, routed search and the routing log."""

from zhiku.route.qtype import QType, QTypeParams, params_for
from zhiku.route.router import Router
from zhiku.route.search import Routed, routed_search
from zhiku.route.subindex import SubIndex, load_catalog

__all__ = ["QType", "QTypeParams", "Routed", "Router", "SubIndex", "load_catalog", "params_for",
           "routed_search"]
