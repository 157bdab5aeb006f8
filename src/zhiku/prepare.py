"""Documents to what the index stores: chapter tree, chunks and segmented keyword text, in
worker processes when there are many documents and more than one core."""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

from zhiku.chunk import chunk_document
from zhiku.chunk.context import file_codes
from zhiku.chunk.shortforms import KEY as SHORT_FORMS, definitions, stored
from zhiku.chunk.tables import unit_forms
from zhiku.retrieve.segment import segmenters
from zhiku.structure import build_tree
from zhiku.types import Chunk, Document, Section

# Below this many documents the workers' start-up (a second or so) costs more than it saves.
PARALLEL_MIN_DOCS = 200


@dataclass(frozen=True)
class ChunkParams:
    """How one document is chunked (its ``chunk_size`` already chosen for its path)."""

    size: int
    overlap: float
    parent_size: int
    min_section: int
    divisions: bool = True  # Markdown's plain 第X章 lines are headings (config ``markdown_divisions``)
    gloss: bool = True  # a table row glosses its English column names (config ``table_header_gloss``)
    loose: bool = True  # a bold or run-in 第X条 next in order is an article (config ``article_label_forms``)
    runs: bool = True  # sibling headings on consecutive lines are one section (config ``heading_runs``)
    clauses: bool = True  # a plain text's numbered clauses in order are its tree (config ``standard_clauses``)


Prepared = tuple[Document, list[Section], list[Chunk], list[str]]

#: the settings besides ``chunk_size`` (``chunk_sizes``) that change what :func:`prepare`
#: stores of a document: its chunks and chapter tree
CHUNK_SETTINGS = ("chunk_overlap", "parent_size", "min_section", "markdown_divisions",
                  "table_header_gloss", "article_label_forms", "heading_runs", "standard_clauses")


def chunk_params(cfg: Any, path: str) -> ChunkParams:
    """How a config chunks the document at ``path`` (its ``chunk_size`` chosen for the path,
    the rest from :data:`CHUNK_SETTINGS`).

    Args:
        cfg: the configuration.
        path: the document's path.
    """
    return ChunkParams(cfg.chunk_size_for(path), cfg.chunk_overlap, cfg.parent_size, cfg.min_section,
                       cfg.markdown_divisions, cfg.table_header_gloss, cfg.article_label_forms, cfg.heading_runs,
                       cfg.standard_clauses)


def chunk_header(c: Chunk) -> str:
    """The chunk's place in words: short title, the model codes only its file name states
    (:func:`zhiku.chunk.context.file_codes`) and section labels (contextual header)."""
    title = c.title.replace("中华人民共和国", "").strip()
    return " ".join(p for p in (title, file_codes(c), *c.section_path) if p).strip()


def keyword_text(c: Chunk) -> str:
    """What BM25 indexes for a chunk: its header, its text, and for table chunks every
    written form of the units they use (米/m, 千瓦/kW, 立方米每小时/m³/h)."""
    text = f"{chunk_header(c)}\n{c.text}"
    if c.kind.startswith("table"):
        forms = unit_forms(c.text)
        text += f"\n{forms}" if forms else ""
    return text


def prepare(doc: Document, p: ChunkParams, segment: Any) -> Prepared:
    """One document's sections, chunks and the segmented keyword text of each chunk.

    Args:
        doc: the loaded document.
        p: chunking parameters.
        segment: the index's segmenter.

    Returns:
        (doc, sections, chunks, segmented texts), as the store's ``add`` takes them; the
        document's metadata keeps the short forms it defines for itself, read from its
        searched passages (:mod:`zhiku.chunk.shortforms`), so that no ask reads them again.
    """
    sections = build_tree(doc, divisions=p.divisions, runs=p.runs, clauses=p.clauses)
    chunks = chunk_document(doc, sections, size=p.size, overlap=p.overlap,
                            parent_size=p.parent_size, min_section=p.min_section, gloss=p.gloss, loose=p.loose)
    forms = definitions(c.text for c in chunks if c.kind != "parent")
    doc = replace(doc, metadata={**doc.metadata, SHORT_FORMS: stored(forms)})
    return doc, sections, chunks, [" ".join(segment(keyword_text(c))) for c in chunks]


