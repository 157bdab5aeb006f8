"""Structure stage: the chapter tree of a document (Markdown headings, 编/分编/章/节)."""

from zhiku.structure.tree import build_tree, find_headings, normalize_label, rank_of

__all__ = ["build_tree", "find_headings", "normalize_label", "rank_of"]
