"""Primary provisions first in keyword ranking: a passage that is no 第X条 (a case report, a
guide, a preamble), or one of a judicial interpretation, weighs less among candidates that
hold the provisions of laws."""

from __future__ import annotations

import re
from collections.abc import Sequence

from zhiku.retrieve.rescore import rescored
from zhiku.types import Hit


def unnumbered_down(hits: Sequence[Hit], weight: float) -> list[Hit]:
    """Keyword hits re-ranked with the score of each hit outside a numbered provision
    (no article) multiplied by ``weight``.

    An everyday question asks what the rule is; a case report or a how-to guide retells
    the rule's words at length around one story, so BM25 ranks it beside (or above) the
    article that states it. The weight applies only where the candidates mix the two
    kinds: a list without any provision (manuals, FAQs) keeps its order.

    Args:
        hits: keyword hits, best first.
        weight: the factor of an unnumbered hit's score; ``1`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records
        the factor under ``provision``.
    """
    if weight >= 1 or not any(h.chunk.article for h in hits) or all(h.chunk.article for h in hits):
        return list(hits)
    return _reweighed(hits, [1.0 if h.chunk.article else weight for h in hits], "provision")


def _reweighed(hits: Sequence[Hit], factors: Sequence[float], key: str) -> list[Hit]:
    """``hits`` with each score multiplied by its factor, re-ranked (ties keep their order),
    each recording its new rank and factor under the source ``key``."""
    return rescored(hits, [h.score * f for h, f in zip(hits, factors)], key, factors)


# A court's or procuratorate's interpretation: 最高人民法院关于适用《…》…的解释, …的规定, …的批复,
# also without the issuer (关于审理…案件适用法律若干问题的规定); （一）, （试行） may follow.
_ISSUER = re.compile(r"^(最高人民(法院|检察院)[、，,\s和与]*)+")
_APPLIES = re.compile(r"^关于.*(适用|应用)(法律|《)")
_KIND = re.compile(r"(解释|规定|批复)(（[^）]*）)*$")


def interprets(title: str) -> bool:
    """Whether a document titled ``title`` is a judicial interpretation: a court's or
    procuratorate's 解释, 规定 or 批复 (最高人民法院关于适用《中华人民共和国民法典》婚姻家庭编的
    解释（一）), or one without its issuer that says it applies law (关于审理…适用法律若干问题的规定)."""
    t = title.strip()
    return bool(_KIND.search(t) and (_ISSUER.match(t) or _APPLIES.match(t)))


def interpretations_down(hits: Sequence[Hit], weight: float) -> list[Hit]:
    """Keyword hits re-ranked with the score of each hit of a judicial interpretation (see
    :func:`interprets`) multiplied by ``weight``, where other numbered provisions are among them.

    An interpretation restates the words of the law it interprets around a narrower case
    (婚前个人财产 in a marriage law interpretation beside 民法典's 夫妻的个人财产), and several of
    them often crowd the article of the law itself out of the first five; an everyday question
    asks for the law first. A list of interpretations alone keeps its order.

    Args:
        hits: keyword hits, best first.
        weight: the factor of an interpretation's score; ``1`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each keeps its sources and records the
        factor under ``primary``.
    """
    if weight >= 1:
        return list(hits)
    secondary = [interprets(h.chunk.title) for h in hits]
    if not any(secondary) or not any(h.chunk.article and not s for h, s in zip(hits, secondary)):
        return list(hits)
    return _reweighed(hits, [weight if s else 1.0 for s in secondary], "primary")


def _law_name(title: str) -> str:
    """A title as laws are named inside others: 中华人民共和国, book marks and spaces cut."""
    return re.sub(r"[《》〈〉\s]", "", title).replace("中华人民共和国", "")


def restating_down(hits: Sequence[Hit], weight: float) -> list[Hit]:
    """Keyword hits re-ranked with the score of each hit of a judicial interpretation (see
    :func:`interprets`) multiplied by ``weight`` when it interprets a law whose own provisions
    are among the candidates: its title names that law (最高人民法院关于适用《中华人民共和国民法典》
    婚姻家庭编的解释（二） and 民法典 婚姻家庭编's articles). The interpretation restates the law's
    words around a narrower case; the law's article is what an everyday question asks for.
    An interpretation of a law no candidate holds keeps its score.

    Args:
        hits: keyword hits, best first.
        weight: the factor; ``1`` leaves ``hits`` as they are.

    Returns:
        New hits, re-ranked (ties keep their order); each records the factor under ``restated``.
    """
    if weight >= 1:
        return list(hits)
    secondary = [interprets(h.chunk.title) for h in hits]
    laws = {_law_name(h.chunk.title) for h, s in zip(hits, secondary) if h.chunk.article and not s}
    laws.discard("")
    if not laws or not any(secondary):
        return list(hits)
    factors = [weight if s and any(n in _law_name(h.chunk.title) for n in laws) else 1.0
               for h, s in zip(hits, secondary)]
    if all(f == 1.0 for f in factors):
        return list(hits)
    return _reweighed(hits, factors, "restated")
