"""The version in force first: over every version of a law, the blocks of a version no longer
in force rank behind those of the version that is (retrieval's candidates and an answer's
evidence alike)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhiku.types import Hit


def in_force_first(kb: Any, evidence: Sequence[Hit], day: str | None = None) -> list[Hit]:
    """The evidence with every block of a version no longer in force on ``day`` (default
    today) moved behind the others when a version of the same law in force then is also in
    the evidence: a question that names no version asks about the law as it stands (both
    versions are searched under ``versions="all"``, and often word the clause alike: the
    2018 公司法's 第三十三条 outscores the 2023 第五十七条 by a hair). The old blocks stay,
    last; a law whose version in force is not among them keeps its old blocks in place.

    Args:
        kb: the knowledge base (its document records: law key, effective and expiry dates).
        evidence: the blocks (or ranked candidates), best first.
        day: ``YYYY-MM-DD``.

    Returns:
        The same hits, the superseded ones last (each group in its own order).
    """
    import datetime as dt

    from zhiku.index.versions import in_force

    day = day or dt.date.today().isoformat()
    docs = [kb.store.get_doc(h.chunk.doc_id) for h in evidence]
    laws = {d.law_key for d in docs if d is not None and in_force(d, day)}
    old = {i for i, d in enumerate(docs) if d is not None and d.law_key and d.expiry
           and d.expiry <= day and d.law_key in laws}
    return [h for i, h in enumerate(evidence) if i not in old] + [evidence[i] for i in sorted(old)]
