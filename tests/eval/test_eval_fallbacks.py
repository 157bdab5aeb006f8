"""`zhiku eval` shows the roles that fell back (a timed-out reranker measures the fused
order, not itself) and `--route off` turns routing off for the full ask too."""

from __future__ import annotations

import json

import pytest

from tests.test_cli import zhiku
from zhiku.eval.dataset import EvalItem, Gold
from zhiku.eval.report import format_fallbacks
from zhiku.eval.runner import run_eval
from zhiku.types import Answer, TraceStep

pytestmark = pytest.mark.integration


def _answer(error: str | None):
    detail = {"fallback": "no rerank", "error": error} if error else {"start": 0.0}
    return lambda q: Answer(question=q, text="", citations=(), confidence=0.0, refused=True, hits=(),
                            trace=(TraceStep("role:reranker", 0.1, detail), TraceStep("rerank", 0.0, {})))


def test_fallbacks_are_counted_per_role():
    items = [EvalItem(id=f"q{i}", question=f"问题{i}", gold=(Gold("a.md", None),)) for i in range(3)]
    slow = run_eval(items, {}, answer=_answer("timed out after 8s"), progress=False, name="s")
    assert all(r.fallbacks == ("reranker: timed out after 8s",) for r in slow.results)
    assert format_fallbacks(slow) == "full: the reranker role fell back in 3 of 3 asks (e.g. timed out after 8s)"
    fine = run_eval(items, {}, answer=_answer(None), progress=False, name="s")
    assert all(r.fallbacks == () for r in fine.results) and format_fallbacks(fine) == ""


@pytest.mark.slow
def test_eval_prints_a_timed_out_reranker_and_routes_the_full_ask_as_told(tmp_path, laws_dir, monkeypatch):
    gate = laws_dir.parent / "eval" / "gate.jsonl"
    monkeypatch.setenv("ZHIKU_RERANKER", "dense")
    monkeypatch.setenv("ZHIKU_RERANK_TIMEOUT", "0.000001")  # no reranker finishes in a microsecond
    out = zhiku(tmp_path / "h", "eval", str(gate), "--corpus", str(laws_dir), "--no-dense", "--mode", "full",
                "--route", "off", "--limit", "3", "--quiet", "--json", str(tmp_path / "e.json")).stdout
    assert "fallbacks (gate)" in out and "the reranker role fell back in 3 of 3 asks (e.g. timed out" in out
    results = json.loads((tmp_path / "e.json").read_text(encoding="utf-8"))["sets"]["gate"]["results"]
    assert all(r["fallbacks"][0].startswith("reranker: timed out") for r in results)
    assert not any("role:router" in r["steps"] for r in results)  # --route off: the router never ran
    monkeypatch.setenv("ZHIKU_RERANKER", "none")
    out = zhiku(tmp_path / "h", "eval", str(gate), "--corpus", str(laws_dir), "--no-dense", "--mode", "full",
                "--route", "on", "--limit", "3", "--quiet", "--json", str(tmp_path / "e.json")).stdout
    results = json.loads((tmp_path / "e.json").read_text(encoding="utf-8"))["sets"]["gate"]["results"]
    assert "fallbacks" not in out and all("role:router" in r["steps"] for r in results)
