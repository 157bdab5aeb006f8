"""Documents prepared in worker processes equal those prepared in the ingesting process."""

import sys
from pathlib import Path

import pytest

from zhiku.ingest import iter_files, load_file
from zhiku.prepare import ChunkParams, prepare_all, workers_for
from zhiku.retrieve.segment import segmenters
from zhiku.types import Document

pytestmark = pytest.mark.integration
LAWS = Path(__file__).resolve().parents[1] / "data" / "laws"


def _docs():
    docs = [load_file(f, root) for f, root in iter_files([LAWS])][:12]
    return docs, [ChunkParams(500, 0.15, 1500, 40)] * len(docs)


def test_workers_give_the_same_chunks_in_the_same_order():
    docs, params = _docs()
    seg = segmenters.create("mixed")
    here = list(prepare_all(docs, params, seg, "mixed", 0))
    there = list(prepare_all(docs, params, seg, "mixed", 2))
    assert there == here and len(here) == len(docs)
    assert sum(len(c) for _, _, c, _ in here) > 50


def test_a_worker_that_cannot_start_leaves_the_work_to_this_process(monkeypatch):
    docs, params = _docs()
    seg = segmenters.create("mixed")
    monkeypatch.setattr(sys, "executable", "/nonexistent/python")
    assert list(prepare_all(docs, params, seg, "mixed", 2)) == list(prepare_all(docs, params, seg, "mixed", 0))


def test_an_error_in_a_worker_is_raised_as_without_workers():
    docs, params = _docs()
    bad = Document(id="x", path="bad.md", title="坏", body=None, version_date=None)  # type: ignore[arg-type]
    seg = segmenters.create("mixed")
    with pytest.raises(Exception) as here:
        list(prepare_all([bad, *docs], [params[0], *params], seg, "mixed", 0))
    with pytest.raises(here.type):
        list(prepare_all([bad, *docs], [params[0], *params], seg, "mixed", 2))


def test_small_ingests_stay_in_process(monkeypatch):
    import os

    assert workers_for(10, 0) == 0
    assert workers_for(5000, 1) == 0
    assert workers_for(5000, 3) == 3
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.2, 0.0, 0.0))
    assert workers_for(5000, 0) == 4
    monkeypatch.setattr(os, "getloadavg", lambda: (3.0, 0.0, 0.0))
    assert workers_for(5000, 0) == 0  # one idle core: no workers
