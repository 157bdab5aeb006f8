"""Calibrate the law step of routing (``route_laws``): for questions that name no law, how
often the best-scored law is a gold law, and per margin threshold how many questions decide
and how often rightly.

Usage: python benchmarks/law_calibrate.py [--shared ../shared/data] [--everyday PATH] [--cosine]

Signals, each alone and combined (a law is its versions and folder copies, its in-force
version searched):
(a) the question's keyword terms against each law as one BM25 document (its passages'
    segmented text, which carries its title and chapter headings, and all its articles);
(b) the ordinary keyword search's first 50 candidates, their reciprocal ranks 1/(1 + rank)
    summed per law (what ``route_laws`` uses);
(a+b) both laws' rankings fused by reciprocal rank;
(c) with ``--cosine``: the bundled embedder's cosine between the question and the law's
    title and chapter headings (its best heading; the headings' vectors are those
    ``heading_similarity`` keeps in the vector cache), margin = difference of cosines.
The margin of (a), (b) and (a+b) is 1 - second/best. The laws corpus is ingested
keyword-only into the eval cache of ``zhiku eval`` (``$ZHIKU_HOME/eval``), reused when there.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SETS = ("natural", "natural2", "everyday3", "case_to_article")
LIMIT = {"case_to_article": 100}
MARGINS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
GAPS = (0.0, 0.01, 0.02, 0.04)
K1, B = 1.2, 0.75  # BM25 (Robertson & Zaragoza 2009); b 0.3 and 1.0 were no better


class LawIndex:
    """Every law as one BM25 document of its passages' segmented text."""

    def __init__(self, rows: Iterable[tuple[str, str]], law_of_doc: dict[str, str]) -> None:
        counts: dict[str, Counter] = {}
        for doc_id, seg in rows:
            if doc_id in law_of_doc:
                counts.setdefault(law_of_doc[doc_id], Counter()).update(seg.split())
        self.laws = sorted(counts)
        lengths = np.array([sum(counts[x].values()) for x in self.laws], dtype=float)
        self._norm = K1 * (1 - B + B * lengths / lengths.mean())
        post: dict[str, tuple[list[int], list[int]]] = {}
        for i, law in enumerate(self.laws):
            for t, n in counts[law].items():
                ids, tfs = post.setdefault(t, ([], []))
                ids.append(i)
                tfs.append(n)
        self._post = {t: (np.array(i), np.array(f, dtype=float)) for t, (i, f) in post.items()}

    def score(self, terms: Sequence[str]) -> list[tuple[str, float]]:
        n, total = len(self.laws), np.zeros(len(self.laws))
        for t in dict.fromkeys(terms):
            if t in self._post:
                ids, tf = self._post[t]
                idf = math.log(1.0 + (n - len(ids) + 0.5) / (len(ids) + 0.5))
                total[ids] += idf * tf * (K1 + 1) / (tf + self._norm[ids])
        order = np.argsort(-total, kind="stable")[:20]
        return [(self.laws[i], float(total[i])) for i in order if total[i] > 0]


def _fuse(a: list[tuple[str, float]], b: list[tuple[str, float]], k: int = 1) -> list[tuple[str, float]]:
    out: dict[str, float] = {}
    for ranked in (a, b):
        for i, (law, _) in enumerate(ranked[:50], 1):
            out[law] = out.get(law, 0.0) + 1.0 / (k + i)
    return sorted(out.items(), key=lambda kv: -kv[1])


def _gap(ranked: list[tuple[str, float]]) -> float:
    return ranked[0][1] - ranked[1][1] if len(ranked) > 1 else 1.0


def _cosines(kb, laws_of_doc: dict[str, str], questions: list[str]) -> list[list[tuple[str, float]]]:
    from zhiku.embed.base import embed_through_cache

    heads: dict[str, set[str]] = {}
    for r in kb.store.rows("chunks", ["doc_id", "section_path", "title", "kind"]):
        law = laws_of_doc.get(r["doc_id"])
        if law is not None and r["kind"] != "parent":
            heads.setdefault(law, set()).update({" ".join(r["section_path"] or []) or r["title"], r["title"]})
    texts = sorted({t for s in heads.values() for t in s})
    vecs = dict(zip(texts, embed_through_cache(kb.embedder, kb.config.cache_path, texts, kb.config.embed_batch)))
    names = sorted(heads)
    mats = [np.stack([vecs[t] for t in sorted(heads[x])]) for x in names]
    out = []
    for q in questions:
        v = kb.dense_query(q)
        best = np.array([float((m @ v).max()) for m in mats])
        out.append([(names[i], float(best[i])) for i in np.argsort(-best)[:20]])
    return out


