"""Verify a drafted answer (LLM or extractive) against the evidence blocks it was given:
unknown markers, unsupported sentences, invented clause numbers, an optional LLM judge."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from zhiku.chunk.context import headed
from zhiku.registry import Choice
from zhiku.retrieve.clause import ARTICLE_IN_QUESTION, article_label
from zhiku.types import Chunk, Removal
from zhiku.verify.support import SupportScorer, content_terms

HasArticle = Callable[[str, str], bool]
# (sentence, cited block texts) pairs -> one (supported, reason) verdict per pair
Judge = Callable[[Sequence[tuple[str, Sequence[str]]]], list[tuple[bool, str]]]

_MARK = re.compile(r"\[(\d+)\]")
# a sentence: text, then its markers, then its closing mark (after normalise_markers)
_PIECE = re.compile(r"(?P<body>[^。！？；\n\[]*(?:\[(?!\d+\])[^。！？；\n\[]*)*)(?P<marks>(?:\[\d+\])*)"
                    r"(?P<end>[。！？；]?)(?P<nl>\n?)")
FLAG = "（未能核实）"
MIN_UNCITED = 12  # shorter uncited sentences are connectives (「根据规定：」), kept as they are


class Action(Choice):
    """What happens to a sentence that fails verification."""

    DROP = "drop"
    FLAG = "flag"

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "verify_action"


@dataclass(frozen=True)
class Sentence:
    """One answer sentence: its text without markers and the block numbers it cites."""

    text: str
    markers: tuple[int, ...]
    end: str = ""


@dataclass
class Checked:
    """What the verifier made of a draft: text with markers renumbered 1..n, the old block number of
    each new marker, what was removed, and how many sentences were checked/kept."""

    text: str
    blocks: dict[int, int]
    removed: list[Removal] = field(default_factory=list)
    checked: int = 0
    kept: int = 0
    semantic_checks: int = 0


def normalise_markers(text: str) -> str:
    """Canonical ``[n]`` markers: 【1】, [1,2], [1][2] and markers written after the
    sentence's full stop all become ``…[1][2]。``."""
    text = re.sub(r"【(\d+)】", r"[\1]", text)
    text = re.sub(r"\[(\d+(?:\s*[,，、]\s*\d+)+)\]",
                  lambda m: "".join(f"[{n}]" for n in re.findall(r"\d+", m.group(1))), text)
    return re.sub(r"([。！？；])\s*((?:\[\d+\])+)", r"\2\1", text)


def split_marked(text: str) -> list[Sentence]:
    """Sentences of an answer with the markers each carries; line breaks kept as empty
    sentences so the layout survives."""
    out = []
    for m in _PIECE.finditer(normalise_markers(text)):
        body = m["body"].strip()
        marks = tuple(dict.fromkeys(int(x) for x in _MARK.findall(m["marks"])))
        if body:
            out.append(Sentence(body, marks, m["end"]))
        elif marks and out:  # markers alone: they belong to the sentence before
            prev = out[-1]
            out[-1] = Sentence(prev.text, tuple(dict.fromkeys(prev.markers + marks)), prev.end)
        if m["nl"]:
            out.append(Sentence("", (), "\n"))
    return out


def clause_labels(sentence: str) -> list[str]:
    """Canonical article labels (第十九条) written in a sentence."""
    return [lab for m in ARTICLE_IN_QUESTION.finditer(sentence)
            if (lab := article_label(m.group())) is not None]


