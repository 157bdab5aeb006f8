"""Run retrieval modes (and optionally the full answer pipeline) over a golden set."""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace

from tqdm import tqdm

from zhiku.errors import ZhikuError
from zhiku.eval.dataset import EvalItem
from zhiku.eval.metrics import Aliases, citation_hits, contains_answer, relevance
from zhiku.eval.report import EvalReport, ModeResult
from zhiku.types import Answer, Hit

FULL = "full"

Searcher = Callable[[str], Sequence[Hit]]
Answerer = Callable[[str], Answer]


def run_eval(
    items: Sequence[EvalItem],
    modes: Mapping[str, Searcher],
    answer: Answerer | None = None,
    aliases: Aliases | None = None,
    k: int = 10,
    progress: bool = True,
    name: str = "",
) -> EvalReport:
    """Ask every question of a set in every mode and record rankings and timings.

    Each searcher is called once per question and timed; its top ``k`` hits are kept.
    When ``answer`` is given it is also called once per question, recorded under the
    mode name ``"full"``: its ``Answer.hits`` give the ranking and ``Answer.refused``
    the refusal flag. An exception from any call propagates, with a note naming the
    item and mode.

    Args:
        items: the golden set.
        modes: mode name -> function from question to ranked hits.
        answer: optional function from question to ``Answer``.
        aliases: document id -> every path of that document, for gold matching.
        k: how many hits to keep and score per question, at least 1.
        progress: show a tqdm progress bar on stderr.
        name: the set's name, shown in the report's table.

    Returns:
        The report with one result per (mode, item).

    Raises:
        ZhikuError: no mode and no answerer were given, ``k`` is below 1, or a mode is
            named ``"full"`` while ``answer`` is given.
        TypeError: a searcher returned something other than ``Hit``s, or the answerer
            something other than an ``Answer``.
    """
    if k < 1:
        raise ZhikuError(f"k must be at least 1, got {k}; pass how many hits to score.")
    if not modes and answer is None:
        raise ZhikuError("Nothing to evaluate: give at least one retrieval mode or an answerer.")
    if answer is not None and FULL in modes:
        raise ZhikuError(f'Mode name "{FULL}" is reserved for the answer pipeline; rename that mode.')
    results: list[ModeResult] = []
    for mode, search in modes.items():
        for item in _bar(items, mode, progress):
            with _context(item, mode):
                start = time.perf_counter()
                hits = list(search(item.question))
                seconds = time.perf_counter() - start
                results.append(_result(item, mode, hits, seconds, k, aliases))
    if answer is not None:
        results.extend(_run_answerer(items, answer, aliases, k, progress))
    mode_names = tuple(modes) + ((FULL,) if answer is not None else ())
    return EvalReport(name=name, k=k, modes=mode_names, results=tuple(results))


def _run_answerer(
    items: Sequence[EvalItem], answer: Answerer, aliases: Aliases | None, k: int, progress: bool
) -> list[ModeResult]:
    """Call the answer pipeline once per item and record it under the mode ``"full"``."""
    results: list[ModeResult] = []
    for item in _bar(items, FULL, progress):
        with _context(item, FULL):
            start = time.perf_counter()
            reply = answer(item.question)
            seconds = time.perf_counter() - start
            if not isinstance(reply, Answer):
                raise TypeError(f"the answerer returned {type(reply).__name__}, not an Answer")
            base = _result(item, FULL, list(reply.hits), seconds, k, aliases)
            results.append(_with_answer(base, item, reply, aliases))
    return results


def _bar(items: Sequence[EvalItem], mode: str, progress: bool) -> tqdm:
    """A progress bar over the items, on stderr, silent when ``progress`` is false."""
    return tqdm(items, desc=mode, unit="q", file=sys.stderr, disable=not progress, leave=False)


@contextmanager
def _context(item: EvalItem, mode: str) -> Iterator[None]:
    """Add a note naming the item and mode to any exception raised inside, then re-raise."""
    try:
        yield
    except Exception as exc:
        exc.add_note(f"while evaluating item {item.id!r} in mode {mode!r}")
        raise


def _result(
    item: EvalItem, mode: str, hits: list[Hit], seconds: float, k: int, aliases: Aliases | None
) -> ModeResult:
    """Score the top ``k`` hits of one call.

    When every gold label names a whole document (no article), the ranking is of
    documents, as in BEIR: each document counts once, at its best chunk's rank.
    """
    for h in hits[:k]:
        if not isinstance(h, Hit):
            raise TypeError(f"mode {mode!r} returned {type(h).__name__} items, not Hit")
    if item.gold and not any(g.article for g in item.gold):
        hits = _first_per_document(hits)
    top = hits[:k]
    return ModeResult(
        item_id=item.id,
        kind=item.kind,
        mode=mode,
        answerable=item.answerable,
        n_gold=len(item.gold),
        ranked=tuple((h.chunk.doc_path, h.chunk.article) for h in top),
        relevance=tuple(relevance(top, item, aliases)),
        seconds=seconds,
    )


def _first_per_document(hits: list[Hit]) -> list[Hit]:
    """Hits with every later chunk of an already-ranked document dropped."""
    seen: set[str] = set()
    out = []
    for h in hits:
        if h.chunk.doc_id not in seen:
            seen.add(h.chunk.doc_id)
            out.append(h)
    return out


def _with_answer(base: ModeResult, item: EvalItem, reply: Answer, aliases: Aliases | None = None) -> ModeResult:
    """Add the refusal flag, answer text, contains-answer check and citation counts
    (answered items with gold places only) to a result."""
    cited, at_gold = (citation_hits(reply.citations, item, aliases)
                      if item.gold and not reply.refused else (None, None))
    return replace(
        base,
        refused=bool(reply.refused),
        answer=reply.text,
        contains=contains_answer(re.sub(r"\[\d+\]", "", reply.text), item.answers),
        cited=cited,
        cited_gold=at_gold,
        citations=tuple((c.marker, c.doc_path, c.article) for c in reply.citations),
        steps=tuple(t.stage for t in reply.trace),
        confidence=float(reply.confidence),
        fallbacks=fallbacks(reply),
    )


def fallbacks(reply: Answer) -> tuple[str, ...]:
    """``"role: why"`` for every role of the ask that fell back (timed out or failed)."""
    return tuple(f"{t.stage.removeprefix('role:')}: {t.detail.get('error', '')}" for t in reply.trace
                 if t.stage.startswith("role:") and "fallback" in t.detail)
