"""The forms a word the question pins may take in evidence: numerals, places, days, model names."""

from __future__ import annotations

import datetime as dt
import re

from zhiku.retrieve.segment import normalise

PLACE_SUFFIX = re.compile(r"(?:省|市|自治区|特别行政区|县|区)$")


def ordinal_forms(text: str) -> list[str]:
    """五次会议 → 五次会议, 5次会议; 第7届 → 7届, 七届 (with or without 第: a block may write
    either)."""
    from zhiku.chunk import cn_to_int, int_to_cn

    m = re.match(r"第?([零〇一二两三四五六七八九十百\d]+)(.+)", text)
    if not m:
        return [text]
    num, unit = m.groups()
    try:
        n = int(num) if num.isdigit() else cn_to_int(num)
    except (ValueError, KeyError):
        return [text]
    return list(dict.fromkeys([f"{num}{unit}", f"{n}{unit}", f"{int_to_cn(n)}{unit}"]))


def loosely_in(word: str, text: str) -> bool:
    """``word`` in ``text``, its characters in order with at most one between each pair
    (年假 in 年休假)."""
    if not word or word in text:
        return True
    rx = "".join(re.escape(ch) + ".?" for ch in word[:-1]) + re.escape(word[-1])
    return re.search(rx, text) is not None


LATIN_NAME = re.compile(r"[a-z0-9][a-z0-9\-_.]*")


def joined(s: str) -> str:
    """A model name without its separators: ESP32-C3, esp32_c3 and ESP32C3 are one name."""
    return re.sub(r"[\-_.]", "", s)


def norm(s: str) -> str:
    """``s`` normalised, without spaces, case-folded: how words are compared."""
    return re.sub(r"\s+", "", normalise(s)).casefold()


def place_forms(place: str) -> list[str]:
    """上海市 → 上海市, 上海 (a document writes either)."""
    short = PLACE_SUFFIX.sub("", place)
    return [place] + ([short] if len(short) >= 2 else [])


DAYS = {"今天": 0, "明天": 1, "昨天": -1}


def day_forms(offset: int) -> list[str]:
    """How a document writes the day ``offset`` days from today: 12月2日, 2026-12-02."""
    d = dt.date.today() + dt.timedelta(days=offset)
    return [f"{d.month}月{d.day}日", d.isoformat(), f"{d.year}年{d.month}月{d.day}日"]


def cn_year(year: str) -> str:
    """2023 → 二〇二三."""
    return "".join("〇一二三四五六七八九"[int(d)] for d in year)
