"""Every file the package reads at run time besides its modules ships in the wheel: each
non-Python file under src/zhiku is matched by a package-data pattern of pyproject.toml."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "zhiku"


def _patterns() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return data["tool"]["setuptools"]["package-data"]["zhiku"]


def _data_files() -> list[str]:
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*")
                  if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts)


@pytest.mark.unit
def test_every_data_file_is_packaged() -> None:
    files = _data_files()
    assert "verify/confidence.json" in files  # the fitted confidence model the ask loads
    missing = [f for f in files if not any(fnmatch(f, pat) for pat in _patterns())]
    assert missing == [], f"not in [tool.setuptools.package-data]: {missing}"


@pytest.mark.unit
def test_a_pattern_without_files_is_caught() -> None:
    """The check itself: a data file outside every pattern is reported."""
    assert not any(fnmatch("verify/other.bin", pat) for pat in _patterns())
