"""Turn a verified draft (or a refusal) into the final Answer: conflict and version notes,
confidence adjusted by verification, the low-confidence mark, and what was searched."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from typing import Any

from zhiku.answer.respond import Verified, conflict_notes
from zhiku.chunk.context import block_text
from zhiku.retrieve.learned import judged_order
from zhiku.types import Answer, Hit, TraceStep
from zhiku.verify.answerable import Answerability, check, decisive, has_quantity, unnamed
from zhiku.verify.confidence import REFUSED, answered, on_point, quoted_coverage, with_vectors
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind
from zhiku.verify.provisions import FIGURES  # the kinds a figure answers: an answer stating none cannot give them
from zhiku.verify.shown import answer_cosine


def searched_summary(kb: Any, terms: Sequence[str], hits: Sequence[Hit], n: int = 3) -> str:
    """What a refusal searched: how many documents, which terms, the closest passages.

    Args:
        kb: the knowledge base.
        terms: the question's content terms.
        hits: the ranked candidates that were not good enough.
        n: how many closest passages to name.

    Returns:
        One sentence, e.g. 「检索了 6 份文档中的「工资、拖欠」；最接近的段落：《劳动法》第五十条。」
    """
    docs = kb.store.count().get("documents", 0)
    shown = "、".join(terms[:6]) or "（无关键词）"
    near = []
    for h in hits:
        c = h.chunk
        label = f"《{c.title or c.doc_path}》" + (c.article or (c.section_path[-1] if c.section_path else ""))
        if label not in near:
            near.append(label)
        if len(near) >= n:
            break
    tail = f"；最接近的段落：{'、'.join(near)}，但不足以回答" if near else "；没有找到相关段落"
    return f"检索了 {docs} 份文档中的「{shown}」{tail}。"


def refusal(kb: Any, question: str, terms: Sequence[str], considered: tuple[Hit, ...], conf: float,
            reason: str, trace: Sequence[TraceStep], generator: str = "extractive") -> Answer:
    """The refusal answer: the configured sentence, why, and what was searched."""
    cfg = kb.config
    return Answer(question, cfg.refusal_text, (), conf, True, considered, tuple(trace), reason,
                  low_confidence=conf < cfg.low_confidence,
                  searched=searched_summary(kb, terms, considered), generator=generator)


def finish(kb: Any, question: str, terms: Sequence[str], draft: Verified, conf: float, why: str,
           considered: tuple[Hit, ...], trace: Sequence[TraceStep], notes: Sequence[str]) -> Answer:
    """The final answer from a verified draft.

    Confidence is the calibrated probability (:mod:`zhiku.verify.confidence`) adjusted by
    what answering showed, a weak answerability mismatch and the share of checked sentences
    verification removed (:func:`zhiku.verify.confidence.answered`, fitted); an answer with
    nothing verifiable left, or whose cited blocks miss what the question pins down in a
    way that decides (:func:`answerability`), is a refusal.

    Args:
        kb: the knowledge base.
        question: the question.
        terms: the question's content terms (for a refusal's summary).
        draft: the verified draft.
        conf: retrieval confidence.
        why: its explanation.
        considered: the candidates shown with the answer.
        trace: every stage so far.
        notes: version notes for the cited documents.
    """
    cfg = kb.config
    if draft.refused:
        reason = ("the model said the evidence does not hold the answer" if draft.generator == "llm"
                  and not draft.removed else "no statement of the draft could be verified against the evidence")
        ans = refusal(kb, question, terms, considered, conf * REFUSED, reason, trace, draft.generator)
        return _with(ans, draft)
    opts = CheckOptions.from_config(cfg)
    verdict, step = answerability(kb, question, terms, draft, opts)
    trace = (*trace, step)
    weak = not verdict.ok and bool(verdict.missing) and not any(
        decisive(c, verdict.constraints, opts) for c in verdict.missing)
    if weak and (cfg.answerability_untyped or cfg.answerability_named_figures and latin_named(verdict, draft.text)) \
            and untyped(verdict, draft.text):
        weak = False  # the figure asked is stated nowhere in the answer: a refusal, not a weak answer
    if weak and opts.counts and uncounted(verdict, draft.text, question, opts.articles, opts.addresses):
        weak = False  # the count asked is stated nowhere in the answer: a refusal
    if weak:
        why = f"{why}；{verdict.reason}"  # a weak mismatch: answered, with a lower confidence
    elif not verdict.ok:
        # what was missing is said; the related passages are named in ``searched``, not
        # cited, since they do not support an answer
        ans = refusal(kb, question, terms, considered, conf * REFUSED, verdict.reason, trace, draft.generator)
        return _with(ans, draft, text=f"{cfg.refusal_text}。{verdict.reason}。")
    share = draft.kept / draft.checked if draft.checked else 1.0
    met = len(verdict.constraints) if verdict.ok else 0
    # what the answer shows (does it cite the first passage?) read in the order the model was fitted on
    shown = shown_features(kb, terms, draft, judged_order(cfg, considered), verdict, question)
    trace = (*trace, TraceStep("finish", 0.0, {"after": {"weak": weak, "share": round(share, 4), "met": met,
                                                         **shown}}))
    # the fitted probability after what answering showed
    conf = answered(conf, weak, share, met, dense=with_vectors(cfg, considered, terms), **shown)
    text = "\n".join([draft.text, *conflict_notes(draft.conflicts), *notes])
    if draft.removed:
        why += f"；核验删除或标注了 {len(draft.removed)} 处"
    return Answer(question, text, draft.citations, conf, False, considered, tuple(trace), why,
                  removed=draft.removed, conflicts=draft.conflicts,
                  low_confidence=conf < cfg.low_confidence, generator=draft.generator)


# what a question's clauses are cut at; its last clause is the one asking
_CLAUSES = re.compile(r"[，,；;：:]")
# a count asked: 多少, 几个, 几次
_COUNT_ASK = re.compile(r"多少|几")


def uncounted(verdict: Answerability, text: str, question: str = "", articles: bool = False,
               addresses: bool = False) -> bool:
    """Whether the check's verdict misses a count the question asks (多少, 几个: kind ``number``)
    and the answer's ``text`` states no count anywhere once the figures that count nothing are
    left out (:func:`zhiku.verify.answerable.unnamed`: a name's digits, a release number, a
    caption, a marker; config ``answerability_counts``): 「Nacos 集群最少要部署几个节点？」 answered
    by a passage on each node's term, 「RocketMQ 控制台的默认端口是多少？」 by one on message ids. A
    sum, a period, an age asked are read as before (``answerability_untyped``). With ``question``,
    only where its last clause asks the count: 「几个股东闹翻了，…能请法院把公司解散吗？」 tells how
    many were involved and asks whether, so the count is no figure it asks for. With
    ``articles`` (config ``answerability_articles``) 一个 as the indefinite article states no
    count (:func:`zhiku.verify.answerable.unarticled`); with ``addresses`` (config
    ``answerability_addresses``) nor does a network address's port (127.0.0.1:8848)."""
    if question and not _COUNT_ASK.search([c for c in _CLAUSES.split(question) if c.strip()][-1]):
        return False
    return any(c.kind is Kind.QUANTITY and c.text == "number" and not c.unworded
               and not has_quantity("number", unnamed(text, articles, addresses, c.about), c.about)
               for c in verdict.missing)


