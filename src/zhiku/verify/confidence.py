"""Calibrated confidence: the estimated probability that the answer is right, from a small
logistic model over retrieval features (coefficients fitted by benchmarks/fit_confidence.py)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from zhiku.answer.extractive import split_sentences
from zhiku.chunk.context import document_name
from zhiku.retrieve.fusion import has_dense
from zhiku.retrieve.segment import QUESTION_WORDS, normalise
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned

COEFFICIENTS = Path(__file__).with_name("confidence.json")
EXACT = 0.95
OLD_CUT = 0.40  # the refusal cut the dense blend was calibrated for
# the share of the evidence's probability a refusal keeps: a refusal is never a right answer
# (the refusals of the fitting rows: none right), so its confidence stays near 0
REFUSED = 0.1
# the trace note's key for the hybrid part's probability (:func:`shown_confidence`)
HYBRID = "hybrid_part"


@dataclass(frozen=True)
class Features:
    """What the confidence model sees of one retrieval.

    ``coverage``: IDF-weighted share of the question's content terms (two characters or
    more, question words left out) in the top three passages; ``coverage1``: the same in
    the first passage; ``sentence``: the best single sentence's share; ``margin``: how far
    the first score stands above the second (0..1); ``exact``: the question's named article
    was found; ``dense``: best dense cosine (0 without vectors) and ``has_dense``;
    ``terms``: log of the number of content terms; ``pinned``: constraints the question
    pins (subject, place, time, quantity); ``agree``: with vectors, the share of the first
    three hits that both the keyword and the dense search found among their first ten
    (0 without vectors); ``named``: the best sentence's share read as the composer reads it,
    under its document's name when ``answer_doc_name`` is on (else ``sentence``); ``title``:
    the share of the question the first hit's document name (title, file name) holds, how
    much of the question's subject the document supplies (an encyclopedia article named for
    it, a law the question names); ``top_agree``: with vectors, 1 when the keyword and the
    dense search both rank the first hit first (0 without vectors).

    With config ``confidence_terms`` above 0, the coverage shares (:data:`SHARES`) weigh a
    question of more content terms than that as one of that many (:func:`_weighed`, as the
    dense veto weighs its terms): a case narrative names people, places, dates and sums no
    rule states, so counted over every term its share falls with its length however well the
    evidence matches. Off (0) by default: refitted on it, the model did not order answers
    better held out (benchmarks/fit_confidence.py, ``ZHIKU_FIT_TERMS``).
    """

    coverage: float
    coverage1: float
    sentence: float
    margin: float
    exact: float
    dense: float
    has_dense: float
    terms: float
    pinned: float
    agree: float = 0.0
    named: float = 0.0
    title: float = 0.0
    top_agree: float = 0.0

    def vector(self) -> list[float]:
        """The features in model order."""
        return list(asdict(self).values())


NAMES = list(Features.__dataclass_fields__)
# the coverage shares config ``confidence_terms`` weighs (:func:`_weighed`)
SHARES = ("coverage", "coverage1", "sentence", "named", "title")


def _coverage(terms: list[str], text: str, idf) -> float:
    """IDF-weighted share of ``terms`` in ``text``; a term not found whole earns the share of
    its two-character pieces that are found (法定年龄 in 「结婚年龄…」 counts half); a figure
    the question states (二十一岁) counts where the text states one of its kind."""
    from zhiku.retrieve.segment import normalise
    from zhiku.verify.support import term_in

    total = sum(idf(t) for t in terms)
    if total <= 0:
        return 0.0
    t_norm = normalise(text)
    got = 0.0
    for t in terms:
        if term_in(t, t_norm):
            got += idf(t)
        elif len(t) >= 4:
            pieces = [t[i : i + 2] for i in range(0, len(t) - 1, 2)]
            got += idf(t) * sum(p in t_norm for p in pieces) / len(pieces)
    return got / total


def content_terms(terms: list[str]) -> list[str]:
    """Terms the coverage counts: two characters or more, no question words."""
    return [t for t in terms if len(t) >= 2 and t not in QUESTION_WORDS] or [
        t for t in terms if t not in QUESTION_WORDS]


# parts of speech of a word that names nothing a passage could be about: adverbial adjectives
# (突然, 直接), conjunctions (所以), prepositions (除了, 按照), particles (的话, 签了), modal
# particles, interjections; not adverbs, which the tagger gives verbs too out of context (同意)
_UNNAMING = frozenset({"ad", "c", "p", "u", "uj", "ul", "uz", "ug", "uv", "ud", "y", "e", "o"})


def naming_terms(terms: list[str]) -> list[str]:
    """``terms`` without the words that name nothing (:data:`_UNNAMING`: 突然, 的话, 除了): any
    text holds them or none, so they neither show that a passage is about the question nor
    that it is not; all of them when nothing else is left."""
    from zhiku.verify.pins import word_tags

    kept = [t for t in terms if not all(tag in _UNNAMING for _, tag in word_tags(t))]
    return kept or terms


def names_any(kb: Any, r: Any) -> bool:
    """Whether the first passages of retrieval ``r`` (their text or document name; config
    ``keyword_veto_passages``, the passages the answer is composed from, else the top three)
    hold one of the question's content terms that name something (:func:`naming_terms`): the
    keyword veto (config ``keyword_veto``) refuses evidence holding none (with
    ``keyword_veto_parts``, a word of the question is held by a dictionary word inside it:
    :func:`part_held`; with ``keyword_veto_abbreviations``, a short word by its full form:
    :func:`abbreviated`). Without vectors the
    fitted model answered such evidence at 0.31 (「家里的猫突然不爱吃饭了怎么办？」 answered
    from 「…遭敌突然袭击时」 over the laws: 突然 was the only word found)."""
    from zhiku.answer.reading import holds

    terms = naming_terms(content_terms(list(r.terms)))
    read = getattr(kb.config, "keyword_veto_passages", 0) or 3
    text = normalise(" ".join(f"{document_name(h.chunk)} {h.chunk.text}" for h in r.hits[:read]))
    parts = getattr(kb.config, "keyword_veto_parts", True)
    short = getattr(kb.config, "keyword_veto_abbreviations", False)
    words = _cut(text) if short else ()
    return any(holds(t, text) or parts and part_held(t, text) or short and abbreviated(t, words) for t in terms)


def _cut(text: str) -> tuple[str, ...]:
    """``text``'s words as the segmenter cuts them."""
    import rjieba

    return tuple(w for w in rjieba.cut(text) if w.strip())


