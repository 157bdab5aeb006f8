"""The sentences the offline answer quotes beside its source: a list's lead-in with its items
(:func:`with_lists`), and the sentence beside the source when the source alone cannot be the
answer (config ``answer_around``, :func:`around`): a quote that only restates the question (「印度野驴与非洲野驴有些分别」 for
「印度野驴与非洲野驴的分别是什么」) leaves the answer to the sentence after it, or, when it
points back (此战…, 因此…), to the one before it; a consequence quoted for a why-question
(「因此它有时也被称为笨蛋水果」) leaves the reason to the sentence before it; a sentence that
announces points and states the first (「其特点主要有以下三点：第一，…」) leaves the others to
the sentences after it; and a quote that lacks the thing a question asks which of (「哪个文件」,
「什么补丁」) leaves it to the sentence right after it that names it (「删除下述配置文件即可：」 after
「此问题常见于：…导致配置冲突。」; config ``answer_asked_next``); and a quote that opens by turning
(但是, 不过, 然而, 可是) leaves what it turns from to the sentence before it (「“v1.2.3” 并不是的一个
语义化的版本号。」 before 「但是，在语义化版本号之前增加前缀 “v” 是…常用做法。」; config
``answer_turns``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from zhiku.answer.extractive import FENCE, LEAD_IN, LIST_CHARS, LONG_SENTENCE, Sentence, split_sentences
from zhiku.answer.reading import coverage
from zhiku.chunk.context import context
from zhiku.retrieve.segment import normalise
from zhiku.types import Hit

# asks why (为什么, 为何, 什么原因, 原因是): its answer is the reason, not the fact restated
REASON = re.compile(r"为什么|为何|何以|缘何|什么原因|原因是|怎么会|因为什么")
# a sentence that opens by pointing back: a consequence (因此, 所以, 于是) or an anaphor (此战, 这使)
BACK = re.compile(r"^(?:因此|因而|所以|故此|故而|于是|从而|由此|此[^外后时前]|这[^里些样])")
# a sentence that opens by turning from the one before it (但是, 不过, 然而, 可是; 但 not 但凡)
TURN = re.compile(r"^(?:但是|不过|然而|可是|但(?!凡))")
# a sentence announcing points and stating the first one (「有以下三点：第一，…」)
POINTS = re.compile(r"(?:以下|如下|下列)[^。：:]{0,8}[：:]\s*(?:第一|首先|其一|一是|一、|（一）|1[.、)）])")
# the words that ask (left out of the question before a quote is compared with it)
ASKING = re.compile(r"为什么|什么|为何|哪些|哪个|哪|谁|多少|怎么样|怎样|怎么|如何|是否|吗|呢")
_CLOSED = "：:。！？；，、）)」』"  # an item after one of these joins without a space
# a quote stating fewer characters than this beyond the question's own words, none of them a
# figure, restates it (「有些」 of 「印度野驴与非洲野驴有些分别」; a value asked, 「高丽发兵」, is more)
ECHO = 3
# a quote that states a reason itself answers a why-question
BECAUSE = re.compile(r"因为|由于|原因")
# the thing a question asks which of: 文件 of 「该删哪个文件」, 目录 of 「放在哪个目录」, 补丁 of
# 「缺的是什么补丁」 (two characters; 时候 and 意思 ask when and what it means, not a thing)
ASKED_THING = re.compile(r"(?:哪个|哪一个|哪些|哪种|哪一种|什么)([\u4e00-\u9fff]{2})")
_NOT_THING = ("时候", "意思", "原因", "情况", "样子", "地方", "东西")


def around(picked: list[Sentence], hits: Sequence[Hit], question: str,
           asked_next: bool = False, turns: bool = False) -> list[Sentence]:
    """``picked`` with the sentence its first (the answer's source) leaves the answer to,
    from the same block (:mod:`zhiku.answer.around`); as it is when the quote answers by
    itself or there is no such sentence.

    Args:
        picked: the chosen sentences, the source first.
        hits: the evidence they come from.
        question: the question.
        asked_next: a source that does not name the thing the question asks which of
            (:data:`ASKED_THING`) brings the sentence right after it when that one does
            (config ``answer_asked_next``).
        turns: a source opening by turning (:data:`TURN`: 但是, 不过) brings the sentence before
            it in its block, what it turns from, unless that one asks (an FAQ entry's question)
            (config ``answer_turns``).
    """
    if not picked or not question:
        return picked
    first = picked[0]
    sents = split_sentences(hits[first.hit_rank].chunk.text)
    at = next((i for i, (pos, _) in enumerate(sents) if pos == first.pos), None)
    if at is None:
        return picked
    back = BACK.match(first.text) is not None
    if POINTS.search(first.text):
        extra = _following(sents, at)
    elif _restates(first.text, question):  # the answer is what it points back to, or what follows
        extra = sents[at - 1: at] if back else _following(sents, at)
    elif back and REASON.search(question) and not BECAUSE.search(first.text):
        extra = sents[at - 1: at]
    elif asked_next and _names_next(first.text, sents[at + 1: at + 2], question):
        extra = sents[at + 1: at + 2]
    elif turns and TURN.match(first.text) and at > 0 and not sents[at - 1][1].rstrip().endswith(("？", "?")):
        extra = sents[at - 1: at]
    else:
        return picked
    have = {(s.hit_rank, s.pos) for s in picked}
    add = [Sentence(first.hit_rank, pos, text, 0.0) for pos, text in extra
           if (first.hit_rank, pos) not in have and len(text) <= LONG_SENTENCE]
    return [first, *add, *picked[1:]]


def _names_next(source: str, after: list[tuple[int, str]], question: str) -> bool:
    """Whether the sentence ``after`` the source names the thing the question asks which of
    and the source does not (「删除下述配置文件即可：」 after 「…导致配置冲突。」 for 「…该删哪个文件？」)."""
    things = [t for t in ASKED_THING.findall(normalise(question)) if t not in _NOT_THING]
    return bool(after) and any(t in normalise(after[0][1]) and t not in normalise(source) for t in things)


def _following(sents: list[tuple[int, str]], at: int) -> list[tuple[int, str]]:
    """The sentences after the one at ``at`` up to :data:`LIST_CHARS` characters."""
    out, size = [], 0
    for pos, text in sents[at + 1:]:
        if size + len(text) > LIST_CHARS:
            break
        out.append((pos, text))
        size += len(text)
    return out


def _restates(sentence: str, question: str) -> bool:
    """Whether ``sentence`` states fewer than :data:`ECHO` characters beyond the question's
    own words, none of them a figure: each of its characters outside every two-character
    piece of the question counts, the question's asking words (什么, 为什么) left out."""
    q = normalise(ASKING.sub("", question))
    s = re.sub(r"[\W_]+", "", normalise(sentence))
    pairs = {q[i:i + 2] for i in range(len(q) - 1)}
    inside = [False] * len(s)
    for i in range(len(s) - 1):
        if s[i:i + 2] in pairs:
            inside[i] = inside[i + 1] = True
    beyond = "".join(c for c, seen in zip(s, inside) if not seen)
    return len(s) > 0 and len(beyond) < ECHO and not re.search(r"\d", beyond)


def with_lists(picked: list[Sentence], hits: Sequence[Hit], terms: Sequence[str] = (),
                idf: Callable[[str], float] | None = None, listings: bool = False) -> list[Sentence]:
    """Each sentence that only announces a list (「下列各项个人所得，免征个人所得税：」) with
    the items that follow it in its chunk, so the answer says what the list is; items
    picked on their own are then dropped. A lead-in with nothing after it in its chunk
    (「…的量程、精度如下表所示：」) announces a table: the answer adds the row of that table,
    among the evidence, that best covers the question (:func:`_announced_row`). With
    ``listings`` (config ``answer_labels``), a lead-in directly followed by a code listing
    (「请运行以下命令添加软链接：」 and ```…```) brings the listing's lines, fences left out."""
    out: list[Sentence] = []
    covered: set[tuple[int, int]] = set()
    for s in sorted(picked, key=lambda s: (s.hit_rank, s.pos)):
        if (s.hit_rank, s.pos) in covered:
            continue
        if LEAD_IN.search(s.text):
            items, size, fenced = [], 0, False
            for pos, nxt in split_sentences(hits[s.hit_rank].chunk.text):
                if pos <= s.pos:
                    continue
                if listings and nxt.startswith(FENCE) and not items and not fenced:
                    fenced = True  # the listing the lead-in announces: its lines are the answer
                    covered.add((s.hit_rank, pos))
                    continue
                if fenced and nxt.startswith(FENCE):
                    covered.add((s.hit_rank, pos))
                    break
                if size + len(nxt) > LIST_CHARS and items or nxt.startswith(FENCE):
                    break  # a code listing or log under the lead-in is not a list
                items.append(nxt)
                covered.add((s.hit_rank, pos))
                size += len(nxt)
            s = Sentence(s.hit_rank, s.pos, joined(s.text, items), s.cover)
            row = None if items or idf is None else announced_row(s, hits, terms, idf)
            if row is not None and all(p.hit_rank != row.hit_rank for p in picked):
                out.append(row)
        out.append(s)
    return [s for s in out if (s.hit_rank, s.pos) not in covered]


def joined(lead: str, items: Sequence[str]) -> str:
    """The lead-in and its items as one text; items that were lines without closing
    punctuation keep a space between them (joined bare, 「2019」 and 「2006」 would read 20192006)."""
    out = lead
    for item in items:
        out += item if not out or out[-1] in _CLOSED else f" {item}"
    return out


def announced_row(lead: Sentence, hits: Sequence[Hit], terms: Sequence[str],
                   idf: Callable[[str], float]) -> Sentence | None:
    """The row sentence (``table_row`` evidence) of a table in the lead-in's section that
    covers the question best, read under its context (:func:`context`); None when the
    evidence holds no row of a table there, or none covering any of the question."""
    at = hits[lead.hit_rank].chunk
    rows = [(r, h.chunk) for r, h in enumerate(hits) if h.chunk.kind == "table_row"
            and h.chunk.doc_id == at.doc_id and h.chunk.section_id == at.section_id]
    scored = [(coverage(terms, f"{context(c)} {c.text}", idf), r, c) for r, c in rows]
    if not scored:
        return None
    cover, r, c = max(scored, key=lambda x: (x[0], -x[1]))
    return Sentence(r, 0, c.text, cover) if cover > 0 else None


# a list item's line: the indent before it and its marker (a bullet, or a number with its mark)
_ITEM_LINE = re.compile(r"^([ \t]*)([-*+•]|\d+[.、)）])[ \t]+\S")


def _marker(m: re.Match[str]) -> tuple[int, str]:
    """A list item's kind: its indent and its bullet (or, for a number, the mark after it)."""
    return len(m.group(1).expandtabs(4)), m.group(2)[-1] if m.group(2)[0].isdigit() else m.group(2)


def list_runs(text: str) -> list[list[tuple[int, str]]]:
    """The lists of a chunk's ``text``: runs of item lines (offset, line stripped) of one
    indent and marker, next to each other but for blank lines and lines indented under an item
    (its wrapped text, a sub-list); any other line ends the run."""
    runs: list[list[tuple[int, str]]] = []
    kind, at = None, 0
    for line in text.splitlines(keepends=True):
        m = _ITEM_LINE.match(line)
        if m and _marker(m) == kind:
            runs[-1].append((at, line.strip()))
        elif m and (kind is None or _marker(m)[0] <= kind[0]):
            kind = _marker(m)
            runs.append([(at, line.strip())])
        elif line.strip() and not (kind is not None and len(line) - len(line.lstrip()) > kind[0]):
            kind = None  # prose after the list ends it
        at += len(line)
    return runs


def with_items(picked: list[Sentence], hits: Sequence[Hit]) -> list[Sentence]:
    """``picked`` with, when its source (the first) is an item of a list and no lead-in stands
    before it in its block (a changelog's bullets under the version's heading: 「* 从 `资源中心`
    中移除了 `udf-manage` 功能」 … 「* 在 3.3.0-release 中废弃了…」), the other items of that list
    (:func:`list_runs`), in order and up to :data:`LIST_CHARS` characters: a question asking which
    ones (哪些) is answered by the list, not by the one item that best repeats its words. A list
    announced by a lead-in is :func:`with_lists`' to quote.

    Args:
        picked: the chosen sentences, the source first.
        hits: the evidence they come from.
    """
    if not picked:
        return picked
    first = picked[0]
    text = hits[first.hit_rank].chunk.text
    start = text.rfind("\n", 0, first.pos) + 1
    if any(LEAD_IN.search(t) for p, t in split_sentences(text) if p < start):
        return picked
    run = next((r for r in list_runs(text) if any(p == start for p, _ in r)), [])
    if len(run) < 2:
        return picked
    out, size = [], len(first.text)
    for p, t in run:
        if p == start:
            continue
        if size + len(t) > LIST_CHARS:
            break
        size += len(t)
        out.append(Sentence(first.hit_rank, p, t, 0.0))
    inside = lambda s: any(p <= s.pos < p + len(t) for p, t in run)  # noqa: E731
    return [first, *[s for s in picked[1:] if not inside(s)], *out]
