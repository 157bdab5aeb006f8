"""Index health check: what is inconsistent, and what can be fixed safely."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Check:
    """One check: how many problems it found, examples of them (``notes``), and with
    ``--fix`` what was done about them (``fixed``, empty when nothing was done)."""

    name: str
    found: int = 0
    notes: list[str] = field(default_factory=list)
    fixed: str = ""


@dataclass
class Report:
    """The checks in order; ``problems`` maps each check's name to what it found."""

    checks: list[Check] = field(default_factory=list)

    @property
    def problems(self) -> dict[str, int]:
        """Check name -> problems found (before any fix)."""
        return {c.name: c.found for c in self.checks}

    @property
    def healthy(self) -> bool:
        """No problem found."""
        return not any(c.found for c in self.checks)

    def add(self, name: str, found: int, notes: list[str] | None = None) -> Check:
        """Record a check's findings."""
        c = Check(name, found, list(notes or []))
        self.checks.append(c)
        return c

    def get(self, name: str) -> Check:
        """The check of this name."""
        return next(c for c in self.checks if c.name == name)


def check(kb, fix: bool = False, progress: bool = False) -> Report:
    """Look for sections without chunks, chunks without vectors, orphaned rows, deleted
    documents waiting for compaction; with ``fix``, repair what is safe.

    Args:
        kb: the knowledge base.
        fix: delete orphans, embed missing vectors, compact deleted documents.
        progress: progress bar while embedding.

    Returns:
        The findings (what was found before the fix), each check with what ``fix`` did.
    """
    st = kb.store
    rep = Report()
    docs = st.documents()
    doc_ids = {d.doc_id for d in docs}
    chunk_rows = st.rows("chunks", ["id", "doc_id", "section_id", "kind"])
    chunk_ids = {r["id"] for r in chunk_rows}
    searched = {r["id"] for r in chunk_rows if r["kind"] != "parent"}  # parents are quoted, not searched
    vec_ids = {r["id"] for r in st.rows("vectors", ["id"])}
    covered = {(r["doc_id"], r["section_id"]) for r in chunk_rows}
    empty = [(d.path, s.label) for d in docs for s in d.sections
             if s.end - s.start > 80 and (d.doc_id, s.id) not in covered
             and not any(c[0] == d.doc_id and c[1].startswith(s.id + ".") for c in covered)]
    rep.add("sections without chunks", len(empty), [f"{p} › {label}" for p, label in empty[:5]])
    rep.add("chunks without vectors", len(searched - vec_ids) if vec_ids else 0,
            ["no vectors at all: keyword-only index (run `zhiku embed` for semantic search)"]
            if not vec_ids and chunk_ids else [])
    orphan_chunks = [r["id"] for r in chunk_rows if r["doc_id"] not in doc_ids]
    orphan_vecs = list(vec_ids - chunk_ids)
    rep.add("chunks of unknown documents", len(orphan_chunks))
    rep.add("vectors of unknown chunks", len(orphan_vecs))
    rep.add("deleted documents awaiting compact", sum(1 for d in docs if d.deleted))
    rep.add("chunks missing from the keyword index", st.unindexed_rows(due_only=True))
    if fix and not rep.healthy:
        _fix(kb, orphan_chunks, orphan_vecs, rep, progress)
    return rep


def _fix(kb, orphan_chunks: list[str], orphan_vecs: list[str], rep: Report, progress: bool) -> None:
    """Repair what is safe; each check records what was done for it, nothing else."""
    st = kb.store
    compact = rep.get("deleted documents awaiting compact")
    unindexed = rep.get("chunks missing from the keyword index")
    with st.transaction():
        if orphan_chunks:
            st.delete_ids("chunks", orphan_chunks)
            rep.get("chunks of unknown documents").fixed = f"removed {len(orphan_chunks)} chunks"
        if orphan_vecs:
            st.delete_ids("vectors", orphan_vecs)
            rep.get("vectors of unknown chunks").fixed = f"removed {len(orphan_vecs)} vectors"
        if compact.found:
            st.compact()
            compact.fixed = f"compacted {compact.found} documents"
        if orphan_chunks or compact.found or unindexed.found:
            st.build_indexes()
            if unindexed.found:
                unindexed.fixed = "rebuilt the keyword index"
    missing = rep.get("chunks without vectors")
    if missing.found:
        missing.fixed = f"embedded {kb.embed_missing(progress=progress)} chunks"
