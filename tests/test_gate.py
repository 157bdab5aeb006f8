"""Quality gate: a hand-written golden set over the test laws must keep its recall and
refusal numbers, so a change that breaks retrieval or refusal fails CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.eval.dataset import load_set
from zhiku.eval.report import format_table, summarise
from zhiku.eval.runner import run_eval
from zhiku.ask.search import Mode, retrieve
from tests.asking import ask

pytestmark = pytest.mark.integration

GATE = Path(__file__).parent / "data" / "eval" / "gate.jsonl"
# Measured values are in the commit that set them; thresholds sit a little below.
THRESHOLDS = {
    ("clause_lookup", "hybrid", "recall_1"): 1.0,
    ("natural", "hybrid", "recall_5"): 0.70,
    ("natural", "full", "recall_5"): 0.70,
    ("all", "full", "refusal_recall"): 0.9,
    ("all", "full", "refusal_precision"): 0.85,
}


@pytest.fixture(scope="module")
def rows(kb):
    items = load_set(GATE)
    aliases = {d.doc_id: {d.path, *d.aliases} for d in kb.store.documents()}
    report = run_eval(items, {"hybrid": lambda q: retrieve(kb, q, Mode.HYBRID).hits},
                      answer=lambda q: ask(kb, q, Mode.FULL), aliases=aliases, progress=False,
                      name="gate")
    out = summarise(report)
    print(format_table(out))
    return {(r.kind, r.mode): r for r in out}


@pytest.mark.parametrize("key,minimum", list(THRESHOLDS.items()), ids=lambda v: str(v))
def test_gate(rows, key, minimum):
    kind, mode, metric = key
    value = getattr(rows[(kind, mode)], metric)
    assert value is not None and value >= minimum, f"{kind}/{mode} {metric} = {value} < {minimum}"
