"""Write one section of docs/benchmarks.md, keeping the others (each benchmark owns one)."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
HEADER = ("# Benchmarks\n\nEach section is written by the benchmark command named in it; "
          "do not edit by hand.\n")


def data_path(base: str | Path, rel: str) -> str:
    """A question set or corpus under ``base`` (the shared data folder or its eval/), or under
    this repository when ``rel`` starts with tests/ or benchmarks/ (the gate, everyday3)."""
    return str(ROOT / rel) if rel.startswith(("tests/", "benchmarks/")) else str(Path(base) / rel)


def shared_laws(shared: str | Path) -> Path | None:
    """The laws corpus under the shared data folder, or None after saying on stderr that
    it is missing and how to point at it (benchmarks then exit 2)."""
    import sys

    laws = Path(shared) / "laws"
    if laws.is_dir():
        return laws
    print(f"error: the shared laws corpus is missing at {laws}; check out ../shared next to "
          "this repository or pass --shared DIR", file=sys.stderr)
    return None


def print_tables(build: Callable[[Path], str]) -> int:
    """Print the tables ``build`` returns (it is given a file to log its commands in), then
    those commands; no file of the repository is written. Returns the exit status 0."""
    import tempfile

    log = Path(tempfile.mkdtemp()) / "commands.md"
    print(build(log))
    print("\n" + log.read_text(encoding="utf-8"))
    return 0


def run_eval(args: list[str], env: dict[str, str], what: str) -> tuple[dict, str]:
    """Run ``zhiku eval ARGS --json FILE --quiet`` in a subprocess (so it imports the code as
    it is now) and return its JSON numbers and its printed tables.

    Raises:
        SystemExit: the eval failed (its stderr tail says why, ``what`` says which run).
    """
    import json
    import sys
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = Path(f.name)
    cmd = [sys.executable, "-m", "zhiku.cli", "eval", *args, "--json", str(out), "--quiet"]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, **env})
    if p.returncode:
        raise SystemExit(f"zhiku eval failed for {what}:\n{p.stderr[-2000:]}")
    data = json.loads(out.read_text(encoding="utf-8"))
    out.unlink()
    return data, p.stdout


def machine() -> str:
    """One line: date, commit, machine, cores, Python."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    return (f"{dt.date.today()}, commit `{commit}`, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")


def replace_section(doc: Path, heading: str, section: str) -> None:
    """Replace (or append) the section that starts with the line ``heading`` in ``doc``,
    keeping every other section; a section ends at the next ``## `` heading or ``<!-- ``
    marker line (marker-delimited sections belong to other benchmarks)."""
    doc.parent.mkdir(parents=True, exist_ok=True)
    text = doc.read_text(encoding="utf-8") if doc.exists() else HEADER
    pattern = re.compile(rf"^{re.escape(heading)}\n.*?(?=^## |^<!-- |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section.rstrip("\n") + "\n\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    doc.write_text(text.rstrip("\n") + "\n", encoding="utf-8")


def write_section(title: str, command: str, body: str) -> None:
    """Replace (or append) the ``## title`` section of docs/benchmarks.md."""
    section = f"## {title}\n\n`{command}` — {machine()}\n\n{body.strip()}\n"
    replace_section(DOC, f"## {title}", section)