def _table(title: str, rows: list, key: str, cuts: Sequence[float], cut) -> list[str]:
    lines = [f"\n### {title}\n", "| set | top-1 gold | gold in top-2 | " + " | ".join(f"≥{m}" for m in cuts)
             + " |", "|---|---:|---:|" + "---:|" * len(cuts)]
    for name in (*SETS, "all"):
        mine = [r for r in rows if name in ("all", r[0])]
        if not mine:
            continue
        top1 = sum(1 for r in mine if r[3][key] and r[3][key][0][0] in r[2])
        top2 = sum(1 for r in mine if {x for x, _ in r[3][key][:2]} & r[2])
        cells = []
        for m in cuts:
            dec = [r for r in mine if r[3][key] and cut(r[3][key]) >= m]
            cells.append(f"{sum(1 for r in dec if r[3][key][0][0] in r[2])}/{len(dec)}")
        lines.append(f"| {name} | {top1}/{len(mine)} | {top2}/{len(mine)} | " + " | ".join(cells) + " |")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(HERE.parent.parent / "shared" / "data"))
    ap.add_argument("--everyday", default=str(HERE / "data" / "everyday3.jsonl"))
    ap.add_argument("--cosine", action="store_true", help="add signal (c), the heading cosine (~1 min)")
    a = ap.parse_args()
    from zhiku.ask.search import Mode, prepare
    from zhiku.config import load_config
    from zhiku.eval.command import prepare as eval_kb
    from zhiku.eval.dataset import load_set
    from zhiku.index.store import Scope
    from zhiku.retrieve.clause import law_of
    from zhiku.route.laws import law_scores, margin

    paths = {n: Path(a.shared) / "eval" / "laws" / f"{n}.jsonl" for n in SETS}
    paths["everyday3"] = Path(a.everyday)
    sets = {n: load_set(p)[: LIMIT.get(n)] for n, p in paths.items()}
    kb, _ = eval_kb(load_config(), str(Path(a.shared) / "laws"), [i for v in sets.values() for i in v],
                    False, False, False)
    docs = kb.store.documents()
    skip = set(kb.store.excluded("current"))
    in_force = {d.doc_id: law_of(d) for d in docs if d.doc_id not in skip and not d.deleted}
    index = LawIndex(((r["doc_id"], r["seg"] or "") for r in kb.store.rows("chunks", ["doc_id", "seg", "kind"])
                      if r["kind"] != "parent"), in_force)
    law_at = {p: law_of(d) for d in docs for p in (d.path, *d.aliases)}
    every = {d.doc_id: law_of(d) for d in docs}
    rows, questions = [], []  # (set, item id, gold laws, {signal: ranked})
    for name, items in sets.items():
        for it in items:
            gold = {law_at.get(g.doc) for g in it.gold} - {None}
            p = prepare(kb, it.question, Mode.from_str("bm25"), Scope(), [])
            if not gold or p.ref.doc_ids:
                continue
            sa = index.score(p.kw_terms)
            sb = law_scores(kb.store.keyword(p.kw_terms, kb.config.candidates), every.get)
            rows.append((name, it.id, gold, {"a": sa, "b": sb, "a+b": _fuse(sa, sb)}))
            questions.append(it.question)
    if a.cosine:
        for r, c in zip(rows, _cosines(kb, in_force, questions)):
            r[3]["c"] = c
    print(f"{len(index.laws)} laws in force; questions naming no law: "
          + ", ".join(f"{n} {sum(1 for r in rows if r[0] == n)}/{len(v)}" for n, v in sets.items())
          + " (the others are routed by the rules tier)")
    lines = []
    for key, title in (("a", "(a) the law as one BM25 document"), ("b", "(b) the search's candidates per law"),
                       ("a+b", "(a+b) both, fused by reciprocal rank")):
        lines += _table(f"{title}: decided right / decided, per margin", rows, key, MARGINS, margin)
    if a.cosine:
        lines += _table("(c) heading cosine: decided right / decided, per cosine gap", rows, "c", GAPS, _gap)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
