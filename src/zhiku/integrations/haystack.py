"""A Haystack 2.x retriever component over a zhiku knowledge base (``pip install 'zhiku[haystack]'``)."""

from __future__ import annotations

from typing import Any

from haystack import Document, component, default_from_dict, default_to_dict

from zhiku.integrations import open_kb, scope_from_filters, search


@component
class ZhikuRetriever:
    """Passages from the knowledge base as Haystack ``Document``s (``id`` is the chunk id,
    ``meta`` the citation: title, doc, chapter, article, page, chunk_id, version_date, …).

    Args:
        home: the knowledge base's ZHIKU_HOME (default: the environment's).
        kb: an open KnowledgeBase instead of ``home`` (not serialised).
        top_k: passages per query.
        mode: bm25, dense or hybrid.
        filters: default filters (see :meth:`run`).
    """

    def __init__(self, home: str | None = None, kb: Any = None, top_k: int = 5, mode: str = "hybrid",
                 filters: dict[str, Any] | None = None) -> None:
        self.home, self._kb_given, self.top_k, self.mode = home, kb, top_k, mode
        self.filters = filters
        self._kb = None

    def warm_up(self) -> None:
        """Open the knowledge base (Haystack calls this before the first run)."""
        if self._kb is None:
            self._kb = open_kb(self.home, self._kb_given)

    def to_dict(self) -> dict[str, Any]:
        """Serialise (the knowledge base by its home)."""
        return default_to_dict(self, home=self.home, top_k=self.top_k, mode=self.mode, filters=self.filters)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ZhikuRetriever:
        """Deserialise."""
        return default_from_dict(cls, data)

    @component.output_types(documents=list[Document])
    def run(self, query: str, top_k: int | None = None,
            filters: dict[str, Any] | None = None) -> dict[str, list[Document]]:
        """Retrieve passages.

        Args:
            query: the question or keywords.
            top_k: passages to return (default: the component's).
            filters: ``meta.subindex`` (== or in), ``meta.doc`` (==, an id, path or title),
                ``meta.versions`` (==: current, all or a date), alone or under ``AND``.

        Returns:
            ``{"documents": [...]}`` best first, each with ``score``.

        Raises:
            ZhikuError: an empty query or an unsupported filter.
        """
        self.warm_up()
        hits = search(self._kb, query, top_k or self.top_k, self.mode,
                      **scope_from_filters(filters if filters is not None else self.filters))
        return {"documents": [Document(id=m["chunk_id"], content=text, meta=m, score=s) for text, m, s in hits]}
