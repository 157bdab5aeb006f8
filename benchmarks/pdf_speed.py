"""PDF ingest speed, keyword path: pages per second (text layer, and scanned pages read by
OCR), written into docs/benchmarks.md.

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


def measure_ocr(pages: int) -> dict[str, float] | None:
    """Ingest a scanned PDF of ``pages`` image-only pages (read by OCR), time it; None
    without the [ocr] extra."""
    sys.path.insert(0, str(ROOT / "tests" / "formats"))
    import factory

    from zhiku.config import load_config
    from zhiku.ingest.ocr import available
    from zhiku.kb import KnowledgeBase

    if not available():
        return None
    rules = ["员工试用期最长为六个月。", "年休假天数按工龄计算。", "加班须经部门负责人书面批准。",
             "差旅费用在出差结束后三十日内报销。", "病假须提交医院证明。", "离职须提前三十日书面通知。"]
    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        factory.make_scanned_pdf(docs / "扫描件.pdf", [[rules[(n + i) % len(rules)] for i in range(5)]
                                                      for n in range(pages)])
        kb = KnowledgeBase(load_config(home=Path(tmp) / "home"))
        t0 = time.perf_counter()
        rep = kb.ingest([docs], dense=False, progress=False)
        seconds = time.perf_counter() - t0
    return {"files": 1, "pages": pages, "chunks": rep.chunks, "seconds": seconds,
            "pages_per_s": pages / seconds, "failed": len(rep.failed)}


def render(r: dict[str, float], ocr: dict[str, float] | None = None) -> str:
    """The Markdown section for one measurement."""
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (f"{SECTION}\n\nWritten by `make bench-pdf` ({when}; {platform.processor() or platform.machine()}, "
            f"{os.cpu_count()} cores, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '-')}).\n\n"
            "| pages are | files | pages | chunks | seconds | pages/s |\n|---|---|---|---|---|---|\n"
            + "".join(f"| {kind} | {x['files']} | {x['pages']} | {x['chunks']} | {x['seconds']:.2f} | "
                      f"{x['pages_per_s']:.2f} |\n"
                      for kind, x in (("text layer", r), ("scanned, OCR (A6, 150 dpi)", ocr)) if x)
            + ("" if ocr else "\nOCR row missing: install the [ocr] extra.\n"))


def write(out: Path, section: str) -> None:
    """Replace (or append) the PDF section of ``out``, keeping the other sections."""
    from _doc import replace_section

    replace_section(out, SECTION, section)


def main() -> int:
    """Measure and record; prints the table too."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--copies", type=int, default=4)
    ap.add_argument("--ocr-pages", type=int, default=3, help="pages of the scanned PDF (0: skip)")
    ap.add_argument("--out", default=str(ROOT / "docs" / "benchmarks.md"))
    a = ap.parse_args()
    r = measure(a.copies)
    ocr = measure_ocr(a.ocr_pages) if a.ocr_pages else None
    section = render(r, ocr)
    write(Path(a.out), section)
    print(section)
    return 0 if not r["failed"] and not (ocr or {}).get("failed") else 1


if __name__ == "__main__":
    sys.exit(main())
