"""Follow-up questions made standalone from the last turns of a conversation: by the LLM
rewriter when one is configured, else offline by carrying the document name (and the
subject) over from the previous question and answer."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from zhiku.ask.roles import Role
from zhiku.retrieve.segment import normalise

# words that point back at something said before
_PRONOUN = re.compile(r"它们|它|该法律|该法|该条例|该规定|该办法|这部法律|这部法|那部法律|那部法|此法|本法")
_LEAD = re.compile(r"^(那么|那|还有|另外|再问一下|再问|顺便问一下)[，,、\s]*")
_PREFIX = "中华人民共和国"


@dataclass(frozen=True)
class Exchange:
    """One earlier turn: the standalone question asked and the answer's cited titles."""

    question: str
    answer: str = ""
    titles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Turn:
    """A new question and the conversation before it (oldest first)."""

    question: str
    history: tuple[Exchange, ...] = ()


@dataclass(frozen=True)
class Rewrite:
    """The standalone question and how it was made (``none``, ``carry`` or ``llm``)."""

    question: str
    standalone: str
    how: str = "none"
    carried: tuple[str, ...] = ()


class _Rewritten(BaseModel):
    question: str


def history_from(messages: Sequence[dict[str, Any]], turns: int) -> tuple[Exchange, ...]:
    """The last ``turns`` exchanges of a stored session (see :class:`Sessions`).

    The standalone question of each turn is taken from its stored answer, so a chain
    of follow-ups keeps the names carried into it.
    """
    out = []
    for m in messages:
        a = m.get("answer")
        if m.get("role") == "assistant" and a:
            titles = tuple(dict.fromkeys(c.get("title", "") for c in a.get("citations", []) if c.get("title")))
            out.append(Exchange(a.get("question", ""), a.get("answer", ""), titles))
    return tuple(out[-turns:]) if turns else ()


def _short(title: str) -> str:
    title = re.sub(r"[（(]\d{4}-\d{2}-\d{2}[)）]$", "", title.strip())
    return title[len(_PREFIX):] if title.startswith(_PREFIX) else title


class RewriterRole(Role[Turn, Rewrite]):
    """Makes a follow-up standalone. Fallback: offline entity carry-over."""

    name, output, fallback_name, timeout_key = "rewriter", Rewrite, "entity carry-over", "rewrite_timeout"

    def run(self, t: Turn) -> Rewrite:
        """The LLM rewriter when configured, else :meth:`carry`."""
        from zhiku.llm import client_for

        client = client_for(self.kb.config, "rewriter") if t.history else None
        if client is None:
            return self.fallback(t)
        lines = []
        for e in t.history:
            lines += [f"用户：{e.question}", f"助手：{e.answer[:300]}"]
        msgs = [{"role": "system", "content":
                 "把用户的最新问题改写成不依赖上下文、可以单独检索的完整问题：把代词（它、该法、这个）"
                 "换成所指的文件或事物，补上省略的主语，不要回答问题。只输出 JSON：{\"question\": \"…\"}"},
                {"role": "user", "content": "对话：\n" + "\n".join(lines) + f"\n\n最新问题：{t.question}"}]
        got = client.json(msgs, _Rewritten).question.strip()
        return Rewrite(t.question, got or t.question, "llm")

    def fallback(self, t: Turn) -> Rewrite:
        """Offline carry-over (never fails)."""
        return self.carry(t)

    def carry(self, t: Turn) -> Rewrite:
        """Carry the document name (and subject) of the last turn into a follow-up.

        A question naming a document of its own but little else (「劳动合同法呢？」) takes
        the previous question with that document swapped in; a question pointing back
        (它, 该法) gets the previous document's name in its place; a short or 「那…呢」
        follow-up naming no document gets it in front, when that document speaks of the
        question's words (else it is a new question, whatever its wording).
        """
        q = t.question.strip()
        if not t.history:
            return Rewrite(q, q)
        titles = self.kb.titles()
        prev = t.history[-1]
        prev_names = [n for n, _ in titles.match(prev.question)]
        doc = prev_names[0] if prev_names else (_short(prev.titles[0]) if prev.titles else "")
        own = [n for n, _ in titles.match(q)]
        if own:
            rest = normalise(q)
            for n in own:
                rest = rest.replace(n, "")
            rest = re.sub(r"[呢吗？?。，,\s]|那么|那|还有|又", "", rest)
            if len(rest) <= 2 and prev_names and own[0] != prev_names[0]:  # 「劳动合同法呢？」
                return Rewrite(q, prev.question.replace(prev_names[0], own[0]), "carry", (own[0],))
            return Rewrite(q, q)
        if not doc:
            return Rewrite(q, q)
        if _PRONOUN.search(q):
            return Rewrite(q, _PRONOUN.sub(doc, q, count=1), "carry", (doc,))
        marked = _LEAD.match(q) or q.rstrip("？?。 ").endswith("呢")
        if not (marked or len(q) <= 8) or not self._speaks_of(doc, q):
            return Rewrite(q, q)  # a new question, not a follow-up
        body = _LEAD.sub("", q)
        return Rewrite(q, f"{doc}{'' if body.startswith('的') else '的'}{body}", "carry", (doc,))

    def _speaks_of(self, doc: str, question: str) -> bool:
        """Whether the document named ``doc`` holds a word of ``question``: a short or 「那…呢」
        question about something it never mentions (「试用期最长多久？」 or 「那离婚冷静期呢？」
        after a question on 婚姻家庭编 or 劳动法) is a new question, not a follow-up, and keeps
        the whole library."""
        from zhiku.index.store import Scope
        from zhiku.retrieve.segment import QUESTION_WORDS

        ids = tuple(r.doc_id for _, recs in self.kb.titles().match(doc) for r in recs)
        words = [w for w in self.kb.words(normalise(question)) if len(w) >= 2 and w not in QUESTION_WORDS]
        if not ids or not words:
            return True
        hits = self.kb.store.keyword(self.kb.segment(" ".join(words)), 3, Scope(doc_ids=ids))
        return any(w in normalise(h.chunk.text) for h in hits for w in words)
