"""Turn a verified draft (or a refusal) into the final Answer: conflict and version notes,
confidence adjusted by verification, the low-confidence mark, and what was searched."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from zhiku.answer.respond import Verified, conflict_notes
from zhiku.types import Answer, Hit, TraceStep


def searched_summary(kb: Any, terms: Sequence[str], hits: Sequence[Hit], n: int = 3) -> str:
    """What a refusal searched: how many documents, which terms, the closest passages.

    Args:
        kb: the knowledge base.
        terms: the question's content terms.
        hits: the ranked candidates that were not good enough.
        n: how many closest passages to name.

    Returns:
        One sentence, e.g. 「检索了 6 份文档中的「工资、拖欠」；最接近的段落：《劳动法》第五十条。」
    """
    docs = kb.store.count().get("documents", 0)
    shown = "、".join(terms[:6]) or "（无关键词）"
    near = []
    for h in hits:
        c = h.chunk
        label = f"《{c.title or c.doc_path}》" + (c.article or (c.section_path[-1] if c.section_path else ""))
        if label not in near:
            near.append(label)
        if len(near) >= n:
            break
    tail = f"；最接近的段落：{'、'.join(near)}，但不足以回答" if near else "；没有找到相关段落"
    return f"检索了 {docs} 份文档中的「{shown}」{tail}。"


def refusal(kb: Any, question: str, terms: Sequence[str], considered: tuple[Hit, ...], conf: float,
            reason: str, trace: Sequence[TraceStep], generator: str = "extractive") -> Answer:
    """The refusal answer: the configured sentence, why, and what was searched."""
    cfg = kb.config
    return Answer(question, cfg.refusal_text, (), conf, True, considered, tuple(trace), reason,
                  low_confidence=conf < cfg.low_confidence,
                  searched=searched_summary(kb, terms, considered), generator=generator)


def finish(kb: Any, question: str, terms: Sequence[str], draft: Verified, conf: float, why: str,
           considered: tuple[Hit, ...], trace: Sequence[TraceStep], notes: Sequence[str]) -> Answer:
    """The final answer from a verified draft.

    Confidence is the retrieval confidence scaled by the share of checked sentences that
    survived verification (``conf × (0.5 + 0.5 × kept/checked)``); an answer with nothing
    verifiable left is a refusal.

    Args:
        kb: the knowledge base.
        question: the question.
        terms: the question's content terms (for a refusal's summary).
        draft: the verified draft.
        conf: retrieval confidence.
        why: its explanation.
        considered: the candidates shown with the answer.
        trace: every stage so far.
        notes: version notes for the cited documents.
    """
    cfg = kb.config
    if draft.refused:
        reason = ("the model said the evidence does not hold the answer" if draft.generator == "llm"
                  and not draft.removed else "no statement of the draft could be verified against the evidence")
        ans = refusal(kb, question, terms, considered, conf * 0.5, reason, trace, draft.generator)
        return _with(ans, draft)
    share = draft.kept / draft.checked if draft.checked else 1.0
    conf = conf * (0.5 + 0.5 * min(share, 1.0))
    text = "\n".join([draft.text, *conflict_notes(draft.conflicts), *notes])
    if draft.removed:
        why += f"；核验删除或标注了 {len(draft.removed)} 处"
    return Answer(question, text, draft.citations, conf, False, considered, tuple(trace), why,
                  removed=draft.removed, conflicts=draft.conflicts,
                  low_confidence=conf < cfg.low_confidence, generator=draft.generator)


def _with(ans: Answer, draft: Verified) -> Answer:
    from dataclasses import replace

    return replace(ans, removed=draft.removed)
