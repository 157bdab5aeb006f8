"""Offline answer composer: the question's best-covering sentences, cited, in source order."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from zhiku.answer.overview import summarises
from zhiku.answer.reading import (ASKS, ITEM, agent_forms, code_comment, counted_terms, coverage, in_problem,
                                  item_label, announced, label_line, label_word, listing, problem_span, question_line, term_parts,
                                  term_spreads, term_synonyms)
from zhiku.chunk.context import (ancestor_release, block_text, context, defined, document_name, heading,
                                 release_heading)
from zhiku.retrieve.segment import normalise
from zhiku.types import Chunk, Citation, Hit
from zhiku.verify.stated import NUMERIC_DATE
from zhiku.verify.support import term_in

_SENT = re.compile(r"[^。！？\n]+[。！？]?")
_CLAUSE = re.compile(r"[^；]+；?")
LONG_SENTENCE = 160
RANK_BONUS = 0.15  # a sentence of the first hit scores this much more than its coverage
# Measured on the gate, everyday-law and RGB sets (full ask, offline): a second source joins
# only when its sentence covers 80 % of what the best one does, fill-ins need 70 % of the best
# score; citation precision 0.50 → 0.53 (gate), 0.43 → 0.50 (laws), 0.79 → 0.81 (RGB) with
# the answer-contains-gold rate unchanged.
SECOND = 0.8
FILL = 0.7
# One source (measured, full offline ask, keyword retrieval on the whole laws corpus; CMRC
# with vectors): the answer quotes the best sentence's block and fills only from it.
# Citation precision natural 0.364 → 0.667, natural2 0.278 → 0.340, RGB 0.736 → 0.833;
# answer-has-gold natural2 0.46 → 0.42 and RGB 0.806 → 0.758 (RGB's other news passages
# often restate the answer). False restores a second source and fill-ins from three blocks.
ONE_SOURCE = True
# a sentence meeting what the question pins (a value of the kind asked, its time, place,
# named subject) is the answer's source when it scores at least this share of the best one
PREFER = 0.6
# The answer's source block: its best sentence's score plus this share of the whole block's
# coverage (an article covering the question as a whole beats a neighbour with one
# well-covering sentence), chosen among the best SOURCES blocks (the gold article of an
# everyday question was often 4th or 5th). Measured, full offline ask, keyword retrieval,
# whole laws corpus, with in-force versions first: citation precision natural 0.667 → 0.800,
# natural2 0.396 → 0.417, answer-has-gold natural2 22 → 23 of 48; RGB and CMRC (keyword)
# unchanged; with vectors (whole change set against main, same run) RGB citation precision
# 0.823 → 0.839, CMRC 300 0.980 → 0.977, the gate 0.686 → 0.667 (two of 36 answers cite a
# neighbouring article instead, two others now cite the gold one).
# A lower RANK_BONUS (0.05) cited better on the laws sets but lost CMRC answers.
BLOCK_WEIGHT = 0.5
SOURCES = 5
# A sentence of a numbered provision (an article, 第X条) is the source over a better-covering
# sentence of unnumbered text among the same evidence (a case report, a forum post retelling
# one person's dispute in the question's own words) when it scores at least this share of
# it (config ``provision_share``): the provision states the rule the question asks about, the
# story one instance of it. Measured (full offline ask, keyword retrieval, whole laws corpus;
# RGB and CMRC with vectors): gate citation precision 0.722 -> 0.778 at 0.8, 0.778 at 0.6,
# 0.806 at 0.4; natural and natural2 unchanged at each (their stories were replaced by
# articles that are not the gold one either); RGB and CMRC unchanged (no numbered articles).
PROVISION = 0.6
LIST_CHARS = 400  # a lead-in ending in a colon brings the list items under it, up to this
_ITEM_ASCII = re.compile(r"^\([一二三四五六七八九十百]+\)")  # 「(一)」: a regulation's item in ASCII brackets
ENUMERATION = re.compile(r"[^、，。；]+、[^、，。；]+、")  # three or more things listed in one sentence (甲、乙、丙)
LEAD_IN = re.compile(r"[：:]\s*$")
FENCE = ("```", "~~~")
_FIGURE = re.compile(r"\d+(?:\.\d+)*")  # a number or a version in a heading (1.1.0, 23)
_VERSION = re.compile(r"\d+(?:\.\d+)+")  # a release's number in a heading (v1.46.0, 版本 1.2.0)
_VERSION_WORDS = ("版本", "版")  # a question's word asking which release
_DATE = re.compile(NUMERIC_DATE)  # a day a heading or a release's first line states (2025-6-7, 2024-04-06)
# a release's date alone on the first line under its heading (「`2024-04-06`」)
_DATE_LINE = re.compile(r"\A\s*`?((?:19|20)\d{2}([-./])\d{1,2}\2\d{1,2})`?[ \t]*(?:\n|\Z)")


@dataclass(frozen=True)
class Sentence:
    """A candidate sentence of one evidence chunk: how much of the question it covers, and
    its score (the coverage plus a bonus for a better-ranked hit)."""

    hit_rank: int
    pos: int
    text: str
    cover: float

    @property
    def score(self) -> float:
        """Coverage plus :data:`RANK_BONUS` / (hit rank + 1)."""
        return self.cover + RANK_BONUS / (self.hit_rank + 1)


ROW = "table_row"  # a chunk holding one table row as a sentence (:func:`zhiku.chunk.tables.row_sentence`)


def block_sentences(hit: Hit, rows_whole: bool = False, wrapped: bool = False) -> list[tuple[int, str]]:
    """A block's sentences (:func:`split_sentences`); with ``rows_whole`` a table row is one
    sentence, whole: a record whose first value names what its other cells state (「漏洞等级
    严重，漏洞样例 1.…；2.…，奖励金额范围 最高1,000,000元。」), not split at the 。 and ； of its
    cells into pieces that lose that value; with ``wrapped`` a code line's comment that goes on
    over the next line is one sentence with it (:func:`wrapped_comments`)."""
    text = hit.chunk.text
    if rows_whole and hit.chunk.kind == ROW and text.strip():
        return [(len(text) - len(text.lstrip()), text.strip())]
    return wrapped_comments(text, split_sentences(text)) if wrapped else split_sentences(text)


# a line of code ending in a // comment (not a link's ://: a word, quote, bracket or ; before it)
_TAIL_COMMENT = re.compile(r"[\w;)\]\"']\s*//\s*[^\s/]")
# what a line of code holds and a comment's last words do not
_CODE = re.compile(r"[;=(){}<>#\"'\[\]/*]")
WRAPPED_CHARS = 24  # the longest line read as the rest of the comment above it


def wrapped_comments(text: str, sents: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """``sents`` of ``text`` with a short line of words after a line of code ending in a ``//``
    comment joined to that line (config ``answer_wrapped_comments``): a PDF wraps a listing's
    long comment, so 「#define MQTT_URI "tcp://iot.eclipse.org:1883" // 配置测试」 and 「服务器地址」 are
    one line of the listing; read apart, the comment's end (服务器地址) was quoted for 「…默认连接的
    服务器地址是什么？」 without the address it names."""
    out: list[tuple[int, str]] = []
    for pos, s in sents:
        if out and len(s) <= WRAPPED_CHARS and not _CODE.search(s) and _TAIL_COMMENT.search(out[-1][1]):
            start = text.find(out[-1][1], out[-1][0])
            end = text.find(s, pos) + len(s)
            out[-1] = (out[-1][0], text[start:end])
            continue
        out.append((pos, s))
    return out


def split_sentences(text: str) -> list[tuple[int, str]]:
    """(offset, sentence) pairs split at 。！？ and line breaks; a sentence longer than
    ``LONG_SENTENCE`` characters is split further at ；."""
    out = []
    for m in _SENT.finditer(text):
        sent = m.group()
        if len(sent) <= LONG_SENTENCE:
            out.append((m.start(), sent))
            continue
        out.extend((m.start() + c.start(), c.group()) for c in _CLAUSE.finditer(sent))
    return [(pos, s.strip()) for pos, s in out if s.strip()]


def compose(
    terms: Sequence[str],
    hits: Sequence[Hit],
    idf: Callable[[str], float],
    max_chars: int = 300,
    whole_first: bool = False,
    max_sentences: int = 4,
    max_sources: int = SOURCES,
    meets: Callable[[str, str], bool] | None = None,
    decides: Callable[[str, str], bool] | None = None,
    provision: float = PROVISION,
    doc_name: bool = False,
    lists: bool = False,
    listed: str = "",
    name_weight: float = 1.0,
    problems: bool = True,
    head_figures: bool = True,
    comments: bool = True,
    bonus: Sequence[float] = (),
    around: str = "",
    asked_next: bool = False,
    turns: bool = False,
    labels: bool = True,
    head_version: bool = False,
    head_ancestors: bool = False,
    head_dates: bool = False,
    parts: bool = False,
    spreads: bool = False,
    rows_whole: bool = False,
    lead_ins: float = 1.0,
    wrapped: bool = False,
    same: Callable[[str], Sequence[str]] | None = None,
    list_block: bool = False,
    forms: Mapping[str, Mapping[str, str]] | None = None,
    plain_labels: bool = False,
    list_items: bool = False,
    list_enumerations: bool = False,
    row_keys: str = "",
    met_whole: bool = False,
    met_items: bool = False,
    overview: float = 0.0,
    agents: bool = False,
) -> tuple[str, tuple[Citation, ...]]:
    """Pick sentences that best cover the question and cite each one.

    Args:
        terms: the question's content terms (segmented, question words removed).
        hits: evidence, best first.
        idf: term weight function.
        max_chars: answer length budget (the first sentence is always kept).
        whole_first: quote the first hit whole (an exact clause lookup).
        max_sentences: at most this many sentences.
        max_sources: sentences come from the best this many hits.
        meets: whether a sentence (and its block's text) meets what the question pins
            down (:func:`zhiku.verify.answerable.meets_all`); a sentence that does is
            preferred as the answer's source over a slightly better-covering one that
            does not (:data:`PREFER`).
        decides: whether a sentence meets what the question pins down that decides a refusal
            (:func:`zhiku.verify.answerable.decisive`: a figure asked, a name; not an instance's
            words or the user's phrase): when no sentence near the best meets every pin, one that
            meets these is preferred over one that does not (config ``answer_decisive_pins``;
            None: off).
        provision: a numbered provision's sentence is the source over unnumbered text
            scoring at most 1/``provision`` times as much (:data:`PROVISION`); 0: off.
        doc_name: read every sentence under its document's name too
            (:func:`zhiku.chunk.context.document_name`): the question's words naming the
            document (「1.4 版参与者公约里…」) then choose no passage of it over another (its
            来源 section, the one passage repeating the title and version, was quoted).

        lists: the question asks which ones (:data:`zhiku.answer.reading.LIST_ASK`): a list's lead-in, its items
            after it, is preferred as the source (:data:`PREFER`).
        listed: the kind the question asks which ones of (:func:`zhiku.answer.reading.listed_kind`, 地区 of
            「选了哪些地区」): a lead-in is preferred only when it is read naming it; "": any.
        name_weight: a question's word only the document's name holds, not the sentence or
            its block, counts this share of its weight between documents (config
            ``answer_name_weight``; 1: in full).
        problems: a troubleshooting entry's problem statement (「问题描述：…connect to <null>
            failed」, :func:`zhiku.answer.reading.problem_span`) is read as the entry's
            question, as an FAQ entry's question line is: its solution's sentences are read
            under it, and it is quoted only when the evidence holds nothing else (config
            ``answer_problems``).
        head_figures: a section heading holding a word of the question and a figure the
            quoted sentences lack (「版本 1.1.0」) is quoted before them (config
            ``answer_head_figures``).
        comments: a comment line of a code listing (「### 验证Name Server 是否启动成功」,
            :func:`zhiku.answer.reading.code_comment`) is read as a question line too: the
            commands and output under it are read under it and quoted (config
            ``answer_code_comments``).
        bonus: per hit, added to its block's score: what it means as a whole
            (:func:`zhiku.answer.meaning.meaning_bonus`, config ``answer_meaning``) and the
            standing of its document (:func:`zhiku.answer.standing.standing_bonus`); (): none.
        around: the question, to quote the sentence beside the source when the source alone
            cannot answer (:func:`zhiku.answer.around.around`, config ``answer_around``); "": off.
        asked_next: with ``around``, a source not naming the thing the question asks which of
            (「哪个文件」) brings the sentence right after it that does (config
            ``answer_asked_next``).
        turns: with ``around``, a source opening by turning (但是, 不过) brings the sentence
            before it, what it turns from (config ``answer_turns``).
        labels: a line that is only a bold label (「-   **可能原因**」) is read as a label, not
            quoted unless nothing else is left; a troubleshooting entry's parts labelled so,
            without a colon, are read as ``problems`` reads 「问题描述：」; and a quoted lead-in
            followed by a code listing (「请运行以下命令添加软链接：」) brings the listing (config
            ``answer_labels``).
        head_version: a question asking about a version (版本 among its words) quotes the
            heading of the block it quotes before it when the heading states a release number
            the quoted sentences do not (a changelog entry's 「v1.46.0 @2026-8-18」 over
            「新增 allowLoginIdColon 配置」; config ``answer_head_version``).
        head_ancestors: with ``head_version``, a block whose section sits under a release's
            heading (「v4.8.0」 over 「新组件」, :func:`zhiku.chunk.context.release_heading`) is
            quoted under that heading when its sentences do not state the release (config
            ``answer_head_ancestors``).
        head_dates: the question asks when (什么时候, 何时, 哪天): a block is quoted under its
            heading when the heading states a date the quoted sentences do not (a changelog's
            「v1.42.0 @2025-4-11」 over 「新增 API Key 模块」), and under the release it sits in with
            the date its block opens with when that date stands alone on the first line under the
            release's heading (「v4.8.10（2024-04-06）：…」, :func:`_dated`; config
            ``answer_head_dates``).
        parts: a question's word of three characters or more that no block among the best
            ``max_sources`` holds (nor its context or document's name) counts by the longest
            dictionary words inside it that one does (劳动节 of 五一劳动节,
            :func:`zhiku.answer.reading.term_parts`; config ``answer_term_parts``).
        spreads: a question's Chinese word of two to four characters that no block among the
            best ``max_sources`` holds counts by a longer dictionary word of one that begins with
            its first character and holds the others in order (重启 of 重新启动,
            :func:`zhiku.answer.reading.term_spreads`; config ``answer_term_spreads``).
        rows_whole: a table row is read and quoted as one sentence (:func:`block_sentences`,
            config ``answer_rows_whole``).
        wrapped: a code line's comment wrapped over the next line is one sentence with it
            (:func:`wrapped_comments`, config ``answer_wrapped_comments``).
        lead_ins: a lead-in announcing items after it in its block of a kind no word of the
            question names (「…，基本操作步骤如下：」 for 「…用的是什么算法？」, :func:`_aside`)
            counts this share of its coverage (config ``answer_lead_ins``; the caller passes 1
            for a question asking which ones or how): it holds the question's words and states
            none of its items; 1: in full.
        same: a question's word that no block among the best ``max_sources`` holds (nor its
            context or document's name) counts by the words this gives for it that one does
            (:func:`zhiku.retrieve.thesaurus.rare_synonyms`, 斑马线 by 人行横道:
            :func:`zhiku.answer.reading.term_synonyms`; config ``answer_term_synonyms``); None: off.
        list_block: with ``lists``, a lead-in is the source when its whole score (its sentence,
            its block's coverage and ``bonus``) is at least :data:`PREFER` of the best one's, not
            when its sentence's score alone is (config ``list_block``): a long article listing
            conditions (「…确定落户条件：」) entering the evidence does not take over from a better
            block stating them in one sentence (「…居住半年以上，符合…条件之一的…」).
        forms: the short forms each document defines (config ``short_forms``:
            :meth:`zhiku.kb.KnowledgeBase.short_forms`): a sentence is read under its block's
            context with the definitions whose one form that context and the block's text hold
            and the other not, and ``meets`` reads the block as
            :func:`zhiku.chunk.context.block_text` does with them.
        plain_labels: with ``labels``, a troubleshooting entry's part word alone on its line,
            plain (「• 原因」, 「• 解决方式」 of a PDF's FAQ), is a label as a bold one is; an entry
            opening with the error it quotes before its first such label has that opening as its
            problem statement (:func:`zhiku.answer.reading.problem_span`); and each sentence is
            read under the label above it (「原因」 for 「…是什么原因？」; config
            ``answer_plain_labels``).
        list_items: with ``lists``, a source that is an item of a list with no lead-in before it
            in its block (a changelog's section of bullets under its version's heading) brings the
            other items of its list (:func:`zhiku.answer.around.with_items`, config
            ``list_items``).
        list_enumerations: with ``lists`` and ``listed``, when no lead-in is the source, a
            sentence naming the kind asked and listing three or more things with 、
            (:data:`ENUMERATION`: 「…适用于智能NVR、云终端、物联网网关…等场景」 for 「…适合用在哪些场景？」) is
            the source over a best sentence not naming that kind when it scores at least
            :data:`PREFER` of it (config ``list_enumerations``).
        row_keys: the question, to quote the row of a table it names by the row's first value
            (「中危漏洞…」: the row 「漏洞等级 中」) over a sibling row of that table it does not
            name (:func:`zhiku.answer.rows.named_row`, config ``answer_row_keys``); "": off.
        met_whole: with ``meets``, when the best sentence does not meet what the question pins,
            the sentences looked among for one that does are those whose whole score (sentence,
            block coverage and ``bonus``: what chose the best) is at least :data:`PREFER` of the
            best one's, not those whose sentence's score alone is (config ``answer_met_whole``).
        met_items: ``meets`` reads a list's lead-in with the numbered items it announces
            (:func:`_listed`; config ``answer_met_items``), as it reads an item under its lead-in.
        overview: when the best sentence is in a summary of the document's other blocks (a
            section labelled 摘要, 概览, overview: :func:`zhiku.answer.overview.summarises`), the
            best sentence of another block of its document that is none is the source when it
            scores at least this share of it (config ``answer_overview``): the clause over the
            line restating it; 0: off.
        agents: a question's word naming a person by a verb's role (维护者) counts in a sentence or
            block holding the role's other form (维护人员) and not it
            (:func:`zhiku.answer.reading.agent_forms`, config ``answer_agent_forms``).

    Returns:
        The answer text with ``[n]`` markers after each sentence, and the citations.
    """
    from zhiku.answer.around import around as beside, with_items, with_lists
    from zhiku.answer.rows import named_row

    read_as = [normalise(f"{document_name(h.chunk) if doc_name else ''} {context(h.chunk)} {h.chunk.text}")
               for h in hits[:max_sources]]  # normalised once for the three readings below
    if same is not None:  # the statute's word counts as the layperson's it stands for
        terms, stand = term_synonyms(terms, read_as, same)
        if stand:
            idf = (lambda w, idf=idf: idf(stand.get(w, w)))
    if spreads:
        terms = term_spreads(terms, read_as)
    if parts:
        terms = term_parts(terms, read_as)
    terms = counted_terms(terms)
    picked: list[Sentence] = []
    if whole_first and hits:
        picked.append(Sentence(0, 0, hits[0].chunk.text, 1.0))
    else:
        picked = _pick(terms, hits[:max_sources], idf, max_chars, max_sentences, meets, provision, doc_name,
                       (lists, listed, list_enumerations), name_weight, problems, comments, bonus, labels, rows_whole,
                       lead_ins, wrapped, list_block, forms, plain_labels, decides, met_whole, met_items,
                       overview, agents)
        picked = named_row(picked, hits[:max_sources], row_keys) if row_keys else picked
        picked = beside(picked, hits, around, asked_next, turns) if around else picked
    picked = with_lists(picked, hits, terms, idf, listings=labels)
    if lists and list_items:
        picked = with_items(picked, hits)
    picked.sort(key=lambda s: (s.hit_rank, s.pos))
    return _render(_headed(picked, hits, terms, head_figures, head_version, head_ancestors, head_dates), hits)


def _headed(picked: list[Sentence], hits: Sequence[Hit], terms: Sequence[str],
            figures: bool = False, version: bool = False, ancestors: bool = False,
            dates: bool = False) -> list[Sentence]:
    """The first quoted sentence of each block under its section's heading (「版本 1.2.0：
    新增串口 DMA 例程」, an FAQ entry's question) when the heading holds a word of the question
    that the quoted sentences do not: the heading then says part of the answer. With
    ``figures``, also when it holds a word of the question and a figure the quoted sentences
    lack (「版本 1.1.0」 over 「添加 31 MicroPython 例程」 for 「从哪个版本开始加入…」, whose
    sentences name another 版本: the section's label is the value asked). With ``version``,
    also when the question asks about a version and the heading states a release number the
    quoted sentences lack, though it holds none of the question's words (a changelog's
    「v1.46.0 @2026-8-18」 for 「allowLoginIdColon 配置是哪个版本新增的？」). With ``ancestors`` too,
    a block whose release is an ancestor's label (「v4.8.0」 over 「新组件」) is quoted under it
    when the question asks about a version (:func:`_released`). With ``dates`` (the question
    asks when), also when the heading states a date the quoted sentences lack, and a block
    opening with its release's date is quoted under that release and date (:func:`_dated`)."""
    asks_version = version and any(t in _VERSION_WORDS for t in terms)
    out, seen = [], set()
    for s in picked:
        first = s.hit_rank not in seen
        head = heading(hits[s.hit_rank].chunk) if first else ""
        seen.add(s.hit_rank)
        said = normalise(" ".join(p.text for p in picked if p.hit_rank == s.hit_rank)) if first else ""
        if head:
            named = [t for t in terms if term_in(t, normalise(head))]
            releases = _VERSION.findall(normalise(head)) if asks_version else []
            if any(not term_in(t, said) for t in named) or (
                    figures and named and any(f not in said for f in _FIGURE.findall(normalise(head)))) \
                    or (releases and not any(v in said for v in releases)) \
                    or (dates and _DATE.search(head) and not _DATE.search(said)):
                joint = "" if ASKS.search(head) else "："  # an FAQ entry's question ends itself
                s = Sentence(s.hit_rank, s.pos, f"{head}{joint}{s.text}", s.cover)
        if first and dates:
            s = _dated(s, hits[s.hit_rank].chunk, said)
        if first and ancestors and asks_version:
            s = _released(s, hits[s.hit_rank].chunk, said)
        out.append(s)
    return out


def _released(s: Sentence, chunk: Chunk, said: str) -> Sentence:
    """``s`` under the release its section sits in when that is an ancestor's label
    (:func:`zhiku.chunk.context.ancestor_release`: a changelog's 「v4.8.0」 over its 「新组件」) and
    neither the block's quoted sentences (``said``, normalised) nor ``s`` state its release
    number; ``s`` itself otherwise."""
    release = ancestor_release(chunk)
    if not release:
        return s
    numbers = _VERSION.findall(normalise(release))
    if any(v in said or v in normalise(s.text) for v in numbers):
        return s
    return Sentence(s.hit_rank, s.pos, f"{release}：{s.text}", s.cover)


def _dated(s: Sentence, chunk: Chunk, said: str) -> Sentence:
    """``s`` under the release its section sits in and that release's date when the block opens
    with the date alone on its line (a changelog's 「`2024-04-06`」 under 「v4.8.10」, kept in the
    block of its first sub-section) and neither the quoted sentences (``said``, normalised) nor
    ``s`` state a date; ``s`` itself otherwise."""
    line = _DATE_LINE.match(chunk.text)
    release = release_heading(chunk)
    if not line or not release or _DATE.search(said) or _DATE.search(s.text):
        return s
    return Sentence(s.hit_rank, s.pos, f"{release}（{line.group(1)}）：{s.text}", s.cover)


def _pick(terms, hits, idf, max_chars: int, max_sentences: int,
          meets: Callable[[str, str], bool] | None = None, provision: float = PROVISION,
          doc_name: bool = False, lists: tuple[bool, str, bool] = (False, "", False), name_weight: float = 1.0,
          problems: bool = False, comments: bool = False, bonus: Sequence[float] = (),
          labels: bool = False, rows_whole: bool = False, lead_ins: float = 1.0,
          wrapped: bool = False, list_block: bool = False,
          forms: Mapping[str, Mapping[str, str]] | None = None, plain: bool = False,
          decides: Callable[[str, str], bool] | None = None, met_whole: bool = False,
          met_items: bool = False, overview: float = 0.0, agents: bool = False) -> list[Sentence]:
    """The best-covering sentence first, then the best sentences of the same block scoring at
    least :data:`FILL` of it: an answer states what one block says and cites that block
    (a second block's sentence, even one covering as much of the question, was mostly a
    neighbouring article or passage: citation precision, see :data:`ONE_SOURCE`)."""
    ctx = [context(h.chunk) for h in hits]
    if forms:  # a short form the document defines counts under a block holding its long form
        ctx = [f"{c} {x}" if (x := defined(h.chunk, f"{c} {h.chunk.text}", forms)) else c
               for c, h in zip(ctx, hits)]
    names = [document_name(h.chunk) if doc_name else "" for h in hits]
    cands, read = _candidates(terms, hits, idf, ctx, names, problems, comments, labels, rows_whole, wrapped,
                              labels and plain, agents)
    if not cands:
        return []
    if lead_ins < 1:  # a lead-in announcing other things than asked: its items state them
        cands = [Sentence(c.hit_rank, c.pos, c.text, c.cover * lead_ins)
                 if _aside(c, hits, terms) else c for c in cands]
    roles = [" ".join(agent_forms(terms, normalise(h.chunk.text))) if agents else "" for h in hits]  # 维护人员: 维护者
    whole = [coverage(terms, f"{ctx[r]} {roles[r]} {h.chunk.text}", idf, names[r]) for r, h in enumerate(hits)]
    sense = [bonus[r] if r < len(bonus) else 0.0 for r in range(len(hits))]
    total = lambda s, whole=whole: s.score + BLOCK_WEIGHT * whole[s.hit_rank] + sense[s.hit_rank]
    cands.sort(key=lambda s: -total(s))
    first = cands[0]
    if name_weight < 1 and any(names) and len({h.chunk.doc_id for h in hits}) > 1:
        first = _stated_document(cands, hits, terms, idf, read, ctx, names, name_weight, total)
    if provision and hits[first.hit_rank].chunk.article is None:  # a provision over a story about it
        first = next((c for c in cands if hits[c.hit_rank].chunk.article is not None
                      and total(c) >= provision * total(first)), first)
    if overview and summarises(hits[first.hit_rank].chunk.section_path):  # the clause over its summary
        first = _clause(cands, hits, first, overview, total)
    block = [block_text(h.chunk, forms) for h in hits]
    led = lambda c: _led(hits, c, met_items)  # noqa: E731 - a sentence as the pins read it
    if meets is not None and not meets(led(first), block[first.hit_rank]):
        close = (lambda c: total(c) >= PREFER * total(cands[0])) if met_whole \
            else (lambda c: c.score >= PREFER * cands[0].score)  # by what chose the best, or the sentence
        near = [c for c in cands if close(c) or c.hit_rank == first.hit_rank]
        met = next((c for c in near if meets(led(c), block[c.hit_rank])), None)
        if met is None and decides is not None and not decides(led(first), block[first.hit_rank]):
            # none meets every pin: one meeting those that decide a refusal (the figure asked)
            met = next((c for c in near if decides(led(c), block[c.hit_rank])), None)
        first = met or first
    if lists[0] and not LEAD_IN.search(first.text):  # a list asked for: the lead-in announcing one
        weigh = total if list_block else (lambda s: s.score)  # its block's standing, or the sentence's
        first = next((c for c in cands if LEAD_IN.search(c.text) and weigh(c) >= PREFER * weigh(first)
                      and _announces(hits[c.hit_rank].chunk.text, c.pos)
                      and (not lists[1] or term_in(lists[1], listing(read[c.hit_rank, c.pos])))), first)
        if lists[2] and lists[1] and not LEAD_IN.search(first.text) and not term_in(lists[1], normalise(first.text)):
            # no lead-in: a sentence naming the kind asked and listing its instances (「…适用于智能NVR、
            # 云终端、物联网网关…等场景」) states the list over a sentence not naming it
            first = next((c for c in cands if ENUMERATION.search(c.text) and term_in(lists[1], normalise(c.text))
                          and weigh(c) >= PREFER * weigh(first)), first)
    best = first.score
    picked: list[Sentence] = [first]
    if ONE_SOURCE:
        cands = [c for c in cands if c.hit_rank == first.hit_rank]
    else:
        # another hit's list items are not quoted without the sentence that introduces them
        cands = [c for c in cands if c.hit_rank == first.hit_rank or not ITEM.match(c.text)]
        for r in (0, 1):
            top = next((c for c in cands if c.hit_rank == r), None)
            close = r < len(hits) and hits[r].score >= 0.8 * hits[0].score
            if (top is not None and top not in picked and close and top.cover > 0
                    and (r == 0 or top.cover >= SECOND * first.cover)):
                picked.append(top)
    used = sum(len(s.text) for s in picked)
    for s in cands:
        if len(picked) >= max_sentences:
            break
        if s in picked or used + len(s.text) > max_chars or s.score < FILL * best:
            continue
        picked.append(s)
        used += len(s.text)
    return picked


def _candidates(terms, hits, idf, ctx: list[str], names: list[str], problems: bool,
                comments: bool, labels: bool = False, rows_whole: bool = False,
                wrapped: bool = False, plain: bool = False, agents: bool = False) -> tuple[list[Sentence], dict]:
    """Every sentence of the evidence scored as it is read (under its block's context, the
    question line, problem statement or code comment before it, its list item's label, its
    document's name; with ``plain``, the label line above it too: 「原因」 over the cause's
    sentences), and the text each was read as; what asks (those lines) is left out unless
    nothing else is left; with ``agents`` a sentence holding the other form of a role the question
    names (维护人员 for 维护者, :func:`zhiku.answer.reading.agent_forms`) is read holding it."""
    cands, read, asks = [], {}, set()
    for r, h in enumerate(hits):
        asked, part = "", ""
        span = problem_span(h.chunk.text, labels, plain) if problems else (0, 0)
        for pos, s in block_sentences(h, rows_whole, wrapped):
            if labels and label_line(h.chunk.text, pos, s, plain):  # 「-   **可能原因**」: it introduces
                asks.add((r, pos))
                part = label_word(s) if plain else ""  # what the lines after it are: 原因, 解决方法
            elif question_line(h.chunk.text, pos, s):
                asked = s  # an FAQ entry's question: the lines after it answer it
                asks.add((r, pos))
            elif in_problem(span, pos, s):  # 问题描述：… : the solution after it answers it
                asked = h.chunk.text[span[0]:span[1]]
                asks.add((r, pos))
            elif comments and code_comment(h.chunk.text, pos, s):  # 「### 验证…是否启动成功」
                asked = s
                asks.add((r, pos))
            read[r, pos] = f"{ctx[r]} {asked} {part} {item_label(h.chunk.text, pos)} {s}"
            if agents and (roles := agent_forms(terms, normalise(s))):
                read[r, pos] += " " + " ".join(roles)
            cands.append(Sentence(r, pos, s, coverage(terms, read[r, pos], idf, names[r])))
    # a question line in the evidence (an FAQ entry's own, 「1. **消息…保存多长时间？**」) or a
    # troubleshooting entry's problem statement asks, it does not answer: it is quoted only
    # when the evidence holds nothing else; a code fence's own line (「```」) says nothing
    cands = [c for c in cands if (c.hit_rank, c.pos) not in asks
             and not (comments and c.text.startswith(FENCE))] or cands
    return cands, read


def _clause(cands: list[Sentence], hits: Sequence[Hit], first: Sentence, share: float,
            total: Callable[[Sentence], float]) -> Sentence:
    """The best sentence of ``cands`` (sorted best first by ``total``) in a block of ``first``'s
    document that is no summary (:func:`zhiku.answer.overview.summarises`) when it scores at least
    ``share`` of ``first``, a summary's sentence; ``first`` otherwise."""
    doc = hits[first.hit_rank].chunk.doc_id
    return next((c for c in cands if hits[c.hit_rank].chunk.doc_id == doc
                 and not summarises(hits[c.hit_rank].chunk.section_path)
                 and total(c) >= share * total(first)), first)


def _stated_document(cands: list[Sentence], hits: Sequence[Hit], terms: Sequence[str],
                     idf: Callable[[str], float], read: dict, ctx: list[str], names: list[str],
                     name_weight: float, total: Callable[..., float]) -> Sentence:
    """The best sentence (``cands`` sorted best first by ``total``, a sentence's score given
    the blocks' whole coverage) of the document whose own best sentence scores highest when a
    question word only its name holds counts ``name_weight`` of its weight: between documents,
    a block stating the question's words beats one whose document name supplies them
    (「…侵权责任编」 lends 责任 to each of its articles); inside a document the name reads under
    every passage alike, so a sentence leaving its subject to the title still answers a
    question naming it."""
    whole = [coverage(terms, f"{ctx[r]} {h.chunk.text}", idf, names[r], name_weight) for r, h in enumerate(hits)]
    best: dict[str, float] = {}
    for c in cands:
        cover = coverage(terms, read[c.hit_rank, c.pos], idf, names[c.hit_rank], name_weight)
        score = total(Sentence(c.hit_rank, c.pos, c.text, cover), whole)
        doc = hits[c.hit_rank].chunk.doc_id
        best[doc] = max(best.get(doc, score), score)
    top = max(best.values())
    doc = next(hits[c.hit_rank].chunk.doc_id for c in cands if best[hits[c.hit_rank].chunk.doc_id] >= top)
    return next(c for c in cands if hits[c.hit_rank].chunk.doc_id == doc)


def _aside(c: Sentence, hits: Sequence[Hit], terms: Sequence[str]) -> bool:
    """Whether ``c`` is a lead-in announcing items after it in its block (「…支持，基本操作步骤
    如下：」) that it says are of a kind the question does not name (步骤 for 「…用的是什么算法？」);
    a label (「遗留问题：」) or a lead-in naming a word of the question announces what is asked;
    so does a numbered provision's (「…的，分别依照下列规定处罚：」): its items are the rule's cases."""
    chunk = hits[c.hit_rank].chunk
    if chunk.article is not None or not LEAD_IN.search(c.text) or not _announces(chunk.text, c.pos):
        return False
    kind = announced(c.text)
    return kind is not None and not any(len(t) >= 2 and term_in(t, kind) for t in terms)


def _announces(text: str, pos: int) -> bool:
    """Whether the lead-in at ``pos`` of a chunk's ``text`` has sentences (its items) after it."""
    return any(p > pos for p, _ in split_sentences(text))


def _led(hits: Sequence[Hit], s: Sentence, items: bool = False) -> str:
    """A list item's sentence after the lead-in that announces its list (「赡养支出，统一按照以下
    标准定额扣除：」 + 「（一）纳税人为独生子女的，按照每月2000元…」): what the item is about is
    said there, and the answer quotes the two together (:func:`_with_lists`); with ``items``, a
    lead-in with the numbered items right after it that it announces, up to :data:`LIST_CHARS`
    (「…可以向人民法院申请宣告该自然人死亡：」 + 「（一）下落不明满四年；」: the condition asked is
    stated there, and the answer quotes them together too); other sentences as they are."""
    if items and LEAD_IN.search(s.text):
        return _listed(hits[s.hit_rank].chunk.text, s)
    if not ITEM.match(s.text):
        return s.text
    lead = next((t for pos, t in reversed(split_sentences(hits[s.hit_rank].chunk.text))
                 if pos < s.pos and LEAD_IN.search(t)), "")
    return f"{lead}{s.text}"


def _listed(text: str, s: Sentence) -> str:
    """The lead-in ``s`` of a chunk's ``text`` with the numbered items (:data:`ITEM`, or numbered
    in ASCII brackets as many regulations print them: 「(一)驾驶自行车、三轮车必须年满12周岁；」) that
    follow it there, up to :data:`LIST_CHARS` of them; ``s`` alone when none follows."""
    out, size = s.text, 0
    for pos, t in split_sentences(text):
        if pos <= s.pos:
            continue
        if not (ITEM.match(t.strip()) or _ITEM_ASCII.match(t.strip())) or size + len(t) > LIST_CHARS:
            break
        out, size = out + t.strip(), size + len(t)
    return out


def _render(picked: list[Sentence], hits: Sequence[Hit]) -> tuple[str, tuple[Citation, ...]]:
    markers: dict[int, int] = {}
    parts: list[str] = []
    quotes: dict[int, list[str]] = {}
    for s in picked:
        m = markers.setdefault(s.hit_rank, len(markers) + 1)
        parts.append(f"{s.text}[{m}]")
        quotes.setdefault(s.hit_rank, []).append(s.text)
    cites = []
    for rank, m in markers.items():
        c = hits[rank].chunk
        cites.append(Citation(m, c.id, c.doc_path, c.title, c.section_path, c.article,
                              "…".join(quotes[rank]), c.version_date, c.page))
    return "".join(parts), tuple(cites)
