"""Draft an answer from the evidence (LLM when an answerer is configured, else the offline
extractive composer), stream it, verify it, and attach citations and conflict flags."""

from __future__ import annotations

import re
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from zhiku.answer.extractive import compose, split_sentences
from zhiku.answer.prompts import QType, answer_messages, judge_messages
from zhiku.index.store import Scope
from zhiku.llm import LLMError, client_for
from zhiku.types import AskEvent, Citation, Conflict, Hit, Removal, TraceStep
from zhiku.verify.check import Action, Judge, Verifier
from zhiku.verify.citations import support as bigram_support
from zhiku.verify.conflicts import find_conflicts
from zhiku.verify.support import SupportScorer

_PIECES = re.compile(r"[^。！？\n]*[。！？\n]?")


@dataclass
class Draft:
    """The verified answer text and what went into it."""

    text: str
    citations: tuple[Citation, ...]
    removed: tuple[Removal, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    generator: str = "extractive"
    refused: bool = False
    checked: int = 0
    kept: int = 0
    trace: list[TraceStep] = field(default_factory=list)
    blocks: dict = field(default_factory=dict)  # block number → chunk the draft was written from


def respond(kb: Any, question: str, terms: Sequence[str], evidence: Sequence[Hit], exact: bool,
            qtype: QType | str = QType.FACT, stream: bool = True,
            llm: bool = True) -> Generator[AskEvent, None, Draft]:
    """Draft, verify and cite an answer; yields ``delta`` events, returns the :class:`Draft`.

    An LLM answerer streams its tokens as ``delta`` events while it writes (provisional
    text); the offline composer's verified sentences are sent after verification. A
    failing LLM (error status, broken stream) falls back to the extractive composer and
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
        text = _extractive(terms, evidence, kb, exact)
        trace.append(TraceStep("compose", time.perf_counter() - t0, {"blocks": len(evidence)}))
    draft = _verify(kb, text, blocks, generator, trace)
    if generator == "extractive" or not stream:
        for piece in _PIECES.findall(draft.text):
            if piece:
                yield AskEvent("delta", text=piece)
    return draft


def _extractive(terms: Sequence[str], evidence: Sequence[Hit], kb: Any, exact: bool) -> str:
    """The offline composer's text with its markers turned into evidence block numbers."""
    text, cites = compose(terms, evidence[:1] if exact else evidence, kb.idf, whole_first=exact)
    pos = {h.chunk.id: i for i, h in enumerate(evidence, 1)}
    to_block = {c.marker: pos[c.chunk_id] for c in cites}
    return re.sub(r"\[(\d+)\]", lambda m: f"[{to_block.get(int(m.group(1)), int(m.group(1)))}]", text)


def _verify(kb: Any, text: str, blocks: dict, generator: str, trace: list[TraceStep]) -> Draft:
    cfg = kb.config
    t0 = time.perf_counter()
    refusal = cfg.refusal_text
    if generator == "llm" and refusal in text and "[" not in text:
        trace.append(TraceStep("verify", time.perf_counter() - t0, {"refused_by": "llm"}))
        return Draft(refusal, (), generator=generator, refused=True, trace=trace)
    judge, judge_note = _judge(cfg)
    v = Verifier(scorer_for(kb), lambda d, a: has_article(kb, d, a), Action.from_str(cfg.verify_action),
                 judge, keep=(refusal,)).verify(text, blocks)
    cites = [_citation(new, blocks[old], v.text) for new, old in sorted(v.blocks.items())]
    found = find_conflicts(blocks, set(v.blocks.values()), kb.words) if v.text else []
    conflicts = [_renumber(c, cites, blocks, v.blocks) for c in found]
    detail = {"checked": v.checked, "kept": v.kept, "removed": [r.kind for r in v.removed],
              "unsupported": sum(r.kind != "unknown_marker" for r in v.removed), **judge_note}
    trace.append(TraceStep("verify", time.perf_counter() - t0, detail))
    return Draft(v.text, tuple(cites), tuple(v.removed), tuple(conflicts), generator,
                 refused=not v.text.strip() or not cites, checked=v.checked, kept=v.kept, trace=trace,
                 blocks={new: blocks[old] for new, old in v.blocks.items()})


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
