"""bench_quality's docs/eval.md writer replaces its own run blocks and keeps the sections
other benchmarks write after them (fit_confidence.py's calibration section)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import bench_quality  # noqa: E402

pytestmark = pytest.mark.unit


def test_eval_doc_keeps_other_benchmarks_sections(tmp_path):
    doc = tmp_path / "eval.md"
    doc.write_text("# E\n\nintro\n\n<!-- run:a -->\n### A\n\nold\n<!-- /run -->\n\n"
                   "## Confidence calibration\n\nkept text\n", encoding="utf-8")
    bench_quality._write_block(doc, None, "# E\n\nintro", bench_quality.Run("b", "B", [], ""), "new b", ["a", "b"])
    bench_quality._write_block(doc, None, "# E\n\nintro", bench_quality.Run("a", "A", [], ""), "new a", ["a", "b"])
    text = doc.read_text(encoding="utf-8")
    assert text.index("new a") < text.index("new b") < text.index("## Confidence calibration\n\nkept text")
    assert "old" not in text and text.count("<!-- run:") == 2
