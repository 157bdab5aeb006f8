"""Tests for loading id/title/text corpora as documents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from zhiku.errors import ZhikuError
from zhiku.eval.corpus import load_corpus_jsonl
from zhiku.types import Document, content_hash

pytestmark = pytest.mark.unit

DATA = Path(__file__).parents[1] / "data" / "eval"


def test_real_slice() -> None:
    path = DATA / "cmrc2018_corpus.jsonl"
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    docs = list(load_corpus_jsonl(path))
    assert [d.path for d in docs] == ["TRIAL_800", "TRIAL_154", "TRIAL_598", "TRIAL_662"]
    first = docs[0]
    assert isinstance(first, Document)
    assert first.title == "泡泡战士"
    assert first.body == lines[0]["text"]
    assert not first.body.startswith("泡泡战士")
    assert first.id == content_hash("TRIAL_800", lines[0]["text"])
    assert first.version_date is None
    assert first.metadata == {"corpus_id": "TRIAL_800"}
    assert len({d.id for d in docs}) == 4


def test_identical_text_gives_two_documents(tmp_path: Path) -> None:
    path = tmp_path / "corpus.jsonl"
    rows = [{"id": "p1", "title": "甲", "text": "同一段文字。"}, {"id": "p2", "title": "乙", "text": "同一段文字。"}]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    a, b = load_corpus_jsonl(path)
    assert a.body == b.body
    assert a.id != b.id
    assert (a.path, b.path) == ("p1", "p2")


def test_errors(tmp_path: Path) -> None:
    with pytest.raises(ZhikuError, match="does not exist"):
        load_corpus_jsonl(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "p1", "title": "t", "text": "x"}\n{"id": "p2", "title": "t"}\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match=r"bad\.jsonl:2: .*\"text\""):
        list(load_corpus_jsonl(bad))
    dup = tmp_path / "dup.jsonl"
    dup.write_text('{"id": "p1", "text": "x"}\n{"id": "p1", "text": "y"}\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match=r"dup\.jsonl:2: corpus id 'p1'"):
        list(load_corpus_jsonl(dup))


def test_one_eval_index_whichever_way_the_corpus_is_named(tmp_path, laws_dir, monkeypatch) -> None:
    """The eval index is keyed by the corpus's absolute path: named relatively from its parent
    folder, then absolutely, one index is built and reused; one cached under the key of the
    path as given (earlier versions) is moved, not rebuilt."""
    import shutil

    from zhiku.config import load_config
    from zhiku.eval.command import _eval_home, prepare

    corpus = tmp_path / "docs"
    shutil.copytree(laws_dir / "社会法", corpus)
    cfg = load_config(home=tmp_path / "home")
    monkeypatch.chdir(tmp_path)
    kb, rep = prepare(cfg, "docs", [], gold_only=False, dense=False, progress=False)
    assert rep.added and kb.chunk_count() > 0
    again, rep2 = prepare(cfg, str(corpus), [], gold_only=False, dense=False, progress=False)
    assert again.config.home == kb.config.home and not rep2.added
    # an index cached under the relative path's old key moves to the absolute key
    old = _eval_home(cfg, f"{corpus.resolve()}|docs")
    kb.config.home.rename(old)
    moved, rep3 = prepare(cfg, "docs", [], gold_only=False, dense=False, progress=False)
    assert moved.config.home == kb.config.home and not old.exists() and not rep3.added


def test_a_keyword_run_never_reuses_an_embedded_eval_index(tmp_path, laws_dir) -> None:
    """An eval index built with vectors serves later dense runs; a ``--no-dense`` run over
    the same corpus builds (once) and reuses its own index without vectors, so the levers
    that read stored vectors cannot act on a keyword number."""
    import shutil

    from zhiku.config import load_config
    from zhiku.eval.command import prepare

    corpus = tmp_path / "docs"
    shutil.copytree(laws_dir / "社会法", corpus)
    cfg = load_config(home=tmp_path / "home")
    dense, _ = prepare(cfg, str(corpus), [], gold_only=False, dense=True, progress=False)
    assert dense.store.count()["vectors"] > 0
    kw, rep = prepare(cfg, str(corpus), [], gold_only=False, dense=False, progress=False)
    assert kw.config.home != dense.config.home and rep.added and kw.store.count()["vectors"] == 0
    kw2, rep2 = prepare(cfg, str(corpus), [], gold_only=False, dense=False, progress=False)
    assert kw2.config.home == kw.config.home and not rep2.added
    again, rep3 = prepare(cfg, str(corpus), [], gold_only=False, dense=True, progress=False)
    assert again.config.home == dense.config.home and not rep3.added


def test_every_setting_that_changes_the_stored_index_names_its_own_eval_index(tmp_path) -> None:
    """A run with a chunking setting off (read when a document is chunked, not by the loader)
    builds its own eval index instead of reusing the one built with it on; the default run's
    index keeps its name (only settings other than their defaults are named)."""
    from zhiku.config import load_config
    from zhiku.eval.command import _eval_home
    from zhiku.index.store import SCHEMA_VERSION
    from zhiku.prepare import CHUNK_SETTINGS
    from zhiku.types import content_hash

    cfg = load_config(home=tmp_path / "home")
    default = _eval_home(cfg, "corpus")
    assert default.name == content_hash("corpus", cfg.segmenter, cfg.embedder, str(cfg.chunk_size),
                                        str(SCHEMA_VERSION))
    changed = {"markdown_divisions": False, "table_header_gloss": False, "article_label_forms": False,
               "heading_runs": False, "standard_clauses": False, "chunk_overlap": 0.2, "parent_size": 0,
               "min_section": 10}
    assert set(changed) == set(CHUNK_SETTINGS)
    homes = {_eval_home(cfg.model_copy(update={k: v}), "corpus") for k, v in changed.items()}
    assert len(homes) == len(changed) and default not in homes
    # the loader's settings and the folder chunk sizes name theirs too
    assert _eval_home(cfg.model_copy(update={"markdown_as_shown": False}), "corpus") not in {default, *homes}
    # a loader setting on by default names its index when turned off
    assert _eval_home(cfg.model_copy(update={"markdown_setext": False}), "corpus") not in {default, *homes}
    assert _eval_home(cfg.model_copy(update={"chunk_sizes": {".pdf": 300}}), "corpus") != default
