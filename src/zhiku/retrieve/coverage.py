"""Which parts of the index have their vectors: dense search joins a search only where every
chunk it could find has a vector (keyword search serves meanwhile, sub-index by sub-index)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from zhiku.index.store import Scope


@dataclass(frozen=True)
class VectorCoverage:
    """The sub-indexes and documents whose searched chunks all have a vector.

    While ``zhiku embed`` fills a large index in the background, a dense list over the
    part already embedded is no dense list of the whole scope: fused with the keyword list
    it would lift the embedded part's chunks over equally good ones still waiting (RRF
    counts a chunk found by both lists twice). So dense search joins a search only when
    its scope lies wholly in what is embedded, and each sub-index turns hybrid as its
    last chunk gets its vector.
    """

    complete: bool
    subindexes: frozenset[str] = frozenset()
    docs: frozenset[str] = frozenset()
    any: bool = False

    @classmethod
    def of(cls, chunks: Iterable[dict], have: set[str]) -> VectorCoverage:
        """Coverage from the searched chunks' rows (``id``, ``doc_id``, ``subindex``) and
        the ids of the chunks that have a vector.

        Args:
            chunks: rows of every searched chunk (parents are quoted, never embedded).
            have: ids with a vector.
        """
        subs: dict[str, bool] = {}
        docs: dict[str, bool] = {}
        for r in chunks:
            ok = r["id"] in have
            s, d = r.get("subindex") or "", r["doc_id"]
            subs[s] = subs.get(s, True) and ok
            docs[d] = docs.get(d, True) and ok
        return cls(all(subs.values()), frozenset(s for s, ok in subs.items() if ok),
                   frozenset(d for d, ok in docs.items() if ok), bool(have))

    def covers(self, scope: Scope) -> bool:
        """Whether every chunk ``scope`` may find has a vector: its documents when it
        names them, else its sub-indexes, else the whole index."""
        if self.complete:
            return True
        if scope.doc_ids:
            return all(d in self.docs for d in scope.doc_ids)
        if scope.subindexes:
            return all(s in self.subindexes for s in scope.subindexes)
        return False
