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
    started: float = field(default_factory=time.time)
    finished: float | None = None
    report: dict[str, Any] = field(default_factory=dict)
    failed: list[dict[str, str]] = field(default_factory=list)
    error: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form."""
        return asdict(self)


def _report(rep: IngestReport) -> dict[str, Any]:
    return {k: v for k, v in asdict(rep).items() if k not in ("seen", "failed")}


class Jobs:
    """Runs writes against one knowledge base, one at a time.

    A second write while one runs is refused with :class:`BusyError` (HTTP 409), never
    queued behind it; another process writing the index is refused the same way by the
    store's file lock.
    """

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self._write = threading.Lock()
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._running: str | None = None

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
        if self._write.locked():
            raise self._busy()

    def _busy(self) -> BusyError:
        return BusyError(f"another write is running (job {self._running or 'delete'}); "
                         "wait for it to finish and retry")

    def _claim(self) -> None:
        if not self._write.acquire(blocking=False):
            raise self._busy()

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
            self._write.release()

    def ingest_files(self, files: list[tuple[Path, Path]]) -> Job:
        """Ingest files (path, root) one by one, so progress is per file.

        Raises:
            BusyError: another write is running.
        """
        def work(job: Job) -> None:
            from zhiku.ingest import load_file

            total = IngestReport()
            for path, root in files:
                job.stage, job.current = "indexing", path.name
                try:
                    doc = load_file(path, root, int(self.kb.config.max_file_mb * 2**20))
                    rep = self.kb.ingest_documents([doc], progress=False)
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
            rep = self.kb.ingest(paths, progress=False, prune=prune,
                                 on_error=lambda f, e: job.failed.append({"file": f, "error": e}))
            job.done, job.report = rep.files, _report(rep)

        return self.start("path", n, work)


class _Exclusive:
    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs

    def __enter__(self) -> None:
        self.jobs._claim()

    def __exit__(self, *exc: object) -> None:
        self.jobs._write.release()
