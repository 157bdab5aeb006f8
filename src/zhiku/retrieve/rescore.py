"""Re-ranking keyword hits by new scores: the one tail every re-weighing lever shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhiku.types import Hit


def rescored(hits: Sequence[Hit], scores: Sequence[float], key: str, notes: Sequence[Any]) -> list[Hit]:
    """``hits`` with their new ``scores``, best first (ties keep their order); each keeps its
    sources and records ``(new rank, note)`` under the source ``key`` (the factor, share or
    cosine the lever read, for the trace)."""
    order = sorted(range(len(hits)), key=lambda i: (-scores[i], i))
    return [Hit(hits[i].chunk, scores[i], hits[i].source, {**hits[i].sources, key: (rank, notes[i])})
            for rank, i in enumerate(order, 1)]
