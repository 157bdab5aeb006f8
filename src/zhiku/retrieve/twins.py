"""Twin documents: one law version kept in two folders (行政法/广告法 and 经济法/广告法) is cited once."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from zhiku.index.store import DocRecord
from zhiku.retrieve.segment import normalise
from zhiku.types import Hit

_STEM = re.compile(r"^(?:.*/)?([^/]+?)(?:\.[^./]+)?$")


def _key(d: DocRecord) -> tuple[str, str] | None:
    """A law version's identity: its file name (name and date) and its version date."""
    if not d.version_date:
        return None
    m = _STEM.match(d.path)
    return (normalise(m.group(1) if m else d.path), d.version_date)


def find_twins(docs: Iterable[DocRecord]) -> dict[str, tuple[str, ...]]:
    """Documents that are the same law version filed under different folders.

    Two documents are twins when their file names (law name plus version date) and
    their version dates agree; small differences of their text (a heading's spacing, an
    added line) do not make them different laws.

    Args:
        docs: the published documents.

    Returns:
        doc id → the ids of its twins (documents without a twin are absent).
    """
    groups: dict[tuple[str, str], list[DocRecord]] = {}
    for d in docs:
        if not d.deleted and (k := _key(d)) is not None:
            groups.setdefault(k, []).append(d)
    out: dict[str, tuple[str, ...]] = {}
    for g in groups.values():
        if len(g) > 1:
            for d in g:
                out[d.doc_id] = tuple(o.doc_id for o in g if o.doc_id != d.doc_id)
    return out


def drop_twins(hits: Sequence[Hit], twins: dict[str, tuple[str, ...]]) -> list[Hit]:
    """Hits without those repeating a better hit's article from a twin document.

    Args:
        hits: ranked hits.
        twins: see :func:`find_twins`.

    Returns:
        The hits in order; a hit of a twin document at the same article (or, for text
        without articles, the same opening text) as an earlier hit is left out.
    """
    if not twins:
        return list(hits)
    seen: set[tuple[str, str]] = set()
    out = []
    for h in hits:
        c = h.chunk
        if c.doc_id in twins:
            place = c.article or "".join(c.text.split())[:80]
            if any((t, place) in seen for t in twins[c.doc_id]):
                continue
            seen.add((c.doc_id, place))
        out.append(h)
    return out


def with_twins(aliases: dict[str, set[str]], twins: dict[str, tuple[str, ...]]) -> dict[str, set[str]]:
    """Every document's paths plus its twins' paths (a gold label names one folder of
    the law; a citation of its twin is the same law version).

    Args:
        aliases: doc id → the document's paths.
        twins: see :func:`find_twins`.
    """
    return {d: set(p).union(*(aliases.get(t, set()) for t in twins.get(d, ()))) for d, p in aliases.items()}
