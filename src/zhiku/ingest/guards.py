"""Checks before parsing: zip bombs in Office files, binary bytes in text files, time limits."""

from __future__ import annotations

import contextlib
import signal
import threading
import time
import zipfile
from collections.abc import Iterator
from contextvars import ContextVar
from pathlib import Path

from zhiku.errors import ZhikuError

#: Office formats that are zip packages of XML parts.
ZIP_SUFFIXES = (".docx", ".xlsx")
#: Uncompressed XML larger than this is refused (a 2 MB file unpacking to 1 GB is a bomb).
MAX_UNZIPPED_BYTES = 512 * 1024 * 1024
#: A part that unpacks to more than this many times its packed size, and over 16 MB, is a bomb.
MAX_RATIO = 200
#: Seconds one file may take to load before it is given up (the batch goes on); config
#: ``load_timeout`` sets it for every door that ingests.
DEFAULT_TIMEOUT_S = 300.0

class LoadTimeout(ZhikuError):
    """A file took longer than its time limit (config ``load_timeout``) to load."""


def timed_out(exc: BaseException) -> LoadTimeout | None:
    """The time-limit error behind ``exc``, when a parser caught it and raised its own
    (pdfplumber wraps whatever stops pdfminer as ``PdfminerException``): searched through
    the exception's cause, context and arguments."""
    seen: set[int] = set()
    todo: list[object] = [exc]
    while todo:
        e = todo.pop()
        if not isinstance(e, BaseException) or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, LoadTimeout):
            return e
        todo += [e.__cause__, e.__context__, *e.args]
    return None


_deadline: ContextVar[tuple[float, str] | None] = ContextVar("zhiku_load_deadline", default=None)
_CONTROL = set(range(0, 9)) | {11, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                29, 30, 31, 127}
_NOT_CONTROL = bytes(b for b in range(256) if b not in _CONTROL)  # deleted to count the rest


def check_zip(path: Path, max_bytes: int = MAX_UNZIPPED_BYTES) -> None:
    """Refuse an Office package whose parts unpack to too much, by the sizes it declares.

    Args:
        path: the .docx/.xlsx file.
        max_bytes: the largest total uncompressed size allowed.

    Raises:
        ZhikuError: the package declares more than ``max_bytes`` uncompressed, or one
            part unpacks to over ``MAX_RATIO`` times its packed size (a zip bomb).
    """
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
    except (zipfile.BadZipFile, OSError):
        return  # the loader reports a damaged package in its own words
    total = sum(i.file_size for i in infos)
    bomb = any(i.file_size > 16 * 2**20 and i.file_size > MAX_RATIO * max(i.compress_size, 1)
               for i in infos)
    if total > max_bytes or bomb:
        raise ZhikuError(f"File {str(path)!r} unpacks to {total / 2**20:.0f} MB of XML "
                         f"(limit {max_bytes / 2**20:.0f} MB, or a part compressed over "
                         f"{MAX_RATIO}x); it looks like a zip bomb, re-save it or remove it.")


def check_text_bytes(path: Path, data: bytes) -> None:
    """Refuse binary content in a text-suffixed file (a renamed image, archive or program).

    Args:
        path: the file (for the message).
        data: its bytes.

    Raises:
        ZhikuError: the first 8 KB hold NUL bytes (and no UTF-16/32 byte-order mark) or
            over 5% control characters.
    """
    head = data[:8192]
    if head[:2] in (b"\xff\xfe", b"\xfe\xff") or head[:3] == b"\xef\xbb\xbf":
        return
    control = len(head.translate(None, _NOT_CONTROL))
    if b"\x00" in head or control > 0.05 * max(len(head), 1):
        raise ZhikuError(f"File {str(path)!r} holds binary data, not text; give the original "
                         "document (PDF, DOCX...) or remove it.")


def check_time() -> None:
    """Raise when the file being loaded has run past its time limit (loaders call it
    between pages, paragraphs and rows).

    Raises:
        ZhikuError: the limit set by :func:`time_limit` has passed.
    """
    dl = _deadline.get()
    if dl is not None and time.monotonic() > dl[0]:
        raise LoadTimeout(f"File {dl[1]!r} took longer than its time limit to load; split it, "
                         "raise load_timeout (ZHIKU_LOAD_TIMEOUT) or remove it.")


@contextlib.contextmanager
def time_limit(path: Path, seconds: float = DEFAULT_TIMEOUT_S) -> Iterator[None]:
    """Give loading one file at most ``seconds``: loaders check it between pages, and
    in the main thread an alarm also interrupts a parser stuck inside one page.

    Args:
        path: the file being loaded (for the message).
        seconds: the limit; 0 or less means none.

    Raises:
        ZhikuError: the limit passed.
    """
    if seconds <= 0:
        yield
        return
    token = _deadline.set((time.monotonic() + seconds, str(path)))
    alarm = threading.current_thread() is threading.main_thread() and hasattr(signal, "SIGALRM")
    old, outer, began = None, (0.0, 0.0), time.monotonic()
    if alarm:
        def _ring(signum, frame):  # noqa: ARG001 - the signal handler signature
            raise LoadTimeout(f"File {str(path)!r} took longer than {seconds:.0f} s to load; "
                             "split it, raise load_timeout (ZHIKU_LOAD_TIMEOUT) or remove it.")

        old = signal.signal(signal.SIGALRM, _ring)
        outer = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
            if outer[0] > 0:  # an outer alarm (a test timeout) keeps what was left of it
                signal.setitimer(signal.ITIMER_REAL,
                                 max(outer[0] - (time.monotonic() - began), 0.001), outer[1])
        _deadline.reset(token)
