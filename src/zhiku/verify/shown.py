"""How close the sentence an answer quotes is to the question, by the embedder: a signal of
the confidence after answering (config ``quote_cosine``) and the second look the dense veto
takes before refusing evidence the fitted model would answer from (config ``veto_quote``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from zhiku.types import Hit

QUOTE_CHARS = 96  # the quoted sentence is encoded up to this many characters (the cost grows with it)
_LABEL = re.compile(r"^\s*第[零〇一二两三四五六七八九十百千\d]+条(?:之[一二三四五六七八九十])?\s*")


def quote_cosine(kb: Any, question: str, said: str, sentences: int = 1) -> float:
    """The cosine of the question and the first sentence of ``said`` (an answer's text, its
    markers removed; up to :data:`QUOTE_CHARS` characters, an article label left out) by the
    embedder of the index's vectors: one encoding of one sentence (the question's vector is
    the one the ask already holds with vectors). A sentence that says what the question asks
    is close to it whatever words either uses (「从建筑物或者其他高空抛掷物品…处一年以下有期
    徒刑」 for 「往楼下扔酒瓶子…会坐牢吗」); a sentence on the topic that does not answer is
    less close, one from documents about something else far (0.82–0.86).

    Args:
        kb: the knowledge base (its embedder and question vectors).
        question: the question.
        said: the answer's text without its ``[n]`` markers.
        sentences: read this many of its first sentences and keep the closest (a provision's
            opening sentence often sets up what the next one says: 「…建立健全信用评价制度…。
            电子商务平台经营者不得删除消费者…的评价。」 for 「…平台能把我的差评删掉吗？」).

    Returns:
        The cosine (0.0 when there is no sentence).
    """
    from zhiku.answer.extractive import split_sentences

    read = [_LABEL.sub("", s.strip()) for _, s in split_sentences(said) if s.strip()][:max(1, sentences)]
    read = [s[:QUOTE_CHARS] for s in read if s] or ([_LABEL.sub("", said.strip())[:QUOTE_CHARS]] if said.strip() else [])
    if not read:
        return 0.0
    q = kb.query_vector(question)
    return max(float(q @ p) for p in kb.embedder.embed_passages(read))


def second_look(kb: Any, question: str, terms: Sequence[str], evidence: Sequence[Hit],
                exact: bool) -> tuple[float, str]:
    """The cosine of the question and the sentence the offline composer would quote from
    ``evidence`` (:func:`quote_cosine`), read when the dense veto refuses evidence the fitted
    model would answer from, and the composed answer (the offline draft of a lifted veto is
    that text: it is not composed twice). A question in a layperson's words (扔酒瓶子, 期房, 卖给别人)
    shares few words with the rule that answers it (高空抛掷物品, 预售商品房, 出售或者提供给
    他人), so the veto's term coverage is low although the rule says what is asked; a
    question the documents do not answer gets a quote far from it. One composition and one
    encoding, on vetoed asks only."""
    from zhiku.answer.respond import _extractive

    text = _extractive(terms, evidence, kb, exact, question)
    return quote_cosine(kb, question, re.sub(r"\[\d+\]", "", text), kb.config.veto_quote_sentences), text


def answer_cosine(kb: Any, question: str, text: str) -> dict[str, float]:
    """With ``quote_cosine`` on, the answer's ``cosine`` (:func:`quote_cosine`) for the
    confidence after answering (:func:`zhiku.verify.confidence.answered` reads it as
    ``near``); nothing when off (``near`` is then neutral)."""
    if not kb.config.quote_cosine or not question:
        return {}
    return {"cosine": round(quote_cosine(kb, question, re.sub(r"\[\d+\]", "", text)), 4)}
