"""A small unit table: written forms (米, kW, 立方米每小时) → canonical unit, dimension and factor.

A quantity in a question (「30米」, 「15千瓦」, 「100立方米每小时」) is converted to the unit of
the column it is compared with: 3000 mm against a column in m is 3 m.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from zhiku.chunk.numerals import NUMERAL_CHARS, cn_to_int


@dataclass(frozen=True)
class Unit:
    """A canonical unit: its symbol, dimension and factor to the dimension's base unit."""

    symbol: str
    dimension: str
    factor: float


# canonical symbol, dimension, factor to base, written forms
_TABLE: tuple[tuple[str, str, float, tuple[str, ...]], ...] = (
    ("m", "length", 1.0, ("米", "m", "M")),
    ("mm", "length", 0.001, ("毫米", "mm")),
    ("cm", "length", 0.01, ("厘米", "cm")),
    ("km", "length", 1000.0, ("千米", "公里", "km")),
    ("m³/h", "flow", 1.0, ("立方米每小时", "立方米/小时", "立方米/时", "方每小时", "方/小时",
                           "立方/小时", "m³/h", "m3/h", "m^3/h", "cmh")),
    ("L/s", "flow", 3.6, ("升每秒", "升/秒", "L/s", "l/s")),
    ("L/min", "flow", 0.06, ("升每分钟", "升/分钟", "L/min", "l/min")),
    ("kW", "power", 1.0, ("千瓦", "kW", "KW", "kw", "Kw")),
    ("W", "power", 0.001, ("瓦", "W")),
    ("MPa", "pressure", 1.0, ("兆帕", "MPa", "mpa", "Mpa")),
    ("kPa", "pressure", 0.001, ("千帕", "kPa", "kpa")),
    ("bar", "pressure", 0.1, ("巴", "bar")),
    ("kg", "mass", 1.0, ("千克", "公斤", "kg", "KG")),
    ("t", "mass", 1000.0, ("吨", "t")),
    ("g", "mass", 0.001, ("克", "g")),
    ("r/min", "speed", 1.0, ("转每分钟", "转每分", "转/分钟", "转/分", "r/min", "rpm", "RPM")),
    ("℃", "temperature", 1.0, ("摄氏度", "℃", "°C")),
    ("元/天", "money/day", 1.0, ("元/人·天", "元/人/天", "元/人天", "元每天", "元/天", "元/日",
                                "元/晚", "元/人·日")),
    ("元", "money", 1.0, ("元", "块钱", "块", "RMB", "CNY")),
    ("万元", "money", 10000.0, ("万元",)),
    ("千元", "money", 1000.0, ("千元",)),
    ("天", "days", 1.0, ("天", "日")),
    ("%", "ratio", 1.0, ("%", "％")),
)

UNITS: dict[str, Unit] = {s: Unit(s, d, f) for s, d, f, _ in _TABLE}
_FORMS: dict[str, str] = {}
for _s, _d, _f, _forms in _TABLE:
    for _form in _forms:
        _FORMS.setdefault(_form, _s)


def _form_pattern(form: str) -> str:
    # ASCII forms must not run into letters (m in "mm", "max"); Chinese forms stand alone.
    if form.isascii() and form[-1].isalnum():
        return rf"{re.escape(form)}(?![A-Za-z0-9/³])"
    return re.escape(form)


_UNIT_ALT = "|".join(_form_pattern(f) for f in sorted(_FORMS, key=len, reverse=True))
_NUM = rf"(?:\d+(?:\.\d+)?|[{NUMERAL_CHARS}]+)"
QUANTITY = re.compile(rf"(?P<num>{_NUM})\s*(?P<unit>{_UNIT_ALT})?")
_UNIT_ONLY = re.compile(rf"\s*(?:{_UNIT_ALT})\s*")


def fold(text: str) -> str:
    """NFKC form of ``text`` (full-width digits and signs to ASCII), case kept."""
    return unicodedata.normalize("NFKC", text)


def unit_of(form: str) -> Unit | None:
    """The unit a written form names (``千瓦`` → kW), or None.

    Args:
        form: a unit as written, e.g. ``米``, ``m3/h``, ``元/人·天``.

    Returns:
        The canonical Unit, or None when the form is unknown.
    """
    form = unicodedata.normalize("NFKC", form.strip())
    sym = _FORMS.get(form)
    return UNITS[sym] if sym else None


def number(text: str) -> float | None:
    """Parse an Arabic or Chinese numeral (``12.5``, ``三``, ``一千二``), else None."""
    text = text.strip().replace(",", "")
    try:
        return float(text)
    except ValueError:
        pass
    try:
        return float(cn_to_int(text))
    except ValueError:
        return None


@dataclass(frozen=True)
class Quantity:
    """A number with an optional unit, as found in text (``start``/``end`` in that text)."""

    value: float
    unit: Unit | None
    start: int
    end: int


def quantities(text: str) -> list[Quantity]:
    """Every number in ``text`` with the unit written after it.

    Args:
        text: folded text (see :func:`fold`).

    Returns:
        The quantities in order; Chinese numerals count only with a unit (「一共」 is no number).
    """
    out = []
    for m in QUANTITY.finditer(text):
        num, form = m["num"], m["unit"]
        if not num[0].isdigit() and (form is None or form in ("m", "M", "t", "g", "W")):
            continue
        val = number(num)
        if val is None:
            continue
        out.append(Quantity(val, unit_of(form) if form else None, m.start(), m.end()))
    return out


def parse_cell(cell: str) -> tuple[float, Unit | None] | None:
    """A table cell as a number with an optional unit: ``32``, ``32 m``, ``7.5千瓦``.

    Args:
        cell: the cell text.

    Returns:
        (value, unit) or None when the cell is not a single quantity.
    """
    text = fold(cell).strip().replace(",", "")
    m = re.fullmatch(rf"(-?\d+(?:\.\d+)?)\s*((?:{_UNIT_ALT})?)\s*", text)
    if not m:
        return None
    return float(m[1]), (unit_of(m[2]) if m[2] else None)


def convert(value: float, src: Unit | None, dst: Unit | None) -> float | None:
    """``value`` in ``src`` expressed in ``dst``; a missing unit on either side passes
    the value through; another dimension gives None."""
    if src is None or dst is None:
        return value
    if src.dimension != dst.dimension:
        return None
    return value * src.factor / dst.factor


def is_unit(text: str) -> bool:
    """Whether ``text`` is exactly one known unit form."""
    return bool(_UNIT_ONLY.fullmatch(unicodedata.normalize("NFKC", text)))
