"""The one ask every door calls: :func:`ask`/:func:`ask_stream` over a :class:`Query`."""

from __future__ import annotations

from typing import Any

_EXPORTS = {"ask": "zhiku.ask.flow", "ask_stream": "zhiku.ask.flow", "Query": "zhiku.ask.query",
            "check_question": "zhiku.ask.query", "Mode": "zhiku.ask.search",
            "retrieve": "zhiku.ask.search", "Retrieval": "zhiku.ask.search"}


def __getattr__(name: str) -> Any:  # lazy: importing one stage module never loads the flow
    if name not in _EXPORTS:
        raise AttributeError(f"module 'zhiku.ask' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_EXPORTS[name]), name)
