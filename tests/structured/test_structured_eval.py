"""`zhiku eval` on the public structured set: gold = the set of row keys, scored by
exact-set accuracy, and for aggregate questions the value, scored within a tolerance,
through the real ask path."""

from __future__ import annotations

import json

import pytest

from tests.structured.conftest import DATA
from zhiku.cli import main
from zhiku.errors import ZhikuError
from zhiku.eval.dataset import load_set

pytestmark = pytest.mark.integration

THRESHOLD = 0.9  # exact-set accuracy the public set must keep


def test_structured_set_loads():
    items = load_set(DATA / "products_eval.jsonl")
    assert len(items) == 43 and all(it.structured for it in items)
    assert {it.kind for it in items} >= {"comparison", "range", "units", "categorical", "empty"}
    assert next(it for it in items if it.kind == "empty").rows == ()


def test_bad_rows_gold_is_one_sentence(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "q1", "question": "扬程大于30米的泵", "rows": "IS80"}\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match=r"bad.jsonl:1: \"rows\" must be a list"):
        load_set(bad)


@pytest.mark.parametrize("line,why", [
    ('{"id": "q1", "question": "泵有几款", "value": "14"}', '"value" must be a number'),
    ('{"id": "q1", "question": "泵有几款", "value": {"铸铁": "8"}}', '"value" must be a number'),
    ('{"id": "q1", "question": "泵有几款", "value": 14, "tolerance": -1}', '"tolerance" must be'),
])
def test_bad_value_gold_is_one_sentence(tmp_path, line, why):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ZhikuError, match=rf"bad.jsonl:1: {why}"):
        load_set(bad)


def test_value_matching_within_tolerance():
    from zhiku.eval.structured import value_matches

    assert value_matches(6271.428571, 6271.43, 0.01) and not value_matches(6271.5, 6271.43, 0.01)
    assert value_matches(14, 14.0, 0) and not value_matches(None, 0.0, 0.01)
    assert not value_matches(True, 1.0, 0.01)
    assert value_matches({"a": 1.0, "b": 2.004}, {"a": 1, "b": 2}, 0.01)
    assert not value_matches({"a": 1.0}, {"a": 1, "b": 2}, 0.01) and not value_matches(3.0, {"a": 3}, 0.01)


def test_eval_reports_exact_set_accuracy(tmp_path, capsys):
    out = tmp_path / "eval.json"
    code = main(["--config", str(DATA / "zhiku.toml"), "--home", str(tmp_path / "home"), "eval",
                 str(DATA / "products_eval.jsonl"), "--corpus", str(DATA / "docs"), "--no-dense",
                 "--quiet", "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "| set/kind | n | exact-set | row P | row R | value | routed | ms |" in text
    res = json.loads(out.read_text(encoding="utf-8"))["sets"]["products_eval"]
    overall = res["summary"][0]
    assert overall["kind"] == "all" and overall["n"] == 43
    assert overall["exact"] >= THRESHOLD, [r for r in res["results"] if not r["exact"]]
    assert all(r["routed"] for r in res["results"])
    assert overall["n_value"] == 13 and overall["value"] == 1.0, [r for r in res["results"] if r["value_ok"] is False]
    assert "| products_eval/aggregate | 13 | 1.000 | 1.000 | 1.000 | 1.000 (13) |" in text
