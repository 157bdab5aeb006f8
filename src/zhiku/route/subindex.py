"""Named sub-indexes (one per top-level folder, or declared in config with globs), their
generated summaries, and the scope each one searches."""

from __future__ import annotations

import fnmatch
import json
import re
from collections import Counter
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError
from zhiku.index.store import DocRecord, Scope
from zhiku.types import content_hash

_DATE = re.compile(r"[（(]\d{4}-\d{2}-\d{2}[)）]")
_NUMBERED = re.compile(r"^第[零〇一二两三四五六七八九十百千\d]+[编章节部分]\s*|^[一二三四五六七八九十]+、\s*")
_PREFIX = "中华人民共和国"
TITLES_IN_SUMMARY = 20
TITLES_EMBEDDED = 400


@dataclass(frozen=True)
class SubIndex:
    """One searchable collection of documents and what it is for.

    ``declared`` sub-indexes come from ``[subindexes.NAME] globs`` and search their
    ``doc_ids``; the others are top-level folders and search the ``subindex`` column.
    """

    name: str
    summary: str
    n_docs: int
    titles: tuple[str, ...]
    headings: tuple[str, ...]
    declared: bool = False
    doc_ids: tuple[str, ...] = ()
    overridden: bool = False

    def scope(self, base: Scope) -> Scope | None:
        """``base`` limited to this sub-index (None when nothing is left).

        Args:
            base: the caller's scope (documents, versions, sections).
        """
        if not self.declared:
            if base.subindexes and self.name not in base.subindexes:
                return None
            return replace(base, subindexes=(self.name,))
        ids = self.doc_ids
        if base.doc_ids:
            ids = tuple(d for d in ids if d in base.doc_ids)
        return replace(base, doc_ids=ids) if ids else None


def short_title(doc: DocRecord) -> str:
    """A document's title without the country prefix and version date."""
    title = (doc.title or doc.path.rsplit("/", 1)[-1].rsplit(".", 1)[0]).strip()
    return _DATE.sub("", title.replace(_PREFIX, "")).strip()


def _heading(label: str) -> str:
    return _NUMBERED.sub("", label).strip()


def _members(cfg: Any, docs: list[DocRecord]) -> dict[str, tuple[bool, list[DocRecord]]]:
    groups: dict[str, tuple[bool, list[DocRecord]]] = {}
    for d in docs:
        groups.setdefault(d.subindex, (False, []))[1].append(d)
    for name, opts in cfg.subindexes.items():
        globs = opts.get("globs") or ()
        globs = [globs] if isinstance(globs, str) else list(globs)
        if not globs:
            continue
        hit = [d for d in docs if any(fnmatch.fnmatch(p, g) for g in globs for p in (d.path, *d.aliases))]
        groups[name] = (True, hit)
    return groups


def build_catalog(cfg: Any, docs: list[DocRecord]) -> list[SubIndex]:
    """Sub-indexes of the given documents with generated (or configured) summaries.

    The draft summary names the collection, its largest documents and its most frequent
    chapter headings (those common to most sub-indexes left out), what it is for and
    which other sub-indexes it is not for.

    Args:
        cfg: the Config (``subindexes`` declarations and summary overrides).
        docs: the stored documents (deleted ones are skipped).

    Returns:
        The sub-indexes sorted by name.
    """
    docs = [d for d in docs if not d.deleted]
    groups = _members(cfg, docs)
    heads: dict[str, Counter[str]] = {}
    for name, (_, members) in groups.items():
        # sorted, so headings of equal count keep one order and the summary one text
        heads[name] = Counter(h for d in members for h in sorted({_heading(s.label) for s in d.sections
                                                                   if s.level == 1}) if 1 < len(h) <= 12)
    spread = Counter(h for c in heads.values() for h in c)
    common = {h for h, n in spread.items() if len(groups) > 2 and n * 2 >= len(groups)}
    out = []
    for name, (declared, members) in sorted(groups.items()):
        members = sorted(members, key=lambda d: (-d.n_chunks, d.path))
        titles = tuple(dict.fromkeys(short_title(d) for d in members))
        headings = tuple(h for h, _ in heads[name].most_common(40) if h not in common)[:12]
        override = (cfg.subindexes.get(name) or {}).get("summary")
        others = [n for n in sorted(groups) if n != name][:8]
        summary = override or _draft(name, len(members), titles, headings, others)
        out.append(SubIndex(name, summary, len(members), titles[:TITLES_EMBEDDED], headings,
                            declared, tuple(d.doc_id for d in members) if declared else (),
                            bool(override)))
    return out


def _draft(name: str, n: int, titles: tuple[str, ...], headings: tuple[str, ...],
           others: list[str]) -> str:
    parts = [f"{name}：共 {n} 篇文档，包括{'、'.join(f'《{t}》' for t in titles[:TITLES_IN_SUMMARY])}"
             + ("等" if len(titles) > TITLES_IN_SUMMARY else "") + "。"]
    if headings:
        parts.append(f"主要章节：{'、'.join(headings)}。")
    parts.append(f"用于回答与{'、'.join(titles[:5])}有关的问题。")
    if others:
        parts.append(f"不适用于{'、'.join(others)}方面的问题。")
    return "".join(parts)


def signature(cfg: Any, docs: list[DocRecord]) -> str:
    """Changes whenever a document is added, changed, moved or deleted, or the
    ``subindexes`` configuration changes."""
    live = sorted(f"{d.doc_id}|{d.path}|{','.join(d.aliases)}" for d in docs if not d.deleted)
    return content_hash(json.dumps(cfg.subindexes, sort_keys=True, ensure_ascii=False), *live)


def catalog_path(cfg: Any) -> Path:
    """Where the generated sub-index summaries are kept."""
    return cfg.home / "route" / "subindexes.json"


def load_catalog(cfg: Any, docs: list[DocRecord], write: bool = True) -> list[SubIndex]:
    """The sub-index catalog, regenerated (and saved) when the documents changed.

    Args:
        cfg: the Config.
        docs: the stored documents.
        write: save a regenerated catalog under ``$ZHIKU_HOME/route``.

    Raises:
        ZhikuError: the catalog file cannot be written.
    """
    sig = signature(cfg, docs)
    path = catalog_path(cfg)
    if path.is_file():
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("signature") == sig:
                return [SubIndex(**{k: tuple(v) if isinstance(v, list) else v for k, v in s.items()})
                        for s in data["subindexes"]]
        except (OSError, ValueError, TypeError, KeyError):
            pass  # unreadable or from an older layout: regenerate
    subs = build_catalog(cfg, docs)
    if write and docs:
        try:
            from zhiku.atomic import write_text

            write_text(path, json.dumps({"signature": sig, "subindexes": [asdict(s) for s in subs]},
                                        ensure_ascii=False, indent=1))
        except OSError as e:
            raise ZhikuError(f"cannot write the sub-index summaries to {path}: {e}; "
                             "check that ZHIKU_HOME is writable") from e
    return subs
