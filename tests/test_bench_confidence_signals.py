"""The confidence signals check: what a row records of its answer's ranking and citations
(benchmarks/fit_confidence.py ``evidence``), read from real asks over real law files, and the
check's fits held out the way it says (a set's own rows never fit the weights it is scored by)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import confidence_signals as cs  # noqa: E402
import fit_confidence as fc  # noqa: E402

from tests.conftest import LAWS, ingested_kb  # noqa: E402


@pytest.fixture(scope="module")
def keyword_kb(tmp_path_factory):
    return ingested_kb(tmp_path_factory, [LAWS], "signals")


def _ask(kb, question):
    from zhiku.ask import flow
    from zhiku.ask.query import Query

    return flow.ask(kb, Query(question, use_cache=False))


@pytest.mark.integration
def test_the_evidence_of_an_answer_names_the_law_the_question_names_and_where_its_quote_ranks(keyword_kb):
    named = _ask(keyword_kb, "劳动合同法规定，劳动合同期限三年以上的，试用期最长不得超过几个月？")
    unnamed = _ask(keyword_kb, "劳动合同期限三年以上的，试用期最长不得超过几个月？")
    for ans in (named, unnamed):
        assert not ans.refused and ans.citations
        e = fc.evidence(keyword_kb, ans.question, ans)
        cited = {c.chunk_id for c in ans.citations}
        first = ans.hits[e["rank"]].chunk
        assert e["rank"] >= 0 and cited & {first.id, first.parent_id}
        assert not any(cited & {h.chunk.id, h.chunk.parent_id} for h in ans.hits[:e["rank"]])
        assert e["first_doc"] is (ans.hits[0].chunk.doc_path in {c.doc_path for c in ans.citations})
        assert 1 <= e["docs5"] <= 5 and 0 < e["first_share5"] <= 1 and 0 <= e["margin"] <= 1
        assert e["documents"] == keyword_kb.store.count()["documents"]
    assert fc.evidence(keyword_kb, named.question, named)["names_doc"] is True
    assert fc.evidence(keyword_kb, unnamed.question, unnamed)["names_doc"] is False


def _rows():
    return [json.loads(x) for x in cs.ROWS.read_text(encoding="utf-8").splitlines()]


@pytest.mark.unit
def test_a_set_held_out_is_scored_by_weights_its_own_rows_did_not_fit():
    """Flipping every everyday3 row's label changes the weights fitted on all rows, but not
    the confidences everyday3 is scored by when it is held out; a refused row keeps its own."""
    rows = _rows()
    conf = cs.shipped(rows)
    got = cs.refit(rows, conf, ["below"])
    flipped = [{**r, "correct": not r["correct"]} if r["set"] == "everyday3" else r for r in rows]
    again = cs.refit(flipped, conf, ["below"])
    mine = [i for i, r in enumerate(rows) if r["set"] == "everyday3"]
    assert mine and all(got["sets"][i] == again["sets"][i] for i in mine)
    assert got["weights"] != again["weights"]
    refused = [i for i, r in enumerate(rows) if r["refused"]]
    assert refused and all(got["sets"][i] == conf[i] == got["half"][i] for i in refused)


@pytest.mark.unit
def test_the_rows_show_the_everyday_set_over_confident_and_the_layperson_set_under():
    """The level check on the stored rows: the same corpus and retrieval, opposite gaps, so no
    intercept for the keyword regime or for a question naming its law can fix both."""
    rows = _rows()
    conf = cs.shipped(rows)
    gaps = {}
    for line in cs.levels(rows, conf)[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        gaps[(cells[0], cells[1])] = float(cells[-1])
    assert gaps[("everyday3 (bm25)", "all")] > 0.1 and gaps[("natural2 (bm25)", "all")] < 0
    assert gaps[("everyday3 (bm25)", "yes")] > 0 and gaps[("everyday3 (bm25)", "no")] > 0
    assert gaps[("natural2 (bm25)", "yes")] < 0 and gaps[("natural2 (bm25)", "no")] < 0
    assert {r["evidence"]["documents"] >= cs.LARGE for r in rows if r["set"] in ("natural2", "everyday3")} == {True}


@pytest.mark.unit
def test_every_signal_reads_a_row_and_an_unknown_one_is_named(capsys, monkeypatch):
    row = _rows()[0]
    assert all(isinstance(f(row), float) for f in cs.SIGNALS.values())
    monkeypatch.setattr(sys, "argv", ["confidence_signals.py", "--signals", "below,nearness"])
    assert cs.main() == 2
    assert "nearness" in capsys.readouterr().err
