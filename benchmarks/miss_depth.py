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
from pathlib import Path

HERE = Path(__file__).resolve().parent
SETS = ("natural2", "everyday3")


def _at(ranked: list, wanted) -> int | None:
    """1-based place of the first element of ``ranked`` for which ``wanted`` holds."""
    return next((i for i, x in enumerate(ranked, 1) if wanted(x)), None)


def _laws(hits: list, law: dict[str, str], n: int) -> list[str]:
    """The distinct laws of the first ``n`` hits, in order."""
    return list(dict.fromkeys(law[h.chunk.doc_id] for h in hits[:n]))


def _within(place: int | None, n: int) -> bool:
    return place is not None and place <= n


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(HERE.parent.parent / "shared" / "data"))
    ap.add_argument("--everyday", default=str(HERE / "data" / "everyday3.jsonl"))
    ap.add_argument("--sets", default=",".join(SETS), help="comma-separated: natural, natural2, everyday3")
    ap.add_argument("--depth", type=int, default=100, help="hits per list")
    ap.add_argument("--items", action="store_true", help="print one line per miss")
    a = ap.parse_args()
    from zhiku.ask.lists import fuzzy
    from zhiku.ask.search import Mode, narrow, prepare, retrieve
    from zhiku.config import load_config
    from zhiku.eval.command import prepare as eval_kb
    from zhiku.eval.dataset import load_set
    from zhiku.eval.metrics import is_hit
    from zhiku.index.store import Scope
    from zhiku.retrieve.clause import law_of
    from zhiku.retrieve.fusion import fuse_search
    from zhiku.retrieve.twins import with_twins

    paths = {n: Path(a.shared) / "eval" / "laws" / f"{n}.jsonl" for n in a.sets.split(",")}
    if "everyday3" in paths:
        paths["everyday3"] = Path(a.everyday)
    sets = {n: [i for i in load_set(p) if i.answerable and i.gold] for n, p in paths.items()}
    kb, _ = eval_kb(load_config(), str(Path(a.shared) / "laws"), [i for v in sets.values() for i in v],
                    False, True, False)
    docs = kb.store.documents()
    law = {d.doc_id: law_of(d) for d in docs}
    aliases = with_twins({d.doc_id: {d.path, *d.aliases} for d in docs}, kb.titles().twins)
    hybrid = Mode.from_str("hybrid")
    print("| set | answerable | misses@5 | naming a law | gold article in keyword / dense top 10 | in neither "
          "| in either top 50 / 100 | fused 6–10 | gold law first in fused / dense top 10 | in fused top 5 "
          "laws | in either top 50 | inside the gold law: article in top 5 |")
    print("|---|" + "---:|" * 11)
    lines = []
    for name, items in sets.items():
        n = {k: 0 for k in ("miss", "named", "kw10", "de10", "neither", "e50", "e100", "f10", "law1", "dlaw1",
                            "law5", "law50", "inside")}
        for it in items:
            def gold(h, it=it) -> bool:
                return any(is_hit(h, g, aliases) for g in it.gold)

            fused = retrieve(kb, it.question, hybrid, Scope(), route=False).hits
            if _within(_at(fused[:5], gold), 5):
                continue
            p = prepare(kb, it.question, hybrid, Scope(), [], candidates=a.depth)
            kw, de = fuzzy(kb, p, Scope(), [])
            gold_docs = tuple(d for d, ps in aliases.items()
                              if any(q == g.doc or q.endswith("/" + g.doc) for g in it.gold for q in ps))
            gold_laws = {law[d] for d in gold_docs}
            inner = fuzzy(kb, p, narrow(Scope(), gold_docs), []) if gold_docs else []
            inside = fuse_search(inner, kb.config, None, None, len(p.terms)) if len(inner) > 1 else [*inner, []][0]
            at = {"kw": _at(kw, gold), "de": _at(de, gold), "fused": _at(fused, gold),
                  "inside": _at(inside, gold)}
            laws = {k: _at(_laws(h, law, 50), gold_laws.__contains__) for k, h in (("kw", kw), ("de", de),
                                                                                   ("fused", fused))}
            n["miss"] += 1
            n["named"] += bool(p.ref.doc_ids)
            n["kw10"] += _within(at["kw"], 10)
            n["de10"] += _within(at["de"], 10)
            n["neither"] += not (_within(at["kw"], 10) or _within(at["de"], 10))
            n["e50"] += _within(at["kw"], 50) or _within(at["de"], 50)
            n["e100"] += _within(at["kw"], a.depth) or _within(at["de"], a.depth)
            n["f10"] += _within(at["fused"], 10)
            n["law1"] += _at(_laws(fused, law, 10), gold_laws.__contains__) == 1
            n["dlaw1"] += _at(_laws(de, law, 10), gold_laws.__contains__) == 1
            n["law5"] += _within(laws["fused"], 5)
            n["law50"] += bool(laws["kw"] or laws["de"])
            n["inside"] += _within(at["inside"], 5)
            lines.append(f"{it.id} gold {'/'.join(sorted(gold_laws))} {it.gold[0].article} | article at: keyword "
                         f"{at['kw']}, dense {at['de']}, fused {at['fused']}, inside its law {at['inside']} | law "
                         f"at: keyword {laws['kw']}, dense {laws['de']}, fused {laws['fused']} | fused first: "
                         + "; ".join(f"{law[h.chunk.doc_id]} {h.chunk.article or ''}" for h in fused[:3]))
        print(f"| {name} | {len(items)} | {n['miss']} | {n['named']} | {n['kw10']} / {n['de10']} | {n['neither']} "
              f"| {n['e50']} / {n['e100']} | {n['f10']} | {n['law1']} / {n['dlaw1']} | {n['law5']} | {n['law50']} "
              f"| {n['inside']} |")
    if a.items:
        print("\n" + "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
