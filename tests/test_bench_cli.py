"""The one-shot CLI rows of bench_speed: `zhiku ask` timed as a subprocess, locally and
through a running `zhiku serve` of the same home."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from cli_ask import ask_once, cli_latency, cli_table, keyword_home  # noqa: E402

QUESTIONS = ["试用期最长多久？", "劳动合同期满后还要续签吗", "用人单位拖欠工资怎么办", "加班费怎么计算"]


def test_too_few_questions_for_the_runs_is_refused(tmp_path):
    with pytest.raises(ValueError, match="4 distinct questions are needed for 1 runs"):
        cli_latency(tmp_path, QUESTIONS[:3], 1)


def test_an_ask_that_fails_is_an_error_not_a_time(tmp_path):
    with pytest.raises(RuntimeError, match="zhiku ask failed"):
        ask_once(tmp_path / "missing", "试用期最长多久？", local=True)


@pytest.mark.slow
def test_cli_latency_local_and_through_a_running_server(tmp_path, laws_dir):
    src = tmp_path / "src" / "社会法"
    src.mkdir(parents=True)
    shutil.copy(laws_dir / "社会法/劳动合同法(2012-12-28).md", src)
    home = keyword_home(tmp_path / "src", tmp_path / "h")
    got = cli_latency(home, QUESTIONS, 1)
    assert got["runs"] == 1 and got["local_s"] > 0 and got["served_s"] > 0 and got["load"] >= 0
    assert not (home / "serve.json").exists()  # the server was stopped
    rows = cli_table({**got, "chunks": 10}).splitlines()
    assert f"{got['local_s']:.2f}" in rows[-2] and f"{got['served_s']:.2f}" in rows[-1]