def abbreviated(term: str, words: Sequence[str]) -> bool:
    """Whether ``words`` (a text as the segmenter cut it) hold the full form of ``term``, a Chinese
    word of two to four characters that is a shortening — one the dictionary lacks (醉驾, 网贷) or
    calls an abbreviation (社保, 医保: tag ``j``) — as one word opening with its first character and
    holding the others in order (社会保险 of 社保), or as many words in a row as it has characters,
    each opening with its character, one longer than that (醉酒 驾驶 of 醉驾). A statute writes out
    the word a user shortens, and the keyword index matched the question by those characters
    (config ``keyword_veto_abbreviations``). A dictionary word of its own (开车, 以后) is no
    shortening: 开启车门 does not write out 开车."""
    from zhiku.answer.reading import _in_order
    from zhiku.verify.pins import word_tags

    n = len(term)
    if not 2 <= n <= 4 or not re.fullmatch(r"[\u4e00-\u9fff]+", term):
        return False
    import rjieba

    if rjieba.has_word(term) and not any(t == "j" for _, t in word_tags(term)):
        return False
    if any(len(w) > n and w[0] == term[0] and _in_order(term[1:], w[1:]) for w in words):
        return True
    return any(all(w.startswith(ch) for w, ch in zip(words[i:i + n], term)) and any(len(w) > 1 for w in words[i:i + n])
               for i in range(len(words) - n + 1))


