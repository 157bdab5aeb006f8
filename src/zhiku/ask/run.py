"""One ask in progress: its knowledge base, its trace, the time it started, and how a
stage of :mod:`zhiku.ask.flow` is run and recorded."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Future
from typing import Any

from zhiku.types import AskEvent, TraceStep


class Run:
    """The state of one ask. Every stage is run through :meth:`step` (or :meth:`stream`),
    which records a trace step named for it, placed before the steps it recorded inside."""

    def __init__(self, kb: Any) -> None:
        self.kb = kb
        self.trace: list[TraceStep] = []
        self.started = time.perf_counter()
        self.streamed = False  # an LLM's tokens went out as deltas
        self._sent = 0

    def step(self, name: str, fn: Callable[..., Any], *args: Any) -> Any:
        """Run stage ``fn(run, note, *args)``; ``note`` (a dict) becomes the step's detail.

        Returns:
            What the stage returned.
        """
        at, t0, note = len(self.trace), time.perf_counter(), {}
        try:
            return fn(self, note, *args)
        finally:
            self.trace.insert(at, TraceStep(name, time.perf_counter() - t0, note))

    def stream(self, name: str, fn: Callable[..., Generator[Any, None, Any]],
               *args: Any) -> Generator[AskEvent, None, Any]:
        """:meth:`step` for a stage that yields events while it works (an answer being
        written); the events are passed on."""
        at, t0, note = len(self.trace), time.perf_counter(), {}
        try:
            return (yield from fn(self, note, *args))
        finally:
            self.trace.insert(at, TraceStep(name, time.perf_counter() - t0, note))

    def start(self, fn: Callable[..., Future], *args: Any) -> Future:
        """Start a stage on its own thread now (it runs beside the next ones)."""
        return fn(self, *args)

    def absorb(self, note: dict, steps: Any, name: str) -> None:
        """Add a stage's inner steps to the trace; one named like the stage itself
        (``verify``, ``rerank``) becomes the stage step's detail instead."""
        for t in steps:
            if t.stage == name:
                note.update(t.detail)
            else:
                self.trace.append(t)

    def events(self) -> Iterator[AskEvent]:
        """A ``step`` event for every trace step not yet sent."""
        new, self._sent = self.trace[self._sent:], len(self.trace)
        for t in new:
            yield AskEvent("step", detail={"stage": t.stage, "seconds": round(t.seconds, 4)})
