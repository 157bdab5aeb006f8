"""The README's headline rows come from the generated benchmark blocks, never by hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import headline  # noqa: E402

pytestmark = pytest.mark.unit

DOC = """# Benchmarks

## Quality against baselines

<!-- run:clause -->
### Clause lookup

**clause_lookup** (232 questions)

| system | R@1 | R@5 | R@10 | MRR@10 | nDCG@10 | gold in routed chapters | citation precision | ms |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
| flat BM25 | 0.608 | 0.884 | 0.944 | 0.735 | 0.787 | – | – | 47 |
| zhiku keyword + routing | 0.944 | 1.000 | 1.000 | 0.972 | 0.979 | 0.970 | – | 210 |
| full zhiku, keyword only | 0.944 | 1.000 | 1.000 | 0.972 | 0.979 | – | 0.944 | 286 |

(177 s)
<!-- /run -->

## Speed at scale

| chunks | keyword p50 / p95 |
|---:|---:|
| 10,479 | 15 / 28 |
"""


def test_rows_are_read_from_the_generated_blocks():
    out = headline.table(DOC)
    assert "| clause lookup (whole laws corpus, keyword), 232 | flat BM25 | 0.608 | 0.884 | 0.735 | 0.787 |  |" in out
    assert "| full zhiku, keyword only | 0.944 | 1.000 | 0.972 | 0.979 | citation precision 0.944 |" in out
    assert "gold in routed chapters 0.970" in out
    assert "Not run yet: natural-all" in out and "| 10,479 | 15 / 28 |" in out


def test_the_committed_readme_matches_the_committed_benchmarks():
    p = subprocess.run([sys.executable, str(ROOT / "benchmarks/headline.py"), "--check"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