def part_held(term: str, text: str) -> bool:
    """Whether ``text`` holds a dictionary word of two characters or more inside ``term``, a word
    of three or more (精神病 of 精神病院, 健身 of 健身房, 二手 of 二手房): the keyword index matched
    the question by those parts, and a statute names the thing by its stem, not by the everyday
    compound (config ``keyword_veto_parts``)."""
    from zhiku.answer.reading import inner_words

    return len(term) >= 3 and any(term[i:j] in text for i, j in inner_words(term))


def features(kb: Any, question: str, r: Any) -> Features:
    """The confidence features of retrieval ``r`` for ``question``.

    Args:
        kb: the knowledge base (its IDF).
        question: the question.
        r: its :class:`~zhiku.pipeline.Retrieval`.
    """
    terms = content_terms(list(r.terms))
    hits = r.hits
    opts = CheckOptions.from_config(kb.config)
    if not hits:
        return Features(0, 0, 0, 0, float(r.exact), 0, 0, math.log1p(len(terms)), len(pinned(question, opts)), 0)
    top = hits[:3]
    most = getattr(kb.config, "confidence_terms", 0)

    def share(text: str) -> float:  # a long question weighed as one of ``most`` terms
        return _weighed(_coverage(terms, text, kb.idf), len(terms), most)

    cov = share("".join(h.chunk.text for h in top))
    cov1 = share(hits[0].chunk.text)
    doc_names = [document_name(h.chunk) for h in top]  # once per passage, not per sentence
    sentences = [(name, s) for h, name in zip(top, doc_names) for _, s in split_sentences(h.chunk.text)]
    sent = max((share(s) for _, s in sentences), default=0.0)
    # each sentence read as the composer reads it: under its document's name when answer_doc_name is on
    named = max((share(f"{name} {s}") for name, s in sentences),
                default=0.0) if getattr(kb.config, "answer_doc_name", False) else sent
    s1 = hits[0].score
    s2 = hits[1].score if len(hits) > 1 else 0.0
    margin = (s1 - s2) / s1 if s1 > 0 else 0.0
    dense = [h.sources["dense"][1] for h in hits[:10] if "dense" in h.sources]
    both = sum(h.sources.get("dense", (99, 0))[0] <= 10 and h.sources.get("bm25", (99, 0))[0] <= 10 for h in top)
    first = hits[0].sources
    return Features(cov, cov1, sent, max(0.0, min(1.0, margin)), float(r.exact),
                    max(dense) if dense else 0.0, 1.0 if dense else 0.0,
                    math.log1p(len(terms)), float(len(pinned(question, opts))), both / len(top) if dense else 0.0,
                    named, share(doc_names[0]),
                    float(first.get("bm25", (0, 0))[0] == 1 and first.get("dense", (0, 0))[0] == 1))


