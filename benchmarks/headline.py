"""Write the README's headline benchmark rows from the generated docs/benchmarks.md.

Usage: python benchmarks/headline.py [--check]

Reads the run blocks that `make bench-quality` wrote (``<!-- run:NAME -->``) and the
"Speed at scale" table, and replaces the table between ``<!-- headline:start -->`` and
``<!-- headline:end -->`` in README.md, so the README quotes the generated numbers and
never a hand-copied one. ``--check`` only says whether the README is up to date (exit 1
when it is not). `make bench-quality` and `make bench-speed` run it after writing.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _doc import DOC, ROOT  # noqa: E402

README = ROOT / "README.md"
START, END = "<!-- headline:start -->", "<!-- headline:end -->"
METRICS = ("R@1", "R@5", "MRR@10", "nDCG@10")

# (run block, label, [(system row, [(column, shown as), ...] for the last cell)])
ROWS: list[tuple[str, str, list[tuple[str, list[tuple[str, str]]]]]] = [
    ("clause", "clause lookup (whole laws corpus, keyword)", [
        ("flat BM25", []),
        ("zhiku keyword + routing", [("gold in routed chapters", "gold in routed chapters")]),
        ("full zhiku, keyword only", [("citation precision", "citation precision")])]),
    ("natural-all", "everyday questions (whole laws corpus, keyword)", [
        ("flat BM25", []),
        ("zhiku keyword, no routing", []),
        ("zhiku keyword + routing", [("gold in routed chapters", "gold in routed chapters")])]),
    ("natural2-all", "layperson questions, natural2 (whole laws corpus, keyword)", [
        ("flat BM25", []),
        ("zhiku keyword, no routing", []),
        ("full zhiku, keyword only", [("answer has gold", "answer has gold"),
                                      ("citation precision", "citation precision"),
                                      ("answerable refused", "answerable refused")])]),
    ("everyday4-all", "held-out everyday questions, everyday4 (whole laws corpus, keyword)", [
        ("flat BM25", []),
        ("zhiku keyword, no routing", []),
        ("full zhiku, keyword only", [("answer has gold", "answer has gold"),
                                      ("citation precision", "citation precision"),
                                      ("answerable refused", "answerable refused"),
                                      ("refusal P/R", "refusal P/R")])]),
    ("case-all", "case → 刑法 article (whole laws corpus, keyword)", [
        ("flat BM25", []),
        ("zhiku keyword, no routing", []),
        ("zhiku keyword + routing", [])]),
    ("case-gold", "case → 刑法 article (刑法 versions, dense)", [
        ("flat BM25", []), ("flat dense", []),
        ("zhiku hybrid + routing", [("gold in routed chapters", "gold article in routed chapters")])]),
    ("natural-gold", "everyday questions (gold laws + versions)", [
        ("flat BM25", []), ("flat dense", []),
        ("full zhiku (routing, answer, verification)", [("refusal P/R", "refusal P/R"),
                                                        ("citation precision", "citation precision")])]),
    ("gate", "gate (test laws; runs in CI)", [
        ("flat BM25", []),
        ("full zhiku (routing, answer, verification)", [("refusal P/R", "refusal P/R"),
                                                        ("citation precision", "citation precision")])]),
    ("cmrc", "CMRC 2018 (reading comprehension)", [
        ("flat BM25", []), ("flat dense", []),
        ("full zhiku (routing, answer, verification)", [("answer has gold", "answer has gold"),
                                                        ("citation precision", "citation precision")])]),
    ("rgb", "RGB zh (a third unanswerable)", [
        ("flat BM25", []), ("flat dense", []),
        ("full zhiku (routing, answer, verification)", [("answer has gold", "answer has gold"),
                                                        ("citation precision", "citation precision"),
                                                        ("refusal P/R", "refusal P/R")])]),
    ("scifact", "SciFact (English)", [("flat BM25", [])]),
]


def blocks(doc: str) -> dict[str, tuple[int, dict[str, dict[str, str]]]]:
    """Each run block's question count and its table: system → column → cell."""
    out = {}
    for name, body in re.findall(r"<!-- run:(\S+) -->\n(.*?)<!-- /run -->", doc, re.S):
        n = re.search(r"\((\d+) questions\)", body)
        lines = [ln for ln in body.splitlines() if ln.startswith("|")]
        if not n or len(lines) < 3:
            continue
        head = [c.strip() for c in lines[0].strip("|").split("|")]
        rows = {}
        for ln in lines[2:]:
            cells = [c.strip() for c in ln.strip("|").split("|")]
            rows[cells[0]] = dict(zip(head[1:], cells[1:]))
        out[name] = (int(n.group(1)), rows)
    return out


def table(doc: str) -> str:
    """The headline table (runs that have no block yet are left out, and said so)."""
    found = blocks(doc)
    lines = ["| set (corpus), questions | system | " + " | ".join(METRICS) + " | other |",
             "|---|---|" + "---:|" * len(METRICS) + "---|"]
    missing = []
    for run, label, systems in ROWS:
        if run not in found:
            missing.append(run)
            continue
        n, rows = found[run]
        first = True
        for system, extra in systems:
            r = rows.get(system)
            if r is None:
                continue
            other = ", ".join(f"{shown} {r[col]}" for col, shown in extra if r.get(col, "–") != "–")
            lines.append(f"| {f'{label}, {n}' if first else ''} | {system} | "
                         + " | ".join(r.get(m, "–") for m in METRICS) + f" | {other} |")
            first = False
    section = re.search(r"^## Speed at scale\n.*?(?=^## |\Z)", doc, re.S | re.M)
    speed = section and re.search(r"^\| chunks \|.*?(?=\n\n|\Z)", section.group(), re.S | re.M)
    out = "\n".join(lines)
    if missing:
        out += f"\n\nNot run yet: {', '.join(missing)} (`python benchmarks/bench_quality.py --only NAME` runs one)."
    if speed:
        out += "\n\nSpeed at scale (`make bench-speed`; vectors random at every scale point, labelled so):\n\n"
        out += speed.group().strip()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the README is out of date")
    a = ap.parse_args()
    readme = README.read_text(encoding="utf-8")
    if START not in readme or END not in readme:
        print(f"error: README.md has no {START} … {END} markers; put them where the headline "
              "table belongs", file=sys.stderr)
        return 2
    new = re.sub(rf"{re.escape(START)}.*?{re.escape(END)}",
                 lambda _: f"{START}\n{table(DOC.read_text(encoding='utf-8'))}\n{END}", readme, flags=re.S)
    if a.check:
        print("README headline is up to date" if new == readme else "README headline is out of date; "
              "run: python benchmarks/headline.py")
        return 0 if new == readme else 1
    README.write_text(new, encoding="utf-8")
    print("README.md headline rows rewritten from docs/benchmarks.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
