"""A term dictionary for keyword search: colloquial words map to the terms documents use
(报账 → 报销), from a small built-in table and a user-editable TOML file."""

from __future__ import annotations

import threading
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.retrieve.segment import normalise

# canonical term → variants people write instead. Kept small and unambiguous on purpose:
# a variant that documents use themselves (年假 in a company handbook) must not be here,
# or questions are steered to the formal term's documents (带薪年休假 in 劳动法). The
# user's file (``synonyms`` setting) adds to it or overrides an entry.
BUILTIN: dict[str, tuple[str, ...]] = {
    "报销": ("报账", "报帐"),
    "劳动报酬": ("薪水", "薪资", "薪酬"),
    "解除劳动合同": ("辞退", "开除", "炒鱿鱼"),
    "延长工作时间": ("加班",),
    "经济补偿": ("遣散费", "补偿金"),
}


@dataclass(frozen=True)
class Synonyms:
    """Variant → canonical term, longest variants matched first."""

    table: dict[str, str]

    def canonical(self, text: str) -> tuple[str, dict[str, str]]:
        """``text`` with every variant replaced by its canonical term.

        Args:
            text: a question.

        Returns:
            The rewritten text and the replacements made (variant → canonical).
        """
        out = normalise(text)
        used: dict[str, str] = {}
        for v in sorted(self.table, key=len, reverse=True):
            c = self.table[v]
            if v in out and c not in out:
                out = out.replace(v, c)
                used[v] = c
        return out, used


def parse(data: dict[str, Any], source: str) -> dict[str, str]:
    """Variant → canonical from a ``[synonyms]`` table (canonical = [variants]).

    Raises:
        ZhikuError: the table has the wrong shape.
    """
    table = data.get("synonyms", {})
    if not isinstance(table, dict):
        raise ZhikuError(f"{source}: [synonyms] must be a table like \"报销\" = [\"报账\", \"报帐\"]")
    out: dict[str, str] = {}
    for canon, variants in table.items():
        if isinstance(variants, str):
            variants = [variants]
        if not isinstance(variants, list) or not all(isinstance(v, str) and v for v in variants):
            raise ZhikuError(f"{source}: synonyms.{canon} must be a list of words, "
                             f"e.g. \"{canon}\" = [\"…\"]")
        for v in variants:
            out[normalise(v)] = normalise(canon)
    return out


_cache: dict[tuple[str, float, bool], Synonyms] = {}
_lock = threading.Lock()


def load_synonyms(cfg: Any) -> Synonyms:
    """The built-in table (unless ``builtin_synonyms`` is off) merged with the user's file
    (re-read when the file changes).

    Args:
        cfg: the zhiku Config (``synonyms_path``, ``builtin_synonyms``).

    Raises:
        ZhikuError: the file is not valid TOML or has the wrong shape.
    """
    path: Path = cfg.synonyms_path
    mtime = path.stat().st_mtime if path.is_file() else -1.0
    builtin = bool(getattr(cfg, "builtin_synonyms", True))
    key = (str(path), mtime, builtin)
    with _lock:
        if key in _cache:
            return _cache[key]
    table = {normalise(v): c for c, vs in BUILTIN.items() for v in vs} if builtin else {}
    if mtime >= 0:
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as e:
            raise ZhikuError(f"cannot read the term dictionary {path}: {e}; fix it (keys in quotes: "
                             f"\"报销\" = [\"报账\"]) or remove it") from e
        user = parse(data, str(path))
        # an entry in the user's file replaces the built-in entry of that canonical term
        table = {v: c for v, c in table.items() if c not in set(user.values())} | user
    syn = Synonyms(table)
    with _lock:
        _cache[key] = syn
    return syn