def untyped(verdict: Answerability, text: str) -> bool:
    """Whether the check's verdict misses a figure the question asks (多少钱, 多久, 几天, 几岁, 多少人:
    :data:`zhiku.verify.provisions.FIGURES`) and the answer's ``text`` (markers removed) states
    no value of that kind anywhere, nor a sum as a multiple or share of another (config ``answerability_untyped``): 「感冒了吃头孢之后多久才能
    喝酒？」 answered by a list of infectious diseases states no period at all. A figure stated
    beside other words than the question's (「每立方米三十克」 for 「一天吃多少克米饭」) is not
    untyped, nor a period stated as how often (按月支付 for 「多久发一次」): it stays a weak
    mismatch, answered at a lower confidence."""
    from zhiku.verify.answerable import other_form

    said = re.sub(r"\[\d+\]", "", text)
    return any(c.kind is Kind.QUANTITY and c.text in FIGURES and not c.unworded
               and not has_quantity(c.text, said, c.about) and not other_form(c.text, said)
               and not (c.text in ("duration", "frequency", "days") and _PERIODIC.search(said))
               for c in verdict.missing)


def latin_named(verdict: Answerability, text: str) -> bool:
    """Whether the question pins a Latin name (a product, a package, a setting: rt_ota, Nacos,
    setting.check.chkStyle) and the answer's ``text`` states no figure at all (a name's digits,
    a release number, a marker left out: :func:`zhiku.verify.answerable.unnamed`) — a figure
    asked of the thing named (「rt_ota 软件包的授权费用是多少」) is a fact of that one thing, not a
    rule a statute states in its own terms, so such an answer stating no value of the kind asked
    is a refusal (config ``answerability_named_figures``, :func:`untyped`). An answer stating a
    figure in a unit the check does not read for the kind (「点亮 LED 2秒」 for 多长时间) stays a
    weak mismatch."""
    from zhiku.verify.forms import LATIN_NAME, norm

    said = unnamed(re.sub(r"\[\d+\]", "", text))
    return not has_quantity("number", said) and any(
        c.kind is Kind.SUBJECT and not c.about and LATIN_NAME.fullmatch(norm(c.text)) is not None
        for c in verdict.constraints)


