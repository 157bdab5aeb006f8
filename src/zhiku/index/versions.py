"""Versions of one document: link files of the same law, derive effective and expiry dates."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from zhiku.ingest.repeals import title_key

_DATE = re.compile(r"[（(]\d{4}-\d{2}-\d{2}[)）]")


@dataclass(frozen=True)
class VersionInfo:
    """Where one document stands among the versions of the same law or policy."""

    law_key: str
    effective: str | None
    expiry: str | None
    supersedes: str | None
    superseded_by: str | None


def law_key(path: str, title: str, dated: bool, law: str | None = None) -> str:
    """Identity shared by every version of a document: an explicit ``law`` name (from a
    sidecar), else its title, else its file name without the date suffix. Undated
    documents are their own single version."""
    if law:
        return "law:" + law
    if not dated:
        return "path:" + path
    stem = _DATE.sub("", path.rsplit("/", 1)[-1].rsplit(".", 1)[0])
    return "title:" + (title.strip() or stem)


def effective_date(version_date: str | None, metadata: dict) -> str | None:
    """The day a version takes effect: a stated 施行 date on or after the version date,
    else the version date itself."""
    eff = metadata.get("effective") if isinstance(metadata, dict) else None
    if isinstance(eff, str) and version_date and eff >= version_date:
        return eff
    return version_date or (eff if isinstance(eff, str) else None)


def link(records: Iterable[tuple[str, str, str, str | None, dict]]) -> dict[str, VersionInfo]:
    """Link versions: each version expires when the next one takes effect.

    Args:
        records: (doc_id, path, title, version_date, metadata) for every document.

    Returns:
        doc_id → VersionInfo. Versions sharing a date are all in force together. A document
        whose metadata ``repeals`` names another's title (「《X》同时废止」) ends X: each version
        of X in force before the repealer takes effect expires then, the last one superseded
        by the repealer (see :func:`repealed_by_name`); so do the interpretations and
        implementing rules of X while no document titled X is in force (see :func:`dependents`).
    """
    records = list(records)
    groups: dict[str, list[tuple[str, str, str | None]]] = {}
    explicit: dict[str, str] = {}
    for doc_id, path, title, vdate, meta in records:
        if isinstance((meta or {}).get("expiry"), str):
            explicit[doc_id] = meta["expiry"]
        key = law_key(path, title, bool(vdate), (meta or {}).get("law"))
        groups.setdefault(key, []).append((doc_id, path, effective_date(vdate, meta or {})))
    out: dict[str, VersionInfo] = {}
    for key, members in groups.items():
        dates = sorted({d for _, _, d in members if d})
        for doc_id, path, eff in members:
            later = [d for d in dates if eff and d > eff]
            earlier = [d for d in dates if eff and d < eff]
            nxt = later[0] if later else None
            prev = earlier[-1] if earlier else None
            expiry = min(d for d in (nxt, explicit.get(doc_id)) if d) if (nxt or doc_id in explicit) else None
            out[doc_id] = VersionInfo(
                law_key=key, effective=eff, expiry=expiry,
                supersedes=_path_at(members, prev), superseded_by=_path_at(members, nxt),
            )
    return dependents(records, repealed_by_name(records, out, set(explicit)), set(explicit))


def repealed_by_name(records: list[tuple[str, str, str, str | None, dict]],
                     info: dict[str, VersionInfo], explicit: set[str]) -> dict[str, VersionInfo]:
    """Give the documents another one repeals by name (metadata ``repeals``: titles) its
    effective date as expiry and its path as ``superseded_by``. A title resolves to the
    documents with the same title (with or without 中华人民共和国, either brackets — never a
    fuzzy match) of another law key that took effect before the repealer; a stated
    ``expiry`` (sidecar, metadata) is left as it is."""
    by_title: dict[str, list[tuple[str, str]]] = {}
    repealers = []
    for doc_id, path, title, _, meta in records:
        by_title.setdefault(title_key(title), []).append((doc_id, path))
        names = (meta or {}).get("repeals")
        if isinstance(names, list) and info[doc_id].effective:
            repealers.append((info[doc_id].effective, path, doc_id, names))
    for eff, path, rid, names in sorted(repealers):  # the earliest repealer wins
        for name in names:
            for doc_id, _ in by_title.get(title_key(str(name)), ()):
                old = info[doc_id]
                if (doc_id in explicit or old.law_key == info[rid].law_key
                        or (old.effective and old.effective >= eff) or (old.expiry and old.expiry <= eff)):
                    continue
                info[doc_id] = replace(old, expiry=eff, superseded_by=old.superseded_by or path)
    return info


def dependents(records: list[tuple[str, str, str, str | None, dict]],
               info: dict[str, VersionInfo], explicit: set[str]) -> dict[str, VersionInfo]:
    """End with a repealed law what exists only to apply it: a document whose metadata
    ``applies`` names a law (a judicial interpretation 「关于适用《X》…的解释」, X's 实施细则; see
    :func:`zhiku.ingest.repeals.applied_law`) that a document repeals by name, while no
    document titled X is in force, expires on the repealer's effective date and is superseded
    by it, as X is. A law only amended (刑事诉讼法 2012 → 2018) is repealed by no one: its
    interpretations stand; a stated ``expiry`` is left as it is."""
    titled: dict[str, list[str]] = {}
    ends: dict[str, tuple[str, str, str]] = {}  # repealed title → the earliest repealer
    for doc_id, path, title, _, meta in records:
        titled.setdefault(title_key(title), []).append(doc_id)
        eff = info[doc_id].effective
        for name in (meta or {}).get("repeals") or () if eff else ():
            key = title_key(str(name))
            if key not in ends or (eff, path) < ends[key][:2]:
                ends[key] = (eff, path, doc_id)
    for doc_id, _, _, _, meta in records:
        law = (meta or {}).get("applies")
        if not isinstance(law, str) or law not in ends or doc_id in explicit:
            continue
        eff, path, rid = ends[law]
        old = info[doc_id]
        if (any(not info[i].expiry for i in titled.get(law, ())) or old.law_key == info[rid].law_key
                or (old.effective and old.effective >= eff) or (old.expiry and old.expiry <= eff)):
            continue
        info[doc_id] = replace(old, expiry=eff, superseded_by=old.superseded_by or path)
    return info


def _path_at(members: list[tuple[str, str, str | None]], date: str | None) -> str | None:
    if date is None:
        return None
    return sorted(p for _, p, d in members if d == date)[0]


def in_force(info: VersionInfo, day: str) -> bool:
    """Whether a version is in force on ``day`` (YYYY-MM-DD)."""
    if info.effective and info.effective > day:
        return False
    return not (info.expiry and info.expiry <= day)
