"""The static-embedder benchmark refuses clearly without the shared data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.unit


def test_missing_shared_data_exits_nonzero_with_a_sentence(tmp_path):
    p = subprocess.run([sys.executable, str(ROOT / "benchmarks/bench_static.py"), "--shared",
                        str(tmp_path / "nope")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "shared laws corpus is missing" in p.stderr
