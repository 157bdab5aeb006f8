"""The role runner: a stage of the ask that may be slow or fail (router, searcher,
reranker, answerer, rewriter, web searcher) is a :class:`Role`; :func:`perform` runs one
with its timeout, checks what it hands over and falls back when it fails."""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from collections.abc import Callable, Generator, Iterator
from dataclasses import MISSING, fields
from typing import Any, ClassVar, Generic, TypeVar

from zhiku.errors import ZhikuError
from zhiku.types import TraceStep

I = TypeVar("I")
O = TypeVar("O")


class HandoverError(ZhikuError):
    """A role handed over a value that lacks a field the next role needs."""


def handover(role: str, value: Any, kind: type) -> Any:
    """Check what ``role`` hands over: a ``kind`` whose required fields are all set.

    Args:
        role: the role's name (for the message).
        value: what it returned.
        kind: the dataclass the next role expects.

    Returns:
        ``value`` unchanged.

    Raises:
        HandoverError: wrong type, or a required field is missing (None); the message
            names the role and the field.
    """
    if not isinstance(value, kind):
        raise HandoverError(f"the {role} role handed over {type(value).__name__}, not {kind.__name__}")
    for f in fields(kind):
        required = f.default is MISSING and f.default_factory is MISSING
        if required and getattr(value, f.name, None) is None:
            raise HandoverError(f"the {role} role handed over a {kind.__name__} without its "
                                f"{f.name!r} field")
    return value


class Role(Generic[I, O]):
    """One step of an ask: ``run`` does the work, ``fallback`` is the defined result when
    it fails or runs out of time. ``timeout_key`` names its Config setting (None: none)."""

    name: ClassVar[str] = "role"
    output: ClassVar[type] = object
    fallback_name: ClassVar[str] = ""
    timeout_key: ClassVar[str | None] = None

    def __init__(self, kb: Any) -> None:
        self.kb = kb

    def timeout(self) -> float | None:
        """Seconds this role may take (from config), or None."""
        return getattr(self.kb.config, self.timeout_key) if self.timeout_key else None

    def run(self, inp: I) -> O:  # pragma: no cover - every role overrides it
        """Do the work."""
        raise NotImplementedError

    def fallback(self, inp: I) -> O:  # pragma: no cover - roles without one re-raise
        """The defined result when ``run`` fails."""
        raise NotImplementedError


def submit(role: Role[I, O], inp: I) -> Future:
    """Start ``role`` now on a daemon thread (so it runs beside others, and a call that
    overruns its timeout is abandoned rather than awaited at exit); pass the future to
    :func:`perform`."""
    fut: Future = Future()
    fut.zhiku_start = time.perf_counter()  # type: ignore[attr-defined]

    def work() -> None:
        if not fut.set_running_or_notify_cancel():
            return
        try:
            fut.set_result(role.run(inp))
        except BaseException as e:  # noqa: BLE001 - handed to the waiting perform()
            fut.set_exception(e)

    threading.Thread(target=work, daemon=True, name=f"zhiku-{role.name}").start()
    return fut


def completed(value: Any) -> Future:
    """A future already holding ``value`` (a role's output known without running it)."""
    fut: Future = Future()
    fut.zhiku_start = time.perf_counter()  # type: ignore[attr-defined]
    fut.set_result(value)
    return fut


def perform(role: Role[I, O], inp: I, trace: list[TraceStep], started: float,
            fut: Future | None = None) -> O:
    """Run ``role`` (or wait for its already submitted ``fut``) within its timeout; on an
    error, a timeout or a bad hand-over use its fallback. A ``role:NAME`` trace step
    records start/end (seconds since ``started``) and any fallback with its reason.

    Args:
        role: the role.
        inp: its input.
        trace: receives the step.
        started: ``time.perf_counter()`` at the start of the ask.
        fut: the role already started with ``inp`` by :func:`submit`.

    Returns:
        The role's output, or its fallback's.

    Raises:
        Exception: only when a role without a fallback fails.
    """
    t0 = time.perf_counter()
    fut = fut or submit(role, inp)
    return _settle(role, inp, fut, trace, started, t0, lambda: fut.result(timeout=role.timeout()))


def _settle(role: Role[I, O], inp: I, fut: Future, trace: list[TraceStep], started: float,
            t0: float, got: Callable[[], Any]) -> O:
    """The role's checked output (``got``), or its fallback's; records ``role:NAME``."""
    timeout = role.timeout()
    detail: dict[str, Any] = {}
    try:
        out = handover(role.name, got(), role.output)
    except Exception as e:  # noqa: BLE001 - a failing role never fails the ask
        if not role.fallback_name:
            raise
        why = f"timed out after {timeout:g}s" if isinstance(e, FutureTimeout) else f"{type(e).__name__}: {e}"
        detail.update(fallback=role.fallback_name, error=why[:300])
        out = role.fallback(inp)
    end = time.perf_counter()
    detail.update(start=round(fut.zhiku_start - started, 4), end=round(end - started, 4))  # type: ignore[attr-defined]
    trace.append(TraceStep(f"role:{role.name}", end - t0, detail))
    return out


def perform_stream(role: Role[I, Generator[Any, None, O]], inp: I, trace: list[TraceStep],
                   started: float) -> Generator[Any, None, O]:
    """:func:`perform` for a role whose ``run`` is a generator (an answer being written):
    what it yields is passed on as it comes, and the whole of it must end within the
    role's timeout, else its fallback's result is returned.

    Yields:
        What the role's generator yields (e.g. ``delta`` events).

    Returns:
        The generator's return value, or the fallback's.
    """
    t0 = time.perf_counter()
    items: queue.Queue = queue.Queue()
    done = object()

    class Pump(Role):  # runs the generator on the role's thread, handing items over
        name, output = role.name, object

        def run(self, x: I) -> Any:
            gen = role.run(x)
            try:
                while True:
                    items.put(next(gen))
            except StopIteration as stop:
                items.put(done)
                return stop.value

    fut = submit(Pump(role.kb), inp)
    timeout = role.timeout()
    deadline = None if timeout is None else t0 + timeout
    timed_out = False
    for item in _drain(items, done, fut, deadline):
        if item is _drain:
            timed_out = True
            break
        yield item

    def got() -> Any:
        if timed_out:
            raise FutureTimeout()
        return fut.result(timeout=0 if fut.done() else None)

    return _settle(role, inp, fut, trace, started, t0, got)


def _drain(items: queue.Queue, done: object, fut: Future, deadline: float | None) -> Iterator[Any]:
    """Items of a pumped generator until it ends or fails (yields ``_drain`` itself when
    the deadline passes)."""
    while True:
        wait = None if deadline is None else deadline - time.perf_counter()
        if wait is not None and wait <= 0:
            yield _drain
            return
        try:
            item = items.get(timeout=min(wait, 0.1) if wait is not None else 0.1)
        except queue.Empty:
            if fut.done() and items.empty():
                return  # it failed: perform's settle reports the error
            continue
        if item is done:
            return
        yield item
