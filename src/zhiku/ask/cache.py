"""Semantic answer cache: answers kept by normalised question (exact, then by embedding
similarity above a threshold, between phrasings that differ only by question words), each tied to the index generation it was computed on and
to its source documents, so a re-ingest that touches a source makes it stale."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

import numpy as np

from zhiku.migrations import apply_migrations
from zhiku.retrieve.segment import normalise
from zhiku.types import Answer, Citation, Conflict, Hit, Removal, TraceStep, WebSource

MIGRATIONS: list[tuple[str, str]] = [
    ("001_answers", """
        CREATE TABLE answers (
            id INTEGER PRIMARY KEY AUTOINCREMENT, context TEXT NOT NULL, norm TEXT NOT NULL,
            vector BLOB, generation INTEGER NOT NULL, sources TEXT NOT NULL,
            answer TEXT NOT NULL, created REAL NOT NULL);
        CREATE INDEX answers_context ON answers(context, norm);
    """),
]
_DROP = re.compile(r"[\s，。！？；：、,.!?;:\"'“”‘’（）()《》「」]")
# Characters two phrasings of one question may differ by (question words, particles).
# Any other differing character — 最长/最短, 不, 第十九/第二十条, another law's name — makes
# them different questions, however close their embeddings (e5 puts 「试用期最长多久」 and
# 「试用期最短多久」 at cosine 0.978).
FILLER = frozenset("是的了吗呢吧啊呀嘛么请问多少久长时间什怎样如何哪些个能可以会规定讲说下有没您你我想知道")


def normalise_question(q: str) -> str:
    """Width, case and punctuation folded: 「试用期最长多久？」 == 「试用期 最长多久」."""
    return _DROP.sub("", normalise(q))


def same_question(a: str, b: str) -> bool:
    """Whether two normalised questions differ only by :data:`FILLER` characters."""
    return (set(a) ^ set(b)) <= FILLER


class AnswerCache:
    """The cache of one knowledge base (``answers.sqlite`` under ``ZHIKU_HOME``)."""

    def __init__(self, kb: Any, path: Path | None = None) -> None:
        self.kb = kb
        path = path or kb.config.answer_cache_path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._lock = threading.Lock()
        with self._lock:
            apply_migrations(self._db, MIGRATIONS)

    def _generation(self) -> int:
        return self.kb.generation()

    def _vector(self, question: str) -> np.ndarray | None:
        if not self.kb.has_vectors():
            return None
        return np.asarray(self.kb.query_vector(question), dtype=np.float32)

    def _who(self, context: str) -> str:
        """``context`` qualified by the caller's groups: a cached answer is only ever
        served to callers of the same groups as the one it was computed for."""
        groups = getattr(self.kb.store, "groups", None)
        return context if groups is None else f"{context}|groups={','.join(sorted(groups))}"

    def lookup(self, question: str, context: str) -> tuple[Answer | None, dict[str, Any]]:
        """A still-valid cached answer for ``question`` asked in ``context``.

        Args:
            question: the (standalone) question.
            context: what else the answer depends on (scope, mode, settings), as a key.

        Returns:
            The answer (None on a miss) and what happened, for the trace: ``hit`` or
            ``miss``, the similarity, and how many stale entries were dropped.
        """
        norm = normalise_question(question)
        with self._lock:
            rows = self._db.execute("SELECT id, norm, vector, generation, sources, answer FROM answers "
                                    "WHERE context = ?", (self._who(context),)).fetchall()
        if not rows:
            return None, {"cache": "miss"}
        best, sim = None, 0.0
        exact = [r for r in rows if r[1] == norm]
        if exact:
            best, sim = exact[-1], 1.0
        else:
            vec = self._vector(question)
            for r in rows:
                if r[2] is None or vec is None or not same_question(norm, r[1]):
                    continue
                s = float(np.frombuffer(r[2], dtype=np.float32) @ vec)
                if s > sim:
                    best, sim = r, s
        if best is None or sim < self.kb.config.cache_threshold:
            return None, {"cache": "miss", "similarity": round(sim, 4)}
        if not self._valid(best[3], json.loads(best[4])):
            with self._lock:
                self._db.execute("DELETE FROM answers WHERE id = ?", (best[0],))
            return None, {"cache": "miss", "stale": 1, "similarity": round(sim, 4)}
        ans = answer_from_dict(self.kb, json.loads(best[5]))
        if ans is None:
            return None, {"cache": "miss", "stale": 1}
        return ans, {"cache": "hit", "similarity": round(sim, 4), "cached_question": ans.question}

    def _valid(self, generation: int, sources: list[str]) -> bool:
        """Unchanged index, or every source document still there and not deleted (a
        changed file is a new document: its old id is gone)."""
        if generation == self._generation():
            return True
        live = {d.doc_id for d in self.kb.live_documents()}
        return bool(sources) and all(s in live for s in sources)

    def store(self, question: str, context: str, answer: Answer) -> bool:
        """Keep ``answer`` (not refusals nor web answers: new documents may answer those).

        Returns:
            Whether it was stored.
        """
        if answer.refused or answer.web or not answer.citations:
            return False
        sources = sorted({h.chunk.doc_id for h in answer.hits})
        vec = self._vector(question)
        with self._lock:
            self._db.execute(
                "INSERT INTO answers (context, norm, vector, generation, sources, answer, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                (self._who(context), normalise_question(question), None if vec is None else vec.tobytes(),
                 self._generation(), json.dumps(sources),
                 json.dumps(answer.to_dict(), ensure_ascii=False, default=str), time.time()))
        return True

    def clear(self) -> int:
        """Forget every entry; how many there were."""
        with self._lock:
            return self._db.execute("DELETE FROM answers").rowcount

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()


def answer_from_dict(kb: Any, d: dict[str, Any]) -> Answer | None:
    """Rebuild an Answer from its ``to_dict()`` form; hits are read back from the store
    (None when one of them is no longer there)."""
    chunks = kb.store.get_chunks([h["chunk_id"] for h in d.get("hits", [])])
    hits = []
    for h in d.get("hits", []):
        c = chunks.get(h["chunk_id"])
        if c is None:
            return None
        src = {k: (int(v[0]), float(v[1])) for k, v in h.get("sources", {}).items()}
        hits.append(Hit(c, float(h["score"]), next(iter(src), "cache"), src))
    names = {f.name for f in fields(Citation)}
    cites = tuple(Citation(**{k: tuple(v) if k == "section_path" else v for k, v in c.items() if k in names})
                  for c in d.get("citations", []))
    built: dict[str, Any] = {
        "question": d["question"], "text": d["answer"], "citations": cites, "hits": tuple(hits),
        "trace": tuple(TraceStep(t["stage"], t["seconds"], t["detail"]) for t in d.get("trace", [])),
        "web": tuple(WebSource(**w) for w in d.get("web", [])),
        "removed": tuple(Removal(**{**r, "markers": tuple(r.get("markers", ()))}) for r in d.get("removed", [])),
        "conflicts": tuple(Conflict(c["kind"], tuple(c["markers"]), c["note"]) for c in d.get("conflicts", [])),
    }
    for f in fields(Answer):  # plain fields (confidence, reason, …) come back as they were
        if f.name not in built and isinstance(d.get(f.name), (str, int, float, bool)):
            built[f.name] = d[f.name]
    return Answer(**built)


_OPEN = threading.Lock()


def cache_for(kb: Any) -> AnswerCache:
    """The answer cache of ``kb``, opened once and shared by every ask on it (thread-safe).

    Args:
        kb: the knowledge base.

    Returns:
        Its :class:`AnswerCache`; :func:`close_cache` closes it.
    """
    with _OPEN:
        cache = kb.__dict__.get("_answer_cache")
        if cache is None:
            cache = kb.__dict__["_answer_cache"] = AnswerCache(kb)
        return cache


def close_cache(kb: Any) -> None:
    """Close ``kb``'s answer cache if one was opened."""
    with _OPEN:
        cache = kb.__dict__.pop("_answer_cache", None)
    if cache is not None:
        cache.close()
