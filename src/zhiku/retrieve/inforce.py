"""The version in force first: over every version of a law, the blocks of a version no longer
in force rank behind those of the version that is (retrieval's candidates and an answer's
evidence alike)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from zhiku.types import Hit


def in_force_first(kb: Any, evidence: Sequence[Hit], day: str | None = None,
                   named: Collection[str] = ()) -> list[Hit]:
    """The evidence with every block of a version no longer in force on ``day`` (default
    today) moved behind the others when a version of the same law in force then is also in
    the evidence: a question that names no version asks about the law as it stands (both
    versions are searched under ``versions="all"``, and often word the clause alike: the
    2018 公司法's 第三十三条 outscores the 2023 第五十七条 by a hair). The old blocks stay,
    last; a law whose version in force is not among them keeps its old blocks in place. A law
    repealed by another under a new name (公司登记管理条例 by 市场主体登记管理条例, see
    :func:`zhiku.index.versions.repealed_by_name`) goes behind the law that repealed it alike,
    unless the question names it (``named``) and names no version of it in force. What only
    applied a law repealed by name (an interpretation of 婚姻法, ended with it: see
    :func:`orphaned`) goes behind every block in force: no text in force is its successor
    under its own name (民法典 is eight documents, 附则 the one that repeals).

    Args:
        kb: the knowledge base (its document records: law key, effective and expiry dates).
        evidence: the blocks (or ranked candidates), best first.
        day: ``YYYY-MM-DD``.
        named: the documents the question names.

    Returns:
        The same hits, the superseded ones last (each group in its own order).
    """
    import datetime as dt

    from zhiku.index.versions import in_force

    day = day or dt.date.today().isoformat()
    docs = [kb.store.get_doc(h.chunk.doc_id) for h in evidence]
    laws = {d.law_key for d in docs if d is not None and in_force(d, day)}
    asked = [d for d in map(kb.store.get_doc, named) if d is not None]
    current = {d.law_key for d in asked if in_force(d, day)}
    kept = {d.doc_id for d in asked if d.law_key not in current}  # 按照环境噪声污染防治法…
    old = {i for i, d in enumerate(docs) if d is not None and d.law_key and d.expiry
           and d.expiry <= day and d.doc_id not in kept
           and ((laws and orphaned(kb, d, day)) or not laws.isdisjoint(successors(kb, d)))}
    return [h for i, h in enumerate(evidence) if i not in old] + [evidence[i] for i in sorted(old)]


def successors(kb: Any, doc: Any, steps: int = 8) -> set[str]:
    """The law keys that replaced ``doc``: its own (a later version) and, following
    ``superseded_by``, those of the laws that repealed it by name (公司登记管理条例 →
    市场主体登记管理条例)."""
    keys = {doc.law_key}
    paths = kb.doc_paths() if doc.superseded_by else {}
    while doc is not None and doc.superseded_by and steps:
        doc, steps = paths.get(doc.superseded_by), steps - 1
        if doc is not None:
            keys.add(doc.law_key)
    return keys


def orphaned(kb: Any, doc: Any, day: str) -> bool:
    """Whether the law ``doc`` applies (metadata ``applies``: an interpretation of 婚姻法, the
    实施条例 of 中外合资经营企业法) has ended by ``day`` (ISO date): a document repeals it by
    name and none titled as it is in force that day (see
    :func:`zhiku.index.versions.dependents`). A later version of the interpretation itself is
    no such end (刑事诉讼法's, 2012 → 2021)."""
    law = doc.metadata.get("applies")
    return isinstance(law, str) and law in _ended_laws(kb.doc_paths(), day)


_ENDED: list[Any] = [None, "", frozenset()]  # the document records and day read last, their ended laws


def _ended_laws(paths: dict[str, Any], day: str) -> frozenset[str]:
    """The titles (:func:`zhiku.ingest.repeals.title_key`) some document repeals by name and
    no document in force on ``day`` holds, read once per generation of the knowledge base and
    day (a server running past midnight, or a search as of another date, reads them again)."""
    from zhiku.index.versions import in_force
    from zhiku.ingest.repeals import title_key

    if _ENDED[0] is not paths or _ENDED[1] != day:
        named = {title_key(str(t)) for d in paths.values() for t in d.metadata.get("repeals") or ()}
        _ENDED[:] = [paths, day, frozenset(named - {title_key(d.title) for d in paths.values() if in_force(d, day)})]
    return _ENDED[2]


def ended(kb: Any, doc_ids: Collection[str], versions: str) -> bool:
    """Whether every named document has ended by the day a search's ``versions`` selects
    (``current``: today; a date) — superseded, or repealed by another law under its own name —
    so that a search in force then would not see the law the question names at all (按照环境噪声
    污染防治法…: searched all the same, the answer saying it is no longer in force)."""
    import datetime as dt

    if not doc_ids or versions == "all":
        return False
    day = dt.date.today().isoformat() if versions == "current" else versions
    docs = [kb.store.get_doc(i) for i in doc_ids]
    return all(d is not None and d.expiry and d.expiry <= day for d in docs)
