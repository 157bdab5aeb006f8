"""Table and database sources answered by conditions: typed schemas, read-only SQL."""

from __future__ import annotations


def ask_structured(kb, question, documents):  # noqa: ANN001, ANN201 - thin lazy re-export
    """See :func:`zhiku.structured.answer.ask_structured`."""
    from zhiku.structured.answer import ask_structured as _ask

    return _ask(kb, question, documents)
