"""Chunk stage: articles as units, overlapping windows for prose, Chinese numerals."""

from zhiku.chunk.articles import ARTICLE_REF_RE, ARTICLE_RE, article_label, normalize_article
from zhiku.chunk.chunker import NO_SECTION, chunk_document
from zhiku.chunk.numerals import cn_to_int, int_to_cn
from zhiku.chunk.splitter import split_spans

__all__ = [
    "ARTICLE_RE",
    "ARTICLE_REF_RE",
    "NO_SECTION",
    "article_label",
    "chunk_document",
    "cn_to_int",
    "int_to_cn",
    "normalize_article",
    "split_spans",
]
