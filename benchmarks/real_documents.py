"""Real public documents: chapter-tree quality and answer accuracy per document, into docs/real-documents.md.

Usage: python benchmarks/real_documents.py [--extra FOLDER] [--write] [--out docs/real-documents.md]

Ingests tests/data/real (see its SOURCE.md) into a temporary home with the bundled
embedder, asks every question of tests/data/real/questions.jsonl offline (extractive
answers) and counts one right when the answer holds an expected phrase and cites the
expected document (or one of them, when ``doc`` lists several that hold the answer);
questions marked ``"refuse": true`` (no document in the set answers them) count right only
when refused. The page is printed; ``--write`` also writes it to
``--out``. ``--extra`` adds documents that may not be committed (questions marked
``"extra": true`` are skipped without them).

Questions marked ``"split": "fresh"`` are a held-out set: they are asked of the documents in
tests/data/real/fresh only (their own knowledge base, so the dev set's number stays
comparable), were written before zhiku was run on those documents, and are reported on
their own line ("fresh documents: X of Y right"). ``"split": "fresh2"`` is a second held-out
set the same way (tests/data/real/fresh2: development-board manuals and spec tables with
units, numbered burning steps, HTML API help pages); ``"split": "fresh3"`` a third
(tests/data/real/fresh3: spreadsheets with merged cells and several sheets, text PDFs
exported from Word and from slides, meeting minutes, notices with dates, a policy with an
amount table); ``"split": "fresh4"`` a fourth (tests/data/real/fresh4: an FAQ, a
troubleshooting page, a community body's charter, rules in numbered clauses, a logging
standard with rule/advice items, process pages); ``"split": "fresh5"`` a fifth
(tests/data/real/fresh5: a text PDF user manual with API return-code tables, an FAQ whose
questions are inline HTML ``<h4>`` headings, a parameter reference of pipe tables, a
copywriting style guide, two HR rules in 第X条 articles, a two-sheet review-comment
workbook); ``"split": "fresh6"`` a sixth (tests/data/real/fresh6: an upgrade guide with
version-specific steps and its list of incompatible changes per version, a cluster
scale-out/scale-in runbook, a hardware and port requirements page of tables, a product
changelog cut to one minor series, a data-security regulation in 第X条 articles, a text PDF
security-library manual with an FAQ of error messages, a government emergency plan and a
government notice as gov.cn served them in HTML); ``"split": "fresh7"`` a seventh
(tests/data/real/fresh7: a draft industry standard exported from Word, a tax regulation in
第X条 articles, a government plan with percentages, a text PDF API manual, a component
library's FAQ with inline code in its headings); ``"split": "fresh8"`` an eighth
(tests/data/real/fresh8: a library's feature reference of Markdown tables grouped by purpose
with code listings and a migration list, its FAQ of code answers, a CSV code table of
prefecture-level divisions, a wage-payment rule in 第X条 articles with full-width figures, a
government opinion with an attachment table of indicators, merged cells and formulas, as
gov.cn served it in HTML; promoted to development after their first measurements);
``"split": "fresh9"`` a ninth (tests/data/real/fresh9: a release
test report of wide Markdown tables with ``<br/>`` lists in cells, a maintenance roadmap of
version-date tables, a component library's changelog with a date under each version, a
short text PDF recovery guide of numbered steps and log lines, a product-warranty rule in
第X章/第X条, a gov.cn policy of numbered provisions and a gov.cn notice whose attachment is a
Word-exported quota table with merged header cells; promoted to development after their
first measurements, like the eighth); ``"split": "fresh10"`` a tenth
(tests/data/real/fresh10: a desktop OCR tool's changelog with a date after each version, its
plain-text troubleshooting page of error messages, its command-line manual and its HTTP API
reference with parameter tables, a ministry rule in 第X章/第X条 with deadlines, a ministry's
legal-application opinion, and two text PDFs: a one-page tax rate table with merged cells and
a provincial list of minor violations in a wide six-page table; a development set: its
misses were worked on as soon as it was measured); ``"split": "fresh11"`` an eleventh
(tests/data/real/fresh11: an API gateway's FAQ and a plugin reference with a parameter table
(name, type, required, default, valid values), a short text PDF of which examples run on a
second chip with a pin table and a text PDF changelog of version headings, a city's public
rental housing rule in 第X章/第X条, a city's notice of social assistance amounts per district
and an employment-trainee rule with subsidy figures and attachment forms, as the city's sites
served them in HTML, and a product's workbook of agent SOPs, one Markdown procedure per cell);
``"split": "fresh12"`` a twelfth (tests/data/real/fresh12: a Word FAQ of a front-end framework,
two scanned national emission standards without a text layer (the OCR path) with tables of
limits, a one-sheet workbook of two spec checklists with merged category cells, a city
regulation in 第X章/第X条 written as HTML paragraphs in Markdown, a gov.cn notice with
deadlines, a short text PDF catalogue with two tables, and a long Markdown tutorial with nested
numbered headings); ``"split": "fresh14"`` a fourteenth, open to development
(tests/data/real/fresh14: a specification translated into Chinese with setext headings,
numbered rules and an FAQ, a provincial discharge standard as a text PDF with numbered
clauses, limit tables continued over a page and notes under them, a hospital's and a school's local regulation in 第X条
without chapters, and four pages of an upload component's site as Jekyll built them in HTML:
a feature page, a getting-started page with commented code listings, a usage page with a
command table and a download page of file trees and build steps); ``"split": "fresh15"`` a
fifteenth, held out (tests/data/real/fresh15: a service registry's console manual and its HTTP
API reference as a documentation site built them in HTML (navigation, parameter and error-code
tables, curl listings), a time-series database's Chinese changelog with a release date under each
version and its FAQ, a national noise standard as a text PDF with numbered clauses and two small
tables, a tax law's attachment table of pollutant equivalents as a text PDF with notes merged down
its rows, and two local regulations in 第X条: a city's rule on employee representative congresses in
第X章 chapters and a rule on adding lifts to old residential buildings without chapters);
``"split": "fresh16"`` a
sixteenth, open to development (tests/data/real/fresh16: three environmental standards as
their issuers released them in text PDFs, a national general rule of lettered lists inside
numbered clauses, a national limit standard with a frequency table and formulas, and a
provincial emission standard with limit tables by fuel and a chimney-height table; their
cover pages carry the standard number, the issue and 实施 dates and the issuers);
``"split": "tables"`` is a development
set kept in its own folder the same way (tests/data/real/tables: a gov.cn reply whose
attachments are Word-exported HTML coordinate tables with merged header cells, a note of
units under them; its questions are one cell or one row of a table); ``"split": "scans"``
another (tests/data/real/scans: three scanned national emission standards without a text
layer, read by OCR, whose ruled limit tables have cells merged across rows and columns; its
questions are one cell or one row of those tables); ``"split": "fresh13"`` another
(tests/data/real/fresh13: two pages of a database's Chinese manual that open with the Apache
licence in an HTML comment, one with a comment inside a code fence).
``--split dev`` or ``--split NAME`` measures one of them.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT / "tests" / "data" / "real"
#: The held-out splits; each is asked of the documents in the folder of its name.
FRESH = "fresh"
HELD_OUT = (FRESH, "fresh2", "fresh3", "fresh4", "fresh5", "fresh6", "fresh7", "fresh11",
            "fresh12", "fresh15")
#: Development splits kept in a folder of their own (asked of those documents only, like the
#: held-out ones, but open to development): ``tables`` holds Word-exported HTML attachment
#: tables (merged header cells, a units note) whose questions are one cell or one row;
#: ``fresh10`` was written before zhiku was run on its documents and developed on at once;
#: ``fresh8`` and ``fresh9`` were promoted to development after their first measurements;
#: ``scans`` holds scanned (image-only) standards whose ruled limit tables are read by OCR;
#: ``fresh13`` holds Markdown pages that open with a licence in an HTML comment;
#: ``fresh14`` and ``fresh16`` were written before zhiku was run on their documents, like ``fresh10``.
DEV_SPLITS = ("tables", "fresh8", "fresh9", "fresh10", "scans", "fresh13", "fresh14", "fresh16")
#: Every split measured in a knowledge base of its own folder.
FOLDERS = (*HELD_OUT, *DEV_SPLITS)
JUNK = ("列1", "列2", "列3", "OLE_LINK", "(cid:", "....")
#: The document column of a question no document in the set answers (``"refuse": true``
#: in questions.jsonl): it is right only when the answer refuses.
REFUSE = "(none: refusal expected)"


def _squash(text: str) -> str:
    return "".join(text.split()).lower()


def _gold_docs(item: dict) -> list[str]:
    """The documents that answer a question: ``doc`` names one, or a list when the same
    passage stands in several documents (a manual repeating a deployment guide); citing
    any of them is right. The first is the one reported."""
    return [item["doc"]] if isinstance(item["doc"], str) else list(item["doc"])


def tree_row(doc, sections) -> dict:
    """Tree quality of one document: sections, depth, empty ones, junk labels."""
    body = doc.body
    def own_text(sec) -> str:
        line_end = body.find("\n", sec.start)
        line_end = sec.end if line_end < 0 else min(line_end, sec.end)
        child = min((o.start for o in sections if o.parent_id == sec.id), default=sec.end)
        return body[line_end:child].strip()

    empty = sum(1 for s in sections if not own_text(s)
                and not any(o.parent_id == s.id for o in sections))
    junk = sum(1 for s in sections if any(j in s.label for j in JUNK))
    junk_body = sum(body.count(j) for j in JUNK)
    return {"doc": doc.path, "format": Path(doc.path).suffix.lstrip("."), "pages": len(doc.pages),
            "sections": len(sections), "depth": max((s.level for s in sections), default=0),
            "empty": empty, "junk_labels": junk, "junk_in_text": junk_body, "tables": len(doc.tables)}


def _questions(split: str) -> list[dict]:
    """The questions of one split: the dev set (no ``split`` key) or ``fresh``."""
    items = [json.loads(line) for line in
             (REAL / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [i for i in items if i.get("split", "dev") == split]


def measure(extra: Path | None, split: str = "dev") -> tuple[list[dict], list[dict]]:
    """Ingest the split's documents, build trees, ask its questions; returns (tree rows,
    question rows)."""
    from zhiku.config import load_config
    from zhiku.ingest import load_file
    from zhiku.kb import KnowledgeBase
    from zhiku.ask.flow import ask
    from zhiku.ask.query import Query
    from zhiku.route.log import flush as flush_route_log
    from zhiku.structure import build_tree

    with tempfile.TemporaryDirectory() as tmp:
        docs = Path(tmp) / "docs"
        docs.mkdir()
        for f in (REAL / split if split in FOLDERS else REAL).iterdir():
            if f.is_file() and f.suffix.lower() in (".pdf", ".docx", ".xlsx", ".csv", ".html", ".md", ".txt") \
                    and f.name != "SOURCE.md":
                shutil.copy(f, docs / f.name)
        for f in (extra.iterdir() if extra and split not in FOLDERS else []):
            shutil.copy(f, docs / f.name)
        trees = []
        for f in sorted(docs.iterdir()):
            doc = load_file(f, docs)
            trees.append(tree_row(doc, build_tree(doc)))
        kb = KnowledgeBase(load_config(home=Path(tmp) / "home"))
        kb.ingest([docs], dense=True, progress=False)
        present = {f.name for f in docs.iterdir()}
        rows = []
        for item in _questions(split):
            refuse = bool(item.get("refuse"))
            gold = [] if refuse else _gold_docs(item)
            if not refuse and not present.intersection(gold):
                continue
            ans = ask(kb, Query(item["q"], use_cache=False))
            said = _squash(ans.text)
            docs_cited = {c.doc_path for c in ans.citations}
            ok = ans.refused if refuse else (
                not ans.refused and any(_squash(a) in said for a in item["answer"])
                and bool(docs_cited.intersection(gold)))
            first = ans.citations[0] if ans.citations else None
            rows.append({"q": item["q"], "doc": REFUSE if refuse else gold[0], "right": ok,
                         "cited": " › ".join([first.doc_path, *first.section_path]) if first else
                         "(refused)" if ans.refused else ""})
        flush_route_log()  # the routing log is written off the ask path: finish before the home goes
    return trees, rows


def _table(trees: list[dict], rows: list[dict]) -> list[str]:
    """The per-document and per-question tables."""
    out = ["| document | format | pages | sections | depth | empty sections | junk labels | junk in text | tables | answers right |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for t in trees:
        mine = [r for r in rows if r["doc"] == Path(t["doc"]).name]
        out.append(f"| {t['doc']} | {t['format']} | {t['pages'] or '-'} | {t['sections']} | {t['depth']} | "
                   f"{t['empty']} | {t['junk_labels']} | {t['junk_in_text']} | {t['tables']} | "
                   f"{sum(r['right'] for r in mine)}/{len(mine)} |")
    out += ["", "| question | document | right | first citation |", "|---|---|---|---|"]
    out += [f"| {r['q']} | {r['doc']} | {'yes' if r['right'] else 'no'} | {r['cited']} |" for r in rows]
    return out


def _score(rows: list[dict]) -> str:
    refusals = [r for r in rows if r["doc"] == REFUSE]
    return (f"{sum(r['right'] for r in rows)} of {len(rows)} answers right "
            f"({sum(r['right'] for r in refusals)} of {len(refusals)} questions that no "
            "document answers refused)")


#: How each held-out split is named on the page: (score line label, section title).
SPLIT_LABELS = {FRESH: ("fresh documents", "Fresh documents (held out)"),
                "fresh2": ("second fresh set", "Second fresh set (held out)"),
                "fresh3": ("third fresh set", "Third fresh set (held out)"),
                "fresh4": ("fourth fresh set", "Fourth fresh set (held out)"),
                "fresh5": ("fifth fresh set", "Fifth fresh set (held out)"),
                "fresh6": ("sixth fresh set", "Sixth fresh set (held out)"),
                "fresh7": ("seventh fresh set", "Seventh fresh set (held out)"),
                "fresh8": ("eighth fresh set", "Eighth fresh set (development)"),
                "fresh9": ("ninth fresh set", "Ninth fresh set (development)"),
                "fresh10": ("tenth fresh set", "Tenth fresh set (development)"),
                "fresh11": ("eleventh fresh set", "Eleventh fresh set (held out)"),
                "fresh12": ("twelfth fresh set", "Twelfth fresh set (held out)"),
                "fresh14": ("fourteenth fresh set", "Fourteenth fresh set (development)"),
                "fresh15": ("fifteenth fresh set", "Fifteenth fresh set (held out)"),
                "fresh16": ("sixteenth fresh set", "Sixteenth fresh set: standards (development)"),
                "tables": ("table set", "Table documents (development)"),
                "scans": ("scan set", "Scanned documents (development)"),
                "fresh13": ("thirteenth set", "Thirteenth set: pages with comments (development)")}


def render(trees: list[dict], rows: list[dict], extra: list[str] = (),
           held_out: dict[str, tuple[list[dict], list[dict]]] | None = None) -> str:
    """The Markdown page; ``held_out`` maps a held-out split (``fresh`` … ``fresh15``) to its
    (tree rows, question rows)."""
    held_out = held_out or {}
    when = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Real documents: tree quality and answer accuracy", "",
           f"Written by `python benchmarks/real_documents.py` ({when}) from tests/data/real "
           "(public Apache-2.0/MIT/CC BY documentation and official government documents, see its "
           "SOURCE.md) and any `--extra` documents; "
           "offline extractive answers, bundled embedder, hybrid retrieval. An answer is right "
           "when it holds an expected phrase and cites the expected document; a question no "
           "document answers is right when it is refused.", "",
           *([f"Extra documents in this run (not committed): {', '.join(extra)}; see "
              "tests/data/real/SOURCE.md.", ""] if extra else [])]
    if rows:
        out += [f"**{_score(rows)}**.", ""]
    for split, (_, qrows) in held_out.items():
        out += [f"**{SPLIT_LABELS[split][0]}: {sum(r['right'] for r in qrows)} of {len(qrows)} right** "
                f"({_score(qrows)}; tests/data/real/{split}, questions written before zhiku "
                "was run on them).", ""]
    if rows:
        out += _table(trees, rows)
    for split, measured in held_out.items():
        out += ["", f"## {SPLIT_LABELS[split][1]}", "", *_table(*measured)]
    return "\n".join(out) + "\n"


def main() -> int:
    """Measure and print the page; with ``--write`` write it too."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--extra", type=Path, default=None, help="folder of documents not committed")
    ap.add_argument("--write", action="store_true", help="write the page to --out (else print only); "
                    "with --split NAME of one fresh set, only that set's lines of the page change")
    ap.add_argument("--out", default=str(ROOT / "docs" / "real-documents.md"))
    ap.add_argument("--split", choices=("all", "dev", *FOLDERS), default="all",
                    help="measure the dev set, one held-out set, or all of them (default)")
    a = ap.parse_args()
    trees, rows = measure(a.extra) if a.split in ("all", "dev") else ([], [])
    held_out = {s: measure(None, s) for s in FOLDERS if a.split in ("all", s)}
    page = render(trees, rows, sorted(f.name for f in a.extra.iterdir()) if a.extra else [],
                  held_out)
    if a.write:
        out = Path(a.out)
        if a.split in FOLDERS and out.exists():  # one split re-measured: only its lines change
            page = updated(out.read_text(encoding="utf-8"), page, a.split)
        out.write_text(page, encoding="utf-8")
    print(page)
    return 0


