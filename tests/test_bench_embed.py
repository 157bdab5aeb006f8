"""The embedding benchmark's contract: refuses clearly without the shared corpus, and
rewrites only its own section of docs/benchmarks.md."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
import embed_speed  # noqa: E402

pytestmark = pytest.mark.unit


def test_missing_shared_corpus_exits_nonzero_with_a_sentence(tmp_path):
    p = subprocess.run([sys.executable, str(ROOT / "benchmarks/embed_speed.py"), "--shared",
                        str(tmp_path / "nope")], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "shared laws corpus is missing" in p.stderr


def test_section_is_replaced_and_the_rest_kept(tmp_path):
    f = tmp_path / "benchmarks.md"
    f.write_text("# Benchmarks\n\n## Other\nkeep me\n", encoding="utf-8")
    embed_speed.write_section(f, [embed_speed.START, "old", embed_speed.END])
    embed_speed.write_section(f, [embed_speed.START, "new", embed_speed.END])
    text = f.read_text(encoding="utf-8")
    assert "keep me" in text and "new" in text and "old" not in text
    assert text.count(embed_speed.START) == 1
