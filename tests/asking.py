"""Tests ask the one flow with positional shorthands; the answer cache is off unless asked for."""

from __future__ import annotations

from zhiku.ask import flow
from zhiku.ask.query import Query
from zhiku.ask.search import Mode
from zhiku.index.store import Scope


def query(question, mode=Mode.HYBRID, scope=Scope(), qtype=None, tables=True, **kw) -> Query:
    """The Query of a test's ask."""
    return Query(question, scope=scope, mode=mode, qtype=qtype, tables=tables,
                 **{"use_cache": False, **kw})


def ask(kb, question, mode=Mode.HYBRID, scope=Scope(), qtype=None, tables=True, **kw):
    """:func:`zhiku.ask.flow.ask` of :func:`query`."""
    return flow.ask(kb, query(question, mode, scope, qtype, tables, **kw))


def ask_stream(kb, question, mode=Mode.HYBRID, scope=Scope(), qtype=None, tables=True, **kw):
    """:func:`zhiku.ask.flow.ask_stream` of :func:`query`."""
    return flow.ask_stream(kb, query(question, mode, scope, qtype, tables, **kw))
