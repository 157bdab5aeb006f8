"""Command line, continued: argument checks run before anything is opened, and the folder
commands ``sync`` and ``watch``."""

from __future__ import annotations

import argparse
import json
import sys

from zhiku.config import Config
from zhiku.errors import ZhikuError

# commands that only read: they never create ZHIKU_HOME (`tables` builds the table store)
READ_ONLY = ("ask", "chat", "status", "doctor", "routes", "cache", "merge")  # need an existing home


def check_args(a: argparse.Namespace) -> None:
    """Refuse impossible dates and conflicting flags before anything is opened.

    Raises:
        ZhikuError: one sentence saying what is wrong and what to do.
    """
    from zhiku.index.store import check_date, check_versions

    if getattr(a, "as_of", None) and getattr(a, "all_versions", False):
        raise ZhikuError("--as-of and --all-versions conflict: --as-of answers from the versions "
                         "in force on a date, --all-versions searches every version; pass one")
    for flag in ("as_of", "version", "since"):
        value = getattr(a, flag, None)
        if value:
            check_date(value, f"--{flag.replace('_', '-')}")
    if getattr(a, "cmd", "") in ("ask", "chat"):
        from zhiku.ask import Mode

        Mode.from_str(a.mode)
    if getattr(a, "cmd", "") == "eval":
        check_versions(a.versions)
    port = getattr(a, "port", None)
    if port is not None and not 0 < port < 65536:
        raise ZhikuError(f"--port {port} is not a TCP port; pick one from 1 to 65535")
    if getattr(a, "debounce", 1.0) <= 0:
        raise ZhikuError(f"--debounce {a.debounce:g} must be more than 0 seconds")
    if getattr(a, "limit", None) is not None and a.limit < 1:
        raise ZhikuError(f"--limit {a.limit} is not a count; pass 1 or more")


def check_home(cfg: Config, a: argparse.Namespace) -> None:
    """A command that only reads needs an existing home (it never creates one).

    Raises:
        ZhikuError: the home does not exist.
    """
    if a.cmd == "doctor" and a.fix:
        return
    if a.cmd in READ_ONLY and not cfg.home.exists():
        raise ZhikuError(f"there is no knowledge base at {cfg.home}; run `zhiku ingest PATH` "
                         "first, or pass --home (ZHIKU_HOME) of an existing one")


def cmd_sync(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.kb import KnowledgeBase
    from zhiku.sync import folders_of, sync

    folders_of(a.dirs)  # a missing folder is an error before the home is opened
    kb = KnowledgeBase(cfg)
    rep = sync(kb, a.dirs, progress=not a.quiet and not a.json,
               on_error=lambda f, e: print(f"skipped {f}: {e}", file=sys.stderr))
    _print_sync(rep, a.json)
    after_write(cfg, kb, a)
    return 1 if rep.failed else 0


def _print_sync(rep, as_json: bool) -> None:
    if as_json:
        print(json.dumps(rep.to_dict(), ensure_ascii=False, indent=1))
        return
    for p in rep.added:
        print(f"  + {p}")
    for p in rep.changed:
        print(f"  ~ {p}")
    for p in rep.deleted:
        print(f"  - {p}")
    for old, new in rep.renamed:
        print(f"  → {old} → {new}")
    print(f"synced: {rep.summary()}")


def cmd_watch(cfg: Config, a: argparse.Namespace) -> int:
    from zhiku.kb import KnowledgeBase
    from zhiku.sync import folders_of, watch

    folders = folders_of(a.dirs)
    print(f"watching {', '.join(folders)} (debounce {a.debounce:g}s); Ctrl-C stops", file=sys.stderr)
    watch(KnowledgeBase(cfg), folders, a.debounce, on_sync=lambda r: _print_sync(r, a.json))
    return 0


def after_write(cfg: Config, kb, a: argparse.Namespace) -> None:
    """After a writing command: when rows were left outside the indexes (a small
    re-ingest), start the background merge that folds them in, and say so."""
    from zhiku.merge import spawn

    waiting = kb.store.unindexed_rows()
    if not waiting:
        return
    pid = spawn(cfg.home, a.config)
    if not getattr(a, "quiet", False) and not getattr(a, "json", False):
        print(f"{waiting} new rows are searchable now; a background merge (pid {pid}) folds them "
              "into the indexes in a few seconds (`zhiku status` shows it)", file=sys.stderr)


def cmd_merge(cfg: Config, a: argparse.Namespace) -> int:
    import time

    from zhiku.kb import KnowledgeBase
    from zhiku.merge import background, merge
    from zhiku.writer import writing

    kb = KnowledgeBase(cfg)
    t0 = time.perf_counter()
    if a.background:
        n = background(kb, cfg.merge_delay)
    else:
        from zhiku.cli import _waiting

        with writing(cfg.home, "`zhiku merge`", _waiting):
            n = merge(kb, progress=not a.quiet)
    stamp = time.strftime("%Y-%m-%d %H:%M:%S")
    print(f"{stamp} merged {n} rows into the indexes in {time.perf_counter() - t0:.1f}s" if n
          else f"{stamp} nothing to merge: the indexes cover every row")
    return 0


def register(sub) -> None:
    """Add ``sync`` and ``watch`` to the command parser."""
    s = sub.add_parser("sync", help="make the index match folders: adds, changes, deletions, renames")
    s.add_argument("dirs", nargs="+", help="folders")
    s.add_argument("--json", action="store_true")
    s.add_argument("--quiet", action="store_true", help="no progress bars")
    s.set_defaults(func=cmd_sync)
    s = sub.add_parser("watch", help="sync folders now and whenever their files change")
    s.add_argument("dirs", nargs="+", help="folders")
    s.add_argument("--debounce", type=float, default=2.0,
                   help="seconds without further changes before syncing (default 2)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_watch)
    s = sub.add_parser("merge", help="fold rows a small re-ingest left outside the indexes into them now")
    s.add_argument("--background", action="store_true",
                   help="wait until no writer has been at work for merge_delay seconds first")
    s.add_argument("--quiet", action="store_true")
    s.set_defaults(func=cmd_merge)
