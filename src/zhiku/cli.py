"""Command line: parses arguments, calls the library, prints."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict

from zhiku.config import Config, load_config
from zhiku.errors import ZhikuError


def _kb(cfg: Config):
    from zhiku.kb import KnowledgeBase

    return KnowledgeBase(cfg)


def _waiting(holder: str) -> None:
    print(f"waiting for {holder} to finish…", file=sys.stderr)


def cmd_ingest(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.cli_extra import after_write
    from zhiku.writer import writing

    kb = _kb(cfg)
    with writing(cfg.home, "`zhiku ingest`", _waiting):
        rep = kb.ingest(a.paths, dense=not a.no_dense, progress=not a.quiet, prune=a.prune,
                        rehash=a.rehash, on_error=lambda f, e: print(f"skipped {f}: {e}", file=sys.stderr))
    after_write(cfg, kb, a)
    rate = rep.chunks / rep.seconds if rep.seconds else 0.0
    if a.json:
        out = {k: v for k, v in asdict(rep).items() if k != "seen"}
        print(json.dumps(out, ensure_ascii=False, indent=1))
    else:
        pruned = f", {rep.pruned} removed" if a.prune else ""
        print(f"{rep.files} files: {rep.added} indexed, {rep.unchanged} unchanged, "
              f"{rep.aliased} duplicates, {len(rep.failed)} failed{pruned}; {rep.chunks} chunks, "
              f"{rep.embedded} embedded in {rep.seconds:.1f}s ({rate:.1f} chunks/s)")
        if a.no_dense and rep.chunks:
            print("keyword search is ready; run `zhiku embed` to add vectors for semantic search, "
                  "or `zhiku embed --short-forms` for passage_similarity's short forms only")
    return 1 if rep.failed else 0


def _open(cfg: Config):
    kb = _kb(cfg)
    if not kb.store.count()["chunks"] and not cfg.structured_sources:
        raise ZhikuError(f"the knowledge base at {cfg.home} is empty; run `zhiku ingest PATH` first")
    return kb


def _print_answer(ans: dict, as_json: bool, session: str | None = None) -> None:
    """Print an answer given as ``Answer.to_dict()`` (the local ask's or the server's)."""
    if as_json:
        out = ans if session is None else {"session_id": session, **ans}
        print(json.dumps(out, ensure_ascii=False, indent=1, default=str))
        return
    print(f"问：{ans['question']}")
    print(f"答：{ans['answer']}")
    _print_details(ans)


def _query(kb, a: argparse.Namespace, question: str, history: tuple = (), stream: bool = False):
    """The Query of ``zhiku ask``/``chat`` from its options."""
    from zhiku.ask import Mode, Query

    return Query(question, history, _scope(kb, a), Mode.from_str(a.mode), getattr(a, "qtype", None),
                 False if getattr(a, "no_cache", False) else None, agent=getattr(a, "agent", False),
                 stream=stream)


def _live(cfg: Config, a: argparse.Namespace) -> bool:
    """Whether the answer streams live from an LLM answerer."""
    from zhiku.llm import settings_for

    return not (a.json or a.no_stream) and settings_for(cfg, "answerer") is not None


def _served(cfg: Config, a: argparse.Namespace) -> dict | None:
    """The answer of a running `zhiku serve` of this home (the same ask, so the same
    answer), or None to answer here: ``--local``, no server, another config, or options
    only the local ask has (--doc, --section, --version, --as-groups, --agent, live tokens)."""
    if a.local or a.doc or a.section or a.version or a.as_groups is not None or a.agent or _live(cfg, a):
        return None
    from zhiku.server.local import ask_served

    versions = "all" if a.all_versions else (a.as_of or "current")
    return ask_served(cfg, {"question": a.question, "mode": a.mode, "versions": versions,
                            "qtype": a.qtype, "cache": not a.no_cache})


def cmd_ask(cfg: Config, a: argparse.Namespace) -> int:
    if a.no_route:
        cfg = cfg.model_copy(update={"routing": False})
    served = _served(cfg, a)  # a server with other settings (routing) is not asked
    if served is not None:
        _print_answer(served, a.json)
        return 0
    from zhiku.access import as_groups
    from zhiku.ask import Mode, ask, ask_stream

    Mode.from_str(a.mode)  # a bad option is reported before the index is opened
    kb = _open(cfg).for_groups(as_groups(a.as_groups))
    live = _live(cfg, a)
    q = _query(kb, a, a.question, stream=live)
    if not live:
        _print_answer(ask(kb, q).to_dict(), a.json)
        return 0
    print(f"问：{a.question}")  # live tokens from the LLM answerer
    print("答：", end="", flush=True)
    ans, shown = None, []
    for ev in ask_stream(kb, q):
        if ev.type == "delta":
            print(ev.text, end="", flush=True)
            shown.append(ev.text)
        ans = ev.answer or ans
    print()
    if ans.text != "".join(shown):  # streamed text is provisional; this is what was verified
        print(f"核验后的答案：{ans.text}")
    _print_details(ans.to_dict())
    return 0


def _print_details(ans: dict) -> None:
    """Refusal reason and search summary, citations, web sources, conflicts, removed
    statements, confidence (marked when low), from ``Answer.to_dict()``."""
    if ans["refused"]:
        print(f"（{ans['reason']}）")
        if ans["searched"]:
            print(ans["searched"])
    for c in ans["citations"]:
        print(f"  [{c['marker']}] {c['label']}")
    for w in ans["web"]:
        print(f"  [{w['marker']}] 网络：{w['title']} <{w['url']}>")
    for c in ans["conflicts"]:
        print(f"  冲突：{c['note']}（{''.join(f'[{m}]' for m in c['markers'])}）")
    for r in ans["removed"]:
        what = "已删除" if r["action"] == "dropped" else "已标注"
        print(f"  核验{what}：{r['sentence']}（{r['kind']}: {r['reason']}）")
    print(f"置信度 {ans['confidence']:.2f}" + ("（低，请核对原文）" if ans["low_confidence"] else ""))


def cmd_chat(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.access import as_groups
    from zhiku.ask import Mode, ask
    from zhiku.ask.sessions import Sessions, check_session_id, history_for

    Mode.from_str(a.mode)
    kb = _open(cfg).for_groups(as_groups(a.as_groups))
    sessions, sid = Sessions(cfg.sessions_path), a.session
    if sid:
        check_session_id(sid)

    def turn(question: str):
        ans = ask(kb, _query(kb, a, question, history_for(sessions, sid, cfg.history_turns)))
        return sessions.add_turn(sid, question.strip(), ans.to_dict()), ans

    try:
        if a.question:
            sid, ans = turn(a.question)
            _print_answer(ans.to_dict(), a.json, sid)
            if not a.json:
                print(f"（会话 {sid}；继续：zhiku chat --session {sid} \"…\"）")
            return 0
        print("知库对话：输入问题，空行或 Ctrl-D 结束。", file=sys.stderr)
        for line in sys.stdin:
            if not line.strip():
                break
            sid, ans = turn(line)
            _print_answer(ans.to_dict(), a.json, sid)
        if sid:
            print(f"（会话 {sid}）", file=sys.stderr)
        return 0
    finally:
        sessions.close()


def _scope(kb, a: argparse.Namespace):
    """Turn --doc/--section/--version into a Scope; --doc takes a path or a title."""
    from zhiku.index.store import Scope, check_versions

    doc_ids: tuple[str, ...] = ()
    a = argparse.Namespace(**{"doc": None, "section": None, "version": None, "as_of": None,
                              "all_versions": False, **vars(a)})
    if a.doc:
        docs = [d for d in kb.store.documents() if a.doc in {d.path, *d.aliases}]
        if not docs:
            docs = [d for _, ds in kb.titles().match(a.doc) for d in ds]
        if not docs:
            raise ZhikuError(f"no document matches --doc {a.doc!r}; see `zhiku status` or pass a path")
        doc_ids = tuple(d.doc_id for d in docs)
    versions = "all" if a.all_versions else (a.as_of or "current")
    return Scope(doc_ids=doc_ids, section_id=a.section, version_date=a.version,
                 versions=check_versions(versions), groups=getattr(kb.store, "groups", None))


def cmd_eval(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.eval.command import run_eval_command

    return run_eval_command(cfg, a)


def cmd_serve(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.server.run import serve

    serve(cfg, a.host, a.port)
    return 0


def cmd_mcp(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.server.run import mcp

    mcp(cfg, a.transport, a.host, a.port)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="zhiku", description="知库: answers from your documents, cited.")
    p.add_argument("--config", help="TOML config file (default $ZHIKU_HOME/config.toml or ./zhiku.toml)")
    p.add_argument("--home", help="state directory (overrides ZHIKU_HOME)")
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("ingest", help="index files and folders (.md .txt .pdf .docx .html .xlsx .csv)")
    s.add_argument("paths", nargs="+")
    s.add_argument("--no-dense", action="store_true", help="keyword index only; embed later")
    s.add_argument("--prune", action="store_true",
                   help="remove documents that are no longer in the given folders")
    s.add_argument("--rehash", action="store_true",
                   help="read and hash every file, even those whose size and times are unchanged")
    s.add_argument("--json", action="store_true")
    s.add_argument("--quiet", action="store_true", help="no progress bars")
    s.set_defaults(func=cmd_ingest)
    s = sub.add_parser("ask", help="answer a question with citations")
    s.add_argument("question")
    s.add_argument("--mode", default="hybrid", help="bm25 | dense | hybrid | full")
    s.add_argument("--doc", help="only this document (path or title, e.g. 劳动合同法)")
    s.add_argument("--section", help="only this section id and its children, e.g. 2 or 5.1")
    s.add_argument("--version", help="only chunks of this version date, YYYY-MM-DD")
    s.add_argument("--as-of", help="answer from the versions in force on this date, YYYY-MM-DD")
    s.add_argument("--all-versions", action="store_true", help="search superseded versions too")
    s.add_argument("--agent", action="store_true",
                   help="let the LLM (agent role) drive the search tools; needs llm_model")
    s.add_argument("--no-cache", action="store_true", help="neither use nor fill the answer cache")
    s.add_argument("--no-route", action="store_true", help="search everything, no sub-index/chapter routing")
    s.add_argument("--type", dest="qtype", default=None,
                   help="question type (default: the router's classifier): fact | process | comparison | synthesis")
    s.add_argument("--no-stream", action="store_true", help="print the verified answer only, no live tokens")
    s.add_argument("--as-groups", help="act as a key of these groups (comma-separated; '' = no group) to test permissions")
    s.add_argument("--json", action="store_true", help="answer, citations, removed statements, conflicts, "
                   "confidence, hits and trace as JSON")
    s.add_argument("--local", action="store_true",
                   help="answer in this process even when a `zhiku serve` of this home is running")
    s.set_defaults(func=cmd_ask)
    s = sub.add_parser("chat", help="a conversation: follow-ups are rewritten from earlier turns")
    s.add_argument("question", nargs="?", help="one turn (omit for an interactive session)")
    s.add_argument("--session", help="continue this session id (printed after each turn)")
    s.add_argument("--as-groups", help="act as a key of these groups (comma-separated; '' = no group) to test permissions")
    s.add_argument("--mode", default="hybrid", help="bm25 | dense | hybrid | full")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_chat)
    s = sub.add_parser("eval", help="retrieval and refusal metrics on golden sets")
    s.add_argument("sets", nargs="+", help="JSONL question sets")
    s.add_argument("--corpus", required=True, help="folder of documents or a corpus.jsonl")
    s.add_argument("--gold-only", action="store_true",
                   help="ingest only the corpus files the gold labels name, plus their other versions")
    s.add_argument("--mode", default="bm25,dense,hybrid,full", help="comma-separated modes")
    s.add_argument("--flat", action="store_true", help="no clause resolution or title scoping")
    s.add_argument("--no-dense", action="store_true", help="do not embed the corpus")
    s.add_argument("--limit", type=int, help="first N questions of each set")
    s.add_argument("--versions", default="all",
                   help="all (default: gold sets name any version), current, or a date")
    s.add_argument("--route", default="both", choices=["on", "off", "both"],
                   help="retrieval with routing, without, or both side by side (default); on/off "
                        "also set routing for the full ask (both: the routing setting)")
    s.add_argument("--json", help="write the numbers to this file")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_eval)
    s = sub.add_parser("serve", help="HTTP API and web UI (API keys: api_keys, admin_keys)")
    s.add_argument("--host", default="127.0.0.1", help="without keys only loopback is allowed")
    s.add_argument("--port", type=int, default=8765)
    s.set_defaults(func=cmd_serve)
    s = sub.add_parser("mcp", help="MCP server for agents: stdio, or streamable HTTP at /mcp")
    s.add_argument("--transport", default="stdio", help="stdio | http")
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--port", type=int, default=8766)
    s.set_defaults(func=cmd_mcp)
    from zhiku.cli_admin import register as register_admin
    from zhiku.cli_extra import register

    register_admin(sub)
    register(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``zhiku`` command."""
    from zhiku.cli_extra import check_args, check_home

    args = build_parser().parse_args(argv)
    try:
        check_args(args)
        cfg = load_config(args.config, home=args.home)
        check_home(cfg, args)
        return args.func(cfg, args)
    except ZhikuError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; everything committed so far is kept", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
