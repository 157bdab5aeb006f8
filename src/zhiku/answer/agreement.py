"""Which document the offline answer's evidence agrees on: a question about one law brings up
several of its articles, while a literal match in another law (「最长不得超过2年」 of a ship
registration rule for a lease's longest term, 「提前或者延期换届」 of a copyright society's rule
for renewing a driving licence) comes alone. The words the passages share with the question
tie or favour that lone passage; how many of the evidence's blocks its document holds does not.

Measured (full offline ask, whole laws corpus, natural + natural2 + everyday3): see
``answer_agreement`` in the README and the ablation table.
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
