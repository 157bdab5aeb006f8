"""Ingest jobs: one writer at a time, run in a background thread, progress polled by id."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from zhiku.errors import BusyError, ZhikuError
from zhiku.kb import IngestReport, KnowledgeBase

log = logging.getLogger("zhiku.server")
_KEEP = 200  # finished jobs remembered


@dataclass
class Job:
    """What a client polls: state ``running``/``done``/``failed``/``interrupted``, files
    done of total."""

    id: str
    kind: str
    total: int
    state: str = "running"
    done: int = 0
    stage: str = "queued"
    current: str = ""
    phase: str = ""
    phase_done: int = 0
    phase_total: int = 0
    started: float = field(default_factory=time.time)
    finished: float | None = None
    report: dict[str, Any] = field(default_factory=dict)
    failed: list[dict[str, str]] = field(default_factory=list)
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form."""
        return asdict(self)

    def progress(self):
        """A progress reporter that records the phase (reading, chunking, embedding, …) and
        its units done of total here, for clients polling the job."""
        from zhiku.progress import Progress

        def on(phase: str, done: int, total: int) -> None:
            self.phase, self.phase_done, self.phase_total = phase, done, total

        return Progress(bars=False, on=on)


def _report(rep: IngestReport) -> dict[str, Any]:
    return {k: v for k, v in asdict(rep).items() if k not in ("seen", "failed")}