# a period stated as how often (「工资应当…按月支付」 answers 「工资多久发一次」)
_PERIODIC = re.compile(r"按(?:日|天|周|月|季|季度|年)|每(?:日|天|周|星期|月|季度|年)")


def shown_features(kb: Any, terms: Sequence[str], draft: Verified, considered: Sequence[Hit],
                   verdict: Answerability, question: str = "") -> dict[str, Any]:
    """What the answer's own text shows, for :func:`zhiku.verify.confidence.answered`: how
    much of the question's content words it holds (``quoted``), whether it cites the first
    hit (``top``), whether the question asks for a kind of value (an amount, a period, an
    age, a date, a name: ``asks``) and the answer states one (``typed``), whether it flags
    evidence that disagrees on the point (``conflict``), with ``confidence_stated`` on whether
    it states the kind asked (``stated``: both of ``asks`` and ``typed``), and with ``quote_cosine`` on how
    close its quoted sentence is to the question (``cosine``:
    :func:`zhiku.verify.shown.answer_cosine`)."""
    first = considered[0].chunk if considered else None
    top = first is not None and any(c.id in (first.id, first.parent_id) for c in draft.blocks.values())
    kinds = [c for c in verdict.constraints if c.kind is Kind.QUANTITY]
    said = re.sub(r"\[\d+\]", "", draft.text)
    typed = any(has_quantity(c.text, said, c.about) for c in kinds)
    # with config confidence_stated, the kind of value asked stated by the answer is read (stated)
    stated = {"stated": bool(kinds) and typed} if getattr(kb.config, "confidence_stated", False) else {}
    return {"quoted": round(quoted_coverage(kb, list(terms), draft.text), 4), "top": top, "asks": bool(kinds),
            "typed": typed, "conflict": bool(draft.conflicts), **stated,
            **meaning_shown(kb, question, draft, considered), **answer_cosine(kb, question, draft.text),
            **on_point_shown(kb.config, terms, question, draft)}


def on_point_shown(cfg: Any, terms: Sequence[str], question: str, draft: Verified) -> dict[str, float]:
    """With config ``confidence_on_point``, the share of the answer's text the question's words
    make up (``on_point``: :func:`zhiku.verify.confidence.on_point`) for an answer the offline
    composer quoted; nothing for a case narrative (more content ``terms`` than
    ``heading_max_words``: its many words make up most of any quote from the rule it describes,
    right or wrong), for a model's own prose (it restates the question as it likes, and the weight
    was fitted on quotes only) or without a question."""
    most = getattr(cfg, "heading_max_words", 0)
    if not getattr(cfg, "confidence_on_point", False) or not question or 0 < most < len(terms) \
            or draft.generator == "llm":
        return {}
    return {"on_point": round(on_point(question, draft.text), 4)}


