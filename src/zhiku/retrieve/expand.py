"""Term expansion: words searched below the question's own — each question word's synonyms
of the bundled thesaurus the index holds, the index's own words for its rare words (bridges),
its nearest words of the index vocabulary by the bundled embedder, the vocabulary's words
nearest to the question."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from zhiku.embed.base import normalise
from zhiku.types import content_hash

KEPT = 8  # neighbours kept per word; an ask reads the first ``term_expansion`` of them
MIN_DF = 2  # a word held by one chunk only is often a segmentation accident, not vocabulary
_WORD = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
_BLOCK = 1024  # rows of the similarity matrix computed at once (1024 × 40k floats: 160 MB)


def vocabulary(counts: Mapping[str, int], min_df: int = MIN_DF) -> list[str]:
    """The words of the keyword index that expansion reads and adds: CJK words of two or
    more characters held by at least ``min_df`` chunks, sorted.

    Args:
        counts: every index token with how many chunks hold it.
        min_df: the fewest chunks a word must be in.
    """
    return sorted(w for w, n in counts.items() if n >= min_df and _WORD.fullmatch(w))


def neighbours(vectors: np.ndarray, k: int = KEPT,
               progress: Callable[[int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Each word's ``k`` nearest other words by cosine, best first.

    Args:
        vectors: the vocabulary's vectors, shape (n, dim), unit length.
        k: neighbours kept per word.
        progress: called with the number of words finished after each block.

    Returns:
        Row numbers (n, k) and their cosines (n, k).
    """
    v = np.ascontiguousarray(vectors, dtype=np.float32)
    n = len(v)
    k = max(0, min(k, n - 1))
    idx, cos = np.zeros((n, k), dtype=np.int32), np.zeros((n, k), dtype=np.float32)
    for s in range(0, n if k else 0, _BLOCK):
        sim = v[s:s + _BLOCK] @ v.T
        rows = np.arange(sim.shape[0])
        sim[rows, rows + s] = -2.0  # not its own neighbour
        top = np.argpartition(-sim, k, axis=1)[:, :k]
        best = np.take_along_axis(sim, top, axis=1)
        order = np.argsort(-best, axis=1)
        idx[s:s + len(rows)] = np.take_along_axis(top, order, axis=1)
        cos[s:s + len(rows)] = np.take_along_axis(best, order, axis=1)
        if progress:
            progress(len(rows))
    return idx, cos


