"""How dense vectors are indexed and searched, for every backend (set from the config)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from zhiku.registry import Choice


class VectorIndex(Choice):
    """The vector index type: ``flat`` scans every vector; the others are approximate
    (IVF partitions with HNSW graphs, scalar or product quantisation) with exact re-ranking."""

    FLAT = "flat"
    IVF_HNSW_SQ = "ivf_hnsw_sq"
    IVF_SQ = "ivf_sq"
    IVF_PQ = "ivf_pq"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "vector index"


@dataclass(frozen=True)
class VectorIndexSpec:
    """How the vector table is indexed and searched.

    Below ``min_rows`` vectors (and always for ``flat``) the table is scanned exactly; the
    index holds one IVF partition per ``partition_rows`` vectors. A query through the index
    probes ``nprobes`` partitions, walks HNSW graphs with ``ef`` candidates and re-ranks
    ``refine`` × k of them exactly. ``exact`` bypasses the index at query time (to measure
    what it costs in recall; see benchmarks/vector_recall.py).
    """

    kind: VectorIndex = VectorIndex.IVF_HNSW_SQ
    min_rows: int = 20_000
    nprobes: int = 20
    refine: int = 1
    ef: int = 100
    exact: bool = False
    partition_rows: int = 4000

    @classmethod
    def from_config(cls, config: Any) -> VectorIndexSpec:
        """The spec the configuration sets (``vector_index``, ``vector_index_min``,
        ``vector_nprobes``, ``vector_refine``, ``dense_exact``)."""
        return cls(kind=VectorIndex.from_str(config.vector_index), min_rows=config.vector_index_min,
                   nprobes=config.vector_nprobes, refine=config.vector_refine, exact=config.dense_exact)
