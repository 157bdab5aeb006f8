"""``zhiku eval``: ingest (or reuse) a corpus, run every mode over question sets, print tables."""

from __future__ import annotations

import argparse
from dataclasses import asdict
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

from zhiku.config import Config
from zhiku.errors import ZhikuError
from zhiku.eval.corpus import load_corpus_jsonl
from zhiku.eval.dataset import EvalItem, gold_docs, load_set
from zhiku.eval.report import format_fallbacks, format_reliability, format_table, summarise, to_json
from zhiku.eval.routing import format_routing, routing_row
from zhiku.eval.runner import run_eval
from zhiku.types import Route
from zhiku.types import content_hash

_DATE = re.compile(r"[（(]\d{4}-\d{2}-\d{2}[)）]")


def versions_of(root: Path, gold: set[str]) -> list[Path]:
    """The gold files plus every other version of the same law (same name, other date)."""
    names = {_DATE.sub("", Path(g).name) for g in gold}
    out = [p for p in sorted(root.rglob("*")) if p.is_file() and _DATE.sub("", p.name) in names]
    missing = [g for g in gold if not (root / g).is_file()]
    if missing:
        raise ZhikuError(f"{len(missing)} gold documents are not under {root} (e.g. {missing[0]}); "
                         "pass the corpus folder the set was written for")
    return out


def _eval_home(cfg: Config, spec: str) -> Path:
    from zhiku.index.store import SCHEMA_VERSION
    from zhiku.ingest import loader_options
    from zhiku.prepare import CHUNK_SETTINGS

    parts = (spec, cfg.segmenter, cfg.embedder, str(cfg.chunk_size), str(SCHEMA_VERSION))
    if cfg.embed_model:  # one eval index per model (appended: default homes keep their hash)
        parts = (*parts, cfg.embed_model)
    if not cfg.repealed_by_name:  # an index without repeals by name is another index
        parts = (*parts, "repealed_by_name=off")
    if not cfg.repealed_dependents:  # nor one without the interpretations of repealed laws ending
        parts = (*parts, "repealed_dependents=off")
    # a loader reading otherwise (Markdown kept as written, a PDF's unruled tables left as
    # lines) makes another index
    parts = (*parts, *(f"{k}={'on' if on else 'off'}" for k, on in loader_options(cfg).items()
                       if on != Config.model_fields[k].default))
    # so does a chunker cutting otherwise (its settings other than their defaults, by name)
    parts = (*parts, *_changed(cfg, CHUNK_SETTINGS))
    if cfg.vector_text != "text":  # vectors of another recipe make another index
        parts = (*parts, f"vector_text={cfg.vector_text}")
    if cfg.chunk_sizes:
        parts = (*parts, "chunk_sizes=" + json.dumps(cfg.chunk_sizes, sort_keys=True))
    return cfg.home / "eval" / content_hash(*parts)


def _changed(cfg: Config, names: tuple[str, ...]) -> list[str]:
    """``name=value`` of each of ``names`` whose value is not its default (a switch: off)."""
    out = []
    for name in names:
        value, default = getattr(cfg, name), Config.model_fields[name].default
        if value != default:
            out.append(f"{name}={'off' if value is False else 'on' if value is True else value}")
    return out


def _cached_home(cfg: Config, src: Path, files: list[Path]) -> Path:
    """The eval index's home for these files, keyed by their absolute paths: the same corpus
    named relatively from another folder, or by its absolute path, reuses one index. An index
    cached under the key of the paths as given (earlier versions) is moved to it."""
    home = _eval_home(cfg, str(src.resolve()) + "|" + ",".join(str(f.resolve()) for f in files))
    given = _eval_home(cfg, str(src.resolve()) + "|" + ",".join(str(f) for f in files))
    if not home.exists() and given != home and given.is_dir():
        given.rename(home)
    return home


def prepare(cfg: Config, corpus: str, items: list[EvalItem], gold_only: bool, dense: bool,
            progress: bool):
    """Build (or reuse) the knowledge base an evaluation runs against."""
    from zhiku.kb import KnowledgeBase

    src = Path(corpus)
    if not src.exists():
        raise ZhikuError(f"corpus {corpus} does not exist; pass a folder of documents or a corpus.jsonl "
                         "(the shared data lives in ../shared/data)")
    files: list[Path] = [src]
    if gold_only and src.is_dir():
        files = versions_of(src, gold_docs(items))
    home = _cached_home(cfg, src, files)
    cached = home.is_dir()
    kb = KnowledgeBase(cfg.model_copy(update={"home": home, "vector_cache": cfg.cache_path}))
    if not dense and cached and kb.store.count()["vectors"] > 0:
        # a --no-dense run never reuses an embedded index: levers that read stored vectors
        # (answer_meaning, the second look) would act on it, so its keyword numbers would not
        # be those of a keyword-only index; it builds its own beside it
        home = home.with_name(home.name + "-keyword")
        kb = KnowledgeBase(cfg.model_copy(update={"home": home, "vector_cache": cfg.cache_path}))
    if src.suffix == ".jsonl":
        rep = kb.ingest_documents(load_corpus_jsonl(src), dense=dense, progress=progress)
    elif gold_only:
        from zhiku.ingest import load_file, loader_options

        docs = [load_file(f, src, timeout_s=cfg.load_timeout, **loader_options(cfg)) for f in files]
        rep = kb.ingest_documents(docs, dense=dense, progress=progress)
    else:
        rep = kb.ingest([src], dense=dense, progress=progress)
    if dense:
        kb.embed_missing(progress=progress)
    elif cfg.passage_similarity and not cfg.passage_encode:
        kb.embed_short_forms(progress=progress)  # what the asks read (`zhiku embed --short-forms`)
    return kb, rep


