"""Draft an answer from the evidence (LLM when an answerer is configured, else the offline
extractive composer), then verify it and attach citations and conflict flags."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from zhiku.answer.extractive import SOURCES, compose, split_sentences
from zhiku.answer.meaning import meaning_bonus
from zhiku.answer.standing import standing_bonus
from zhiku.answer.reading import HOW_ASK, LIST_ASK, listed_kind, options
from zhiku.answer.prompts import QType, answer_messages, judge_messages
from zhiku.index.store import Scope
from zhiku.llm import LLMError, client_for
from zhiku.retrieve.inforce import in_force_first  # the one ordering of versions (also the ranking's)
from zhiku.types import AskEvent, Chunk, Citation, Conflict, Hit, Removal, TraceStep, WebSource
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned
from zhiku.verify.check import Action, Judge, Verifier
from zhiku.verify.citations import support as bigram_support
from zhiku.verify.conflicts import find_conflicts
from zhiku.verify.support import SupportScorer

_PIECES = re.compile(r"[^。！？\n]*[。！？\n]?")


def pieces(text: str) -> list[str]:
    """``text`` cut into sentences (the deltas of a text that is not streamed)."""
    return [p for p in _PIECES.findall(text) if p]


_WEB_MARKED = re.compile(r"([^\[\]]+?)((?:\[W\d+\])+)")


@dataclass(frozen=True)
class Draft:
    """An answer as written, before verification: text with ``[n]`` markers (and ``[Wn]``
    for web results), the evidence blocks the markers number, and who wrote it
    (``llm``, ``extractive`` or ``agent``)."""

    text: str
    blocks: dict[int, Chunk]
    generator: str = "extractive"
    web: dict[str, WebSource] = field(default_factory=dict)
    trace: tuple[TraceStep, ...] = ()


@dataclass(frozen=True)
class Verified:
    """A draft after verification: unsupported sentences and unknown markers removed (or
    flagged), markers renumbered, citations and conflicts attached; sentences citing web
    results kept apart under the web label."""

    text: str
    citations: tuple[Citation, ...]
    removed: tuple[Removal, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    generator: str = "extractive"
    refused: bool = False
    checked: int = 0
    kept: int = 0
    trace: tuple[TraceStep, ...] = ()
    web_text: str = ""
    web: tuple[WebSource, ...] = ()
    blocks: dict = field(default_factory=dict)  # marker → chunk the answer was written from


def draft(kb: Any, question: str, terms: Sequence[str], evidence: Sequence[Hit], exact: bool,
          qtype: QType | str = QType.FACT, stream: bool = True,
          llm: bool = True, composed: str = "") -> Generator[AskEvent, None, Draft]:
    """Write an answer from the evidence; yields ``delta`` events of an LLM's tokens as
    they arrive (provisional text), returns the :class:`Draft`.

    A failing LLM (error status, broken stream) falls back to the extractive composer and
    the trace says so.

    Args:
        kb: the knowledge base (config, word segmenter, embedder, store).
        question: the question.
        terms: the question's content terms (for the extractive composer).
        evidence: the blocks, numbered from 1 in this order.
        exact: the first block is the exact clause the question names.
        qtype: question type choosing the prompt.
        stream: stream LLM tokens (off: one non-streaming completion).
        llm: use the LLM answerer when configured (off: the extractive composer, e.g. as
            the fallback of an answerer that timed out).
        composed: the extractive composer's text from this evidence when it was already
            composed (the dense veto's second look): used instead of composing again.
    """
    cfg = kb.config
    trace: list[TraceStep] = []
    blocks = {i: h.chunk for i, h in enumerate(evidence, 1)}
    text, generator = None, "extractive"
    client = client_for(cfg, "answerer") if llm else None
    if client is not None:
        qt = QType.from_str(qtype) if isinstance(qtype, str) else qtype
        t0, detail = time.perf_counter(), {"model": client.settings.model, "qtype": qt.value}
        try:
            msgs = answer_messages(question, evidence, qtype, cfg.refusal_text)
            pieces: list[str] = []
            for tok in (client.stream(msgs) if stream else [client.chat(msgs)]):
                pieces.append(tok)
                if stream:
                    yield AskEvent("delta", text=tok)
            text, generator = "".join(pieces), "llm"
        except LLMError as e:
            detail["error"] = str(e)
            detail["fallback"] = "extractive"
        trace.append(TraceStep("generate", time.perf_counter() - t0, detail))
    if text is None:
        t0 = time.perf_counter()
        text = composed or _extractive(terms, evidence, kb, exact, question)
        trace.append(TraceStep("compose", time.perf_counter() - t0,
                               {"blocks": len(evidence), "reused": bool(composed)}))
    return Draft(text, blocks, generator, trace=tuple(trace))


def _named(kb: Any, question: str) -> tuple[str, ...]:
    """The documents the question names (a law repealed by another keeps its place when named)."""
    return kb.titles().resolve(question).doc_ids if question else ()


def _extractive(terms: Sequence[str], evidence: Sequence[Hit], kb: Any, exact: bool, question: str = "") -> str:
    """The offline composer's text with its markers turned into evidence block numbers;
    a sentence meeting what the question pins down is preferred as the source."""
    from zhiku.retrieve.thesaurus import rare_synonyms

    cfg = kb.config
    opts = CheckOptions.from_config(cfg)
    cons = pinned(question, opts) if question else ()
    blocks = evidence[:1] if exact else in_force_first(kb, evidence, named=_named(kb, question))
    terms = list(dict.fromkeys([*terms, *options(question)]))  # 「-i」: a stop word to the segmenter
    text, cites = compose(terms, blocks, kb.idf, whole_first=exact, provision=kb.config.provision_share,
                          meets=_meets(kb, question, cons, opts, blocks[:SOURCES]),
                          decides=_decides(cons, opts) if kb.config.answer_decisive_pins else None,
                          doc_name=kb.config.answer_doc_name, name_weight=kb.config.answer_name_weight,
                          lists=kb.config.list_answers and LIST_ASK.search(question) is not None,
                          listed=listed_kind(question, terms, kb.config.list_kind_prefixed)
                          if kb.config.list_kind else "",
                          lead_ins=1.0 if LIST_ASK.search(question) or HOW_ASK.search(question)
                          else kb.config.answer_lead_ins,
                          problems=kb.config.answer_problems, head_figures=kb.config.answer_head_figures,
                          head_version=kb.config.answer_head_version, head_ancestors=kb.config.answer_head_ancestors,
                          head_dates=kb.config.answer_head_dates and any(
                              c.kind is Kind.QUANTITY and c.text in _WHEN_KINDS for c in cons),
                          parts=kb.config.answer_term_parts,
                          spreads=kb.config.answer_term_spreads,
                          comments=kb.config.answer_code_comments, labels=kb.config.answer_labels,
                          around=question if kb.config.answer_around else "",
                          asked_next=kb.config.answer_asked_next, turns=kb.config.answer_turns,
                          rows_whole=kb.config.answer_rows_whole, wrapped=kb.config.answer_wrapped_comments,
                          same=rare_synonyms(kb) if kb.config.answer_term_synonyms else None,
                          list_block=kb.config.list_block, plain_labels=kb.config.answer_plain_labels,
                          list_items=kb.config.list_items, list_enumerations=kb.config.list_enumerations,
                          row_keys=question if kb.config.answer_row_keys else "",
                          forms=kb.short_forms() if kb.config.short_forms else None,
                          met_whole=kb.config.answer_met_whole, met_items=kb.config.answer_met_items,
                          overview=kb.config.answer_overview,
                          agents=kb.config.answer_agent_forms,
                          bonus=() if exact else _bonus(kb, question, blocks[:SOURCES], cons))
    pos = {h.chunk.id: i for i, h in enumerate(evidence, 1)}
    to_block = {c.marker: pos[c.chunk_id] for c in cites}
    return re.sub(r"\[(\d+)\]", lambda m: f"[{to_block.get(int(m.group(1)), int(m.group(1)))}]", text)


# the quantities a question asks when by (什么时候, 何时; 哪天, 哪一天; 日期): a release's date answers
# them (not 几点)
_WHEN_KINDS = ("when", "date", "day")


# a figure and its unit apart (「最多保存 3 天」 in Markdown): read together, as a statute writes them
_UNSPACED = re.compile(r"(\d)\s+(?=[^\d\s])")


def _meets(kb: Any, question: str, cons: Sequence[Any], opts: CheckOptions | None = None,
           evidence: Sequence[Hit] = ()) -> Callable[[str, str], bool] | None:
    """Whether a sentence and its block meet what the question pins down
    (:func:`zhiku.verify.answerable.meets_all`) and, with ``answer_asked_type``, whether the
    block states a value of the kind the question's asking phrase names (要交钱吗 → a fee, 多久 →
    a period: :func:`zhiku.retrieve.answertype.states`, a figure spaced from its unit read as one;
    how often asked, with the check's ``frequencies`` reading, a frequency too: 每月, 按季);
    with ``answer_sum_act``, whether the sentence states the sum asked in a clause of the act it is
    asked of when a block of ``evidence`` holds that act's verb (赔 of 「还能让超市赔多少」 in
    「…赔偿损失…」: the evidence's own word for it, not only the asker's, as 挣 is where the statute
    says 所得: :func:`zhiku.verify.answerable.user_verb`). None when the question pins nothing.
    ``opts``: the check's readings (default: built from ``kb.config``)."""
    from zhiku.answer.reading import asked_types
    from zhiku.retrieve.answertype import FREQUENCY, FREQUENCY_ASK, AnswerType, states
    from zhiku.verify.answerable import meets_all, user_verb

    cfg = kb.config
    asked = cfg.answer_asked_type and question
    kinds = asked_types(question, cfg.offence_type, cfg.answer_penalty_ask, cfg.answer_stated_age) if asked else ()
    if not cons and not kinds:
        return None
    opts = opts or CheckOptions.from_config(cfg)
    often = opts.frequencies and FREQUENCY_ASK.search(question) is not None

    def stated(kind: AnswerType, block: str) -> bool:
        return states(kind, _UNSPACED.sub(r"\1", block)) or (
            often and kind is AnswerType.PERIOD and FREQUENCY.search(block) is not None)

    sums = cfg.answer_sum_act and any(c.kind is Kind.FOCUS and c.about == "sum" and not user_verb(c, h.chunk.text)
                                      for c in cons for h in evidence)
    return lambda sent, block: ((not cons or meets_all(cons, sent, block, opts, sums=sums))
                                and (not kinds or any(stated(k, block) for k in kinds)))


