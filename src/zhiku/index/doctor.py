"""Index health check: what is inconsistent, and what can be fixed safely."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Report:
    """Findings of one check; ``fixable`` problems can be repaired by ``--fix``."""

    problems: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    @property
    def healthy(self) -> bool:
        """No problem found."""
        return not any(self.problems.values())


def check(kb, fix: bool = False, progress: bool = False) -> Report:
    """Look for sections without chunks, chunks without vectors, orphaned rows, deleted
    documents waiting for compaction; with ``fix``, repair what is safe.

    Args:
        kb: the knowledge base (its store must be the LanceDB store).
        fix: delete orphans, embed missing vectors, compact deleted documents.
        progress: progress bar while embedding.

    Returns:
        The findings (after fixing, what was found before the fix).
    """
    st = kb.store
    rep = Report()
    docs = st.documents()
    doc_ids = {d.doc_id for d in docs}
    chunk_rows = st.rows("chunks", ["id", "doc_id", "section_id", "kind"])
    chunk_ids = {r["id"] for r in chunk_rows}
    searched = {r["id"] for r in chunk_rows if r["kind"] != "parent"}  # parents are quoted, not searched
    vec_rows = st.rows("vectors", ["id"])
    vec_ids = {r["id"] for r in vec_rows}
    covered = {(r["doc_id"], r["section_id"]) for r in chunk_rows}
    empty = [(d.path, s.label) for d in docs for s in d.sections
             if s.end - s.start > 80 and (d.doc_id, s.id) not in covered
             and not any(c[0] == d.doc_id and c[1].startswith(s.id + ".") for c in covered)]
    rep.problems["sections without chunks"] = len(empty)
    rep.notes += [f"{p} › {label}" for p, label in empty[:5]]
    rep.problems["chunks without vectors"] = len(searched - vec_ids) if vec_ids else 0
    if not vec_ids and chunk_ids:
        rep.notes.append("no vectors at all: keyword-only index (run `zhiku embed` for semantic search)")
    orphan_chunks = [r["id"] for r in chunk_rows if r["doc_id"] not in doc_ids]
    orphan_vecs = list(vec_ids - chunk_ids)
    rep.problems["chunks of unknown documents"] = len(orphan_chunks)
    rep.problems["vectors of unknown chunks"] = len(orphan_vecs)
    rep.problems["deleted documents awaiting compact"] = sum(1 for d in docs if d.deleted)
    rep.problems["chunks missing from the keyword index"] = st.unindexed_rows()
    if fix:
        _fix(kb, orphan_chunks, orphan_vecs, rep, progress)
    return rep


def _fix(kb, orphan_chunks: list[str], orphan_vecs: list[str], rep: Report, progress: bool) -> None:
    st = kb.store
    with st.transaction():
        st.delete_ids("chunks", orphan_chunks)
        st.delete_ids("vectors", orphan_vecs)
        if rep.problems["deleted documents awaiting compact"]:
            st.compact()
        st.build_indexes()
    if rep.problems["chunks without vectors"]:
        kb.embed_missing(progress=progress)
    rep.notes.append("fixed: orphans removed, deleted documents compacted, missing vectors embedded")
