"""Fusion keeps provenance and follows the published formulas."""

import pytest

from zhiku.errors import ZhikuError
from zhiku.retrieve.fusion import FusionMode, fuse, rrf, weighted
from zhiku.types import Chunk, Hit

pytestmark = pytest.mark.unit


def _hit(cid: str, score: float, source: str) -> Hit:
    c = Chunk(cid, "d", "a.md", "t", "1", ("第一章",), None, f"text {cid}", 0, 1)
    return Hit(c, score, source)


def test_rrf_scores_and_sources():
    kw = [_hit("a", 9.0, "bm25"), _hit("b", 5.0, "bm25")]
    de = [_hit("b", 0.9, "dense"), _hit("c", 0.8, "dense")]
    out = rrf([kw, de], k=60)
    assert [h.chunk.id for h in out] == ["b", "a", "c"]
    assert out[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert out[0].sources == {"bm25": (2, 5.0), "dense": (1, 0.9)}
    assert out[0].source == "rrf"
    # the input hits are untouched
    assert kw[1].score == 5.0 and kw[1].source == "bm25"


def test_weighted_min_max():
    kw = [_hit("a", 10.0, "bm25"), _hit("b", 0.0, "bm25")]
    de = [_hit("b", 0.9, "dense"), _hit("a", 0.5, "dense")]
    out = weighted([kw, de], [0.3, 0.7])
    assert out[0].chunk.id == "b" and out[0].score == pytest.approx(0.7)
    assert out[1].score == pytest.approx(0.3)


def test_fuse_dispatch_and_limit():
    kw = [_hit(str(i), 10 - i, "bm25") for i in range(5)]
    assert len(fuse([kw, []], FusionMode.RRF, limit=3)) == 3
    assert fuse([kw, kw], FusionMode.WEIGHTED, alpha=0.5)[0].chunk.id == "0"


def test_bad_mode_lists_valid_ones():
    with pytest.raises(ZhikuError, match="rrf, weighted"):
        FusionMode.from_str("borda")