def _decides(cons: Sequence[Any], opts: CheckOptions) -> Callable[[str, str], bool] | None:
    """Whether a sentence and its block meet the pins of ``cons`` that decide a refusal
    (:func:`zhiku.verify.answerable.decisive`; config ``answer_decisive_pins``): 「…最少要多大内存」
    is answered by the table row 「**内存** 8 GB+」, which lacks the situation's 部署, not by the
    note naming 部署 and no size. None when every pin decides (``meets`` reads them all)."""
    from zhiku.verify.answerable import decisive, meets_all

    need = [c for c in cons if decisive(c, cons, opts)]
    if not need or len(need) == len(cons):
        return None
    return lambda sent, block: meets_all(cons, sent, block, opts, only=lambda c: c in need)


def _bonus(kb: Any, question: str, blocks: Sequence[Hit], cons: Sequence[Any] = ()) -> tuple[float, ...]:
    """Per block, what the composer adds to its score beside the question's words: its meaning
    (``answer_meaning``), how many of the blocks its document holds (``answer_agreement``), its
    document's standing (``answer_standing``; none for a question asking a figure with
    ``answer_standing_figures``, :func:`zhiku.answer.standing.asks_figure`) and, taken off, an
    article binding office holders the question does not name (``answer_addressee``)."""
    from zhiku.answer.addressee import addressee_bonus
    from zhiku.answer.agreement import agreement_bonus
    from zhiku.answer.standing import asks_figure

    cfg = kb.config
    standing = 0.0 if cfg.answer_standing_figures and asks_figure(cons) else cfg.answer_standing
    parts = [b for b in (meaning_bonus(kb, question, blocks, cfg.answer_meaning, cfg.answer_meaning_encode,
                                       cfg.answer_meaning_chars),
                         standing_bonus(blocks, standing), agreement_bonus(blocks, cfg.answer_agreement),
                         addressee_bonus(question, blocks, cfg.answer_addressee)) if b]
    return tuple(map(sum, zip(*parts))) if parts else ()