class Verifier:
    """Runs every check on a draft. Built once per ask from the knowledge base's pieces."""

    def __init__(self, scorer: SupportScorer, has_article: HasArticle, action: Action = Action.DROP,
                 judge: Judge | None = None, keep: Sequence[str] = ()) -> None:
        self.scorer, self.has_article, self.action, self.judge = scorer, has_article, action, judge
        self.keep = tuple(keep)  # sentences passed through unchecked (the refusal sentence)

    def verify(self, text: str, blocks: Mapping[int, Chunk]) -> Checked:
        """Check every sentence of ``text`` against the blocks its markers name.

        Args:
            text: the draft with ``[n]`` markers (n = evidence block number).
            blocks: block number → chunk given to the generator.

        Returns:
            The verified text (unsupported sentences dropped or flagged, markers
            renumbered in order of first use) and everything removed, with reasons.
        """
        removed: list[Removal] = []
        kept: list[Sentence] = []
        checked = 0
        for s in split_marked(text):
            if not s.text or any(k and k in s.text for k in self.keep):
                kept.append(s)
                continue
            checked += 1
            kept.append(self._check(s, blocks, removed))
        kept = self._judge(kept, blocks, removed)
        out = _render(kept)
        n_kept = sum(1 for s in kept if s.text and s.markers)
        return Checked(out[0], out[1], removed, checked, n_kept)

    def _check(self, s: Sentence, blocks: Mapping[int, Chunk], removed: list[Removal]) -> Sentence:
        """One sentence: unknown markers, clause numbers, then support per marker."""
        unknown = tuple(k for k in s.markers if k not in blocks)
        if unknown:
            removed.append(Removal("unknown_marker", s.text, unknown,
                                   f"evidence has blocks 1–{len(blocks)}, not {unknown}", "removed"))
        marks = tuple(k for k in s.markers if k in blocks)
        docs = [blocks[k] for k in marks] or list(blocks.values())
        for lab in clause_labels(s.text):
            # a clause the cited text itself names (「劳动合同法第四十七条规定的经济补偿」 quoted
            # from an implementing regulation) is supported; otherwise the cited document must have it
            if not any(lab in clause_labels(c.text) or self.has_article(c.doc_id, lab) for c in docs):
                names = "、".join(dict.fromkeys(c.title for c in docs)) or "the evidence"
                removed.append(Removal("clause", s.text, s.markers, f"{lab} does not exist in {names}"))
                return Sentence("", (), "")
        if not s.markers:
            return self._uncited(s, blocks, removed)
        good: list[tuple[int, float]] = []
        best = None
        for k in marks:
            # a block says what its section's heading says too (「版本 1.2.0」 over its changes),
            # and the release it sits under (「v4.8.0」 over its 「新组件」)
            sup = self.scorer.score(s.text, headed(blocks[k]))
            best = sup if best is None or sup.lexical > best.lexical else best
            if sup.supported:
                good.append((k, sup.lexical))
        if good:
            return Sentence(s.text, self._strongest(good), s.end)
        if not marks:
            return self._fail(s, "unknown_marker", "cites only blocks that were not given", removed)
        why = (f"numbers {'、'.join(best.numbers)} are not in the cited block" if best and best.numbers
               else f"term overlap {best.lexical:.2f}" + (f", similarity {best.semantic:.2f}"
                                                           if best and best.semantic is not None else ""))
        return self._fail(s, "unsupported", why, removed)

    def _strongest(self, good: list[tuple[int, float]]) -> tuple[int, ...]:
        """The best-supporting block, plus any other that supports the sentence strongly on
        its own (lexical overlap at ``lexical_min``): a weak second citation is dropped."""
        top = max(good, key=lambda g: g[1])[0]
        return tuple(k for k, lex in good if k == top or lex >= self.scorer.lexical_min)

    def _uncited(self, s: Sentence, blocks: Mapping[int, Chunk], removed: list[Removal]) -> Sentence:
        """An uncited sentence stays only when it is a short connective or some block
        supports it (it is then cited to that block)."""
        if len(s.text) < MIN_UNCITED or not content_terms(self.scorer.words, s.text):
            return s
        nums = list(blocks)
        found = self.scorer.best(s.text, [blocks[k].text for k in nums])
        if found is not None:
            return Sentence(s.text, (nums[found[0]],), s.end)
        return self._fail(s, "uncited", "no citation and no evidence block supports it", removed)

    def _fail(self, s: Sentence, kind: str, why: str, removed: list[Removal]) -> Sentence:
        removed.append(Removal(kind, s.text, s.markers, why, "flagged" if self.action is Action.FLAG
                               else "dropped"))
        if self.action is Action.FLAG:
            return Sentence(s.text + FLAG, (), s.end)
        return Sentence("", (), "")

    def _judge(self, kept: list[Sentence], blocks: Mapping[int, Chunk],
               removed: list[Removal]) -> list[Sentence]:
        """Ask the LLM judge about every still-cited sentence; a rejected one is dropped."""
        todo = [i for i, s in enumerate(kept) if s.text and s.markers]
        if self.judge is None or not todo:
            return kept
        verdicts = self.judge([(kept[i].text, [blocks[k].text for k in kept[i].markers]) for i in todo])
        for i, (ok, why) in zip(todo, verdicts):
            if not ok:
                kept[i] = self._fail(kept[i], "judge", why or "the judge found it unsupported", removed)
        return kept


def _render(sentences: list[Sentence]) -> tuple[str, dict[int, int]]:
    """Join sentences, renumbering markers 1..n in order of first use; a run of
    consecutive sentences citing the same blocks shows the markers once, at its end."""
    new: dict[int, int] = {}
    parts = []
    for i, s in enumerate(sentences):
        # the next statement, across line breaks: a list citing one block shows it once, at its end
        nxt = next((t for t in sentences[i + 1 :] if re.search(r"\w", t.text)), None)
        if s.markers and nxt is not None and nxt.text and nxt.markers == s.markers:
            for k in s.markers:
                new.setdefault(k, len(new) + 1)
            if s.text:
                parts.append(f"{s.text}{s.end}")
            continue
        if s.end == "\n" and not s.text:
            if parts and parts[-1] != "\n":
                parts.append("\n")
            continue
        if not s.text:
            continue
        marks = "".join(f"[{new.setdefault(k, len(new) + 1)}]" for k in s.markers)
        parts.append(f"{s.text}{marks}{s.end}")
    text = "".join(parts).strip("\n")
    return text, {v: k for k, v in new.items()}
