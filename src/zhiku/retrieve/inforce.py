"""The version in force first: over every version of a library, a superseded law's hit ranks
below the best hit of the version that replaced it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from zhiku.index.store import DocRecord
from zhiku.types import Hit


@dataclass(frozen=True)
class LawVersions:
    """Which law each versioned document is a version of, and which versions are replaced."""

    law: dict[str, str]  # doc id → law key (documents of a law with versions)
    superseded: frozenset[str]  # doc ids a newer version of the same law replaces

    @classmethod
    def of(cls, docs: Iterable[DocRecord]) -> LawVersions:
        """The versions of the published documents (deleted ones left out).

        Args:
            docs: the published documents.
        """
        live = [d for d in docs if not d.deleted and d.law_key]
        return cls({d.doc_id: d.law_key for d in live},
                   frozenset(d.doc_id for d in live if d.superseded_by))


def in_force_first(hits: Sequence[Hit], versions: LawVersions) -> list[Hit]:
    """``hits`` with each superseded version's hits moved to just after the first hit of a
    version in force of the same law, when one follows them.

    A question that names no version asks about the law as it stands; searching every
    version (``versions = "all"``), the replaced text of 民事诉讼法（2021） may outscore the
    same article of 民事诉讼法（2023） by a hair, or a renumbered article of the old 公司法 the
    new one's. The old version's hits stay in the list, in their order, below the new
    version's best hit; a law whose version in force is not among the hits keeps its
    old version's hits where they are.

    Args:
        hits: ranked hits.
        versions: see :class:`LawVersions`.

    Returns:
        The same hits, reordered (scores and sources untouched).
    """
    if not versions.superseded:
        return list(hits)
    current = {versions.law[h.chunk.doc_id] for h in hits
               if h.chunk.doc_id in versions.law and h.chunk.doc_id not in versions.superseded}
    out: list[Hit] = []
    waiting: dict[str, list[Hit]] = {}  # law key → superseded hits held back until its version in force
    for h in hits:
        law = versions.law.get(h.chunk.doc_id)
        if law is None:
            out.append(h)
        elif h.chunk.doc_id in versions.superseded:
            (waiting.setdefault(law, []) if law in current else out).append(h)
        else:
            out.append(h)
            out.extend(waiting.pop(law, ()))
            current.discard(law)  # later old-version hits of this law stay where they are
    return out