class Jobs:
    """Runs writes against one knowledge base, one at a time.

    A second write while one runs is refused with :class:`BusyError` (HTTP 409), never
    queued behind it; another process writing the index is refused the same way by the
    store's file lock.
    """

    def __init__(self, kb: KnowledgeBase) -> None:
        from zhiku.writer import WriterLock

        self.kb = kb
        self._write = threading.Lock()
        self._file = WriterLock(kb.config.home)  # shared with the CLI's writing commands
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._running: str | None = None
        self._merger: threading.Thread | None = None
        self._merging = False  # the idle merge holds the slot: a job starting waits for it
        self._state = threading.Lock()  # the slot's holder and ``_merging`` change together

    def get(self, job_id: str) -> Job | None:
        """The job with this id, or None."""
        return self._jobs.get(job_id)

    def exclusive(self) -> _Exclusive:
        """Context manager holding the writer slot for a short synchronous write."""
        return _Exclusive(self)

    def check_idle(self) -> None:
        """Refuse early (before an upload is stored) while a write runs.

        Raises:
            BusyError: another write is running.
        """
        with self._state:
            busy = self._write.locked() and not self._merging
        if busy:
            raise self._busy()
        self._claim()
        self._release()

    def _busy(self) -> BusyError:
        return BusyError(f"another write is running (job {self._running or 'delete'}); "
                         "wait for it to finish and retry")

    def _claim(self) -> None:
        from zhiku.writer import MERGE_WAIT

        with self._state:
            got, merging = self._write.acquire(blocking=False), self._merging
        if not got and not (merging and self._write.acquire(timeout=MERGE_WAIT)):
            raise self._busy()
        try:
            self._file.acquire("the zhiku server")
        except BaseException:
            self._write.release()
            raise

    def _release(self) -> None:
        self._file.release()
        self._write.release()

    def start(self, kind: str, total: int, work: Callable[[Job], None]) -> Job:
        """Start ``work`` in a background thread as a new job.

        Raises:
            BusyError: another write is running.
        """
        self._claim()
        job = Job(uuid.uuid4().hex[:12], kind, total)
        self._jobs[job.id] = job
        while len(self._jobs) > _KEEP:
            self._jobs.popitem(last=False)
        self._running = job.id
        threading.Thread(target=self._run, args=(job, work), name=f"zhiku-job-{job.id}",
                         daemon=True).start()
        return job

    def interrupt(self) -> list[Job]:
        """Mark the running job interrupted (the server is stopping); running the same
        ingest again resumes it, since files already indexed are skipped as unchanged.

        Returns:
            The jobs marked.
        """
        job = self._jobs.get(self._running or "")
        if job is None or job.state != "running":
            return []
        job.state, job.finished = "interrupted", time.time()
        job.error = "the server stopped during this job; run the same ingest again to resume it"
        log.warning("ingest job %s interrupted by shutdown after %d of %d files", job.id, job.done, job.total)
        return [job]

    def _run(self, job: Job, work: Callable[[Job], None]) -> None:
        try:
            work(job)
            if job.state == "interrupted":
                return
            job.state = "failed" if job.failed and len(job.failed) >= job.total else "done"
            if job.state == "failed":
                job.error = "; ".join(f["error"] for f in job.failed)
        except ZhikuError as e:
            job.state, job.error = "failed", str(e)
        except Exception as e:  # a bug: keep the server up, say what happened
            log.exception("ingest job %s failed", job.id)
            job.state, job.error = "failed", f"internal error: {type(e).__name__}: {e}"
        finally:
            job.stage, job.finished = "finished", time.time()
            self._running = None
            self._release()
            self.merge_soon()

    def merge_soon(self) -> None:
        """Fold the rows a write left outside the indexes into them once no job has
        started for ``merge_delay`` seconds, in a thread holding the writer slot (a job
        starting meanwhile waits for it); asks keep reading the published state."""
        if (self._merger is not None and self._merger.is_alive()) or not self.kb.store.unindexed_rows():
            return
        self._merger = threading.Thread(target=self._merge_idle, name="zhiku-merge", daemon=True)
        self._merger.start()

    def _merge_idle(self) -> None:
        from zhiku.merge import GIVE_UP, merge
        from zhiku.writer import MERGE

        deadline = time.monotonic() + GIVE_UP
        while time.monotonic() < deadline:
            time.sleep(self.kb.config.merge_delay)
            with self._state:
                if not self._write.acquire(blocking=False):
                    continue  # a job is writing: try again once it is quiet
                self._merging = True  # from now on a job starting waits for the merge
            try:
                self._file.acquire(MERGE)
            except BusyError:  # another process is writing
                with self._state:
                    self._merging = False
                    self._write.release()
                continue
            try:
                n = merge(self.kb)
                log.info("merged %d rows into the indexes", n)
            except Exception:  # noqa: BLE001 - rows stay searched exactly; the next write retries
                log.exception("index merge failed")
            finally:
                with self._state:
                    self._merging = False
                    self._release()
            return

    def ingest_files(self, files: list[tuple[Path, Path]]) -> Job:
        """Ingest files (path, root) one by one, so progress is per file.

        Raises:
            BusyError: another write is running.
        """
        def work(job: Job) -> None:
            from zhiku.ingest import load_file, loader_options

            total = IngestReport()
            for path, root in files:
                job.stage, job.current = "indexing", path.name
                try:
                    doc = load_file(path, root, int(self.kb.config.max_file_mb * 2**20),
                                    self.kb.config.load_timeout, **loader_options(self.kb.config))
                    rep = self.kb.ingest_documents([doc], progress=job.progress())
                except BusyError:
                    raise
                except ZhikuError as e:
                    job.failed.append({"file": path.name, "error": str(e)})
                else:
                    for k in ("files", "added", "unchanged", "chunks", "embedded"):
                        setattr(total, k, getattr(total, k) + getattr(rep, k))
                job.done += 1
                job.report = _report(total)

        return self.start("upload", len(files), work)

    def ingest_paths(self, paths: list[str], prune: bool) -> Job:
        """Ingest server-side files and folders in one run (admin).

        Raises:
            ZhikuError: a path does not exist.
            BusyError: another write is running.
        """
        from zhiku.ingest import iter_files

        n = len(iter_files(paths))

        def work(job: Job) -> None:
            job.stage = "indexing"
            rep = self.kb.ingest(paths, progress=job.progress(), prune=prune,
                                 on_error=lambda f, e: job.failed.append({"file": f, "error": e}))
            job.done, job.report = rep.files, _report(rep)

        return self.start("path", n, work)


    def watch(self, folders: list[Path], debounce: float) -> threading.Event:
        """Keep the index matching ``folders`` in a background thread: sync now and after
        every settled burst of changes, each sync holding the writer slot.

        Returns:
            The event that stops watching when set.

        Raises:
            ZhikuError: a folder does not exist.
        """
        from zhiku.sync import folders_of, watch

        folders_of(folders)
        stop = threading.Event()

        def run(work):
            with self.exclusive():
                return work()

        threading.Thread(target=watch, args=(self.kb, folders, debounce, stop, None, run),
                         name="zhiku-watch", daemon=True).start()
        return stop


class _Exclusive:
    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs

    def __enter__(self) -> None:
        self.jobs._claim()

    def __exit__(self, *exc: object) -> None:
        self.jobs._release()
