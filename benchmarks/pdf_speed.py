"""PDF ingest speed, keyword path: pages per second, written into docs/benchmarks.md.

Usage: python benchmarks/pdf_speed.py [--copies 4] [--out docs/benchmarks.md]

Renders a law from tests/data/laws to PDF (running header, page numbers, bookmarks, a
table; needs reportlab from the dev extra), ingests the copies with ``--no-dense``
semantics into a temporary home, and replaces only the "PDF ingest" section of the
output file, keeping every other section.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTION = "## PDF ingest (keyword path)"


def measure(copies: int) -> dict[str, float]:
    """Build ``copies`` distinct PDFs, ingest them without vectors, time it."""
    sys.path.insert(0, str(ROOT / "tests" / "formats"))
    import factory
    from pypdf import PdfReader

    from zhiku.config import load_config
    from zhiku.kb import KnowledgeBase

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        for i in range(copies):
            factory.make_pdf(docs / f"劳动合同法-{i}.pdf", outline=i % 2 == 0, chapters=8,
                             note=f"本副本编号 {i}。")
        pages = sum(len(PdfReader(str(p)).pages) for p in docs.iterdir())
        kb = KnowledgeBase(load_config(home=Path(tmp) / "home"))
        t0 = time.perf_counter()
        rep = kb.ingest([docs], dense=False, progress=False)
        seconds = time.perf_counter() - t0
    return {"files": copies, "pages": pages, "chunks": rep.chunks, "seconds": seconds,
            "pages_per_s": pages / seconds, "failed": len(rep.failed)}


def render(r: dict[str, float]) -> str:
    """The Markdown section for one measurement."""
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{SECTION}\n\nWritten by `make bench-pdf` ({when}; {platform.processor() or platform.machine()}, "
            f"{os.cpu_count()} cores, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '-')}).\n\n"
            "| files | pages | chunks | seconds | pages/s |\n|---|---|---|---|---|\n"
            f"| {r['files']} | {r['pages']} | {r['chunks']} | {r['seconds']:.2f} | "
            f"{r['pages_per_s']:.1f} |\n")


def write(out: Path, section: str) -> None:
    """Replace (or append) the PDF section of ``out``, keeping the other sections."""
    from _doc import replace_section

    replace_section(out, SECTION, section)


def main() -> int:
    """Measure and record; prints the table too."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"))
    a = ap.parse_args()
    r = measure(a.copies)
    section = render(r)
    write(Path(a.out), section)
    print(section)
    return 0 if not r["failed"] else 1


if __name__ == "__main__":
    sys.exit(main())
