"""Write one section of docs/benchmarks.md, keeping the others (each benchmark owns one)."""

from __future__ import annotations

import datetime as dt
import os
import platform
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "benchmarks.md"
HEADER = ("# Benchmarks\n\nEach section is written by the benchmark command named in it; "
          "do not edit by hand.\n")


def machine() -> str:
    """One line: date, commit, machine, cores, Python."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    return (f"{dt.date.today()}, commit `{commit}`, {platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}")


def write_section(title: str, command: str, body: str) -> None:
    """Replace (or append) the ``## title`` section of docs/benchmarks.md."""
    DOC.parent.mkdir(exist_ok=True)
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else HEADER
    section = f"## {title}\n\n`{command}` — {machine()}\n\n{body.strip()}\n"
    pattern = re.compile(rf"^## {re.escape(title)}\n.*?(?=^## |^<!-- |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: section + "\n", text)
    else:
        text = text.rstrip("\n") + "\n\n" + section
    DOC.write_text(text, encoding="utf-8")