def workers_for(n_docs: int, configured: int) -> int:
    """How many worker processes to prepare ``n_docs`` documents with (0: in this process).

    Args:
        n_docs: documents to prepare.
        configured: ``ingest_workers`` (0: one per idle core, at most 4; 1: none).

    With 0, the cores busy with other work (the 1-minute load average) are left out:
    on a machine already busy, workers only add their start-up and the pickling of
    every document (measured: 15-25 % slower at a load of 17 on 2 cores).
    """
    if n_docs < PARALLEL_MIN_DOCS:
        return 0
    if configured:
        return configured if configured > 1 else 0
    cores = os.cpu_count() or 1
    idle = cores - int(os.getloadavg()[0]) if hasattr(os, "getloadavg") else cores
    n = min(idle, 4)
    return n if n > 1 else 0


JOB_DOCS = 8  # documents per message to a worker


def prepare_all(docs: Sequence[Document], params: Sequence[ChunkParams], segment: Any,
                segmenter: str, workers: int) -> Iterator[Prepared]:
    """Prepare documents in order, in ``workers`` processes (0: here).

    Workers are fresh interpreters running this module (``python -m zhiku.prepare``: never
    a fork of a process holding the store's threads, never a re-run of the caller's
    script), each with its own segmenter made by name. If they cannot start or one dies,
    the documents not yet prepared are prepared here, so an ingest never stalls; an error
    raised while preparing a document is raised here, as without workers.

    Args:
        docs: the documents.
        params: chunking parameters per document.
        segment: this process's segmenter (for the documents prepared here).
        segmenter: its registered name (for the workers).
        workers: how many worker processes (see :func:`workers_for`).

    Yields:
        What :func:`prepare` returns, one per document, in the order given.
    """
    done = 0
    if workers:
        jobs = [list(zip(docs[i : i + JOB_DOCS], params[i : i + JOB_DOCS]))
                for i in range(0, len(docs), JOB_DOCS)]
        try:
            for out in _in_workers(jobs, segmenter, workers):
                done += 1
                yield out
            return
        except _WorkerGone:
            pass  # prepared here from the first document not yet yielded
    for doc, p in zip(docs[done:], params[done:]):
        yield prepare(doc, p, segment)


class _WorkerGone(Exception):
    """A worker process could not start or stopped answering."""


def _send(f: IO[bytes], obj: Any) -> None:
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
    f.write(struct.pack("<Q", len(data)))
    f.write(data)
    f.flush()


def _recv(f: IO[bytes]) -> Any:
    head = f.read(8)
    if len(head) < 8:
        raise EOFError
    (n,) = struct.unpack("<Q", head)
    data = f.read(n)
    if len(data) < n:
        raise EOFError
    return pickle.loads(data)


def _in_workers(jobs: list[list[tuple[Document, ChunkParams]]], segmenter: str,
                n: int) -> Iterator[Prepared]:
    """Job ``i`` goes to worker ``i % n``; results are read back in job order."""
    procs: list[subprocess.Popen[bytes]] = []
    try:
        try:
            for _ in range(min(n, len(jobs))):
                procs.append(subprocess.Popen([sys.executable, "-m", "zhiku.prepare", segmenter],
                                              stdin=subprocess.PIPE, stdout=subprocess.PIPE))
        except OSError as e:
            raise _WorkerGone from e
        for w, p in enumerate(procs):
            threading.Thread(target=_feed, args=(p, jobs[w :: len(procs)]), daemon=True).start()
        for i in range(len(jobs)):
            try:
                ok, got = _recv(procs[i % len(procs)].stdout)  # type: ignore[arg-type]
            except (EOFError, OSError, pickle.UnpicklingError) as e:
                raise _WorkerGone from e
            if not ok:
                raise got
            yield from got
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.wait()


def _feed(p: subprocess.Popen[bytes], jobs: list[Any]) -> None:
    try:
        for job in jobs:
            _send(p.stdin, job)  # type: ignore[arg-type]
        p.stdin.close()  # type: ignore[union-attr]
    except (OSError, ValueError):
        pass  # the worker is gone: its reader says so


def _serve(segmenter: str) -> None:
    """A worker: prepare the jobs read from stdin, answer each on stdout."""
    segment = segmenters.create(segmenter)
    inp, out = sys.stdin.buffer, os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything else printed goes to stderr, never into the replies
    sys.stdout = sys.stderr
    while True:
        try:
            job = _recv(inp)
        except EOFError:
            return
        try:
            reply: tuple[bool, Any] = (True, [prepare(d, p, segment) for d, p in job])
        except Exception as e:  # noqa: BLE001 - handed to the parent, which raises it
            reply = (False, e)
        _send(out, reply)


if __name__ == "__main__":
    _serve(sys.argv[1])
