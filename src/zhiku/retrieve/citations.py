"""Articles other documents cite: for a question naming a law, the candidates of the whole index
that cite that law's articles (an interpretation's 「依照刑法第二百六十四条的规定，以盗窃罪定罪
处罚」) vote for those articles, which become one more ranked list."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from zhiku.index.store import Scope
from zhiku.retrieve.clause import ClauseRef, article_label
from zhiku.types import Hit

if TYPE_CHECKING:
    from zhiku.ask.search import Prepared

_PREFIX = "中华人民共和国"
# 「刑法第二百六十四条」「《中华人民共和国刑法》第264条」「刑法（2020年修正）第十七条之一」
_ARTICLE = r"》?(?:[（(][^）)]{0,20}[）)])?\s*第\s*[零〇一二两三四五六七八九十百千\d]+\s*条(?:之[一二三四五六七八九十]+)?"


@lru_cache(maxsize=256)
def _pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """A citation of an article of a law called one of ``names`` (with or without 中华人民共和国)."""
    short = {n.removeprefix(_PREFIX) for n in names if n.removeprefix(_PREFIX)}
    alt = "|".join(re.escape(n) for n in sorted(short, key=len, reverse=True))
    return re.compile(f"(?:{alt}){_ARTICLE}")


def cited_votes(lists: Sequence[Sequence[Hit]], ref: ClauseRef, k: int) -> dict[str, float]:
    """The articles of the law ``ref`` names that the other documents' hits cite, each with
    its votes: every list's hit citing it adds 1 / (``k`` + its rank), as in RRF (Cormack et
    al. 2009); a hit citing an article twice counts once.

    Args:
        lists: ranked hits of the whole index (keyword, dense).
        ref: what the question names: its documents and their names.
        k: the RRF constant.

    Returns:
        Article label (``第二百六十四条``) → votes, best first; empty when the question names
        no law, or names an article (that article is searched exactly).
    """
    if not ref.doc_ids or not ref.names or ref.article:
        return {}
    pattern, named = _pattern(tuple(ref.names)), set(ref.doc_ids)
    votes: dict[str, float] = {}
    for hits in lists:
        for rank, h in enumerate(hits, 1):
            if h.chunk.doc_id in named:
                continue
            # in the order cited (a set's order changes per process and decided ties)
            for label in dict.fromkeys(x for m in pattern.finditer(h.chunk.text) if (x := article_label(m.group()))):
                votes[label] = votes.get(label, 0.0) + 1.0 / (k + rank)
    return dict(sorted(votes.items(), key=lambda kv: -kv[1]))


def cited_list(kb: Any, lists: Sequence[Sequence[Hit]], ref: ClauseRef, scope: Scope, most: int) -> list[Hit]:
    """The named law's articles the whole index's candidates cite most, as a ranked list of
    their chunks (source ``cited``) to fuse with the other lists.

    A judicial interpretation or an implementing regulation retells a law's provision in the
    everyday words of the acts it covers (秘密窃取, 扒窃, 入户) and names the article it
    applies; a question in those words — a case narrative above all — finds the retelling
    where the law's own terse wording (盗窃公私财物) shares few of its words.

    Args:
        kb: the knowledge base (its store and ``rrf_k``).
        lists: ranked hits of the whole index.
        ref: what the question names.
        scope: where the question searches (its permission filter and versions are kept).
        most: how many cited articles the list holds; ``0`` = none.
    """
    if most <= 0:
        return []
    votes = cited_votes(lists, ref, kb.config.rrf_k)
    if not votes:
        return []
    scope = replace(scope, versions="all") if ref.version else scope  # 「2018年修正的公司法」, as inside it
    doc_ids = tuple(d for d in ref.doc_ids if not scope.doc_ids or d in scope.doc_ids)
    out: list[Hit] = []
    for label in list(votes)[:most]:
        for c in kb.store.find(replace(scope, doc_ids=doc_ids, article=label)) if doc_ids else ():
            out.append(Hit(c, votes[label], "cited", {"cited": (len(out) + 1, votes[label])}))
    return out


def named_citations(kb: Any, p: Prepared, lists: Sequence[Sequence[Hit]]) -> list[list[Hit]]:
    """:func:`cited_list` of ``lists`` for the prepared question ``p`` as a list of lists to
    fuse: none when it is empty, ``lists`` is empty (no search inside a named law), the
    ``cited_articles`` setting is 0, or the question has ``cited_min_words`` words or fewer.

    A narrative (a case description) tells its acts in everyday words the law's own text
    does not share, which the retellings bridge; a short question's words are the law's
    already, and an article one stray candidate cites would only push the one the search
    inside the law ranked first down (natural2, when every question used it: three
    questions naming a law lost their first place, MRR@10 0.510 -> 0.485).
    """
    cfg = kb.config
    if not lists or len(p.terms) <= cfg.cited_min_words:
        return []
    got = cited_list(kb, lists, p.ref, p.scope, cfg.cited_articles)
    return [got] if got else []
