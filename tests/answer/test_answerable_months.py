"""A year with its month pins that month: a monthly notice of another month of the same year
does not answer, the notice of that month does (config ``answerability_months``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.verify.answerable import check, decisive, month_stated
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned, year_months

REAL = Path(__file__).resolve().parents[1] / "data" / "real"
# the June 2025 security bulletin (tests/data/real/fresh3, see its SOURCE.md), title and text
BULLETIN = "OpenHarmony安全漏洞公告2025-06.md\n" + (REAL / "fresh3" / "OpenHarmony安全漏洞公告2025-06.md").read_text(
    encoding="utf-8")
MINUTES = "PMC例会纪要2025-12-04.md\n" + (REAL / "fresh3" / "PMC例会纪要2025-12-04.md").read_text(encoding="utf-8")


@pytest.mark.unit
def test_the_month_is_read_in_every_form():
    assert year_months("2025年7月的安全漏洞公告披露了哪些漏洞？") == ["2025年7月"]
    assert year_months("2025年十一月的例会") == ["2025年11月"]
    assert year_months("2025-07 的公告") == year_months("2025.7的公告") == ["2025年7月"]
    assert year_months("2020年春节放假是哪几天？") == []  # a year alone pins no month
    assert [c.text for c in pinned("2025年7月的安全漏洞公告披露了哪些漏洞？") if c.kind is Kind.TIME] == \
        ["2025", "2025年7月"]
    assert not any(c.about == "month" for c in pinned("2025年7月的安全漏洞公告披露了哪些漏洞？", opts=CheckOptions(months=False)))


@pytest.mark.unit
def test_a_notice_of_another_month_of_the_year_does_not_answer():
    """The June bulletin (「2025年06月安全漏洞」, 「发布于2025.06.03」) holds the year 2025 but not
    July: refused decisively; the same question of June is answered from it."""
    said = next(line for line in BULLETIN.splitlines() if line.startswith("| CVE-2025"))
    no = check("2025年7月的安全漏洞公告披露了哪些漏洞？", [(BULLETIN, said)])
    assert not no.ok and [c.text for c in no.missing] == ["2025年7月"]
    assert all(decisive(c) for c in no.missing) and "2025年7月" in no.reason
    assert check("2025年6月的安全漏洞公告披露了哪些漏洞？", [(BULLETIN, said)]).ok
    assert check("2025年7月的安全漏洞公告披露了哪些漏洞？", [(BULLETIN, said)], opts=CheckOptions(months=False)).ok


@pytest.mark.unit
def test_minutes_are_of_the_month_they_are_dated():
    """Minutes dated 2025-12-04 state December 2025, not November."""
    assert month_stated("2025年12月", MINUTES)
    assert not month_stated("2025年11月", MINUTES)
    assert not month_stated("2024年12月", MINUTES)
