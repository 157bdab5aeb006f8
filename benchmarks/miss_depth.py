"""Where the gold of a hybrid miss stands: for each answerable question whose gold article the
hybrid search (routing off) does not put in its first five, the gold's law and article in the
keyword list, the dense list and the fused list, and in a search inside the gold's law alone.

Usage: python benchmarks/miss_depth.py [--shared ../shared/data] [--everyday PATH] [--depth 100]
       [--sets natural2,everyday3] [--items]

The laws corpus is ingested with dense vectors into the eval cache of ``zhiku eval``
(``$ZHIKU_HOME/eval``; a home with the whole corpus's vectors in its vector cache builds it in
minutes). Each list is the search's own (``fuzzy``: the keyword list re-weighed and both
completed with each other's candidates, ``depth`` hits each; the fused list is the one
``zhiku eval --mode hybrid --route off`` scores). A law is its versions and folder copies
(:func:`zhiku.retrieve.clause.law_of`); "law at" is the gold law's place among the distinct
laws of a list's first ten or fifty hits. "Inside the law" searches the gold's documents alone
(keyword and dense, fused as the whole search is): the most a second, in-document stage could
reach if it knew the law. The table says which kind of miss a lever can reach: a gold law the
lists already hold with its article deep (an in-document stage), a law they do not hold (a
law-level signal), or an article neither retriever scores (neither).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SETS = ("natural2", "everyday3")
COLUMNS = ("answerable", "misses@5", "naming a law", "gold article in keyword / dense top 10", "in neither",
           "in either top 50 / depth", "fused 6–10", "gold law first in fused / dense top 10",
           "in fused top 5 laws", "in either top 50", "inside the gold law: article in top 5")


@dataclass(frozen=True)
class Miss:
    """Where one missed question's gold stands. Places are 1-based, None when absent."""

    item_id: str
    gold_laws: tuple[str, ...]
    article: str | None
    named: bool  # the question names a law
    keyword: int | None  # the gold article's place in the keyword list
    dense: int | None
    fused: int | None
    inside: int | None  # in a search inside the gold law alone
    law_keyword: int | None  # the gold law's place among the distinct laws of the list's first 50 hits
    law_dense: int | None
    law_fused: int | None
    law_fused10: int | None  # ... of the fused list's first 10 hits
    law_dense10: int | None
    first: tuple[str, ...]  # the fused list's first three: law and article


def _at(ranked: Sequence[Any], wanted) -> int | None:
    """1-based place of the first element of ``ranked`` for which ``wanted`` holds."""
    return next((i for i, x in enumerate(ranked, 1) if wanted(x)), None)


def _laws(hits: Sequence[Any], law: dict[str, str], n: int) -> list[str]:
    """The distinct laws of the first ``n`` hits, in order."""
    return list(dict.fromkeys(law[h.chunk.doc_id] for h in hits[:n]))


def _within(place: int | None, n: int) -> bool:
    return place is not None and place <= n


