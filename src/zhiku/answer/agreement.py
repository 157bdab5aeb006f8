"""Which document the offline answer's evidence agrees on: a question about one law brings up
several of its articles, while a passage of another law sharing as many of its words comes
alone (「在医院做手术出了问题…医院要赔偿？」: 民法典 侵权责任编 第一千二百一十八条 and 第一千二百二十三条
against one article of 医疗事故处理条例 on settling the dispute, the words tied and the
better-ranked regulation was quoted). How many of the evidence's blocks a document holds
tells them apart; measured in the README (``answer_agreement``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from zhiku.types import Hit


def agreement_bonus(hits: Sequence[Hit], weight: float) -> tuple[float, ...]:
    """Per hit, ``weight`` × the share of the other hits that come from its document; () when
    the weight is 0, there are fewer than three hits, or every hit comes from one document or
    each from its own (the evidence then agrees on nothing).

    Args:
        hits: the evidence the answer chooses among, best first.
        weight: the config's ``answer_agreement``.
    """
    if not weight or len(hits) < 3:
        return ()
    docs = [h.chunk.doc_id for h in hits]
    count = Counter(docs)
    if len(count) in (1, len(docs)):
        return ()
    return tuple(weight * (count[d] - 1) / (len(docs) - 1) for d in docs)