@lru_cache(maxsize=4)
def load_model(path: str = str(COEFFICIENTS)) -> dict[str, Any]:
    """The fitted model: ``{"names": [...], "mean": [...], "scale": [...], "weights": [...],
    "bias": b, "answered": {...}}`` (features standardised with ``mean``/``scale`` before the
    weights), fitted on keyword asks; under ``"dense"`` the same fitted on hybrid asks."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def model_of(dense: bool, model: dict[str, Any] | None = None) -> dict[str, Any]:
    """The fitted model for a ranking with a dense list (``dense``: the model under ``"dense"``,
    fitted on hybrid asks, whose cosines, agreement and fused order it has seen) or a
    keyword-only one (the model itself); a model without a ``"dense"`` part serves both."""
    m = model or load_model()
    return m.get("dense", m) if dense else m


def with_vectors(cfg: Any, hits: Sequence[Any], terms: Sequence[str] = ()) -> bool:
    """Whether the answer's confidence is read by the model fitted on hybrid asks: config
    ``confidence_dense_model`` is on, the first ten hits hold one the dense search found
    (:func:`zhiku.retrieve.fusion.has_dense` of them; the ``has_dense`` feature reads ``dense``
    among their sources, the same of an answer's hits: a dense list's hit completed with a
    keyword candidate, ``dense`` its source alone, reaches them only fused) and
    the question (its ``terms``) is no narrative of more than ``heading_max_words`` words: a
    case description's shares of its many words are small however well the evidence matches,
    and read by that part 9 of 44 case narratives whose gold was in the top five fell under
    ``min_confidence`` (the keyword model reads them, as before).
    Nor is a named clause found exactly (the first hit the clause lookup's): the part's fitting
    rows hold no clause lookup, and its weights after answering leave every such answer near
    0.95, where the keyword model's (met, meant) set its few wrong ones lower. That part gives
    the confidence shown; whether to refuse stays with the keyword model's probability, the
    vetoes and the second look (:func:`shown_confidence`)."""
    most = getattr(cfg, "heading_max_words", 0)
    return bool(getattr(cfg, "confidence_dense_model", False)) and not 0 < most < len(terms) \
        and bool(hits) and hits[0].source != "clause" and has_dense([hits[:10]])


def probability(f: Features, model: dict[str, Any] | None = None, dense: bool = False) -> float:
    """The model's probability that the answer built on this evidence is right (``dense``: read
    by the part fitted on hybrid asks, :func:`model_of`; :func:`with_vectors` says when)."""
    m = model_of(dense, model)
    x = dict(zip(NAMES, f.vector()))
    z = m["bias"] + sum(w * (x[n] - mu) / (sd or 1.0)
                        for n, w, mu, sd in zip(m["names"], m["weights"], m["mean"], m["scale"]))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def after_features(weak: bool, share: float, met: int, quoted: float = 1.0, top: bool = True,
                   asks: bool = False, typed: bool = False, conflict: bool = False,
                   cosine: float = 0.0, meant: bool | None = None, lift: float = 0.0,
                   on_point: float | None = None, stated: bool | None = None) -> dict[str, float]:
    """What answering showed, as the ``answered`` weights see it: ``weak`` (a constraint
    that does not refuse is missing), ``removed`` (share of checked sentences verification
    removed), ``met`` (log of 1 + the constraints the cited blocks meet), ``unquoted`` (the
    share of the question's content words, IDF-weighted, the answer's own sentences leave
    out: :func:`quoted_coverage`), ``below`` (the answer does not cite the first hit),
    ``untyped`` (the question asks for a kind of value, an amount, a period, an age, a
    date, a name, and the answer states none), ``conflict`` (the answer flags evidence that
    disagrees with itself on the point: two values, two rules), ``near`` (with
    ``quote_cosine`` on, how close the quoted sentence is to the question: :func:`_near`),
    ``meant`` (the offline answer's choice read what the evidence means, and the cited block is
    the closest to the question: 1; not the closest: -1; not read: 0), ``below_meant`` and
    ``below_other`` (it quotes a lower passage than the first, the closest by meaning or not),
    ``lift`` (how far the cited block's cosine lies above the first passage's, in steps of 0.01
    within ±3: :func:`zhiku.answer.finish.meaning_shown`), ``on_point`` (with config
    ``confidence_on_point``, the share of the answer's text the question's words make up,
    :func:`on_point`, less :data:`ON_POINT`; 0 when it was not read), ``stated`` (with config
    ``confidence_stated``, the question asks for a kind of value, an amount, a period, an age, a
    date, a count, and the answer states one of that kind: 1; else, or not read, 0)."""
    return {"weak": float(weak), "removed": 1.0 - min(max(share, 0.0), 1.0), "met": math.log1p(max(met, 0)),
            "unquoted": 1.0 - min(max(quoted, 0.0), 1.0), "below": float(not top),
            "untyped": float(asks and not typed), "conflict": float(conflict), "near": _near(cosine),
            "meant": 0.0 if meant is None else (1.0 if meant else -1.0),
            "below_meant": float(not top and bool(meant)), "below_other": float(not top and not meant),
            "lift": max(-3.0, min(3.0, lift / 0.01)),
            "on_point": 0.0 if on_point is None else on_point - ON_POINT, "stated": float(bool(stated))}


def _near(cosine: float) -> float:
    """The quote's cosine to the question (:func:`zhiku.verify.shown.quote_cosine`) in steps
    of 0.02 from 0.90, within ±3 (the bundled e5's cosines of a question and a sentence lie
    in 0.84–0.96); 0 (neutral) when it was not read."""
    return 0.0 if cosine <= 0 else max(-3.0, min(3.0, (cosine - 0.90) / 0.02))


def quoted_coverage(kb: Any, terms: list[str], text: str) -> float:
    """IDF-weighted share of the question's content words (:func:`content_terms`) that the
    answer's text (its markers left out) holds."""
    return _coverage(content_terms(list(terms)), re.sub(r"\[\d+\]", "", text), kb.idf)


