"""A LangChain retriever over a zhiku knowledge base (``pip install 'zhiku[langchain]'``)."""

from __future__ import annotations

from typing import Any

from langchain_core.callbacks import CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.retrievers import BaseRetriever
from pydantic import ConfigDict, Field, PrivateAttr

from zhiku.integrations import open_kb, search


class ZhikuRetriever(BaseRetriever):
    """Passages from the knowledge base as LangChain ``Document``s; ``metadata`` holds the
    citation: ``title``, ``doc`` (path), ``chapter``, ``article``, ``page``, ``chunk_id``,
    ``doc_id``, ``section_id``, ``version_date``, ``citation`` (one line) and ``score``.

    Args:
        home: the knowledge base's ZHIKU_HOME (default: the environment's).
        kb: an open KnowledgeBase instead of ``home``.
        k: passages per query (``invoke(query, k=3)`` overrides it).
        mode: bm25, dense or hybrid.
        subindex: only these sub-indexes.
        doc: only this document (id, path or title).
        versions: current, all, or a date YYYY-MM-DD.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)
    home: str | None = None
    kb: Any = Field(default=None, exclude=True)
    k: int = Field(default=5, ge=1, le=50)
    mode: str = "hybrid"
    subindex: list[str] = Field(default_factory=list)
    doc: str | None = None
    versions: str = "current"
    _kb: Any = PrivateAttr(default=None)

    def _open(self):
        if self._kb is None:
            self._kb = open_kb(self.home, self.kb)
        return self._kb

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun,
                                k: int | None = None) -> list[Document]:
        hits = search(self._open(), query, k or self.k, self.mode, self.subindex, self.doc, self.versions)
        return [Document(page_content=text, metadata=meta, id=meta["chunk_id"]) for text, meta, _ in hits]