def verify(kb: Any, d: Draft) -> Verified:
    """The one verification of every answer (LLM, extractive, agent): each ``[n]`` must
    name a given block that supports its sentence (lexically, semantically in the
    ambiguous zone, by the LLM judge when one is configured), clause numbers must exist;
    a ``[Wn]`` sentence must be supported by that web result's snippet.

    Args:
        kb: the knowledge base.
        d: the draft.

    Returns:
        The verified answer; ``refused`` when nothing verifiable is left or an LLM said
        the evidence does not hold the answer. Its trace has the ``verify`` step.
    """
    cfg = kb.config
    t0 = time.perf_counter()
    refusal = cfg.refusal_text
    if d.generator != "extractive" and refusal in d.text and "[" not in d.text:
        step = TraceStep("verify", time.perf_counter() - t0, {"refused_by": d.generator})
        return Verified(refusal, (), generator=d.generator, refused=True, trace=(step,))
    text, web_text, web, web_removed = _web_part(d)
    judge, judge_note = _judge(cfg)
    v = Verifier(scorer_for(kb), lambda doc, a: has_article(kb, doc, a), Action.from_str(cfg.verify_action),
                 judge, keep=(refusal,)).verify(text, d.blocks)
    blocks = d.blocks
    cites = [_citation(new, blocks[old], v.text) for new, old in sorted(v.blocks.items())]
    found = find_conflicts(blocks, set(v.blocks.values()), kb.words) if v.text else []
    conflicts = [_renumber(c, cites, blocks, v.blocks) for c in found]
    removed = tuple(v.removed) + web_removed
    detail = {"checked": v.checked, "kept": v.kept, "removed": [r.kind for r in removed],
              "unsupported": sum(r.kind != "unknown_marker" for r in removed), **judge_note}
    step = TraceStep("verify", time.perf_counter() - t0, detail)
    return Verified(v.text, tuple(cites), removed, tuple(conflicts), d.generator,
                    refused=not v.text.strip() or not cites, checked=v.checked, kept=v.kept,
                    trace=(step,), web_text=web_text, web=web,
                    blocks={new: blocks[old] for new, old in v.blocks.items()})


