"""Offence names: the 罪名 regulations of a corpus (…关于执行《刑法》确定罪名的规定 and its
supplements, …关于适用刑法分则规定的犯罪的罪名的意见) name the offence each article of a
criminal law defines; the offence a narrative charges or its act words name best brings the
article it is assigned to among the passages an answer reads."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from zhiku.chunk import cn_to_int, int_to_cn
from zhiku.index.store import Scope
from zhiku.retrieve.segment import LONG_QUESTION_TERMS
from zhiku.types import Hit

if TYPE_CHECKING:
    from zhiku.ask.search import Prepared

_PREFIX = "中华人民共和国"
_NUM = r"[零〇一二两三四五六七八九十百千\d]+"
_SUB = r"(?:之[一二三四五六七八九十]+)?"
# 「35．破坏广播电视设施、公用电信设施罪（第124条第1款）」「放火罪（第114条、第115条第1款）」
_LISTED = re.compile(r"(?<![\u4e00-\u9fff])([\u4e00-\u9fff][\u4e00-\u9fff、]*?(?:（边）[\u4e00-\u9fff、]*?)?)罪"
                     rf"\s*[（(]((?:第{_NUM}(?:条{_SUB}|款)[、，,和及\s]*)+)[）)]")
# a table row 「| 第134条第2款 （《刑法修正案（六）》第1条第2款） |强令违章冒险作业罪 |」
_ROW = re.compile(rf"\|\s*(第{_NUM}条{_SUB})[^|]*\|\s*([\u4e00-\u9fff][\u4e00-\u9fff、]*?(?:（边）[\u4e00-\u9fff、]*?)?)罪")
_ARTICLE = re.compile(rf"第({_NUM})条({_SUB})")
_CJK = re.compile(r"[\u4e00-\u9fff]")
# a charge in so many words: 「已构成销售假药罪」「应当以破坏公用电信设施罪追究」「涉嫌故意毁坏财物罪」
_CHARGE = re.compile(r"(?=(?:构成|以|涉嫌)([\u4e00-\u9fff、]{2,24}?)罪)")  # at every place: 以…构成盗窃罪


def _label(num: str, sub: str) -> str | None:
    """``第二百六十四条`` of 「第264条」 or 「第二百六十四条」 (None for 第0条)."""
    n = int(num) if num.isdigit() else cn_to_int(num)
    return f"第{int_to_cn(n)}条{sub}" if n else None


def offence_entries(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The offence names a regulation's text assigns to articles, each with its articles.

    Args:
        text: a chunk of a 罪名 regulation: a numbered list (「1．背叛国家罪（第102条）」) or a
            table of 「| 刑法条文 | 罪名 |」 rows.

    Returns:
        ``(name without 罪, article labels)`` pairs in text order; a name the text begins
        with may be the tail of one the chunk before it holds (「弹药罪（第128条第1款）」): its
        name is marked with a leading ``…`` (see :meth:`OffenceTable.build`).
    """
    out: list[tuple[str, tuple[str, ...]]] = []
    for m in _LISTED.finditer(text):
        labels = tuple(dict.fromkeys(x for a in _ARTICLE.finditer(m.group(2)) if (x := _label(*a.groups()))))
        if labels and len(m.group(1)) >= 2:
            out.append((("…" if not text[:m.start()].strip() else "") + m.group(1), labels))
    for m in _ROW.finditer(text):
        a = _ARTICLE.match(m.group(1))
        label = _label(*a.groups()) if a else None
        if label and len(m.group(2)) >= 2:
            out.append((m.group(2), (label,)))
    return out