def misses(kb: Any, items: Sequence[Any], depth: int = 100) -> list[Miss]:
    """Every answerable item whose gold article the hybrid search (routing off) does not put
    in its first five, with where its gold stands in each list (see the module docstring).

    Args:
        kb: a knowledge base with keyword and dense indexes.
        items: golden items (gold places with articles).
        depth: hits per list.
    """
    from zhiku.ask.lists import fuzzy
    from zhiku.ask.search import Mode, narrow, prepare, retrieve
    from zhiku.eval.metrics import is_hit
    from zhiku.index.store import Scope
    from zhiku.retrieve.clause import law_of
    from zhiku.retrieve.fusion import fuse_search
    from zhiku.retrieve.twins import with_twins

    docs = kb.store.documents()
    law = {d.doc_id: law_of(d) for d in docs}
    aliases = with_twins({d.doc_id: {d.path, *d.aliases} for d in docs}, kb.titles().twins)
    hybrid = Mode.from_str("hybrid")
    out = []
    for it in items:
        if not it.answerable or not it.gold:
            continue

        def gold(h, it=it) -> bool:
            return any(is_hit(h, g, aliases) for g in it.gold)

        fused = retrieve(kb, it.question, hybrid, Scope(), route=False).hits
        if _within(_at(fused[:5], gold), 5):
            continue
        p = prepare(kb, it.question, hybrid, Scope(), [], candidates=depth)
        kw, de = fuzzy(kb, p, Scope(), [])
        gold_docs = tuple(d for d, ps in aliases.items()
                          if any(q == g.doc or q.endswith("/" + g.doc) for g in it.gold for q in ps))
        laws = {law[d] for d in gold_docs}
        inner = fuzzy(kb, p, narrow(Scope(), gold_docs), []) if gold_docs else []
        inside = fuse_search(inner, kb.config, None, None, len(p.terms)) if len(inner) > 1 else [*inner, []][0]
        out.append(Miss(
            it.id, tuple(sorted(laws)), it.gold[0].article, bool(p.ref.doc_ids), _at(kw, gold), _at(de, gold),
            _at(fused, gold), _at(inside, gold), _at(_laws(kw, law, 50), laws.__contains__),
            _at(_laws(de, law, 50), laws.__contains__), _at(_laws(fused, law, 50), laws.__contains__),
            _at(_laws(fused, law, 10), laws.__contains__), _at(_laws(de, law, 10), laws.__contains__),
            tuple(f"{law[h.chunk.doc_id]} {h.chunk.article or ''}".strip() for h in fused[:3])))
    return out


def summary(answerable: int, rows: Sequence[Miss], depth: int = 100) -> tuple[int | str, ...]:
    """One table row's cells (see ``COLUMNS``) for a set of ``answerable`` questions."""
    def n(pred) -> int:
        return sum(1 for m in rows if pred(m))

    return (answerable, len(rows), n(lambda m: m.named),
            f"{n(lambda m: _within(m.keyword, 10))} / {n(lambda m: _within(m.dense, 10))}",
            n(lambda m: not (_within(m.keyword, 10) or _within(m.dense, 10))),
            f"{n(lambda m: _within(m.keyword, 50) or _within(m.dense, 50))} / "
            f"{n(lambda m: _within(m.keyword, depth) or _within(m.dense, depth))}",
            n(lambda m: _within(m.fused, 10)),
            f"{n(lambda m: m.law_fused10 == 1)} / {n(lambda m: m.law_dense10 == 1)}",
            n(lambda m: _within(m.law_fused, 5)), n(lambda m: bool(m.law_keyword or m.law_dense)),
            n(lambda m: _within(m.inside, 5)))


def line(m: Miss) -> str:
    """One miss as a line of text."""
    return (f"{m.item_id} gold {'/'.join(m.gold_laws)} {m.article} | article at: keyword {m.keyword}, dense "
            f"{m.dense}, fused {m.fused}, inside its law {m.inside} | law at: keyword {m.law_keyword}, dense "
            f"{m.law_dense}, fused {m.law_fused} | fused first: " + "; ".join(m.first))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(HERE.parent.parent / "shared" / "data"))
    ap.add_argument("--everyday", default=str(HERE / "data" / "everyday3.jsonl"))
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated: natural, natural2, everyday3")
    ap.add_argument("--depth", type=int, default=100, help="hits per list")
    ap.add_argument("--items", action="store_true", help="print one line per miss")
    a = ap.parse_args()
    from zhiku.config import load_config
    from zhiku.eval.command import prepare as eval_kb
    from zhiku.eval.dataset import load_set

    paths = {n: Path(a.shared) / "eval" / "laws" / f"{n}.jsonl" for n in a.sets.split(",")}
    if "everyday3" in paths:
        paths["everyday3"] = Path(a.everyday)
    sets = {n: [i for i in load_set(p) if i.answerable and i.gold] for n, p in paths.items()}
    kb, _ = eval_kb(load_config(), str(Path(a.shared) / "laws"), [i for v in sets.values() for i in v],
                    False, True, False)
    print("| set | " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---:|" * len(COLUMNS))
    lines = []
    for name, items in sets.items():
        rows = misses(kb, items, a.depth)
        print(f"| {name} | " + " | ".join(str(c) for c in summary(len(items), rows, a.depth)) + " |")
        lines += [line(m) for m in rows]
    if a.items:
        print("\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
