"""Ingest reports every phase to a progress callback, in order, with units done of total."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.integration


def test_ingest_reports_every_phase(tmp_path, laws_dir):
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase
    from zhiku.progress import Progress

    seen: list[tuple[str, int, int]] = []
    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    kb.ingest([laws_dir / "社会法"], dense=False, progress=Progress(bars=False, on=lambda *a: seen.append(a)))
    phases = list(dict.fromkeys(p for p, _, _ in seen))
    assert phases == ["reading", "chunking", "writing index", "indexes", "sub-index summaries",
                      "routing summaries", "chapter headings"]
    assert ("reading", 2, 2) in seen and ("chunking", 2, 2) in seen
    routing = [(d, t) for p, d, t in seen if p == "routing summaries"]
    assert routing[0][1] > 2 and routing[-1] == (routing[0][1], routing[0][1])  # texts embedded, all of them
    heads = [(d, t) for p, d, t in seen if p == "chapter headings"]
    assert heads[0][1] > 2 and heads[-1] == (heads[0][1], heads[0][1])  # each distinct heading, all of them


def test_bars_show_each_phase_on_stderr(tmp_path, laws_dir, capsys):
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    kb = KnowledgeBase(load_config(home=tmp_path / "h"))
    kb.ingest([laws_dir / "社会法"], dense=False, progress=True)
    err = capsys.readouterr().err
    for phase in ("chunking", "writing index", "indexes", "sub-index summaries"):
        assert phase in err
