"""Load benchmark corpora (``corpus.jsonl`` lines of id, title, text) as Documents."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from zhiku.errors import ZhikuError
from zhiku.eval.dataset import line_id
from zhiku.types import Document, content_hash


def load_corpus_jsonl(path: str | Path) -> Iterator[Document]:
    """Read a ``{"id", "title", "text"}`` corpus file as documents, one per line.

    Each document has ``id = content_hash(corpus_id, text)`` (so two lines with the same
    text stay two documents), ``path`` = the corpus id (what gold labels name), the
    title as ``title``, the text as ``body`` (the title is not prepended),
    ``version_date=None`` and ``metadata={"corpus_id": id}``.

    Args:
        path: the ``corpus.jsonl`` file.

    Returns:
        An iterator of documents in file order; lines are read lazily.

    Raises:
        ZhikuError: the file is missing (raised at call time), or a line is not valid
            JSON, lacks a string id/text, or repeats an id (raised while iterating; the
            message names the file and line number).
    """
    path = Path(path)
    if not path.is_file():
        raise ZhikuError(f"Corpus file {path} does not exist; pass the corpus.jsonl of an evaluation set.")
    return _iter_corpus(path)


def _iter_corpus(path: Path) -> Iterator[Document]:
    """Yield documents from an existing corpus file."""
    seen: dict[str, int] = {}
    with path.open(encoding="utf-8-sig") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
                corpus_id, title, text = _fields(obj)
            except ValueError as exc:
                raise ZhikuError(
                    f"{path}:{lineno}: {exc}; each line must be one JSON object "
                    '{"id": "...", "title": "...", "text": "..."}.'
                ) from exc
            if corpus_id in seen:
                raise ZhikuError(
                    f"{path}:{lineno}: corpus id {corpus_id!r} was already used on line "
                    f"{seen[corpus_id]}; corpus ids must be unique."
                )
            seen[corpus_id] = lineno
            yield Document(
                id=content_hash(corpus_id, text),
                path=corpus_id,
                title=title,
                body=text,
                version_date=None,
                metadata={"corpus_id": corpus_id},
            )


def _fields(obj: object) -> tuple[str, str, str]:
    """Return (id, title, text) of one corpus line; raise ValueError when malformed."""
    corpus_id = line_id(obj)
    text = obj.get("text")
    if not isinstance(text, str):
        raise ValueError('"text" must be a string')
    title = obj.get("title") or ""
    if not isinstance(title, str):
        raise ValueError('"title" must be a string')
    return corpus_id, title, text
