"""Question types (fact, process, comparison, synthesis) and the retrieval parameters each
one gets: rules first, then the nearest example question by embedding, else ``fact``."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from zhiku.registry import Choice


class QType(Choice):
    """What kind of answer a question wants."""

    FACT = "fact"
    PROCESS = "process"
    COMPARISON = "comparison"
    SYNTHESIS = "synthesis"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "question type"


@dataclass(frozen=True)
class QTypeParams:
    """Retrieval parameters of a question type: hits fetched per retriever
    (``candidates``), the dense weight in weighted fusion (``alpha``), passages the answer
    may use (``answer_chunks``)."""

    candidates: int | None = None
    alpha: float | None = None
    answer_chunks: int | None = None


# None = the global setting (candidates, alpha, answer_chunks). Broader questions get more evidence.
DEFAULT_PARAMS: dict[str, dict[str, Any]] = {
    "fact": {},
    "process": {"answer_chunks": 6},
    "comparison": {"candidates": 80, "answer_chunks": 8},
    "synthesis": {"candidates": 80, "answer_chunks": 8},
}

# Order matters: comparison words are the most specific, synthesis the broadest.
_RULES: tuple[tuple[QType, re.Pattern[str]], ...] = (
    (QType.COMPARISON, re.compile(r"区别|不同|差异|异同|相比|比较|对比|哪个更|\bvs\b|与.+有何")),
    (QType.PROCESS, re.compile(r"如何|怎么|怎样|流程|步骤|程序|手续|办理|申请.*[步流]|先.+再|顺序")),
    (QType.SYNTHESIS, re.compile(r"总结|概括|综述|归纳|梳理|全面|整体|有哪些规定|主要内容|哪些方面|所有")),
)

# Example questions per type for the embedding classifier (used when no rule fires).
EXAMPLES: dict[QType, tuple[str, ...]] = {
    QType.FACT: ("试用期最长多久？", "法定年龄是多少？", "罚款金额是多少？", "有效期是几年？"),
    QType.PROCESS: ("离职需要办理哪些手续？", "申请仲裁要经过哪些步骤？", "应当按照什么程序处理？"),
    QType.COMPARISON: ("劳动合同和劳务合同有什么区别？", "两部法律的规定有何不同？", "新旧版本相比改了什么？"),
    QType.SYNTHESIS: ("总结一下关于加班的全部规定", "概括劳动者享有的权利", "梳理用人单位的各项义务"),
}


def check_params(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """Validate one ``[qtypes.NAME]`` table.

    Raises:
        ValueError: an unknown key or an out-of-range value.
    """
    params = dict(params)
    if "top_k" in params:  # the old name of candidates (configs written before it was renamed)
        params.setdefault("candidates", params.pop("top_k"))
    bad = sorted(set(params) - {"candidates", "alpha", "answer_chunks"})
    if bad:
        raise ValueError(f"qtypes.{name} has unknown keys {bad}; valid keys: candidates, alpha, answer_chunks")
    for key in ("candidates", "answer_chunks"):
        if key in params and int(params[key]) < 1:
            raise ValueError(f"qtypes.{name}.{key} must be at least 1")
    if "alpha" in params and not 0.0 <= float(params["alpha"]) <= 1.0:
        raise ValueError(f"qtypes.{name}.alpha must lie between 0 and 1")
    return dict(params)


def params_for(cfg: Any, qtype: str) -> QTypeParams:
    """The parameters of ``qtype``: built-in defaults overridden by ``[qtypes.NAME]``.

    Args:
        cfg: the Config.
        qtype: a question type name.

    Returns:
        The parameters; a None field means the global setting applies.
    """
    merged = {**DEFAULT_PARAMS.get(qtype, {}), **cfg.qtypes.get(qtype, {})}
    return QTypeParams(**merged)


def classify_rules(question: str) -> QType | None:
    """The type a rule assigns (case and width normalised), or None when none fires."""
    q = unicodedata.normalize("NFKC", question).lower()
    for qtype, pattern in _RULES:
        if pattern.search(q):
            return qtype
    return None


_EXAMPLE_VECS: dict[str, list[tuple[QType, np.ndarray]]] = {}  # per embedder name


class QTypeClassifier:
    """Rules, then the nearest example question by cosine (``embedder`` given), else fact;
    with ``cache_path`` the examples' vectors are kept in that vector cache."""

    def __init__(self, embedder: Any = None, margin: float = 0.02, cache_path: Path | None = None) -> None:
        self.embedder = embedder
        self.margin = margin
        self.cache_path = cache_path
        self._vecs: list[tuple[QType, np.ndarray]] | None = None

    def _examples(self) -> list[tuple[QType, np.ndarray]]:
        if self._vecs is None:
            name = getattr(self.embedder, "name", "")
            if name not in _EXAMPLE_VECS:
                pairs = [(t, q) for t, qs in EXAMPLES.items() for q in qs]
                # questions against questions: both sides get the query form
                _EXAMPLE_VECS[name] = list(zip([t for t, _ in pairs], self._encode([q for _, q in pairs])))
            self._vecs = _EXAMPLE_VECS[name]
        return self._vecs

    def _encode(self, questions: list[str]) -> list[np.ndarray]:
        if self.cache_path is None:
            return [self.embedder.embed_query(q) for q in questions]
        from zhiku.embed.base import queries_through_cache

        return queries_through_cache(self.embedder, self.cache_path, questions)

    def classify(self, question: str, qvec: np.ndarray | None = None) -> tuple[QType, str]:
        """The question's type and how it was decided (``rule``, ``embedding``, ``default``).

        Args:
            question: the question.
            qvec: the question's query vector, when the router already made one.
        """
        hit = classify_rules(question)
        if hit is not None:
            return hit, "rule"
        if self.embedder is None or qvec is None:
            return QType.FACT, "default"
        best: dict[QType, float] = {}
        for t, v in self._examples():
            best[t] = max(best.get(t, -1.0), float(np.dot(qvec, v)))
        ranked = sorted(best.items(), key=lambda kv: -kv[1])
        if ranked[0][0] is not QType.FACT and ranked[0][1] - best[QType.FACT] >= self.margin:
            return ranked[0][0], "embedding"
        return QType.FACT, "embedding"
