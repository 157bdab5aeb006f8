"""Prompts for cited LLM answers: one instruction per question type, evidence as numbered
blocks with document › chapter › article and version."""

from __future__ import annotations

from collections.abc import Sequence

from zhiku.route.qtype import QType  # noqa: F401  (re-exported: prompts are keyed by it)
from zhiku.types import Hit

MAX_BLOCK = 1200  # characters of one block shown to the model


SYSTEM = (
    "你是企业知识库问答助手。只依据下面给出的编号证据块回答，不使用任何其他知识。\n"
    "规则：\n"
    "1. 每句陈述后紧跟支持它的证据块编号，如「试用期最长六个月[1]。」；一句由多个块支持时写[1][2]。\n"
    "2. 只能引用给出的编号；不要编造条款号、数字、日期或文件名，条款号必须与证据块中的一致。\n"
    "3. 如果证据块之间相互矛盾（例如同一文件的两个版本、两个部门的规定不同），明确指出矛盾并分别引用双方。\n"
    "4. 如果证据不足以回答，只输出这一句：{refusal}\n"
    "5. 用简体中文，简洁，不要复述问题，不要输出证据块以外的推测。"
)

INSTRUCTIONS = {
    QType.FACT: "这是一个事实类问题：用一到三句话直接给出答案，并引用出处。",
    QType.PROCESS: "这是一个流程类问题：按先后顺序分步骤回答（1. 2. 3.），每一步都引用出处。",
    QType.COMPARISON: "这是一个比较类问题：逐项对比各方的规定，指出相同点和不同点，每一项都引用出处。",
    QType.SYNTHESIS: "这是一个综合类问题：汇总多个证据块的相关规定，分点归纳，每一点都引用出处。",
}


def block_label(hit: Hit) -> str:
    """A block's place: document › chapter › article, then page and version."""
    c = hit.chunk
    parts = [c.title or c.doc_path, *[s for s in c.section_path if s]]
    if c.article and c.article not in parts:
        parts.append(c.article)
    label = " › ".join(parts)
    if c.page is not None:
        label += f"（第 {c.page} 页）"
    if c.version_date:
        label += f"（{c.version_date} 版）"
    return label


def evidence_blocks(hits: Sequence[Hit]) -> str:
    """The evidence as numbered blocks, ``[n] label`` then the text."""
    out = []
    for i, h in enumerate(hits, 1):
        text = h.chunk.text if len(h.chunk.text) <= MAX_BLOCK else h.chunk.text[:MAX_BLOCK] + "……"
        out.append(f"[{i}] {block_label(h)}\n{text}")
    return "\n\n".join(out)


def answer_messages(question: str, hits: Sequence[Hit], qtype: QType | str = QType.FACT,
                    refusal: str = "知识库中未找到相关内容") -> list[dict[str, str]]:
    """Chat messages asking for a cited answer from ``hits``.

    Args:
        question: the user's question.
        hits: evidence, numbered from 1 in this order.
        qtype: question type choosing the instruction.
        refusal: the exact sentence to answer with when the evidence does not hold the answer.

    Returns:
        A system and a user message.

    Raises:
        ZhikuError: ``qtype`` is not a known question type.
    """
    qt = QType.from_str(qtype) if isinstance(qtype, str) else qtype
    user = (f"证据块：\n\n{evidence_blocks(hits)}\n\n{INSTRUCTIONS[qt]}\n\n问题：{question}")
    return [{"role": "system", "content": SYSTEM.format(refusal=refusal)},
            {"role": "user", "content": user}]


JUDGE = (
    "判断每条陈述是否被其后给出的证据完整支持（陈述中的事实、数字、条款号都必须能在证据中找到）。"
    "只输出 JSON：{\"verdicts\": [{\"i\": 编号, \"supported\": true 或 false, \"reason\": \"简短理由\"}]}"
)


def judge_messages(pairs: Sequence[tuple[str, Sequence[str]]]) -> list[dict[str, str]]:
    """Messages asking a judge model for one verdict per (sentence, cited texts) pair."""
    parts = []
    for i, (sent, texts) in enumerate(pairs, 1):
        ev = "\n".join(t[:MAX_BLOCK] for t in texts)
        parts.append(f"陈述 {i}：{sent}\n证据 {i}：{ev}")
    return [{"role": "system", "content": JUDGE}, {"role": "user", "content": "\n\n".join(parts)}]


ANSWERABLE = (
    "判断给出的证据是否回答了问题：问题限定的对象（公司、产品、人物、地点）、时间和所问的数值"
    "都必须在证据中出现，只是话题相关不算。只输出 JSON：{\"answerable\": true 或 false, "
    "\"missing\": \"证据缺少的内容，可为空\"}"
)


def answerable_messages(question: str, texts: Sequence[str]) -> list[dict[str, str]]:
    """Messages asking a judge model whether the cited ``texts`` answer ``question``."""
    ev = "\n\n".join(f"[{i}] {t[:MAX_BLOCK]}" for i, t in enumerate(texts, 1))
    return [{"role": "system", "content": ANSWERABLE},
            {"role": "user", "content": f"问题：{question}\n\n证据：\n{ev}"}]
