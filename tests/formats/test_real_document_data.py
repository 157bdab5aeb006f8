"""The real-document data of the development splits (tests/data/real, see its SOURCE.md): every
document is recorded in SOURCE.md, and every question row is well formed and names documents of
its own split's folder, so ``benchmarks/real_documents.py`` asks all of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
REAL = ROOT / "tests" / "data" / "real"
sys.path.insert(0, str(ROOT / "benchmarks"))
from real_documents import DEV_SPLITS, SPLIT_LABELS  # noqa: E402

pytestmark = pytest.mark.unit

SOURCE = (REAL / "SOURCE.md").read_text(encoding="utf-8")
KINDS = (".pdf", ".docx", ".xlsx", ".csv", ".html", ".md", ".txt")


def _rows(split: str) -> list[dict]:
    lines = (REAL / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    return [r for r in (json.loads(line) for line in lines if line.strip()) if r.get("split", "dev") == split]


def _folder(split: str) -> Path:
    return REAL if split == "dev" else REAL / split


def _documents(split: str) -> set[str]:
    return {f.name for f in _folder(split).iterdir()
            if f.is_file() and f.suffix.lower() in KINDS and f.name != "SOURCE.md"}


@pytest.mark.parametrize("split", ["dev", *DEV_SPLITS])
def test_every_document_of_a_development_split_is_recorded_in_source(split):
    assert _documents(split), split
    assert not [name for name in _documents(split) if f"`{name}`" not in SOURCE]


@pytest.mark.parametrize("split", ["dev", *DEV_SPLITS])
def test_every_question_of_a_development_split_is_asked_of_its_own_documents(split):
    rows, present = _rows(split), _documents(split)
    assert rows and split in (*SPLIT_LABELS, "dev")
    for r in rows:
        assert r["q"].strip(), r
        if r.get("refuse"):
            assert "answer" not in r and "doc" not in r, r
            continue
        docs = [r["doc"]] if isinstance(r["doc"], str) else r["doc"]
        assert r["answer"] and all(a.strip() for a in r["answer"]), r
        # a document not committed (licence) is measured only with --extra
        assert r.get("extra") or present.intersection(docs), r
    # the split asks both kinds of question: answered ones and ones no document answers
    assert any(r.get("refuse") for r in rows) and not all(r.get("refuse") for r in rows)


def test_the_fourteenth_set_is_measured_in_its_own_folder():
    rows = _rows("fresh14")
    assert len(rows) == 51 and sum(bool(r.get("refuse")) for r in rows) == 6
    assert {d for r in rows if not r.get("refuse")
            for d in ([r["doc"]] if isinstance(r["doc"], str) else r["doc"])} == _documents("fresh14")


def test_the_fifteenth_set_is_held_out_and_asked_of_its_own_folder():
    # a held-out split: the assertions name no question, so a failure prints none
    from real_documents import HELD_OUT
    rows, present = _rows("fresh15"), _documents("fresh15")
    assert "fresh15" in HELD_OUT and "fresh15" in SPLIT_LABELS and "fresh15" not in DEV_SPLITS
    assert len(present) == 8 and not [name for name in present if f"`{name}`" not in SOURCE]
    assert len(rows) == 53 and sum(bool(r.get("refuse")) for r in rows) == 7
    answered = [r for r in rows if not r.get("refuse")]
    assert all(r["q"].strip() for r in rows)
    assert all("answer" not in r and "doc" not in r for r in rows if r.get("refuse"))
    assert all(r["answer"] and all(a.strip() for a in r["answer"]) for r in answered)
    assert {r["doc"] for r in answered} == present


def test_the_sixteenth_set_of_standards_is_measured_in_its_own_folder():
    rows = _rows("fresh16")
    assert len(rows) == 18 and sum(bool(r.get("refuse")) for r in rows) == 3
    assert {r["doc"] for r in rows if not r.get("refuse")} == _documents("fresh16")


def test_writing_one_split_changes_only_its_lines_of_the_page():
    from real_documents import render, updated

    def rows(n_right):  # a split's (tree rows, question rows): n_right of 3 right
        return ([], [{"q": f"问题{i}", "doc": "a.md", "right": i < n_right, "cited": "a.md › 第一章"}
                     for i in range(3)])

    old = render([], [], [], {"fresh14": rows(1), "fresh15": rows(2)})
    fresh = render([], [], [], {"fresh15": rows(3)})
    want = render([], [], [], {"fresh14": rows(1), "fresh15": rows(3)})
    body = lambda page: page.split("\n", 3)[3]  # noqa: E731 - past the dated header line
    assert body(updated(old, fresh, "fresh15")) == body(want)
    assert body(updated(old, fresh, "fresh15")) != body(old)
    # a split the page lacks is added after the others
    added = updated(render([], [], [], {"fresh14": rows(1)}), fresh, "fresh15")
    assert body(added) == body(want)
