"""Dates in a law's preamble (通过/修正/修订/公布/施行) and simple YAML-like front matter."""

from __future__ import annotations

import re
from typing import Any

from zhiku.chunk.numerals import cn_to_int

_CN_DIGIT = "〇零○一二三四五六七八九"
_CN_SMALL = "一二三四五六七八九十"
DATE_RE = re.compile(
    r"(?P<y>\d{4})\s*年\s*(?P<m>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*日"
    rf"|(?P<cy>[{_CN_DIGIT}]{{4}})年(?P<cm>[{_CN_SMALL}]{{1,3}})月(?P<cd>[{_CN_SMALL}]{{1,3}})日"
    r"|(?<!\d)(?P<iy>\d{4})[-/.](?P<im>\d{1,2})[-/.](?P<id>\d{1,2})(?!\d)"
)
_AMENDED_RE = re.compile(r"修正|修订|修改|通过的《")
_EFFECTIVE_RE = re.compile(r"施行|实施|执行|生效")
_PUBLISHED_RE = re.compile(r"公布|发布|印发|批准")
_BODY_EFFECTIVE_RE = re.compile(
    r"本(?:法|条例|规定|办法|细则|解释|决定|规则|准则|标准|意见|通知)"
    r"(?:自|从)(?P<date>[^，。；\n]{6,16}?日)起(?:施行|实施|执行|生效)"
)
_FRONT_RE = re.compile(r"\A---[ \t]*\n(?P<yaml>.*?)\n(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.DOTALL)
#: TOML front matter between ``+++`` lines (Hugo sites' pages).
_TOML_FRONT_RE = re.compile(r"\A\+\+\+[ \t]*\n(?P<toml>.*?)\n\+\+\+[ \t]*(?:\n|\Z)", re.DOTALL)


def _iso(year: int, month: int, day: int) -> str | None:
    """Format a date as YYYY-MM-DD, or None when it is impossible."""
    if 1 <= month <= 12 and 1 <= day <= 31:
        return f"{year:04d}-{month:02d}-{day:02d}"
    return None


def parse_date(match: re.Match[str]) -> str | None:
    """Turn a :data:`DATE_RE` match into ``YYYY-MM-DD``.

    Args:
        match: a match of :data:`DATE_RE`.

    Returns:
        The ISO date, or None when the match is not a real date.
    """
    if match["y"]:
        return _iso(int(match["y"]), int(match["m"]), int(match["d"]))
    if match["iy"]:
        return _iso(int(match["iy"]), int(match["im"]), int(match["id"]))
    try:
        return _iso(cn_to_int(match["cy"]), cn_to_int(match["cm"]), cn_to_int(match["cd"]))
    except ValueError:
        return None


def find_date(text: str) -> str | None:
    """Return the first date in ``text`` as ``YYYY-MM-DD``.

    Args:
        text: e.g. ``2007年6月29日``, ``一九九四年十二月六日`` or ``2022-03-15``.

    Returns:
        The ISO date, or None when there is none.
    """
    for match in DATE_RE.finditer(text):
        date = parse_date(match)
        if date:
            return date
    return None


def _segments(line: str) -> list[tuple[str, str]]:
    """Split a preamble line into (date, the text after it up to the next date)."""
    matches = [m for m in DATE_RE.finditer(line) if parse_date(m)]
    out = []
    for i, match in enumerate(matches):
        stop = matches[i + 1].start() if i + 1 < len(matches) else len(line)
        out.append((parse_date(match) or "", line[match.end() : stop]))
    return out


def parse_preamble(lines: list[str], body: str = "") -> dict[str, Any]:
    """Read adoption, amendment, promulgation and effective dates from preamble lines.

    ``2007年6月29日 第十届…会议通过`` is the adoption; ``…修正``/``…修订`` and
    ``…通过的《…修正案》`` are amendments; ``…公布``/``发布`` the promulgation;
    ``…施行`` the effective date (else ``本法自…起施行`` in the body).

    Args:
        lines: the non-empty preamble lines, in order.
        body: the document body, searched for an effective date the preamble lacks.

    Returns:
        ``{"preamble": lines, "adopted": date or None, "amended": [dates]}`` plus
        ``"promulgated"`` and ``"effective"`` when stated; dates are ``YYYY-MM-DD``.
    """
    meta: dict[str, Any] = {"preamble": list(lines), "adopted": None, "amended": []}
    for line in lines:
        for date, text in _segments(line):
            if _AMENDED_RE.search(text):
                meta["amended"].append(date)
            elif "通过" in text:
                if meta["adopted"] is None:
                    meta["adopted"] = date
                else:
                    meta["amended"].append(date)
            elif _PUBLISHED_RE.search(text):
                meta.setdefault("promulgated", date)
            if _EFFECTIVE_RE.search(text):
                meta["effective"] = date
    if "effective" not in meta and body:
        match = _BODY_EFFECTIVE_RE.search(body)
        date = find_date(match["date"]) if match else None
        if date:
            meta["effective"] = date
    return meta


def _scalar(value: str) -> Any:
    """Parse a front matter value: quoted string, ``[a, b]`` list, or plain text."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
        return value[1:-1]
    if value.startswith("[") and value.endswith("]"):
        return [_scalar(v) for v in value[1:-1].split(",") if v.strip()]
    return value


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """Split ``---``-delimited ``key: value`` front matter, or ``+++``-delimited TOML
    front matter (Hugo), from the text.

    Supports ``key: value`` lines, quoted values, ``[a, b]`` lists and ``- item``
    lists under an empty key; no nesting (no YAML library is used). Of TOML, the
    top-level strings, numbers, dates and lists of them are kept.

    Args:
        text: the whole file.

    Returns:
        (fields, rest of the text); fields is empty when there is no front matter.
    """
    toml = _TOML_FRONT_RE.match(text)
    if toml:
        return _toml_fields(toml["toml"]), text[toml.end():]
    match = _FRONT_RE.match(text)
    if not match:
        return {}, text
    fields: dict[str, Any] = {}
    key = None
    for raw in match["yaml"].split("\n"):
        line = raw.rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        item = re.match(r"^\s*-\s+(.*)$", line)
        if item and key is not None and isinstance(fields.get(key), list):
            fields[key].append(_scalar(item[1]))
            continue
        pair = re.match(r"^([A-Za-z_][\w\-]*)\s*:\s*(.*)$", line)
        if pair:
            key = pair[1]
            fields[key] = _scalar(pair[2]) if pair[2].strip() else []
    return fields, text[match.end() :]


def _toml_fields(block: str) -> dict[str, Any]:
    """The top-level fields of a TOML front matter block as text (dates in ISO form, lists
    of plain values kept, tables left out); none when the block is not valid TOML."""
    import tomllib

    try:
        data = tomllib.loads(block)
    except tomllib.TOMLDecodeError:
        return {}

    def plain(value: Any) -> Any:
        if isinstance(value, bool | int | float | str):
            return value if isinstance(value, str | bool) else str(value)
        if isinstance(value, list):
            items = [plain(v) for v in value]
            return items if all(i is not None for i in items) else None
        return value.isoformat() if hasattr(value, "isoformat") else None

    return {k: v for k, v in ((k, plain(v)) for k, v in data.items()) if v is not None}


# A standard's number on its cover: GB 34330—2017, GB/T 1.1-2009, DB44/ 2367—2022, HJ/T 91-2002,
# T/CECS 123-2020, JGJ/T 98-2010 (spaces closed up first).
_STANDARD_NO_RE = re.compile(r"^(?:GB(?:/[TZ])?|DB\d{2}(?:/T)?|T/[A-Z]{2,10}|Q/[A-Z0-9]{2,12}|[A-Z]{2,4}(?:/T)?)"
                             r"/?\d{1,6}(?:\.\d{1,3})*[-—–－]\d{2,4}$")
_COVER_DATE_RE = re.compile(r"(?P<y>\d{4})\s*[-—–－]\s*(?P<m>\d{1,2})\s*[-—–－]\s*(?P<d>\d{1,2})\s*"
                            r"(?P<what>发\s*布|实\s*施)")


def standard_cover(lines: list[str]) -> dict[str, str]:
    """What the cover page of a standard states: its number (``DB 44/2208-2019``), the day it
    was issued (「2019-11-22 发布」: ``promulgated``) and the day it takes effect (「2020-01-01
    实施」: ``effective``, the field a law's 施行 date fills).

    Args:
        lines: the lines of the first page with text.

    Returns:
        ``standard``, ``promulgated`` and ``effective`` as found; empty unless the page
        holds both a standard number and an 实施 date (then it is a standard's cover).
    """
    meta: dict[str, str] = {}
    for line in lines:
        squashed = "".join(line.split())
        if "standard" not in meta and _STANDARD_NO_RE.match(squashed):
            meta["standard"] = " ".join(line.split())
        for m in _COVER_DATE_RE.finditer(line):
            day = _iso(int(m["y"]), int(m["m"]), int(m["d"]))
            key = "effective" if "实" in m["what"] else "promulgated"
            if day:
                meta.setdefault(key, day)
    return meta if "standard" in meta and "effective" in meta else {}
