"""Term statistics of the LanceDB store: how many chunks hold each BM25 token, published
as one JSON file per generation and written once per ingest, not once per batch."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable
from itertools import chain
from pathlib import Path

from zhiku.index.manifest import write_index_file


class TermStats:
    """Readers' counts (the published file) and a writer's private copy of them.

    A writer's copy is made on its first change and kept across *partial* publishes (the
    batches of one ingest), which leave the file alone and mark it stale in the manifest;
    the ingest's last publish writes it. A writer that finds the mark without a copy of
    its own (the ingest that set it was killed) recounts from the stored chunks.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.read: Counter[str] = Counter()
        self.file: str | None = None
        self._w: Counter[str] | None = None

    def load(self, name: str | None) -> None:
        """Read the published file ``name`` (unless it is the one already held)."""
        if name == self.file:
            return
        p = self.folder / name if name else None
        self.read = Counter(json.loads(p.read_text(encoding="utf-8"))) if p and p.is_file() else Counter()
        self.file = name

    @property
    def pending(self) -> bool:
        """Whether a writer holds changes not yet written to a file."""
        return self._w is not None

    def begin(self, stale: bool, segs: Callable[[], Iterable[str]]) -> None:
        """Start a write: recount from ``segs`` (every stored chunk's segmented text) when the
        published file is stale and this writer holds no copy of its own."""
        if stale and self._w is None:
            self._w = Counter(chain.from_iterable(map(set, map(str.split, segs()))))

    def change(self, segs: Iterable[str], sign: int = 1) -> None:
        """Count (``sign`` 1) or uncount (-1) the tokens of these chunk texts."""
        if self._w is None:
            self._w = Counter(self.read)
        # each chunk's distinct tokens, counted in one pass (C loops, no per-chunk update)
        batch = Counter(chain.from_iterable(map(set, map(str.split, segs))))
        if sign > 0:
            self._w.update(batch)
        else:
            self._w.subtract(batch)

    def abort(self) -> None:
        """Drop the writer's changes (its transaction was rolled back)."""
        self._w = None

    def publish(self, gen: int) -> str:
        """Write the writer's counts as generation ``gen``'s file and make them the readers'.

        Returns:
            The file name, for the manifest.
        """
        w = +(self._w if self._w is not None else self.read)
        name = f"df-{gen}.json"
        write_index_file(self.folder / name, json.dumps(w, ensure_ascii=False))
        self.read, self.file, self._w = w, name, None
        return name