# the share of an answer's text the question's words make up that is neutral (about the mean of the
# law sets' answers, natural2 0.25, everyday3 0.21; RGB's and CMRC's lie near 0.29, the case
# narratives' near 0.47, which are not read: zhiku.answer.finish.on_point_shown)
ON_POINT = 0.25
_UNITS = re.compile(r"[\u3400-\u9fff]|[A-Za-z0-9]+")


def on_point(question: str, text: str) -> float:
    """The share of the answer's ``text`` (its markers left out) that the question's own words make
    up: of its Chinese characters and Latin words (a Latin word or a figure whole, case ignored),
    those the question holds. An answer quoting the sentence that states the thing asked repeats
    the question's words around its answer (「结婚年龄，男不得早于二十二周岁…」 for 「法定结婚年龄男女各是
    多少岁？」); one quoting a passage that only touches the question holds them once in much else
    (a report's line that names the year and the place asked and goes on about another figure).
    0 for an empty text."""
    units = [u.lower() for u in _UNITS.findall(re.sub(r"\[\d+\]", "", text))]
    if not units:
        return 0.0
    asked = set(u.lower() for u in _UNITS.findall(question))
    return sum(u in asked for u in units) / len(units)


def answered(p: float, weak: bool, share: float, met: int = 0, model: dict[str, Any] | None = None,
             dense: bool = False, **more: Any) -> float:
    """The probability that a drafted answer is right, from the retrieval probability ``p``
    and what answering showed (:func:`after_features`). The model's ``answered`` weights
    are added to the log-odds of ``p`` (fitted by benchmarks/fit_confidence.py over the
    first stage's log-odds), so an answer that pins nothing and loses nothing keeps ``p``.

    Args:
        p: the retrieval probability (:func:`confidence`).
        weak: the cited blocks miss a constraint that does not refuse.
        share: kept / checked sentences (1.0 when nothing was checked).
        met: how many constraints the question pins that the cited blocks meet.
        model: the fitted model (default: the shipped one).
        dense: weigh with the part fitted on hybrid asks (:func:`model_of`).
        more: the other arguments of :func:`after_features` (``quoted``, ``top``,
            ``asks``, ``typed``, ``conflict``); left out, they are neutral.
    """
    m = model_of(dense, model).get("answered")
    if not m:
        return p
    x = after_features(weak, share, met, **more)
    z = math.log(max(p, 1e-6) / max(1 - p, 1e-6)) + sum(w * x[n] for n, w in zip(m["names"], m["weights"]))
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def scaled_blend(blend: float | None, min_confidence: float) -> float:
    """The dense blend scaled so its old refusal cut (0.40) falls on ``min_confidence``; 1.0
    for none (the ask and benchmarks/fit_confidence.py's simulation of the veto both call it)."""
    return 1.0 if blend is None else min_confidence / OLD_CUT * blend


