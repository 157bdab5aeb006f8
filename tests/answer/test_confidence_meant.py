"""The confidence after answering reads whether the block the offline answer quotes is the one
closest to the question by meaning (``meant``): a lower passage than the first quoted for what it
means is not marked down as one quoted for its words alone. Real law files (tests/data/laws),
real store, the bundled embedder."""

from __future__ import annotations

import pytest

from zhiku.ask import Query, ask
from zhiku.ask.search import Mode
from zhiku.verify.confidence import after_features, answered, load_model
from tests.answer.conftest import with_config

# 劳动法 第四十一条 (overtime) ranks first; 第三十六条 (the working day) says what is asked
WORKING_DAY = "劳动者每日工作时间最长不超过几个小时？"


def _after(kb, question: str) -> tuple[dict, float]:
    ans = ask(kb, Query(question, mode=Mode.BM25, use_cache=False))
    return next(t.detail for t in ans.trace if t.stage == "finish")["after"], ans.confidence


@pytest.mark.integration
def test_a_lower_passage_quoted_for_its_meaning_is_recorded_and_weighed(laws_kb):
    after, conf = _after(laws_kb, WORKING_DAY)
    assert after["top"] is False and after["meant"] is True and after["lift"] > 0
    x = after_features(**after)
    assert x["below"] == 1.0 and x["meant"] == 1.0 and x["below_meant"] == 1.0
    assert "meant" in load_model()["answered"]["names"]
    # the same answer, its block not the closest by meaning, is less sure
    assert answered(0.6, False, 1.0, 0, top=False, meant=True) > answered(0.6, False, 1.0, 0, top=False, meant=False)
    assert answered(0.6, False, 1.0, 0, top=False) == answered(0.6, False, 1.0, 0, top=False, meant=None)


@pytest.mark.integration
def test_nothing_is_recorded_when_the_answer_did_not_read_the_meaning(laws_kb):
    """Twin: without the encoding (an index without vectors, ``answer_meaning_encode`` off) the
    composer read no meaning: the quote is the overtime article, nothing is recorded and the
    feature is neutral."""
    after, _ = _after(with_config(laws_kb, answer_meaning_encode=False), WORKING_DAY)
    assert "meant" not in after and "lift" not in after
    assert after_features(**after)["meant"] == 0.0
