"""The router cascade: keyword rules → embedding match against sub-index summaries → LLM
router (when configured) → fallback to every sub-index. The first tier that decides wins;
every tier it tried leaves its scores (or its error) in ``Route.scores``."""

from __future__ import annotations

import dataclasses
import threading
import time
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, Field

from zhiku.index.store import Scope
from zhiku.retrieve.clause import ClauseRef
from zhiku.route.qtype import QType, QTypeClassifier
from zhiku.route.rules import Rule, load_rules, match_rules
from zhiku.route.subindex import SubIndex, load_catalog
from zhiku.types import Route

# How the summary score of a sub-index is made: the whole summary, and the best few of its
# document titles (a single summary vector of a 600-document folder is too blurred).
SUMMARY_WEIGHT = 0.5
TOP_TITLES = 3
UNKNOWN = "unknown"


class RouterReply(BaseModel):
    """What the LLM router must answer (validated; one retry on a bad reply)."""

    subindexes: list[str] = Field(default_factory=list)
    qtype: Literal["fact", "process", "comparison", "synthesis", "unknown"] = "unknown"
    confidence: float = Field(default=0.5, ge=0.0, le=1.0)
    reason: str = ""


class Router:
    """Routes questions over one knowledge base's sub-indexes (built per published state)."""

    def __init__(self, kb: Any) -> None:
        """Load the sub-index catalog and the keyword rules of ``kb``.

        Raises:
            ZhikuError: the rules file is invalid or names an unknown sub-index.
        """
        self.kb = kb
        self.cfg = kb.config
        restricted = hasattr(kb.store, "groups")  # a caller's view: only its sub-indexes
        self.subs: list[SubIndex] = load_catalog(self.cfg, kb.store.documents(), write=not restricted)
        self.by_name = {s.name: s for s in self.subs}
        rules = load_rules(self.cfg.rules_path, None if restricted else set(self.by_name))
        self.rules: list[Rule] = [dataclasses.replace(r, subindexes=subs) for r in rules
                                  if (subs := tuple(x for x in r.subindexes if x in self.by_name))]
        self._vecs: dict[str, tuple[np.ndarray, np.ndarray]] | None = None
        self._qtypes: QTypeClassifier | None = None
        self._lock = threading.RLock()  # summaries and classifier are built once, not per ask

    # -- tiers ----------------------------------------------------------------------------
    def _rules(self, question: str, ref: ClauseRef, names: list[str]) -> tuple[list[str], str] | None:
        named = [self.kb.store.get_doc(d) for d in ref.doc_ids]
        subs = [s.name for s in self.subs if s.name in names and any(
            d is not None and (d.subindex == s.name or d.doc_id in s.doc_ids) for d in named)]
        if subs:
            return subs, "title:" + "、".join(ref.names)
        fired = [(r, w) for r, w in match_rules(self.rules, question)]
        picked = [n for r, _ in fired for n in r.subindexes if n in names]
        if not picked:
            return None
        return list(dict.fromkeys(picked)), "; ".join(f"{r.intent}:{w}" for r, w in fired)

    def summary_vectors(self, progress: Any = None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Per sub-index: its summary vector and its title vectors (cached by content).

        Args:
            progress: a :class:`zhiku.progress.Progress` to show the embedding on (ingest).
        """
        with self._lock:
            return self._summary_vectors(progress)

    def _summary_vectors(self, progress: Any = None) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        if self._vecs is None:
            from zhiku.embed import embed_through_cache
            from zhiku.progress import as_progress

            texts = [t for s in self.subs for t in (s.summary, *s.titles)]
            with as_progress(progress or False).phase("routing summaries", len(texts), "text") as bar:
                vecs = embed_through_cache(self.kb.embedder, self.cfg.cache_path, texts,
                                           self.cfg.embed_batch, progress=bar.update)
            out, i = {}, 0
            for s in self.subs:
                out[s.name] = (vecs[i], vecs[i + 1 : i + 1 + len(s.titles)])
                i += 1 + len(s.titles)
            self._vecs = out
        return self._vecs

    def embedding_scores(self, qvec: np.ndarray, names: list[str]) -> dict[str, float]:
        """Score of each sub-index for a query vector: the summary cosine blended with the
        mean of the best :data:`TOP_TITLES` title cosines."""
        out = {}
        for name, (summ, titles) in self.summary_vectors().items():
            if name not in names:
                continue
            best = np.sort(titles @ qvec)[-TOP_TITLES:] if len(titles) else np.array([float(summ @ qvec)])
            out[name] = SUMMARY_WEIGHT * float(summ @ qvec) + (1 - SUMMARY_WEIGHT) * float(best.mean())
        return out

    def _embedding(self, qvec: np.ndarray, names: list[str], scores: dict[str, Any]):
        sc = self.embedding_scores(qvec, names)
        scores["embedding"] = {k: round(v, 4) for k, v in sorted(sc.items(), key=lambda kv: -kv[1])}
        ranked = sorted(sc, key=lambda n: -sc[n])
        best = sc[ranked[0]]
        if best < self.cfg.route_threshold:
            return None
        chosen = [n for n in ranked if sc[n] >= best - self.cfg.route_margin][: self.cfg.route_max]
        conf = min(1.0, 0.5 + 0.5 * (best - self.cfg.route_threshold) / 0.05)
        return chosen, conf, f"摘要相似度 {best:.3f} ≥ 阈值 {self.cfg.route_threshold:.3f}"

    def _llm(self, question: str, names: list[str], scores: dict[str, Any]) -> RouterReply | None:
        from zhiku.llm import LLMError, client_for

        client = client_for(self.cfg, "router")
        if client is None:
            scores["llm"] = "not configured"
            return None
        listing = "\n".join(f"- {n}: {self.by_name[n].summary[:300]}" for n in names)
        msgs = [
            {"role": "system", "content":
                "你是知识库的路由器。根据问题选出最可能包含答案的子库（可多选，最多 "
                f"{self.cfg.route_max} 个），并判断问题类型 fact/process/comparison/synthesis。"
                "只输出 JSON：{\"subindexes\": [...], \"qtype\": \"...\", \"confidence\": 0到1, "
                "\"reason\": \"...\"}。无法判断时 subindexes 给 [\"unknown\"]。"},
            {"role": "user", "content": f"子库：\n{listing}\n\n问题：{question}"},
        ]
        try:
            reply = client.json(msgs, RouterReply)
        except LLMError as e:
            scores["llm"] = {"error": str(e)[:300]}
            return None
        scores["llm"] = reply.model_dump()
        return reply

    # -- the cascade ----------------------------------------------------------------------
    def route(self, question: str, scope: Scope = Scope(), ref: ClauseRef = ClauseRef((), (), None)) -> Route:
        """Choose sub-indexes and a question type for ``question``.

        Args:
            question: the question.
            scope: the caller's scope; its ``subindexes`` (when set) bound the choice.
            ref: documents and article the question names (named documents route to
                their sub-indexes in the keyword tier).

        Returns:
            The route (chapters are added later by :func:`zhiku.route.chapters.pick_chapters`).
        """
        names = self._names(scope)
        scores: dict[str, Any] = {}
        quick = self.by_rules(question, scope, ref, scores)
        if quick is not None:
            return quick
        qvec = None
        if self.cfg.route_embedding:
            qvec = self.kb.query_vector(question)
            got = self._embedding(qvec, names, scores)
            if got:
                subs, conf, why = got
                return self._finish(question, subs, "embedding", conf, why, scores, qvec)
        reply = self._llm(question, names, scores)
        if reply is not None:
            subs = [n for n in dict.fromkeys(reply.subindexes) if n in names]
            if subs:
                qt = None if reply.qtype == UNKNOWN else QType.from_str(reply.qtype)
                return self._finish(question, subs[: self.cfg.route_max], "llm", reply.confidence,
                                    reply.reason or "LLM 路由", scores, qvec, qtype=qt)
        return self._finish(question, names, "fallback", 0.0, "各级路由都未能确定子库，检索全部子库",
                            scores, qvec)

    def _names(self, scope: Scope) -> list[str]:
        return [s.name for s in self.subs if not scope.subindexes or s.name in scope.subindexes]

    def by_rules(self, question: str, scope: Scope = Scope(), ref: ClauseRef = ClauseRef((), (), None),
                 scores: dict[str, Any] | None = None) -> Route | None:
        """The route when one sub-index is all there is or a keyword rule fires (no vector,
        no LLM: well under a millisecond), else None (the later tiers decide).

        Args:
            question: the question.
            scope: the caller's scope, as for :meth:`route`.
            ref: documents and article the question names, as for :meth:`route`.
            scores: receives ``rules_ms``.
        """
        names = self._names(scope)
        scores = {} if scores is None else scores
        t0 = time.perf_counter()
        if len(names) <= 1:
            return self._finish(question, names, "single", 1.0, "只有一个子库", scores, None)
        hit = self._rules(question, ref, names)
        scores["rules_ms"] = round(1000 * (time.perf_counter() - t0), 3)
        if not hit:
            return None
        subs, why = hit
        return self._finish(question, subs[: self.cfg.route_max], "rules", 0.9,
                            f"关键词规则命中：{why}", scores, None, rule=why)

    def _finish(self, question: str, subs: list[str], tier: str, conf: float, why: str,
                scores: dict[str, Any], qvec: np.ndarray | None, rule: str | None = None,
                qtype: QType | None = None) -> Route:
        how = "llm"
        if qtype is None:
            with self._lock:
                if self._qtypes is None:
                    self._qtypes = QTypeClassifier(self.kb.embedder if self.cfg.route_embedding else None,
                                                   cache_path=self.cfg.cache_path)
            qtype, how = self._qtypes.classify(question, qvec)
        scores["qtype"] = how
        return Route(subindexes=tuple(subs), qtype=qtype.value, confidence=round(conf, 4),
                     reason=why, tier=tier, rule=rule, scores=scores)
