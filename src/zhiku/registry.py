"""One registry for backends (embedder, segmenter, store, ...), keyed by short names."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from zhiku.errors import ZhikuError

T = TypeVar("T")


class Registry(Generic[T]):
    """Name → factory. Built-ins register exactly as a third-party plugin would.

    Example:
        >>> embedders = Registry("embedder")
        >>> @embedders.register("mine")
        ... def make(config): ...
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._factories: dict[str, Callable[..., T]] = {}

    def register(self, name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
        """Decorator registering ``factory`` under ``name``."""

        def deco(factory: Callable[..., T]) -> Callable[..., T]:
            self._factories[name] = factory
            return factory

        return deco

    def names(self) -> list[str]:
        """Registered names, sorted."""
        return sorted(self._factories)

    def create(self, name: str, *args: Any, **kwargs: Any) -> T:
        """Build the backend registered as ``name``.

        Raises:
            ZhikuError: no backend has that name; the message lists the valid ones.
        """
        try:
            factory = self._factories[name]
        except KeyError:
            valid = ", ".join(self.names()) or "(none)"
            raise ZhikuError(f"unknown {self.kind} {name!r}; choose one of: {valid}") from None
        return factory(*args, **kwargs)
