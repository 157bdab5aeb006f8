"""Golden question sets: one JSON object per line with question, answers and gold places."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError

log = logging.getLogger(__name__)

_SCHEMA_HINT = (
    'each line must be one JSON object like {"id": "q1", "question": "...", "answers": [...], '
    '"gold": [{"doc": "...", "article": "..."}], "answerable": true, "kind": "..."}; '
    'a structured set gives "rows": [key values of the rows that answer] instead of "gold", '
    'and an aggregate question "value": a number (or {"group": number}) with an optional "tolerance"'
)


@dataclass(frozen=True)
class Gold:
    """One acceptable place for the answer: a document and, optionally, an article label.

    ``doc`` is a path under ``laws/`` for the laws sets, or a corpus id for the
    ``corpus.jsonl`` sets; ``article`` is a label such as ``第十九条`` or ``None``.
    """

    doc: str
    article: str | None = None


@dataclass(frozen=True)
class EvalItem:
    """One question of a golden set with its reference answers and gold places."""

    id: str
    question: str
    answers: tuple[str, ...] = ()
    gold: tuple[Gold, ...] = ()
    answerable: bool = True
    kind: str = ""
    rows: tuple[str, ...] | None = None
    value: float | dict[str, float] | None = None
    tolerance: float = 0.01

    @property
    def structured(self) -> bool:
        """Whether the gold is a set of table rows (key-column values) or an aggregate
        value, not places."""
        return self.rows is not None or self.value is not None


def load_set(path: str | Path) -> list[EvalItem]:
    """Read a golden set from a JSONL file.

    Blank lines are skipped, and so are questions that are empty (the CMRC 2018 set has
    two), with a logged warning naming the line. ``answers``, ``gold``, ``answerable`` and ``kind`` may be
    omitted (defaults: none, none, true, ``""``); ``id`` and ``question`` are required.
    A structured question gives ``rows``: the key values of exactly the rows that answer;
    an aggregate question gives ``value`` (a number, or group → number) and may give
    ``tolerance`` (absolute, default 0.01).

    Args:
        path: the ``.jsonl`` file.

    Returns:
        The items in file order.

    Raises:
        ZhikuError: the file is missing or empty, a line is not valid JSON or does not
            follow the schema (the message names the file and line number), or two lines
            share an id.
    """
    path = Path(path)
    if not path.is_file():
        raise ZhikuError(f"Evaluation set {path} does not exist; pass the path of a .jsonl question set.")
    items: list[EvalItem] = []
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8-sig") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                item = _parse_item(json.loads(line))
            except (ValueError, TypeError) as exc:
                raise ZhikuError(f"{path}:{lineno}: {exc}; {_SCHEMA_HINT}.") from exc
            if item is None:
                log.warning("%s:%d: skipped a question that is empty", path, lineno)
                continue
            if item.id in seen:
                raise ZhikuError(
                    f"{path}:{lineno}: id {item.id!r} was already used on line {seen[item.id]}; "
                    "give every question a unique id."
                )
            seen[item.id] = lineno
            items.append(item)
    if not items:
        raise ZhikuError(f"Evaluation set {path} contains no questions; {_SCHEMA_HINT}.")
    return items


def gold_docs(items: Iterable[EvalItem]) -> set[str]:
    """Collect every gold document named by the items.

    Args:
        items: evaluation items.

    Returns:
        The set of ``Gold.doc`` values (paths or corpus ids).
    """
    return {g.doc for item in items for g in item.gold}


def line_id(obj: Any) -> str:
    """The ``id`` of one decoded JSONL line (a number becomes a string).

    Raises:
        ValueError: the line is not a JSON object or has no usable id.
    """
    if not isinstance(obj, dict):
        raise ValueError(f"expected a JSON object, got {type(obj).__name__}")
    line = obj.get("id")
    if isinstance(line, int) and not isinstance(line, bool):
        line = str(line)
    if not isinstance(line, str) or not line:
        raise ValueError('"id" must be a non-empty string')
    return line


def _parse_item(obj: Any) -> EvalItem | None:
    """Validate one decoded line and build an item (None for an empty question).

    Raises ValueError saying what is wrong.
    """
    item_id = line_id(obj)
    question = obj.get("question")
    if not isinstance(question, str):
        raise ValueError('"question" must be a string')
    answers = obj.get("answers", [])
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise ValueError('"answers" must be a list of strings')
    gold = obj.get("gold", [])
    if not isinstance(gold, list):
        raise ValueError('"gold" must be a list of {"doc", "article"} objects')
    answerable = obj.get("answerable", True)
    if not isinstance(answerable, bool):
        raise ValueError('"answerable" must be true or false')
    kind = obj.get("kind", "")
    if not isinstance(kind, str):
        raise ValueError('"kind" must be a string')
    rows = obj.get("rows")
    if rows is not None and (not isinstance(rows, list) or not all(isinstance(r, str) for r in rows)):
        raise ValueError('"rows" must be a list of key-column values (strings)')
    value, tolerance = _parse_value(obj)
    if not question.strip():
        return None
    return EvalItem(
        id=item_id,
        question=question,
        answers=tuple(answers),
        gold=tuple(_parse_gold(g) for g in gold),
        answerable=answerable,
        kind=kind,
        rows=tuple(rows) if rows is not None else None,
        value=value,
        tolerance=tolerance,
    )


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _parse_value(obj: dict[str, Any]) -> tuple[float | dict[str, float] | None, float]:
    """The aggregate gold: ``value`` (number or group → number) and ``tolerance``.

    Raises ValueError saying what is wrong.
    """
    value = obj.get("value")
    if value is not None and not _number(value) and not (
            isinstance(value, dict) and value and all(_number(v) for v in value.values())):
        raise ValueError('"value" must be a number or an object of group → number')
    tolerance = obj.get("tolerance", 0.01)
    if not _number(tolerance) or tolerance < 0:
        raise ValueError('"tolerance" must be a number ≥ 0')
    if isinstance(value, dict):
        value = {str(k): float(v) for k, v in value.items()}
    return (float(value) if _number(value) else value), float(tolerance)


def _parse_gold(obj: Any) -> Gold:
    """Validate one gold entry."""
    if not isinstance(obj, dict):
        raise ValueError('each "gold" entry must be an object with "doc" and optional "article"')
    doc = obj.get("doc")
    if not isinstance(doc, str) or not doc:
        raise ValueError('each "gold" entry needs a non-empty string "doc"')
    article = obj.get("article")
    if article is not None and (not isinstance(article, str) or not article):
        raise ValueError('"gold.article" must be a non-empty string or absent')
    return Gold(doc=doc, article=article)
