"""Exact clause resolution: a question naming a law and/or an article (第十九条) is
answered from metadata before any fuzzy search."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from zhiku.chunk import cn_to_int, int_to_cn
from zhiku.chunk.context import model_codes, release_heading, release_numbers
from zhiku.index.store import DocRecord
from zhiku.retrieve.segment import normalise
from zhiku.retrieve.twins import find_twins
from zhiku.types import Hit

ARTICLE_IN_QUESTION = re.compile(
    r"第\s*([零〇一二两三四五六七八九十百千万\d]+)\s*条(之[一二三四五六七八九十]+)?"
)
_DATE_SUFFIX = re.compile(r"[（(]\d{4}-\d{2}-\d{2}[)）]$")
_PREFIX = "中华人民共和国"
#: A one-word title shorter than this names its document only as its file name does.
GENERIC_TITLE = 4
#: The shortest model code of a file name that names its document (Niobe407, DAYU210).
MODEL_MIN = 5


@dataclass(frozen=True)
class ClauseRef:
    """What a question names: documents (all versions) and/or an article label."""

    doc_ids: tuple[str, ...]
    names: tuple[str, ...]
    article: str | None
    version: str | None = None  # the version the question names: a year, or "previous"
    other_versions: tuple[str, ...] = ()  # the named laws' versions the question does not ask for


def article_label(question: str) -> str | None:
    """Canonical label (``第十九条``, ``第一百二十条之一``) of the first article named."""
    m = ARTICLE_IN_QUESTION.search(normalise(question).replace("条 ", "条"))
    if not m:
        return None
    raw = m.group(1)
    n = int(raw) if raw.isdigit() else cn_to_int(raw)
    if not n:
        return None
    return f"第{int_to_cn(n)}条{m.group(2) or ''}"


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# 「2018年修正的公司法」「公司法（2018年版）」; 「修订前的」「旧公司法」 ask for the version before
_VERSION_YEAR = re.compile(r"((?:19|20)\d{2})\s*年?\s*(?:修正|修订|修改|版|颁布|施行|通过|的版本)")
_VERSION_PREVIOUS = re.compile(r"(?:修订|修正|修改)前|旧版|老版|原来的|旧(?=[\u4e00-\u9fff]{1,12}法)")


def version_phrase(question: str) -> str | None:
    """The version a question names: a year (``"2018"``), ``"previous"``, or None."""
    q = normalise(question)
    m = _VERSION_YEAR.search(q)
    if m:
        return m.group(1)
    return "previous" if _VERSION_PREVIOUS.search(q) else None


def pick_version(docs: list[DocRecord], version: str | None) -> list[DocRecord]:
    """The named documents of the version asked for (all of them when none matches).

    Args:
        docs: the named documents, newest first.
        version: a year, ``"previous"`` (each law's versions but its newest) or None.
    """
    if not version:
        return docs
    if version == "previous":
        newest: dict[str, str] = {}
        for d in docs:
            k = d.law_key or d.title
            newest.setdefault(k, d.doc_id)
        older = [d for d in docs if newest[d.law_key or d.title] != d.doc_id]
        return older or docs
    return [d for d in docs if (d.version_date or "").startswith(version)] or docs


def _aliases(doc: DocRecord) -> set[str]:
    names: set[str] = set()
    codes: set[str] = set()
    for path in (doc.path, *doc.aliases):
        stem = path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        names.add(_DATE_SUFFIX.sub("", stem))
        # a model code of the file name (DAYU210 of 润和DAYU210开发套件说明.md) names its product
        codes |= {normalise(c) for c in model_codes(stem) if len(c) >= MODEL_MIN}
    title = (doc.title or "").strip()
    # a title of one short word (「烧录」 over 「Hi3751V350烧录指南.md」) is the page's heading,
    # not its name: a question asking of 烧录 names no document by it
    if " " in title or len(normalise(title).removeprefix(_PREFIX)) >= GENERIC_TITLE \
            or normalise(title) in {normalise(n) for n in names}:
        names.add(title.replace(" ", ""))
    # 「民法典 婚姻家庭编」: each part names it; English words do not
    for part in title.split() if " " in title else ():
        if _CJK.search(part):
            names.add(part)
    out = set()
    for n in names:
        n = normalise(n.strip())
        out.add(n)
        if n.startswith(_PREFIX):
            out.add(n[len(_PREFIX):])
    # a name without Chinese (a corpus id, a title glued without spaces) must be long to count
    return {n for n in out if len(n) >= 2 and (_CJK.search(n) or len(n) >= 12)} | codes


# A shortened name (「年休假条例」 for 职工带薪年休假条例) is the tail of a statute's name from a
# word boundary on: at least this long, not starting with a function word, held by the names
# of one law only, and read only where a citation of a law stands (after 按/根据/依照/违反,
# 《, a punctuation mark or the question's start) — inside a longer unknown name
# (「医疗保障条例」) it is no reference to 城市居民最低生活保障条例.
SHORT_MIN = 4
_STATUTE = re.compile(r"(?<!办)法$|条例$")
_NOT_FIRST = frozenset("的 和 及 与 或 或者 、 对 在 关于 有关 若干 暂行 实施 试行 第".split())
_CITING = re.compile(r"(?:^|[《\s，。？！、：；,.?!:;]|按照?|根据|依据|依照|依|据|违反|适用|是|属于|看)$")


def short_names(names: dict[str, list[DocRecord]], words: Callable[[str], list[str]]) -> dict[str, list[DocRecord]]:
    """Shortened names of the statutes among ``names`` (alias → documents), by the tail rule
    above; a tail one law's names share with another law's (所得税法: 个人所得税法 and
    企业所得税法) is no name of either."""
    law = {a: {law_of(d) for d in docs} for a, docs in names.items()}
    joined = "\x1f".join(names)
    owner = [a for a in names for _ in range(len(a) + 1)]  # character offset → its name
    out: dict[str, list[DocRecord]] = {}
    for a, docs in names.items():
        if not _STATUTE.search(a) or not _CJK.match(a):
            continue
        parts = words(a)
        for i in range(1, len(parts)):
            tail = "".join(parts[i:])
            if len(tail) < SHORT_MIN or parts[i] in _NOT_FIRST or not _CJK.match(tail) or tail in names:
                continue
            held, at = set(), joined.find(tail)
            while at >= 0 and len(held) < 2:
                held |= law[owner[at]]
                at = joined.find(tail, at + 1)
            if len(held) == 1:
                out.setdefault(tail, [])
                out[tail] += [d for d in docs if d not in out[tail]]
    return out


def law_of(doc: DocRecord) -> str:
    """A law's identity: its file name without date (its versions and its copies in other
    folders share it)."""
    return _DATE_SUFFIX.sub("", doc.path.rsplit("/", 1)[-1].rsplit(".", 1)[0])


class TitleIndex:
    """Finds the documents a question names, by title, short title or file name."""

    def __init__(self, docs: list[DocRecord], words: Callable[[str], list[str]] | None = None) -> None:
        """``words`` (a word segmenter) also reads shortened statute names (:func:`short_names`)."""
        self._by_alias: dict[str, list[DocRecord]] = {}
        for d in docs:
            for a in _aliases(d):
                self._by_alias.setdefault(a, []).append(d)
        self._short = short_names(self._by_alias, words) if words is not None else {}
        self._short_list = sorted(self._short, key=len, reverse=True)
        self._alias_list = sorted(self._by_alias, key=len, reverse=True)
        # names by their first two characters: a question is checked only against the
        # names that start somewhere in it, not against every name of the corpus
        self._rank = {a: i for i, a in enumerate(self._alias_list)}
        self._by_start: dict[str, list[str]] = {}
        for a in self._alias_list:
            self._by_start.setdefault(a[:2], []).append(a)
        self.twins = find_twins(docs)  # one law version in two folders (see retrieve.twins)

    def named(self, name: str) -> list[DocRecord]:
        """The documents a whole name (normalised, without 中华人民共和国) names: by title,
        file name or shortened statute name; empty when none."""
        return self._by_alias.get(name) or self._short.get(name) or []

    def bears(self, name: str) -> bool:
        """Whether a document bears ``name`` (normalised, without 中华人民共和国): as its whole
        title, file name or shortened statute name (:meth:`named`), or as part of one
        (《网络安全法》 of 中华人民共和国网络安全法, 《民法典》 of 「民法典 婚姻家庭编」)."""
        return bool(self.named(name)) or any(name in a for a in self._alias_list)

    def match(self, question: str) -> list[tuple[str, list[DocRecord]]]:
        """Longest non-overlapping names found in the question, with their documents."""
        q = normalise(question)
        taken: list[tuple[int, int]] = []
        found: list[tuple[str, list[DocRecord]]] = []
        near = {a for j in range(len(q)) for a in self._by_start.get(q[j:j + 2], ())}
        for a in sorted(near, key=self._rank.__getitem__):
            i = q.find(a)
            if i < 0 or any(i < e and s < i + len(a) for s, e in taken):
                continue
            taken.append((i, i + len(a)))
            found.append((a, self._by_alias[a]))
        for a in self._short_list:
            i = q.find(a)
            if i < 0 or any(i < e and s < i + len(a) for s, e in taken) or not _CITING.search(q[:i]):
                continue
            taken.append((i, i + len(a)))
            found.append((a, self._short[a]))
        return found

    def resolve(self, question: str) -> ClauseRef:
        """Documents and article the question names (empty when it names none)."""
        found = self.match(question)
        ids: dict[str, DocRecord] = {}
        for _, docs in found:
            for d in docs:
                ids[d.doc_id] = d
        order = sorted(ids.values(), key=lambda d: d.version_date or "", reverse=True)
        version = version_phrase(question) if order else None
        picked = pick_version(order, version)
        return ClauseRef(
            doc_ids=tuple(d.doc_id for d in picked),
            names=tuple(a for a, _ in found),
            article=article_label(question),
            version=version if len(picked) < len(order) else None,
            other_versions=tuple(d.doc_id for d in order if d not in picked),
        )


NAMED_WINDOW = 10  # the places a named law's hits are moved to the front of


def named_first(hits: list[Hit], doc_ids: tuple[str, ...], window: int = NAMED_WINDOW) -> list[Hit]:
    """``hits`` with those of the named documents first among the best ``window``: a
    question naming its law (按劳动争议调解仲裁法, 刑法上这算犯罪吗) asks about that law, yet
    RRF of the whole-index list and the list inside the law can put another law's stray
    article above it. Only the order of the first ``window`` changes, so another law's
    hits stay among the candidates (the question may name the wrong law).

    Args:
        hits: the fused candidates, best first.
        doc_ids: the documents the question names.
        window: how many of the first hits are reordered.

    Returns:
        The same hits; among the first ``window``, the named documents' ones first (each
        group in its own order).
    """
    ids = set(doc_ids)
    head = hits[:window]
    return [h for h in head if h.chunk.doc_id in ids] + [h for h in head if h.chunk.doc_id not in ids] + hits[window:]


def release_first(hits: list[Hit], question: str) -> list[Hit]:
    """``hits`` with those under the heading of a release the question names first: a
    changelog's 「### v1.44.0 @2025-6-7」 section for 「Sa-Token v1.44.0 是哪天发布的？」, which
    states nothing of it but in its heading (:func:`zhiku.chunk.context.release_heading`);
    its bullets share no other word with the question, so the dense list ranked it far and
    sections of other releases led (config ``release_first``).

    Args:
        hits: the candidates, best first.
        question: the question.

    Returns:
        The same hits, those whose release heading states a release number of the question's
        (with or without its v) first, each group in its own order; ``hits`` itself when the
        question names none or no hit is under one.
    """
    asked = release_numbers(normalise(question))
    if not asked:
        return hits
    under = [h for h in hits if asked & release_numbers(normalise(release_heading(h.chunk)))]
    if not under:
        return hits
    ids = {h.chunk.id for h in under}
    return under + [h for h in hits if h.chunk.id not in ids]
