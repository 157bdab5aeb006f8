"""The confidence fit's sets: the repository's own everyday questions can be collected (their
file read from benchmarks/data, not the shared folder), and a plain collect asks the sets the
shipped model is fitted on."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
pytestmark = pytest.mark.unit

import fit_confidence as fc  # noqa: E402

from zhiku.eval.dataset import load_set  # noqa: E402


def test_the_everyday_set_is_read_from_the_repository_and_the_others_from_the_shared_folder(tmp_path):
    qs, corpus, limit = fc.SETS["everyday3"]
    path = fc.data_path(tmp_path / "eval", qs)
    assert path == str(ROOT / "benchmarks" / "data" / "everyday3.jsonl") and corpus == "laws" and limit == 0
    items = load_set(path)
    assert len(items) == 98 and any(not it.answerable for it in items)
    assert fc.data_path(tmp_path / "eval", fc.SETS["natural2"][0]) == str(tmp_path / "eval" / "laws" / "natural2.jsonl")


def test_a_plain_collect_asks_the_sets_the_shipped_model_is_fitted_on():
    model = json.loads(fc.MODEL.read_text(encoding="utf-8"))
    sets = {k.rsplit(" (", 1)[0] for k in model["fitted_on"]}
    hybrid = {k.rsplit(" (", 1)[0] for k in model["dense"]["fitted_on"]}
    assert sets <= set(fc.FITTED) and hybrid <= set(fc.FITTED) and "everyday3" in hybrid
    assert all(k.endswith("(hybrid)") for k in model["dense"]["fitted_on"])
    assert set(fc.FITTED) == set(fc.SETS)


def test_the_fit_reads_a_long_question_s_shares_as_confidence_terms_would():
    """ZHIKU_FIT_TERMS re-reads rows collected with confidence_terms 0 as the setting reads
    them: a question of more content terms weighed as one of that many, a short one as it is."""
    import math

    from zhiku.verify.confidence import SHARES

    def row(n, share):
        return {"features": {"terms": math.log1p(n), "margin": 0.3, **{k: share for k in SHARES}}}

    long_q, short_q = fc._weigh([row(40, 0.2), row(6, 0.2)], 16)
    assert all(long_q["features"][k] == pytest.approx(0.5) for k in SHARES)
    assert long_q["features"]["margin"] == 0.3
    assert all(short_q["features"][k] == 0.2 for k in SHARES)
    assert fc._weigh([row(200, 0.2)], 16)[0]["features"]["named"] == 1.0  # at most 1
    assert fc._weigh([row(40, 0.2)], 0)[0]["features"]["named"] == 0.2  # 0: as collected


def test_the_everyday_rows_hold_the_six_sets_in_both_modes():
    rows = [json.loads(x) for x in (ROOT / "benchmarks" / "data" / "confidence_rows_everyday3.jsonl")
            .read_text(encoding="utf-8").splitlines()]
    assert {(r["set"], r["mode"]) for r in rows} == {(s, m) for s in fc.SETS for m in ("bm25", "hybrid")}


def test_an_added_weight_is_fitted_over_the_kept_model_and_leaves_its_weights_as_they_are():
    """The answered weight of on_point (config confidence_on_point) is fitted on the rows that
    recorded it, over the kept keyword model's log-odds; the model's other weights are kept, and
    a refit first leaves out the weight it is refitting. Rows without it weigh nothing."""
    rows = [json.loads(x) for x in fc.ROWS.read_text(encoding="utf-8").splitlines()]
    kept = json.loads(fc.MODEL.read_text(encoding="utf-8"))
    base = fc._without(kept, ["on_point"])
    assert "on_point" not in base["answered"]["names"] and "dense" not in base
    m = fc._added(rows, list(range(len(rows))), base, ["on_point"], True)
    names, weights = m["answered"]["names"], m["answered"]["weights"]
    assert names[:-1] == base["answered"]["names"] and weights[:-1] == base["answered"]["weights"]
    assert names[-1] == "on_point" and weights[-1] > 0
    assert fc._added(rows, list(range(len(rows))), base, [], True) is base
    unread = [i for i, r in enumerate(rows) if "on_point" not in (r.get("after") or {})]
    assert unread and fc._added(rows, unread, base, ["on_point"], True)["answered"]["weights"][-1] == 0.0