def meaning_shown(kb: Any, question: str, draft: Verified, considered: Sequence[Hit]) -> dict[str, Any]:
    """Where the quoted block stands by meaning among the evidence (the first ``answer_chunks``
    candidates), when the offline answer's choice read it (``answer_meaning``:
    :func:`zhiku.answer.meaning.block_cosines`, the vectors it already read or encoded):
    ``meant``, the cited block is the one closest to the question, and ``lift``, how far the
    closest cited block's cosine lies above the first candidate's (0 when it is the first);
    nothing when the meaning was not read (a ranking with a dense list, no question vector: it
    is read before ``quote_cosine`` encodes the question, so both see what the composer saw)."""
    from zhiku.answer.meaning import block_cosines

    cfg = kb.config
    hits = list(considered[:cfg.answer_chunks])
    if not cfg.answer_meaning or not question or not draft.blocks or not hits:
        return {}
    cos = block_cosines(kb, question, hits, cfg.answer_meaning_encode, cfg.answer_meaning_chars)
    if not cos:
        return {}
    ids = {c.id for c in draft.blocks.values()}
    cited = [c for h, c in zip(hits, cos) if c is not None and (h.chunk.id in ids or h.chunk.parent_id in ids)]
    if not cited or cos[0] is None:
        return {}
    return {"meant": max(cited) >= max(c for c in cos if c is not None), "lift": round(max(cited) - cos[0], 4)}


def _with(ans: Answer, draft: Verified, **more: Any) -> Answer:
    from dataclasses import replace

    return replace(ans, removed=draft.removed, **more)


def related_words(terms: Sequence[str], text: str, idf: Callable[[str], float]) -> list[str]:
    """The question's words (two characters or more) the quoted blocks hold, rarest first: what
    a refusal names as found (「知识库中有「最低工资」的相关内容…」). Words of equal weight keep
    the question's order, so the same question gives the same sentence in every run."""
    return sorted(dict.fromkeys(t for t in terms if len(t) > 1 and t in text), key=lambda t: -idf(t))


def answerability(kb: Any, question: str, terms: Sequence[str], draft: Verified,
                  opts: CheckOptions) -> tuple[Answerability, TraceStep]:
    """The answerability stage: does one cited block meet what the question pins down
    (offline, :mod:`zhiku.verify.answerable`), then, when a ``judge`` role is configured,
    does the judge agree; recorded as an ``answerable`` trace step. With the
    ``answerability`` config key off the verdict is ``ok`` with nothing pinned.

    Args:
        kb: the knowledge base (config, IDF for naming the topic found).
        question: the question.
        terms: its content terms.
        draft: the verified draft (its text, markers and blocks).
        opts: the check's readings (:meth:`CheckOptions.from_config` of ``kb.config``, built
            once by the caller, which reads them again for :func:`decisive`).

    Returns:
        The verdict (not ``ok``: the answer becomes a refusal saying what is missing) and
        its ``answerable`` trace step.
    """
    t0 = time.perf_counter()
    if not kb.config.answerability:  # switched off (an ablation): nothing is pinned
        return Answerability(True, ()), TraceStep("answerable", time.perf_counter() - t0, {"off": True})
    used = [int(m) for m in dict.fromkeys(re.findall(r"\[(\d+)\]", draft.text))]
    blocks = {m: draft.blocks[m] for m in used if m in draft.blocks}
    forms = kb.short_forms() if kb.config.short_forms else None
    cited = [(block_text(c, forms), _said(draft.text, m)) for m, c in blocks.items()]
    text = " ".join(b for b, _ in cited)
    topic = related_words(terms, text, kb.idf)
    near = None
    if opts.near_words:
        from zhiku.verify.near import near_reader

        near = near_reader(kb, kb.config.answerability_near_cosine)
    verdict = check(question, cited, topic, opts, near, kb.holds_document if opts.documents else None)
    detail: dict[str, Any] = {"ok": verdict.ok, "pinned": [f"{c.kind.value}:{c.text}" for c in verdict.constraints],
                              "missing": [c.text for c in verdict.missing]}
    if verdict.ok and blocks:
        verdict = _judge_answerable(kb.config, question, [b for b, _ in cited], verdict, detail)
    return verdict, TraceStep("answerable", time.perf_counter() - t0, detail)


