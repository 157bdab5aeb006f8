"""Document permissions: groups on documents, API keys carrying groups, the caller's view."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from zhiku.errors import ZhikuError

PUBLIC = "*"  # the group of documents no rule names: every key sees them (access_default allow)
_GROUP = re.compile(r"[\w.-]{1,64}")


def check_group(name: str, where: str) -> str:
    """Validate one group name (letters, digits, ``_ . -``; Chinese letters too).

    Raises:
        ZhikuError: anything else, naming ``where`` it came from.
    """
    name = name.strip()
    if not _GROUP.fullmatch(name):
        raise ZhikuError(f"bad group name {name!r} in {where}; use 1-64 letters, digits, _ . or -")
    return name


class AccessRule(BaseModel):
    """One ``[[access]]`` rule: documents whose stored path matches one of ``paths``
    (globs such as ``hr/**``) belong to ``groups``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    paths: tuple[str, ...] = Field(..., min_length=1, description="globs over stored document paths")
    groups: tuple[str, ...] = Field(..., min_length=1, description="groups that may read them")

    @field_validator("groups")
    @classmethod
    def _check(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(check_group(g, "[[access]] groups") for g in v)

    def matches(self, path: str) -> bool:
        """Whether the stored path ``path`` falls under one of the globs (``**`` spans
        folders, ``*`` stays within one)."""
        return any(_glob(p).fullmatch(path) for p in self.paths)


def _glob(pattern: str) -> re.Pattern[str]:
    """A path glob as a regex: ``**`` any folders, ``*`` and ``?`` within one name."""
    out, i, pattern = [], 0, pattern.strip().removeprefix("./")
    while i < len(pattern):
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
        else:
            out.append({"*": "[^/]*", "?": "[^/]"}.get(pattern[i], re.escape(pattern[i])))
            i += 1
    return re.compile("".join(out))


def document_groups(path: str, metadata: Mapping[str, Any], rules: Iterable[AccessRule],
                    default: str) -> tuple[str, ...]:
    """The groups that may read a document: its sidecar's ``groups``, else every matching
    ``[[access]]`` rule's, else :data:`PUBLIC` (or nobody but admins when ``default`` is
    ``deny``).

    Args:
        path: the stored document path (relative to the ingest root).
        metadata: the document's metadata (a sidecar ``groups`` list lands there).
        rules: the configured rules.
        default: ``allow`` or ``deny``.
    """
    side = metadata.get("groups")
    if side:
        return tuple(sorted(set(side)))
    got = sorted({g for r in rules if r.matches(path) for g in r.groups})
    if got:
        return tuple(got)
    return (PUBLIC,) if default == "allow" else ()


def stale_documents(docs: Iterable[Any], rules: Iterable[AccessRule], default: str) -> list[str]:
    """Paths of stored documents whose groups differ from what the current rules give
    (rules or ``access_default`` changed since they were ingested).

    Args:
        docs: stored document records (with ``path``, ``metadata``, ``groups``).
        rules: the configured rules.
        default: ``allow`` or ``deny``.
    """
    rules = list(rules)
    return [d.path for d in docs if not getattr(d, "deleted", None)
            and tuple(d.groups) != document_groups(d.path, d.metadata, rules, default)]


@dataclass(frozen=True)
class Caller:
    """Who is asking: ``groups`` None sees everything (admin keys, no keys, the CLI);
    ``owner`` names the key (a hash, never the key) for sessions."""

    groups: tuple[str, ...] | None = None
    owner: str = ""

    @property
    def sees_all(self) -> bool:
        """Whether no permission filter applies."""
        return self.groups is None


EVERYONE = Caller()


def parse_key_groups(spec: str) -> tuple[str, tuple[str, ...]]:
    """``KEY`` or ``KEY:group1+group2`` → the key and its groups.

    Raises:
        ZhikuError: a bad group name.
    """
    key, _, groups = spec.partition(":")
    names = tuple(check_group(g, f"the groups of an API key ({key[:3]}…)") for g in groups.split("+") if g.strip())
    return key.strip(), names


def as_groups(value: str | None) -> tuple[str, ...] | None:
    """The CLI's ``--as-groups hr,finance`` (None: see everything; ``""``: no group).

    Raises:
        ZhikuError: a bad group name.
    """
    if value is None:
        return None
    return tuple(check_group(g, "--as-groups") for g in re.split(r"[,+]", value) if g.strip())