def updated(old: str, fresh: str, split: str) -> str:
    """``old`` (the whole page) with ``split``'s summary line and section taken from
    ``fresh`` (a page of that split alone); a split the page lacks is added at the end."""
    line = f"**{SPLIT_LABELS[split][0]}: "
    head = f"## {SPLIT_LABELS[split][1]}"

    def section(page: str) -> tuple[int, int]:
        start = page.find("\n" + head + "\n")
        if start < 0:
            return len(page), len(page)
        end = page.find("\n## ", start + 1)
        return start, len(page) if end < 0 else end

    new_line = next(x for x in fresh.splitlines() if x.startswith(line))
    lines = old.split("\n")
    at = [i for i, x in enumerate(lines) if x.startswith(line)]
    if at:
        lines[at[0]] = new_line
    else:  # after the last summary line
        top = next((i for i, x in enumerate(lines) if x.startswith("## ")), len(lines))
        last = max(i for i, x in enumerate(lines[:top]) if x.startswith("**"))
        lines[last + 1:last + 1] = ["", new_line]
    old = "\n".join(lines)
    a, b = section(fresh)
    c, d = section(old)
    block = fresh[a:b].strip("\n")
    before, after = old[:c].rstrip("\n"), old[d:].lstrip("\n")
    return before + "\n\n" + block + ("\n\n" + after if after else "\n")


if __name__ == "__main__":
    sys.exit(main())