def _web_part(d: Draft) -> tuple[str, str, tuple[WebSource, ...], tuple[Removal, ...]]:
    """The draft without its ``[Wn]`` sentences, the supported ones under the web label,
    the web sources they cite, and the unsupported ones as removals."""
    if not d.web:
        return d.text, "", (), ()
    from zhiku.agents.web import WEB_NOTE

    lines, used, removed = [], {}, []
    for m in _WEB_MARKED.finditer(d.text):
        sent = m.group(1).strip().lstrip("。；，！？\n ")
        keys = [k for k in re.findall(r"W\d+", m.group(2)) if k in d.web]
        if sent and keys and max(bigram_support(sent, d.web[k].snippet) for k in keys) >= 0.6:
            lines.append(f"{sent.rstrip('。；')}{''.join(f'[{k}]' for k in keys)}。")
            used.update({k: d.web[k] for k in keys})
        elif sent:
            removed.append(Removal("unsupported", sent, (), "no web result supports it"))
    rest = _WEB_MARKED.sub("", d.text)
    rest = rest if re.search(r"\w", rest) else ""
    web_text = WEB_NOTE + "\n" + "".join(lines) if lines else ""
    return rest, web_text, tuple(used.values()), tuple(removed)


def _judge(cfg: Any) -> tuple[Judge | None, dict]:
    """The LLM judge when a ``judge`` role is configured explicitly (``[llm_roles.judge]``);
    when it fails the offline verdicts stand and the trace says why."""
    if "judge" not in cfg.llm_roles:
        return None, {}
    client = client_for(cfg, "judge")
    if client is None:
        return None, {}
    note: dict = {"judge": client.settings.model}
    from pydantic import BaseModel

    class Verdict(BaseModel):
        i: int
        supported: bool
        reason: str = ""

    class Verdicts(BaseModel):
        verdicts: list[Verdict]

    def judge(pairs):
        try:
            got = {v.i: v for v in client.json(judge_messages(pairs), Verdicts).verdicts}
        except LLMError as e:
            note["judge_error"] = str(e)
            return [(True, "")] * len(pairs)
        return [(got[i].supported, got[i].reason) if i in got else (True, "")
                for i in range(1, len(pairs) + 1)]

    return judge, note


def _citation(marker: int, chunk: Any, text: str) -> Citation:
    """A citation whose quote is the block sentence closest to what the answer says with it."""
    said = "".join(s for s in re.findall(rf"[^。！？；\n]*?\[{marker}\]", text))
    said = re.sub(r"\[\d+\]", "", said) or text
    sents = [s for _, s in split_sentences(chunk.text)] or [chunk.text]
    quote = max(sents, key=lambda s: bigram_support(said, s)) if len(sents) > 1 else sents[0]
    return Citation(marker, chunk.id, chunk.doc_path, chunk.title, chunk.section_path, chunk.article,
                    quote, chunk.version_date, chunk.page)


def _renumber(c: Conflict, cites: list[Citation], blocks: dict, used: dict[int, int]) -> Conflict:
    """A conflict in the answer's marker numbers; an uncited side gets its own citation,
    so the note cites both."""
    marks = []
    for old in c.markers:
        new = next((n for n, o in used.items() if o == old), None)
        if new is None:
            new = len(cites) + 1
            used[new] = old
            cites.append(_citation(new, blocks[old], blocks[old].text))
        marks.append(new)
    return replace(c, markers=tuple(marks))


def conflict_notes(conflicts: Sequence[Conflict]) -> list[str]:
    """One sentence per conflict, citing both sides."""
    return [f"注意：{c.note}{''.join(f'[{m}]' for m in c.markers)}，请核对。" for c in conflicts]


def scorer_for(kb: Any) -> SupportScorer:
    """The support scorer of a knowledge base: its word segmenter, its embedder (for the
    ambiguous zone) and the configured thresholds."""
    cfg = kb.config

    def embed(texts: list[str]):
        return kb.embedder.embed_passages(texts)

    return SupportScorer(kb.words, embed if kb.has_vectors() else None, cfg.verify_lexical,
                         cfg.verify_lexical_floor, cfg.verify_semantic)


def has_article(kb: Any, doc_id: str, label: str) -> bool:
    """Whether document ``doc_id`` (any version of it) has the article ``label``."""
    return bool(kb.store.find(Scope(doc_ids=(doc_id,), article=label, versions="all"), limit=1))