@dataclass(frozen=True)
class Expansions:
    """The vocabulary's vectors and each word's nearest words, under one embedder."""

    key: str  # content hash of the embedder name and the vocabulary
    embedder: str  # the name of the embedder the vectors came from
    words: tuple[str, ...]
    vectors: np.ndarray  # (n, dim) float32, unit length
    near: np.ndarray  # (n, KEPT) int32: row numbers of each word's neighbours, best first
    cos: np.ndarray  # (n, KEPT) float32: their cosines

    @cached_property
    def row(self) -> dict[str, int]:
        """Word → its row number."""
        return {w: i for i, w in enumerate(self.words)}

    @cached_property
    def vocabulary(self) -> Any:
        """The words and vectors as rare-word bridges read them (see :mod:`zhiku.retrieve.bridges`)."""
        from zhiku.retrieve.bridges import Vocabulary

        return Vocabulary(self.words, self.vectors)

    def save(self, path: Path) -> None:
        """Write the table to ``path`` (numpy ``.npz``, float16 vectors), atomically."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.part")
        with open(tmp, "wb") as f:
            np.savez(f, key=np.array(self.key), embedder=np.array(self.embedder), words=np.array(self.words), vectors=self.vectors.astype(np.float16),
                     near=self.near, cos=self.cos.astype(np.float16))
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: Path) -> Expansions | None:
        """The table at ``path``, or None when there is none (or it cannot be read)."""
        try:
            with np.load(path) as z:
                return cls(str(z["key"]), str(z["embedder"]), tuple(z["words"].tolist()), z["vectors"].astype(np.float32),
                           z["near"], z["cos"].astype(np.float32))
        except (OSError, ValueError, KeyError):
            return None

    def expand(self, terms: Sequence[str], n: int, floor: float) -> list[str]:
        """Words to search besides ``terms``: for each term of the vocabulary its first
        ``n`` neighbours at cosine ``floor`` or more, those already among the terms left out.

        Args:
            terms: the question's keyword terms.
            n: neighbours per term.
            floor: the least cosine of a neighbour.

        Returns:
            Distinct added words, in the order of the terms they came from.
        """
        have = set(terms)
        out: dict[str, None] = {}
        for t in terms:
            i = self.row.get(t)
            if i is None:
                continue
            for j, c in zip(self.near[i, :n], self.cos[i, :n]):
                if c >= floor and self.words[j] not in have:
                    out.setdefault(self.words[j], None)
        return list(out)

    def nearest(self, vector: np.ndarray, n: int, exclude: Sequence[str] = ()) -> list[str]:
        """The ``n`` words of the vocabulary nearest to a question's vector, the words in
        ``exclude`` left out.

        Args:
            vector: the question's vector (the embedder the table was built with), unit length.
            n: how many words.
            exclude: words not to return (the question's own terms).
        """
        if n <= 0 or not len(self.words):
            return []
        sim = self.vectors @ np.asarray(vector, dtype=np.float32)
        m = min(len(sim), n + len(exclude))
        top = np.argpartition(-sim, m - 1)[:m]
        skip = set(exclude)
        return [w for w in (self.words[i] for i in top[np.argsort(-sim[top])]) if w not in skip][:n]


def table_path(home: Path) -> Path:
    """Where the neighbour table of the index under ``home`` lives."""
    return home / "neighbours.npz"


_loaded: dict[str, tuple[float, Expansions | None]] = {}
_lock = threading.Lock()


def load_expansions(path: Path) -> Expansions | None:
    """The neighbour table at ``path`` (read again when the file changes), or None.

    Args:
        path: the table's file (see :func:`table_path`).
    """
    try:
        mtime = path.stat().st_mtime
    except OSError:
        return None
    with _lock:
        got = _loaded.get(str(path))
    if got is None or got[0] != mtime:
        got = (mtime, Expansions.load(path))
        with _lock:
            _loaded[str(path)] = got
    return got[1]


def added_words(kb: Any, terms: Sequence[str], question: str) -> list[str]:
    """What term expansion adds to a question's keyword terms: each term's synonyms of the
    bundled thesaurus the index holds (``thesaurus_expansion`` of them, see
    :mod:`zhiku.retrieve.thesaurus`), the rare-word bridges (``rare_bridges``, see
    :mod:`zhiku.retrieve.bridges`), its nearest words of the vocabulary (``term_expansion``
    of them at ``expansion_floor`` or more) and the words nearest to the question's vector
    (``question_expansion``); the last three none before an ingest has built the table.

    Args:
        kb: the knowledge base (its config, home and embedder).
        terms: the question's keyword terms.
        question: the question.
    """
    cfg = kb.config
    added = _thesaurus_words(kb, terms) if cfg.thesaurus_expansion else []
    if not (cfg.term_expansion or cfg.question_expansion or cfg.rare_bridges):
        return added
    table = load_expansions(table_path(cfg.home))
    if table is None:
        return added
    if cfg.rare_bridges and table.embedder == kb.embedder.name:
        added += [w for w in _bridge_words(kb, table, terms) if w not in added]
    if cfg.term_expansion:
        added += [w for w in table.expand(terms, cfg.term_expansion, cfg.expansion_floor) if w not in added]
    if cfg.question_expansion and table.embedder == kb.embedder.name:
        added += table.nearest(kb.dense_query(question), cfg.question_expansion, [*terms, *added])
    return added


def _bridge_words(kb: Any, table: Expansions, terms: Sequence[str]) -> list[str]:
    """The rare-word bridges of ``terms`` (see :mod:`zhiku.retrieve.bridges`): the table's
    vectors for the words it holds, the others embedded now through the vector cache."""
    from zhiku.embed.base import embed_through_cache
    from zhiku.retrieve.bridges import bridgeable, bridges
    from zhiku.retrieve.thesaurus import load_thesaurus

    cfg, df = kb.config, kb.store.doc_frequency
    words = bridgeable(terms, df)
    if not words:
        return []
    missing = [w for w in words if w not in table.row]
    got = dict(zip(missing, embed_through_cache(kb.embedder, cfg.cache_path, missing, cfg.embed_batch))) if missing else {}
    vecs = normalise(np.stack([table.vectors[table.row[w]] if w in table.row else np.asarray(got[w], dtype=np.float32)
                               for w in words]).astype(np.float32))
    syn = load_thesaurus()
    found = bridges(words, vecs, table.vocabulary, df, lambda w: syn.synonyms(w, 50),
                    cfg.rare_bridges, cfg.bridge_z, terms)
    return list(found)


def _thesaurus_words(kb: Any, terms: Sequence[str]) -> list[str]:
    """The bundled thesaurus's synonyms of ``terms`` (see :mod:`zhiku.retrieve.thesaurus`)."""
    from zhiku.retrieve.thesaurus import load_thesaurus

    cfg = kb.config
    return load_thesaurus().expand(terms, kb.store.doc_frequency, cfg.thesaurus_expansion, cfg.thesaurus_group)


def table_key(embedder_name: str, words: Sequence[str]) -> str:
    """What a neighbour table is built from: the embedder and the vocabulary."""
    return content_hash(embedder_name, str(KEPT), *words)


def build_expansions(path: Path, counts: Mapping[str, int], embedder_name: str,
                     embed: Callable[[list[str], Callable[[int], None]], np.ndarray],
                     phase: Callable[[str, int], object]) -> Expansions:
    """The neighbour table of the index vocabulary at ``path``: read when it was built for
    this vocabulary and embedder, else built (the words' vectors through ``embed``, which
    caches them) and written.

    Args:
        path: the table's file.
        counts: every index token with how many chunks hold it.
        embedder_name: the embedder's name (part of the key).
        embed: returns the unit vectors of words, reporting progress per batch.
        phase: starts a progress phase (name, total) whose ``update`` counts words.
    """
    words = vocabulary(counts)
    key = table_key(embedder_name, words)
    have = Expansions.load(path)
    if have is not None and have.key == key:
        return have
    with phase("term vectors", len(words)) as bar:
        vecs = embed(words, bar.update)
    vecs = normalise(np.asarray(vecs, dtype=np.float32).reshape(len(words), -1))
    with phase("term neighbours", len(words)) as bar:
        near, cos = neighbours(vecs, progress=bar.update)
    got = Expansions(key, embedder_name, tuple(words), vecs, near, cos)
    got.save(path)
    return got
