"""Table and database sources answered by conditions: typed schemas, read-only SQL."""

from __future__ import annotations


def ask_structured(kb, question, documents, scope=None):  # noqa: ANN001, ANN201 - lazy re-export
    """See :func:`zhiku.structured.answer.ask_structured`."""
    from zhiku.structured.answer import ask_structured as _ask

    return _ask(kb, question, documents, scope)
