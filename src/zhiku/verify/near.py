"""A layperson's word met by the statute's word for the same thing, by meaning: the question's
word the tagger calls a name (宝宝, 老公, 租客) and the cited block's nouns (婴儿, 夫妻, 承租人),
each encoded alone by the embedder (config ``answerability_near_words``).

Read by the answerability check only for a tagged word the block misses, so a refusal pays for
it (one word and a block's nouns, through the vector cache); nothing else encodes here.
A brand, a company or a person's name is close to its kind (比亚迪 ~ 汽车 0.951, 淘宝 ~ 电商
0.974, 华为 ~ 电信 0.950 by the bundled multilingual-e5-small) but seldom as close as a word is
to its synonym or the statute's name for the same people (宝宝 ~ 婴儿 0.983, 孕妇 ~ 孕产妇 0.979,
租客 ~ 承租人 0.969): over 6,000 nouns of the laws corpus, the closest noun of 112 everyday words
and 111 names reached 0.965 for 39 of the words and 3 of the names (two of them, 平安保险 ~
社会保险 and 工商银行 ~ 中国人民银行, share a word, which :func:`_shares` leaves out).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

# the tags of the block's words read as nouns a question's word may be met by
_NOUN_TAGS = ("n", "nr", "nrt", "ns", "nt", "nz", "vn", "j", "l")


@lru_cache(maxsize=2048)
def block_nouns(block: str) -> tuple[str, ...]:
    """The distinct nouns of two characters or more in ``block`` (its title and text), in order."""
    from zhiku.verify.pins import word_tags

    return tuple(dict.fromkeys(w.strip() for w, t in word_tags(block) if t in _NOUN_TAGS and len(w.strip()) >= 2))


def _shares(word: str, noun: str) -> bool:
    """Whether ``noun`` shares two characters in a row with ``word`` (财政 of 中央财政 in 财政预算,
    保险 of 平安保险 in 社会保险): its closeness then comes from the shared word, while what the
    question's word adds to it (中央, 平安) is what it pins, so it is not read as the same thing."""
    return any(word[i:i + 2] in noun for i in range(len(word) - 1))


def nearest(kb: Any, word: str, block: str) -> tuple[str, float]:
    """The noun of ``block`` closest to ``word`` (sharing no two characters in a row with it:
    :func:`_shares`) by the embedder's cosine (passage form, each
    encoded alone, one text per encoder call, through the vector cache: the bundled model encodes
    a single text on one thread, where a batch on its threads took seconds on a busy machine) and
    that cosine; ("", 0.0) without nouns.

    Args:
        kb: the knowledge base (its embedder and vector cache).
        word: the question's word.
        block: a cited block's title and text.
    """
    from zhiku.embed.base import embed_through_cache

    nouns = [n for n in block_nouns(block) if not _shares(word, n)]
    if not nouns:
        return "", 0.0
    vecs = np.asarray(embed_through_cache(kb.embedder, kb.config.cache_path, [word, *nouns], 1), dtype=np.float32)
    vecs = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-9)
    sims = vecs[1:] @ vecs[0]
    best = int(np.argmax(sims))
    return nouns[best], float(sims[best])


def near_reader(kb: Any, threshold: float):
    """A reader for :func:`zhiku.verify.answerable.check` (``near``): whether a block holds a
    noun at least ``threshold`` close to a word, remembered per (word, block) for one ask."""
    seen: dict[tuple[str, str], bool] = {}

    def near(word: str, block: str) -> bool:
        key = (word, block)
        if key not in seen:
            seen[key] = nearest(kb, word, block)[1] >= threshold
        return seen[key]

    return near
