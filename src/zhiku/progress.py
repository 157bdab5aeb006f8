"""Progress through the phases of long work: bars on the terminal, or a callback (server jobs)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

# A callback seeing (phase, done, total); total is 0 for a phase of unknown length.
OnProgress = Callable[[str, int, int], None]


class Phase:
    """One phase: ``update(n)`` as work is done; a context manager that ends the phase."""

    def __init__(self, name: str, total: int, unit: str, bar: Any, on: OnProgress | None) -> None:
        self.name, self.total, self.done = name, total, 0
        self._bar, self._on, self._t0 = bar, on, time.perf_counter()
        if on:
            on(name, 0, total)

    def update(self, n: int = 1) -> None:
        """Record ``n`` more units done."""
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        if self._on:
            self._on(self.name, self.done, self.total)

    def __enter__(self) -> Phase:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the phase (its bar stays on the terminal with the time it took)."""
        if self._bar is not None:
            if not self.total:  # a step without units: say it finished and how long it took
                self._bar.set_postfix_str(f"{time.perf_counter() - self._t0:.1f}s", refresh=False)
            self._bar.close()
            self._bar = None


class Progress:
    """Reports phases to a terminal (tqdm bars on stderr) and/or a callback.

    Args:
        bars: draw bars on stderr.
        on: called with (phase, done, total) as work is done.
    """

    def __init__(self, bars: bool = True, on: OnProgress | None = None) -> None:
        self.bars, self.on = bars, on

    def phase(self, name: str, total: int = 0, unit: str = "it", min_total: int = 0) -> Phase:
        """Start a phase of ``total`` units (0: one step of unknown length); no bar is drawn
        for fewer than ``min_total`` units."""
        bar = None
        if self.bars and total >= min_total:
            from tqdm import tqdm

            bar = tqdm(total=total or None, desc=name, unit=unit, file=sys.stderr, dynamic_ncols=True,
                       smoothing=0.1, bar_format=None if total else "{desc}{postfix}")
        return Phase(name, total, unit, bar, self.on)


def as_progress(progress: bool | Progress) -> Progress:
    """``True``/``False`` (bars or silence) or a :class:`Progress` as given."""
    return progress if isinstance(progress, Progress) else Progress(bars=bool(progress))
