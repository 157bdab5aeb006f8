"""The project's everyday sets (benchmarks/data: everyday3, a development set, and everyday4, the
held-out one) are well-formed evaluation sets whose gold articles exist in the laws corpus and
hold their answers, and the ablation scripts take them beside the shared sets and mark a lever
that helps the development sets (the shared ones and everyday3) but costs the held-out one."""

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

DATA = ROOT / "benchmarks" / "data"
SETS = [DATA / "everyday3.jsonl", DATA / "everyday4.jsonl"]
LAWS = ROOT.parent / "shared" / "data" / "laws"

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_each_set_holds_many_laws_with_out_of_scope_questions(path):
    items = load_set(path)
    answerable = [i for i in items if i.answerable]
    assert len(answerable) >= 80 and len(items) - len(answerable) >= 10
    assert all(i.gold and i.answers for i in answerable)
    assert not any(i.gold or i.answers for i in items if not i.answerable)
    assert len({g.doc for i in answerable for g in i.gold}) >= 40
    assert not any(re.search(r"第[零一二三四五六七八九十百千\d]+条", i.question) for i in items)  # no article asked


@pytest.mark.skipif(not LAWS.is_dir(), reason="the shared laws corpus is not checked out")
@pytest.mark.parametrize("path", SETS, ids=lambda p: p.stem)
def test_every_gold_article_is_in_the_corpus_and_holds_an_answer(path):
    items = [i for i in load_set(path) if i.answerable]
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


def test_the_ablation_finds_the_projects_sets_beside_the_shared_ones(tmp_path):
    for path in SETS:
        assert ablation.set_path(tmp_path, path.stem) == path
        assert path.stem in ablation.SETS
        assert ablation_answerable._path(tmp_path, f"benchmarks/data/{path.name}") == str(path)
        assert f"benchmarks/data/{path.name}" in ablation_answerable.EVERYDAY
    assert ablation.set_path(tmp_path, "natural2") == tmp_path / "eval/laws/natural2.jsonl"


def test_the_held_out_set_shares_no_question_with_the_development_sets():
    held = {i.question for i in load_set(SETS[1])}
    assert not held & {i.question for i in load_set(SETS[0])}
    assert "everyday4" not in ablation.DEVELOPED and "everyday3" in ablation.DEVELOPED


def _run(hits: dict[str, list[int]], mode: str = "bm25") -> dict:
    """An eval's JSON numbers: per set, one answerable item per entry, gold at that rank (0: missed)."""
    return {"sets": {name: {"results": [
        {"mode": mode, "answerable": True, "n_gold": 1, "relevance": [int(i == r) for i in range(1, 11)]}
        for r in ranks]} for name, ranks in hits.items()}}


def test_deltas_mark_a_shipped_lever_that_helps_the_development_sets_and_costs_the_held_out_one():
    names = ("natural", "natural2", "everyday3", "everyday4")
    shipped = _run({"natural": [1, 1], "natural2": [1, 3], "everyday3": [2, 2], "everyday4": [6, 7]})
    # off: the development sets lower (everyday3 among them), the held-out one higher
    tuned = _run({"natural": [1, 6], "natural2": [6, 3], "everyday3": [3, 3], "everyday4": [1, 2]})
    sound = _run({"natural": [1, 6], "natural2": [6, 3], "everyday3": [3, 3], "everyday4": [7, 8]})  # every set lower
    rows = [("defaults", shipped, "bm25", "keyword"), ("− tuned lever", tuned, "bm25", "keyword"),
            ("− sound lever", sound, "bm25", "keyword"), ("+ candidate", tuned, "bm25", "keyword")]
    table = ablation.deltas(rows, names).splitlines()
    row = {line.split(" | ")[0].lstrip("| "): line for line in table[2:]}
    assert "costs the held-out one" in row["− tuned lever"]
    assert "costs the held-out one" not in row["− sound lever"]
    assert "costs the held-out one" not in row["+ candidate"]  # not shipped: nothing to turn off
    assert "+1.000 / +0.595" in row["− tuned lever"]  # everyday4: R@5 0 → 1, MRR@10 (1/6 + 1/7) / 2 → 3/4
    # everyday3 gaining when the lever is off is no held-out evidence against it: it is developed on
    dev_gain = _run({"natural": [1, 6], "natural2": [1, 3], "everyday3": [1, 1], "everyday4": [6, 7]})
    dev_row = ablation.deltas([rows[0], ("− dev lever", dev_gain, "bm25", "keyword")], names).splitlines()[2]
    assert "costs the held-out one" not in dev_row
    assert "defaults" not in row