def veto_coverage(terms: list[str], text: str, idf: Callable[[str], float], most: int,
                  pieces: bool = True, same: Callable[[str], Sequence[str]] | None = None) -> float:
    """The dense veto's term coverage: the IDF-weighted share of ``terms`` in ``text``
    (:func:`zhiku.answer.reading.coverage`), with a question of more than ``most`` terms
    weighed as one of ``most`` average terms (the share times len(terms) / ``most``, at most
    1). A long case narrative names people, places, dates and sums no rule states, so its
    share falls with its length however well the evidence matches what it describes; a
    short question about something the documents do not hold keeps its share. 0: every
    term counts. With ``pieces`` (config ``dense_veto_pieces``) the share is also read with
    a single character counted only when it can name something (:func:`_veto_terms`) and a
    word the segmenter guessed (:func:`_pieces_held`) by its pieces the text holds, and the
    higher of the two readings counts: the pieces only ever let more through (dropping a
    character the evidence holds, 领 and 归 of 「…没人来领，最后归谁？」, must not lower the share).
    With ``same`` (config ``dense_veto_synonyms``: :func:`zhiku.retrieve.thesaurus.rare_synonyms`)
    a term the text misses is held when the text holds one of the words ``same`` gives for it — a
    layperson's word stated in the statute's word (斑马线: 人行横道, 马路: 道路); read with the
    pieces, and the higher reading counts as before."""
    from zhiku.answer.reading import coverage, holds

    whole = _weighed(coverage(terms, text, idf), len(terms), most)
    if not pieces and same is None:
        return whole
    counted = _veto_terms(terms) if pieces else list(terms)
    total = sum(idf(t) for t in counted)
    t_norm = normalise(text)

    def held_share(t: str) -> float:
        if holds(t, t_norm) or same is not None and any(holds(w, t_norm) for w in same(t)):
            return 1.0
        return _pieces_held(t, t_norm) if pieces else 0.0

    held = sum(idf(t) * held_share(t) for t in counted)
    return max(whole, _weighed(held / total if total > 0 else 0.0, len(counted), most))


def _weighed(share: float, n: int, most: int) -> float:
    """A coverage ``share`` of ``n`` terms weighed as one of ``most`` terms when there are more."""
    return min(1.0, share * n / most) if most and n > most else share


def _veto_terms(terms: list[str]) -> list[str]:
    """The terms the veto counts: a single character only when it can name something (閦 of
    阿閦佛, which the segmenter cuts into characters), not a verb, an adverb or a pronoun
    that matches any text or none (称, 指, 谁: :func:`zhiku.answer.reading.counted_terms`)."""
    from zhiku.answer.reading import counted_terms
    from zhiku.verify.pins import word_tags

    kept = [t for t in counted_terms(terms) if len(t) > 1 or not all(tag == "r" for _, tag in word_tags(t))]
    return kept or list(terms)


def _pieces_held(term: str, text: str) -> float:
    """The share of ``term``'s characters covered by its two-character pieces (at every
    offset) that ``text`` holds, for a word of three characters or more that is not in the
    segmenter's dictionary: it glued a name it does not know to the word beside it
    (「黄华麒是」, 「魏舒史」 of 魏舒史称, 「史继偕著」), a word no passage holds whole. A
    dictionary word (男朋友, 民政局) is whole or missing: 0."""
    import rjieba

    if len(term) < 3 or rjieba.has_word(term):
        return 0.0
    covered: set[int] = set()
    for i in range(len(term) - 1):
        if term[i:i + 2] in text:
            covered |= {i, i + 1}
    return len(covered) / len(term)


