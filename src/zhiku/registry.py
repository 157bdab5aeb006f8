"""One registry for backends (embedder, segmenter, store, ...), keyed by short names."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
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

    def check(self, name: str, extra: tuple[str, ...] = ()) -> str:
        """``name`` as registered (case and surrounding space folded), for config validators:
        a backend a plugin registered is as valid as a built-in.

        Args:
            name: the configured name.
            extra: names valid besides the registered ones (e.g. ``none``).

        Raises:
            ValueError: no backend has that name; the message lists the valid ones.
        """
        valid = [*extra, *self.names()]
        folded = name.strip().lower()
        for n in valid:
            if n.lower() == folded:
                return n
        raise ValueError(f"unknown {self.kind} {name!r}; choose one of: {', '.join(valid) or '(none)'}")

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


class Choice(str, Enum):
    """Base of the named variants (fusion mode, retrieval mode, prompt style): parsing a
    name is case- and space-insensitive, and a bad name gets an error listing the valid ones."""

    @classmethod
    def label(cls) -> str:
        """What the variant is called in error messages."""
        return cls.__name__

    @classmethod
    def from_str(cls, name: str):  # noqa: ANN206 - returns a member of the subclass
        """Parse a variant name.

        Raises:
            ZhikuError: unknown name; the message lists the valid ones.
        """
        try:
            return cls(name.strip().lower())
        except ValueError:
            valid = ", ".join(m.value for m in cls)
            raise ZhikuError(f"unknown {cls.label()} {name!r}; choose one of: {valid}") from None
