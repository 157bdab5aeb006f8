"""The project's held-out everyday set (benchmarks/data/everyday3.jsonl) is a well-formed
evaluation set whose gold articles exist in the laws corpus and hold their answers, and the
ablation scripts take it beside the shared sets and mark a lever that helps the public sets
but costs it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from zhiku.chunk import chunk_document
from zhiku.eval.dataset import load_set
from zhiku.eval.metrics import normalize_answer
from zhiku.ingest import load_file
from zhiku.structure import build_tree

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import ablation  # noqa: E402
import ablation_answerable  # noqa: E402

SET = ROOT / "benchmarks" / "data" / "everyday3.jsonl"
LAWS = ROOT.parent / "shared" / "data" / "laws"

pytestmark = pytest.mark.unit


def test_everyday3_is_a_set_of_many_laws_with_out_of_scope_questions():
    items = load_set(SET)
    answerable = [i for i in items if i.answerable]
    assert len(answerable) >= 80 and len(items) - len(answerable) >= 10
    assert all(i.gold and i.answers for i in answerable)
    assert not any(i.gold or i.answers for i in items if not i.answerable)
    assert len({g.doc for i in answerable for g in i.gold}) >= 40
    assert not any(re.search(r"第[零一二三四五六七八九十百千\d]+条", i.question) for i in items)  # no article asked


@pytest.mark.skipif(not LAWS.is_dir(), reason="the shared laws corpus is not checked out")
def test_every_gold_article_is_in_the_corpus_and_holds_an_answer():
    items = [i for i in load_set(SET) if i.answerable]
    texts: dict[tuple[str, str], str] = {}
    for doc in {g.doc for i in items for g in i.gold}:
        loaded = load_file(LAWS / doc, LAWS)
        for c in chunk_document(loaded, build_tree(loaded)):
            if c.kind == "article" and c.article:
                texts[(doc, c.article)] = texts.get((doc, c.article), "") + c.text
    for item in items:
        found = [texts.get((g.doc, g.article)) for g in item.gold]
        assert all(found), item.id
        assert any(normalize_answer(a) in normalize_answer(t) for a in item.answers for t in found), item.id


def test_the_ablation_finds_the_projects_set_beside_the_shared_ones(tmp_path):
    assert ablation.set_path(tmp_path, "everyday3") == SET
    assert ablation.set_path(tmp_path, "natural2") == tmp_path / "eval/laws/natural2.jsonl"
    assert ablation_answerable._path(tmp_path, "benchmarks/data/everyday3.jsonl") == str(SET)
    assert "benchmarks/data/everyday3.jsonl" in ablation_answerable.EVERYDAY


def _run(hits: dict[str, list[int]], mode: str = "bm25") -> dict:
    """An eval's JSON numbers: per set, one answerable item per entry, gold at that rank (0: missed)."""
    return {"sets": {name: {"results": [
        {"mode": mode, "answerable": True, "n_gold": 1, "relevance": [int(i == r) for i in range(1, 11)]}
        for r in ranks]} for name, ranks in hits.items()}}


def test_deltas_mark_a_shipped_lever_that_helps_the_public_sets_and_costs_the_held_out_one():
    names = ("natural", "natural2", "everyday3")
    shipped = _run({"natural": [1, 1], "natural2": [1, 3], "everyday3": [6, 7]})
    tuned = _run({"natural": [1, 6], "natural2": [6, 3], "everyday3": [1, 2]})  # off: public lower, new higher
    sound = _run({"natural": [1, 6], "natural2": [6, 3], "everyday3": [7, 8]})  # off: every set lower
    rows = [("defaults", shipped, "bm25", "keyword"), ("− tuned lever", tuned, "bm25", "keyword"),
            ("− sound lever", sound, "bm25", "keyword"), ("+ candidate", tuned, "bm25", "keyword")]
    table = ablation.deltas(rows, names).splitlines()
    row = {line.split(" | ")[0].lstrip("| "): line for line in table[2:]}
    assert "costs the held-out one" in row["− tuned lever"]
    assert "costs the held-out one" not in row["− sound lever"]
    assert "costs the held-out one" not in row["+ candidate"]  # not shipped: nothing to turn off
    assert "+1.000 / +0.595" in row["− tuned lever"]  # everyday3: R@5 0 → 1, MRR@10 (1/6 + 1/7) / 2 → 3/4
    assert "defaults" not in row
