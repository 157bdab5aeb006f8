"""What every door hands the ask: the :class:`Query`, and its one validation."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from zhiku.ask.rewrite import Exchange
from zhiku.ask.search import Mode
from zhiku.errors import ZhikuError
from zhiku.index.store import Scope

MAX_QUESTION = 2000  # characters


@dataclass(frozen=True)
class Query:
    """A question as a door received it, and how to answer it.

    Attributes:
        question: the question as the user wrote it.
        history: earlier turns of the conversation, oldest first (a follow-up is
            rewritten from them).
        scope: where to search (documents, section, sub-indexes, versions, and the
            caller's groups where access control applies).
        mode: retrieval mode.
        qtype: question type overriding the router's (fact, process, comparison, synthesis).
        use_cache: consult and fill the answer cache (None: the ``cache`` setting).
        tables: answer condition questions over structured sources from their rows.
        agent: let the ``agent`` model drive the knowledge-base tools first.
        stream: stream LLM tokens as they arrive (off: one completion).
    """

    question: str
    history: tuple[Exchange, ...] = ()
    scope: Scope = Scope()
    mode: Mode = Mode.HYBRID
    qtype: str | None = None
    use_cache: bool | None = None
    tables: bool = True
    agent: bool = False
    stream: bool = True

    def but(self, **changes: Any) -> Query:
        """A copy with ``changes``."""
        return replace(self, **changes)


def check_question(question: Any, what: str = "question",
                   hint: str = 'ask something, e.g. zhiku ask "试用期最长多久"') -> str:
    """The one check of a question (or search query) every door makes: stripped, or a
    sentence saying what is wrong and what to do.

    Args:
        question: what the caller sent.
        what: its name in the message (question, query).
        hint: what to do instead, for an empty one.

    Raises:
        ZhikuError: not text, empty or longer than :data:`MAX_QUESTION` characters.
    """
    if not isinstance(question, str):
        raise ZhikuError(f"the {what} must be text, not {type(question).__name__}")
    q = question.strip()
    if not q:
        raise ZhikuError(f"the {what} is empty; {hint}")
    if len(q) > MAX_QUESTION:
        raise ZhikuError(f"the {what} has {len(q)} characters; shorten it to at most {MAX_QUESTION}")
    return q


def validate(kb: Any, query: Query) -> Query:
    """The query with its question checked and stripped, its mode and question type known
    and the term dictionary readable (a broken one is the user's to fix, not a fallback).

    Raises:
        ZhikuError: the question is empty or too long, the mode or question type is
            unknown, or the term dictionary is invalid.
    """
    from zhiku.answer.prompts import QType
    from zhiku.retrieve.synonyms import load_synonyms

    q = check_question(query.question)
    mode = query.mode if isinstance(query.mode, Mode) else Mode.from_str(str(query.mode))
    if query.qtype:
        QType.from_str(query.qtype)
    load_synonyms(kb.config)
    return replace(query, question=q, mode=mode)
