"""The speed benchmark's flat BM25 floor (benchmarks/bench_speed.flat_bm25) builds bm25s's
score matrix itself, batch by batch, from token ids: it must rank and score exactly as
``bm25s.BM25().index(tokens)`` does on the same segmented text, or the floor column of
docs/benchmarks.md compares the ask against something else."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

pytestmark = pytest.mark.unit


def _texts() -> list[str]:
    """Whitespace-segmented article texts of the test laws (real text, several thousand)."""
    import rjieba

    out = []
    for f in sorted((ROOT / "tests/data/laws").rglob("*.md")):
        for para in f.read_text(encoding="utf-8").split("\n"):
            para = para.strip()
            if len(para) > 8:
                out.append(" ".join(t for t in rjieba.cut(para) if t.strip()))
    return out


def test_flat_bm25_scores_as_bm25s_own_index():
    import bm25s

    from bench_speed import flat_bm25

    texts = _texts()
    assert len(texts) > 500
    ours = flat_bm25(texts[i:i + 97] for i in range(0, len(texts), 97))  # uneven batches
    ref = bm25s.BM25()
    ref.index([t.split() for t in texts], show_progress=False)
    questions = [["试用期", "工资"], ["劳动合同", "解除", "经济", "补偿"], ["婚姻", "登记"],
                 ["没有", "出现", "过", "的", "词语XYZ"], ["公司"]]
    for q in questions:
        got_ids, got_scores = ours.retrieve([q], k=20, show_progress=False, n_threads=1)
        want_ids, want_scores = ref.retrieve([q], k=20, show_progress=False, n_threads=1)
        np.testing.assert_allclose(got_scores, want_scores, rtol=1e-5, atol=1e-6)
        # ties may come in either order: the same documents with the same scores, except at
        # the lowest score, which k may cut differently
        got = dict(zip(got_ids[0].tolist(), got_scores[0].tolist()))
        want = dict(zip(want_ids[0].tolist(), want_scores[0].tolist()))
        low = float(want_scores.min())
        above = {d for d, v in want.items() if v > low + 1e-4}
        assert above <= set(got), q
        for d in above:
            assert abs(got[d] - want[d]) < 1e-4, (q, d)