@dataclass(frozen=True)
class OffenceTable:
    """Offence names by the title of the regulation stating them, each with its articles and
    the BM25 weight of each of its words (the index's segmenter; IDF among the names, length
    normalised: Robertson et al. 1994, k1 = 1.2, b = 0.75), so that a question's score of a
    name is the sum of the weights of the words it holds."""

    # (title, name, articles, ((word, weight), …))
    entries: tuple[tuple[str, str, tuple[str, ...], tuple[tuple[str, float], ...]], ...]
    _laws: dict[tuple[str, ...], Any] = field(default_factory=dict, compare=False, repr=False)

    def _of(self, laws: Sequence[str]) -> tuple[dict[str, tuple[str, ...]], dict[str, list[tuple[str, float]]]]:
        """The names of the regulations whose title names one of ``laws`` (a name restated
        by a later regulation keeps the articles it gives last), and word → ``(name,
        weight)`` of them (kept per set of laws)."""
        short = tuple(sorted({n.removeprefix(_PREFIX) for n in laws} - {""}))
        got = self._laws.get(short)
        if got is None:
            rows = [e for e in self.entries if any(s in e[0] for s in short)]
            names = {name: labels for _, name, labels, _ in rows}
            postings: dict[str, list[tuple[str, float]]] = {}
            for name, weights in {name: weights for _, name, _, weights in rows}.items():
                for t, w in weights:
                    postings.setdefault(t, []).append((name, w))
            got = self._laws[short] = (names, postings)
        return got

    @classmethod
    def build(cls, store: Any, segment: Callable[[str], list[str]]) -> OffenceTable:
        """Read the offence names of every document whose title holds 罪名 (a court's or a
        procuratorate's 罪名 regulation). A name a chunk begins with that is the tail of
        another name of the same article (弹药 of 非法持有、私藏枪支、弹药) was cut by the
        chunking and is left out.

        Args:
            store: the index (its documents and chunks).
            segment: the index's segmenter.
        """
        found: list[tuple[str, str, tuple[str, ...]]] = []
        for d in sorted((d for d in store.documents() if "罪名" in d.title), key=lambda d: d.title):
            for c in store.find(Scope(doc_ids=(d.doc_id,), versions="all"), limit=10_000):
                found += [(d.title, name, labels) for name, labels in offence_entries(c.text)]
        whole = [(name, set(labels)) for _, name, labels in found if not name.startswith("…")]
        rows: list[tuple[str, str, tuple[str, ...], tuple[str, ...]]] = []
        for title, name, labels in found:
            cut, name = name.startswith("…"), name.removeprefix("…")
            if cut and any(n != name and n.endswith(name) and arts & set(labels) for n, arts in whole):
                continue
            words = tuple(t for t in segment(name) if _CJK.match(t))
            if words:
                rows.append((title, name, labels, words))
        names = {r[1]: r[3] for r in rows}  # a name restated by a later regulation counts once
        n = max(len(names), 1)
        df = Counter(t for words in names.values() for t in set(words))
        idf = {t: math.log(1.0 + (n - f + 0.5) / (f + 0.5)) for t, f in df.items()}
        avg = sum(len(w) for w in names.values()) / n

        def weights(words: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
            norm = 1.2 * (0.25 + 0.75 * len(words) / avg)
            return tuple((t, idf[t] * f * 2.2 / (f + norm)) for t, f in Counter(words).items())

        return cls(tuple((title, name, labels, weights(words)) for title, name, labels, words in rows))

    def charged(self, question: str, laws: Sequence[str]) -> list[str]:
        """The articles of the offences ``question`` charges in so many words (构成销售假药罪,
        以破坏公用电信设施罪追究, 涉嫌…罪; a prior conviction, 因犯…罪, is not a charge): each
        charge's name is the regulations' name itself or, for one alternative of a listed name
        (销售假药 of 生产、销售假药), the shortest name holding its characters in order.

        Args:
            question: the question as asked.
            laws: the names of the laws the question names (see :meth:`articles`).
        """
        names, _ = self._of(laws)
        out: list[str] = []
        for m in _CHARGE.finditer(question):
            said = m.group(1)
            fits = [n for n in names if n == said] or sorted((n for n in names if _subsequence(said, n)), key=len)
            if fits:
                out += [x for x in names[fits[0]] if x not in out]
        return out

    def articles(self, terms: Sequence[str], laws: Sequence[str], most: int) -> dict[str, float]:
        """The articles of the offence names ``terms`` match best (BM25 over the names), each
        with its name's score.

        Args:
            terms: the question's keyword terms (each counted once).
            laws: the names of the laws the question names; only regulations whose title
                names one of them count (刑法 in 执行《中华人民共和国刑法》确定罪名的规定).
            most: how many of the best names' articles.

        Returns:
            Article label → score, best first (a label of several names keeps its best).
        """
        names, postings = self._of(laws)
        scored: dict[str, float] = {}
        for t in dict.fromkeys(terms):  # in order: equal scores rank alike in every process
            for name, w in postings.get(t, ()):
                scored[name] = scored.get(name, 0.0) + w
        out: dict[str, float] = {}
        for name in sorted(scored, key=lambda x: -scored[x])[:most]:
            for label in names[name]:
                out.setdefault(label, scored[name])
        return out


def _subsequence(short: str, name: str) -> bool:
    """Whether the characters of ``short`` occur in ``name`` in order (销售假药 in 生产、销售假药)."""
    it = iter(name)
    return all(ch in it for ch in short)


def named_offences(kb: Any, p: Prepared, matching: bool = True) -> list[str]:
    """The articles of the offences a question asking which provision applies (适用刑法哪一条)
    names: those it charges in so many words first (构成销售假药罪, 以破坏公用电信设施罪追究,
    涉嫌…罪), then, with ``matching`` and for a narrative (``LONG_QUESTION_TERMS`` words or
    more), those of the ``offence_names`` names its words match best; none when it asks no
    offence, names no law or an article, or the setting is 0."""
    from zhiku.retrieve.answertype import AnswerType

    most, ref = kb.config.offence_names, p.ref
    if most <= 0 or AnswerType.OFFENCE not in p.asks or not ref.doc_ids or not ref.names or ref.article:
        return []
    table = kb.offences()
    # a short question's few words meet a name by one shared character (客户 → 用账外客户资金非法拆借…)
    narrative = matching and len(p.terms) >= LONG_QUESTION_TERMS
    matched = table.articles(p.kw_terms, ref.names, most) if narrative else {}
    return list(dict.fromkeys([*table.charged(p.question, ref.names), *matched]))


def named_offence_first(kb: Any, p: Prepared, hits: Sequence[Hit], dense: bool) -> list[Hit]:
    """``hits`` with the named law's articles of the offences the question names
    (:func:`named_offences`) moved up to the last of the passages an answer is composed from
    (``answer_chunks``): the ones before it keep their places. A charged offence's article
    joins from the index when no candidate holds it; a matched name's only from among the
    candidates (the search found it too).

    A word-matched name counts only in a keyword-only ranking (``dense`` False: no dense list
    among the fused lists, :func:`zhiku.retrieve.fusion.has_dense`).

    A narrative tells the acts (盗窃, 容留他人吸毒, 非法持有毒品) the 罪名 regulations name each
    article's offence by, in words the article itself often lacks (失火罪 is 第一百一十五条's
    「过失犯前款罪的」), and the search inside the law ranks it among the articles sharing
    the narrative's other words (被害人, 死亡, 多次).
    """
    # beside a dense list, which reads the narrative's meaning, a matched name only moved articles
    # dense had 5th to 6th (case → article, hybrid: 3 up, 2 down; the charge alone 1 up, none down)
    labels = named_offences(kb, p, not dense)
    at = kb.config.answer_chunks
    if not labels or len(hits) < at:
        return list(hits)
    named, charged = set(p.ref.doc_ids), set(kb.offences().charged(p.question, p.ref.names))
    below = hits[at - 1:]
    picked: list[Hit] = []
    for label in labels:
        got = [h for h in below if h.chunk.doc_id in named and h.chunk.article == label]
        if not got and label in charged and not any(h.chunk.article == label and h.chunk.doc_id in named
                                                    for h in hits[:at - 1]):
            got = [Hit(c, 0.0, "offence", {"offence": (1, 0.0)})
                   for c in kb.store.find(replace(p.scope, doc_ids=tuple(named), article=label))]
        picked += got
    if not picked:
        return list(hits)
    ids = {h.chunk.id for h in picked}
    rest = [h for h in hits if h.chunk.id not in ids]
    return rest[:at - 1] + picked + rest[at - 1:]