def _said(text: str, marker: int) -> str:
    """The answer text citing block ``marker``, markers removed: every stretch that ends
    at a ``[marker]`` (a run of sentences citing one block shows its marker once, at the
    end; ``[1][2]`` gives both blocks the stretch before them). Only ``[digits]`` is a
    marker: a Markdown link a quote keeps (「[issue看板](http://…)」) is part of the stretch."""
    out, prev = [], ""
    parts = re.split(r"\[(\d+)\]", text)
    for piece, m in zip(parts[0::2], parts[1::2]):
        prev = piece if piece.strip() else prev
        if int(m) == marker:
            out.append(prev)
    return "".join(out)


def _judge_answerable(cfg: Any, question: str, texts: list[str], verdict: Answerability,
                      detail: dict[str, Any]) -> Answerability:
    """The judge role's say on an answer the offline check let through (kept when the
    judge is not configured or fails)."""
    if "judge" not in cfg.llm_roles:
        return verdict
    from pydantic import BaseModel

    from zhiku.answer.prompts import answerable_messages
    from zhiku.llm import LLMError, client_for

    client = client_for(cfg, "judge")
    if client is None:
        return verdict

    class Said(BaseModel):
        answerable: bool
        missing: str = ""

    try:
        got = client.json(answerable_messages(question, texts), Said)
    except LLMError as e:
        detail["judge_error"] = str(e)
        return verdict
    detail["judge"] = {"answerable": got.answerable, "missing": got.missing}
    if got.answerable:
        return verdict
    why = f"知识库中的相关内容没有回答这个问题{('：缺少' + got.missing) if got.missing else ''}"
    return Answerability(False, verdict.constraints, verdict.missing, why)


def missing_names(ans: Answer) -> list[str]:
    """The subjects a refusal's answerability step found no cited block naming (「native」,
    「v1.44.0」 of 「Sa-Token v1.44.0 是哪天发布的？」), none when it missed no subject: a thing
    the question names may stand in a passage ranked lower (config ``answer_lower_evidence``),
    while a figure, place or time alone missing (热线电话是多少, 罚款多少钱) is what an
    unanswerable question asks, and lower passages state one of another thing."""
    step = next((t for t in reversed(ans.trace) if t.stage == "answerable"), None)
    if step is None or step.detail.get("ok", True) or not step.detail.get("missing"):
        return []
    kinds = {p.split(":", 1)[1]: p.split(":", 1)[0] for p in step.detail.get("pinned", [])}
    missing = list(step.detail["missing"])
    return [m for m in missing if kinds.get(m) == Kind.SUBJECT.value]


def cites_names(draft: Verified, names: Sequence[str], values: bool = False) -> bool:
    """Whether the blocks ``draft`` cites write each of ``names`` as the question does (a passage
    standing for one by a near word, 单词 for 英文单词, does not); with ``values`` (config
    ``answerability_name_values``) a field and its value (「code 101」) also as a line naming the
    field and holding that number (「code==101」: :func:`zhiku.verify.answerable.valued`)."""
    from zhiku.retrieve.segment import normalise
    from zhiku.verify.answerable import valued

    used = {int(m) for m in re.findall(r"\[(\d+)\]", draft.text)}
    raw = "\n".join(block_text(c) for m, c in draft.blocks.items() if m in used)
    text = normalise(raw.replace("\n", " "))
    return all(normalise(n) in text or values and valued(n, raw) for n in names)

