"""Folder sync: make the index match folders (adds, changes, deletions, renames), and keep
it matching while files change (``watch``)."""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zhiku.errors import ZhikuError

log = logging.getLogger("zhiku.sync")
STATE_FILE = "sync.json"  # the last sync, under ZHIKU_HOME


@dataclass(frozen=True)
class SyncReport:
    """What one sync changed, by stored path; ``renamed`` holds (old, new) pairs of the
    same content (the same document id, a hash of the text)."""

    folders: tuple[str, ...]
    added: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    renamed: tuple[tuple[str, str], ...] = ()
    unchanged: int = 0
    failed: tuple[tuple[str, str], ...] = ()
    chunks: int = 0
    embedded: int = 0
    seconds: float = 0.0
    finished: str = ""

    def summary(self) -> str:
        """One line for people."""
        return (f"{len(self.added)} added, {len(self.changed)} changed, {len(self.deleted)} deleted, "
                f"{len(self.renamed)} renamed, {self.unchanged} unchanged, {len(self.failed)} failed "
                f"in {self.seconds:.1f}s")

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form."""
        return asdict(self)


def _live(kb, roots: set[str]) -> dict[str, tuple[str, str]]:
    """doc_id -> (root, path) of the live documents that came from these folders."""
    return {d.doc_id: (d.source_root or "", d.path) for d in kb.store.documents()
            if not d.deleted and d.source_root in roots}


def _diff(before: dict[str, tuple[str, str]], after: dict[str, tuple[str, str]]) -> dict[str, Any]:
    old_at = {v: k for k, v in before.items()}
    out: dict[str, list] = {"added": [], "changed": [], "deleted": [], "renamed": []}
    for doc_id, where in after.items():
        if doc_id in before:
            if before[doc_id] != where:
                out["renamed"].append((before[doc_id][1], where[1]))
        elif where in old_at:
            out["changed"].append(where[1])
        else:
            out["added"].append(where[1])
    now_at = set(after.values())
    for doc_id, where in before.items():
        if doc_id not in after and where not in now_at:
            out["deleted"].append(where[1])
    return {k: tuple(sorted(v)) for k, v in out.items()}


def folders_of(paths: Iterable[str | Path]) -> tuple[str, ...]:
    """The folders as resolved paths.

    Raises:
        ZhikuError: a path is missing or is not a folder.
    """
    out = []
    for p in paths:
        path = Path(p)
        if not path.is_dir():
            raise ZhikuError(f"{str(p)!r} is not a folder; sync takes folders (ingest takes files)")
        out.append(str(path.resolve()))
    if not out:
        raise ZhikuError("no folder given; name the folders to keep the index matching")
    return tuple(dict.fromkeys(out))


def sync(kb, paths: Iterable[str | Path], progress: bool = False, dense: bool = True,
         on_error: Callable[[str, str], None] | None = None) -> SyncReport:
    """Make the index match the folders: new files are added, changed files replace their
    old version, files gone are deleted, and a file moved or renamed keeps its document
    (recognised by its content hash; its vectors come from the cache).

    Resumable: every batch is committed as it is written, so running it again after an
    interruption finishes the job; unchanged files are skipped.

    Args:
        kb: the knowledge base.
        paths: the folders.
        progress: show progress bars.
        dense: embed new chunks.
        on_error: called with (file, message) for every file that cannot be read.

    Returns:
        What changed; also written to ``ZHIKU_HOME/sync.json`` (see :func:`last_sync`).

    Raises:
        ZhikuError: a folder is missing, or another process is writing the index.
    """
    folders = folders_of(paths)
    roots = set(folders)
    t0 = time.perf_counter()
    before = _live(kb, roots)
    rep = kb.ingest(list(folders), dense=dense, progress=progress, prune=True, on_error=on_error)
    after = _live(kb, roots)
    got = SyncReport(folders, **_diff(before, after), failed=tuple(rep.failed),
                     unchanged=sum(1 for k, v in after.items() if before.get(k) == v),
                     chunks=rep.chunks, embedded=rep.embedded,
                     seconds=round(time.perf_counter() - t0, 3),
                     finished=time.strftime("%Y-%m-%dT%H:%M:%S%z"))
    _save(kb.config.home, got)
    return got


def _save(home: Path, rep: SyncReport) -> None:
    from zhiku.atomic import write_text

    write_text(home / STATE_FILE, json.dumps(rep.to_dict(), ensure_ascii=False, indent=1))


def last_sync(home: Path) -> dict[str, Any] | None:
    """The last sync's report (as JSON) from ``home``, or None when there was none."""
    try:
        return json.loads((home / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _ignored(path: str, folders: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    """Hidden entries inside a watched folder, and the knowledge base's own files (a home
    inside a watched folder)."""
    if any(_under(path, i) for i in ignore):
        return True
    root = next((f for f in folders if _under(path, f)), None)
    rel = Path(path).relative_to(root).parts if root else ()
    return any(part.startswith(".") for part in rel)


def _snapshot(folders: tuple[str, ...], ignore: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    out = {}
    for root in folders:
        for dirpath, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if not _ignored(os.path.join(dirpath, d), folders, ignore)]
            for f in files:
                p = os.path.join(dirpath, f)
                if _ignored(p, folders, ignore):
                    continue
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                out[p] = (st.st_mtime_ns, st.st_size)
    return out


def _poll(folders: tuple[str, ...], debounce: float, stop: threading.Event,
          ignore: tuple[str, ...]) -> Iterator[None]:
    """Yield once per burst of changes: after a change, when nothing more changed for
    ``debounce`` seconds."""
    seen, dirty_at = _snapshot(folders, ignore), None
    step = min(0.2, max(debounce / 4, 0.05))
    while not stop.wait(step):
        now = _snapshot(folders, ignore)
        if now != seen:
            seen, dirty_at = now, time.monotonic()
        elif dirty_at is not None and time.monotonic() - dirty_at >= debounce:
            dirty_at = None
            yield None


def _watchfiles(folders: tuple[str, ...], debounce: float, stop: threading.Event,
                ignore: tuple[str, ...]) -> Iterator[None]:
    import watchfiles

    # watchfiles yields once nothing changed for ``step`` ms (``debounce`` is its cap on one
    # burst), so the quiet period is the step; a burst that never settles still syncs at the cap
    quiet = max(int(debounce * 1000), 50)
    for _ in watchfiles.watch(*folders, debounce=max(quiet * 10, 30_000), step=quiet, stop_event=stop,
                              watch_filter=lambda _c, p: not _ignored(p, folders, ignore),
                              yield_on_timeout=False, raise_interrupt=False):
        yield None


def changes(folders: tuple[str, ...], debounce: float, stop: threading.Event,
            ignore: tuple[str, ...] = ()) -> Iterator[None]:
    """One item per settled burst of file changes under the folders (hidden entries and
    paths under ``ignore`` left out), until ``stop`` is set; with ``watchfiles``
    (file-system events) when installed, else by polling."""
    try:
        import watchfiles  # noqa: F401
    except ImportError:
        return _poll(folders, debounce, stop, ignore)
    return _watchfiles(folders, debounce, stop, ignore)


def watch(kb, paths: Iterable[str | Path], debounce: float = 2.0, stop: threading.Event | None = None,
          on_sync: Callable[[SyncReport], None] | None = None,
          run: Callable[[Callable[[], SyncReport]], SyncReport | None] | None = None,
          dense: bool = True) -> None:
    """Sync now, then again after every settled burst of changes, until ``stop`` is set.

    Changes are listened for in their own thread from the start, so a file changed while
    a sync runs is synced right after it.

    Args:
        kb: the knowledge base.
        paths: the folders.
        debounce: seconds without further changes before a sync starts.
        stop: set it to end watching (None: until interrupted).
        on_sync: called with each sync's report.
        run: runs one sync (the server passes its writer slot); default: directly.
        dense: embed new chunks.

    Raises:
        ZhikuError: a folder is missing.
    """
    folders = folders_of(paths)
    stop = stop or threading.Event()
    run = run or (lambda f: f())
    dirty = threading.Event()
    dirty.set()  # the first sync
    ignore = (str(Path(kb.config.home).resolve()),)

    def listen() -> None:
        for _ in changes(folders, debounce, stop, ignore):
            dirty.set()

    listener = threading.Thread(target=listen, name="zhiku-watch-listen", daemon=True)
    listener.start()
    try:
        while not stop.is_set():
            if dirty.wait(0.1):
                dirty.clear()
                _sync_once(kb, folders, dense, stop, debounce, run, on_sync)
    finally:
        stop.set()
        listener.join(timeout=5)


def _sync_once(kb, folders, dense, stop, debounce, run, on_sync) -> None:
    """One sync; waits while another write runs; a folder that cannot be read is retried
    on the next change."""
    from zhiku.errors import BusyError

    while not stop.is_set():
        try:
            got = run(lambda: sync(kb, folders, dense=dense))
        except BusyError as e:
            log.info("sync waits: %s", e)
            stop.wait(max(debounce, 0.5))
            continue
        except ZhikuError as e:
            log.warning("sync skipped: %s", e)
            return
        if got is not None and on_sync:
            on_sync(got)
        return