def dense_blend(kb: Any, r: Any, f: Features) -> float | None:
    """With vectors, the earlier blend of term coverage and the best dense cosine, which
    was calibrated on indexes with vectors (e5 cosines of 0.78–0.90 rescaled to 0..1):
    ``0.9 × (0.6 × coverage + 0.4 × cosine)``; :func:`scaled_blend` puts its old refusal cut
    (0.40) on ``min_confidence``. With ``dense_veto`` on, below ``min_confidence`` it
    replaces the model's probability (a refusal); above it, it is not a cap (as a cap,
    confidence with vectors never passed 0.675, and CMRC answers at 0.6–0.7 were right 88 %
    of the time). It refuses out-of-scope questions the fitted model and the answerability
    check let through (「火星基地的氧气配给标准是多少升每天？」 over the laws). Its coverage
    counted over every term of the question, a long case description never passed it (it
    refused 33 of the first 100 case → article questions whose gold article was in the top
    5, at cosines of 0.89–0.93): a question of more than ``dense_veto_terms`` terms is
    weighed as one of that many (:func:`veto_coverage`). None without vectors."""
    from zhiku.retrieve.thesaurus import rare_synonyms

    if not f.has_dense:
        return None
    cov = veto_coverage(list(r.terms), "".join(h.chunk.text for h in r.hits[:3]), kb.idf,
                        kb.config.dense_veto_terms, kb.config.dense_veto_pieces,
                        rare_synonyms(kb) if kb.config.dense_veto_synonyms else None)
    dn = min(max((f.dense - 0.78) / 0.12, 0.0), 1.0)
    return 0.9 * (0.6 * cov + 0.4 * dn)


def confidence(kb: Any, r: Any, question: str = "", note: dict | None = None) -> tuple[float, str]:
    """How likely the answer from retrieval ``r`` is right (0..1), and why.

    Args:
        kb: the knowledge base.
        r: the retrieval.
        question: the question (for the constraints it pins; default ``r.question``).
        note: receives the features the model saw and the dense veto (a trace step's
            detail; benchmarks/fit_confidence.py fits on them).

    Returns:
        The calibrated probability the refusal is decided on (the keyword model's, after the
        vetoes) and a short explanation; with config ``confidence_dense_model`` and a hybrid
        ranking, ``note`` also receives the hybrid part's probability (:func:`shown_confidence`).
    """
    if not r.hits:
        return 0.0, "没有检索到任何段落"
    f = features(kb, question or getattr(r, "question", ""), r)
    # the fitting sets hold no named-clause lookups; a clause found exactly keeps 0.95
    p = max(probability(f), EXACT) if r.exact else probability(f)
    blend = None if r.exact else dense_blend(kb, r, f)
    veto = scaled_blend(blend, kb.config.min_confidence) if kb.config.dense_veto else 1.0
    if note is not None:
        note["features"] = {k: round(v, 4) for k, v in asdict(f).items()}
        if blend is not None:
            note["blend"] = round(blend, 4)
        if with_vectors(kb.config, r.hits, r.terms):  # the part fitted on hybrid asks gives the value shown
            part = probability(f, dense=True)
            note[HYBRID] = round(max(part, EXACT) if r.exact else part, 6)
    if veto < kb.config.min_confidence:  # weak dense evidence refuses; it does not cap the rest
        if note is not None and p >= kb.config.min_confidence:
            note["vetoed"] = round(p, 4)  # what the model said: a second look may restore it
        p = min(p, veto)
    if blend is None and not r.exact and kb.config.keyword_veto and p >= kb.config.min_confidence \
            and not names_any(kb, r):
        p = 0.0  # without vectors, evidence holding none of the question's naming words says nothing of it
        if note is not None:
            note["keyword_veto"] = True
    why = f"关键词覆盖 {f.coverage:.0%}，最佳句覆盖 {f.sentence:.0%}"
    if r.exact:
        why = "问题点名的条文已精确定位；" + why
    if f.has_dense:
        why += f"，语义相似度 {f.dense:.2f}"
    return p, why + f"，估计答对概率 {p:.0%}"


def shown_confidence(p: float, refuse: bool, note: dict) -> float:
    """The confidence an ask shows, from the probability ``p`` its refusal was decided on
    (``refuse``) and the ``note`` :func:`confidence` filled: where the part fitted on hybrid
    asks read the ranking (config ``confidence_dense_model``, :func:`with_vectors`), its
    probability — it orders right and wrong hybrid answers better, but its scale is not the
    one ``min_confidence``, the dense veto and its second look were chosen on, so it reports
    and does not decide (deciding, it refused right answers to everyday questions the
    keyword model answered); a refusal shows the lower of the two. Else ``p``."""
    part = note.get(HYBRID)
    if part is None:
        return p
    return min(p, part) if refuse else part
