"""The README's configuration tables name every setting, and its links into docs/settings.md land."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from zhiku.config import Config

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SETTINGS = (ROOT / "docs" / "settings.md").read_text(encoding="utf-8")
MEASUREMENTS = (ROOT / "docs" / "measurements.md").read_text(encoding="utf-8")
HEADER = "| key | default | meaning |"


def table_keys(text: str) -> set[str]:
    """Keys named in the first column of every ``| key | default | meaning |`` table of ``text``."""
    keys: set[str] = set()
    in_table = False
    for line in text.splitlines():
        if line.strip() == HEADER:
            in_table = True
            continue
        if in_table and line.startswith("|"):
            first = line.split(" | ")[0]
            keys.update(re.findall(r"`([a-z_0-9]+)`", first))
        else:
            in_table = False
    return keys


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation but ``-`` and ``_`` dropped, spaces to ``-``."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def setting_headings(text: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"^### (.+)$", text, flags=re.M)]


def test_anchor_keeps_underscores_and_drops_backticks():
    assert anchor("`answerability_posts`") == "answerability_posts"
    assert anchor("Store and vector index") == "store-and-vector-index"


def test_table_keys_reads_only_key_tables():
    text = "| role | timeout key (default) | fallback |\n|---|---|---|\n| router | `router_timeout` (5 s) | x |\n"
    assert table_keys(text) == set()
    text = HEADER + "\n|---|---|---|\n| `a_b`, `c` (`ZHIKU_A_B`) | `1` | m `not_a_key` |\n\nafter `d`\n"
    assert table_keys(text) == {"a_b", "c"}


def test_every_config_field_has_a_row_in_the_readme():
    missing = sorted(set(Config.model_fields) - table_keys(README))
    assert not missing, f"settings without a README row: {missing}"


def test_every_readme_row_names_a_setting():
    fields = set(Config.model_fields)
    unknown = sorted(k for k in table_keys(README) if k not in fields)
    assert not unknown, f"README rows naming no setting: {unknown}"


def test_every_settings_link_lands_on_a_heading():
    anchors = {anchor(h) for h in re.findall(r"^#{1,6} (.+)$", SETTINGS, flags=re.M)}
    links = re.findall(r"\]\(docs/settings\.md#([^)]+)\)", README)
    assert len(links) > 100
    dead = sorted(set(links) - anchors)
    assert not dead, f"README links to missing docs/settings.md sections: {dead}"


def test_every_measurements_link_lands_on_a_heading():
    anchors = {anchor(h) for h in re.findall(r"^#{1,6} (.+)$", MEASUREMENTS, flags=re.M)}
    links = set(re.findall(r"\]\(docs/measurements\.md#([^)]+)\)", README))
    assert "real-document-splits" in links
    assert not links - anchors, f"README links to missing docs/measurements.md sections: {links - anchors}"


def test_every_settings_section_is_a_real_setting():
    fields = set(Config.model_fields)
    headings = setting_headings(SETTINGS)
    assert "`answerability_posts`" in headings
    keys = [re.fullmatch(r"`([a-z_0-9]+)`", h) for h in headings]
    bad = [h for h, k in zip(headings, keys) if k is None or k.group(1) not in fields]
    assert not bad, f"docs/settings.md sections that are no setting: {bad}"
    names = [k.group(1) for k in keys]
    assert len(names) == len(set(names)), "a setting has two sections"


def test_settings_sections_are_linked_from_the_readme():
    """A section the README does not link to (a key of a row naming several) points at one it does."""
    linked = set(re.findall(r"\]\(docs/settings\.md#([^)]+)\)", README))
    sections = re.split(r"^### ", SETTINGS, flags=re.M)[1:]
    orphans = []
    for section in sections:
        heading, _, body = section.partition("\n")
        if anchor(heading) not in linked and not set(re.findall(r"\]\(#([a-z_0-9]+)\)", body)) & linked:
            orphans.append(anchor(heading))
    assert not orphans, f"docs/settings.md sections nothing links to: {orphans}"


def test_readme_lines_stay_readable():
    start = README.index("<!-- headline:start -->") if "<!-- headline:start -->" in README else -1
    end = README.index("<!-- headline:end -->") if start >= 0 else -1
    long = [line[:60] for line in (README[:start] + README[end:] if start >= 0 else README).splitlines()
            if len(line) > 1200]
    assert not long, f"README lines over 1,200 characters: {long}"