def run_eval_command(cfg: Config, a: argparse.Namespace) -> int:
    """Entry of ``zhiku eval``; prints one table per set and optionally writes JSON."""
    from zhiku.ask import Mode, Query, ask
    from zhiku.index.store import Scope, check_versions

    check_versions(a.versions)

    sets = {_set_name(Path(s)): load_set(s) for s in a.sets}
    items = [it for v in sets.values() for it in v]
    modes = [Mode.from_str(m) for m in a.mode.split(",") if m.strip()]
    dense = not a.no_dense
    if a.route != "both":  # the full ask follows --route too, not only the retrieval modes
        cfg = cfg.model_copy(update={"routing": a.route == "on"})
    t0 = time.perf_counter()
    kb, rep = prepare(cfg, a.corpus, items, a.gold_only, dense, not a.quiet)
    counts = kb.store.count()
    print(f"corpus: {counts['documents']} documents, {counts['chunks']} chunks, "
          f"{counts['vectors']} vectors (ready in {time.perf_counter() - t0:.1f}s; "
          f"this run indexed {rep.chunks} chunks in {rep.seconds:.1f}s, embedding {rep.embed_seconds:.1f}s)")
    from zhiku.retrieve.twins import with_twins

    aliases = with_twins({d.doc_id: {d.path, *d.aliases} for d in kb.store.documents()}, kb.titles().twins)
    structured = not a.flat
    out: dict[str, Any] = {"corpus": a.corpus, "counts": counts, "sets": {}}
    flags = {"on": [True], "off": [False], "both": [False, True]}[a.route]
    for name, its in sets.items():
        its = its[: a.limit] if a.limit else its
        scope = Scope(versions=a.versions)
        if any(it.structured for it in its):
            out["sets"][name] = _structured_set(kb, name, its, scope)
            continue
        routes: dict[str, dict[str, Route]] = {}
        searchers = {}
        for on in flags:
            for m in modes:
                if m is Mode.FULL or not (m is Mode.BM25 or dense):
                    continue
                label = m.value + ("+route" if on and len(flags) > 1 else "")
                searchers[label] = _searcher(kb, m, scope, structured, on, routes.setdefault(label, {}))
        full = Mode.FULL if dense else Mode.BM25  # the one ask, as `zhiku ask` runs it (no answer cache)
        answer = (lambda q: ask(kb, Query(q, scope=scope, mode=full, use_cache=False))) if Mode.FULL in modes else None
        report = run_eval(its, searchers, answer=answer, aliases=aliases, progress=not a.quiet, name=name)
        print(f"\n## {name} ({len(its)} questions{', flat' if a.flat else ''})")
        print(format_table(summarise(report)))
        if fell := format_fallbacks(report):
            print(f"\nfallbacks ({name})\n\n{fell}")
        if calibration := format_reliability(report):
            print(f"\nreliability ({name}: confidence bins × share of right answers)\n")
            print(calibration)
        rows = [routing_row(kb, name, label, its, r) for label, r in routes.items() if r]
        if rows:
            print(f"\nrouting ({name})\n")
            print(format_routing(rows))
        out["sets"][name] = {**to_json(report), "routing": [asdict(r) for r in rows]}
    if a.json:
        Path(a.json).write_text(json.dumps(out, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
        print(f"\nwrote {a.json}", file=sys.stderr)
    return 0


def _structured_set(kb, name: str, items: list[EvalItem], scope) -> dict[str, Any]:
    """Run a structured set (gold = row keys and/or a value) through ask() and print
    exact-set and value accuracy."""
    from zhiku.eval.structured import format_rows, run_structured, summary, to_json as rows_json
    from zhiku.ask import Mode, Query, ask

    results = run_structured(items, lambda q: ask(kb, Query(q, scope=scope, mode=Mode.BM25, use_cache=False)))
    print(f"\n## {name} ({len(items)} structured questions)")
    print(format_rows(summary(name, results)))
    for r in results:
        if r.gold is not None and not r.exact:
            print(f"  miss {r.item_id}: got {sorted(r.got)} want {sorted(r.gold)} ({r.conditions or 'not routed'})")
        if r.value_ok is False:
            print(f"  miss {r.item_id}: value {r.got_value} want {r.gold_value} ± {r.tolerance:g}")
    return rows_json(name, results)


def _searcher(kb, mode, scope, structured: bool, route: bool, routes: dict[str, Route]):
    """A retrieval function for the runner that keeps each question's route."""
    from zhiku.ask.search import retrieve

    def search(q: str):
        r = retrieve(kb, q, mode, scope, structured=structured, route=route)
        if r.route is not None:
            routes[q] = r.route
        return r.hits

    return search


def _set_name(path: Path) -> str:
    """A set's display name: the file stem, or the folder for generic names (queries.jsonl)."""
    return path.parent.name if path.stem in {"queries", "test", "dev"} else path.stem
