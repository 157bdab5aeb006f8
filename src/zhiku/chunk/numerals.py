"""Chinese numerals to integers and back (一千零四十七 <-> 1047)."""

from __future__ import annotations

DIGITS: dict[str, int] = {
    "零": 0, "〇": 0, "○": 0, "Ｏ": 0,
    "一": 1, "二": 2, "两": 2, "三": 3, "四": 4,
    "五": 5, "六": 6, "七": 7, "八": 8, "九": 9,
    "壹": 1, "贰": 2, "叁": 3, "肆": 4, "伍": 5,
    "陆": 6, "柒": 7, "捌": 8, "玖": 9,
}
UNITS: dict[str, int] = {"十": 10, "拾": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
BIG_UNITS: dict[str, int] = {"万": 10_000, "萬": 10_000, "亿": 100_000_000, "億": 100_000_000}

#: every character that may appear in a Chinese number (for building regexes)
NUMERAL_CHARS = "".join(DIGITS) + "".join(UNITS) + "".join(BIG_UNITS)

_CN_DIGITS = "零一二三四五六七八九"


def cn_to_int(s: str) -> int:
    """Parse a Chinese (or Arabic) numeral.

    Handles unit forms (``十五`` 15, ``一百二十三`` 123, ``一千零四十七`` 1047,
    ``两万`` 20000), digit-by-digit forms (``一九九四`` 1994, ``二〇二〇`` 2020),
    financial forms (``壹佰``) and Arabic or full-width digits (``19``, ``１９``).

    Args:
        s: the numeral, surrounding whitespace ignored.

    Returns:
        The integer value.

    Raises:
        ValueError: when ``s`` is empty or is not a numeral.
    """
    text = s.strip()
    if not text:
        raise ValueError("empty numeral")
    if text.isdecimal():
        return int(text)
    if any(ch not in DIGITS and ch not in UNITS and ch not in BIG_UNITS for ch in text):
        raise ValueError(f"not a Chinese numeral: {s!r}")
    if len(text) > 1 and all(ch in DIGITS for ch in text):
        return int("".join(str(DIGITS[ch]) for ch in text))
    return _parse_units(text, s)


def _parse_units(text: str, original: str) -> int:
    """Parse a numeral written with units (十/百/千/万/亿)."""
    total = 0  # completed 亿 and 万 groups
    section = 0  # value below the current 万
    num: int | None = None  # pending digit
    last_unit = 10**12
    for ch in text:
        if ch in DIGITS:
            if num not in (None, 0):
                raise ValueError(f"two digits in a row in {original!r}")
            num = DIGITS[ch]
        elif ch in UNITS:
            unit = UNITS[ch]
            if unit >= last_unit:
                raise ValueError(f"units out of order in {original!r}")
            section += (1 if num is None else num) * unit
            num, last_unit = None, unit
        else:
            big = BIG_UNITS[ch]
            group = section + (num or 0)
            if big == 100_000_000:
                total = (total + group) * big
            else:
                total += group * big
            section, num, last_unit = 0, None, 10**12
    return total + section + (num or 0)


def _group_to_cn(n: int) -> str:
    """Write 0 < n < 10000 with units, inserting 零 for inner gaps."""
    out: list[str] = []
    zero = False
    for value, unit in ((1000, "千"), (100, "百"), (10, "十"), (1, "")):
        digit = n // value % 10
        if digit == 0:
            zero = bool(out)
            continue
        if zero:
            out.append("零")
            zero = False
        out.append(_CN_DIGITS[digit] + unit)
    return "".join(out)


def int_to_cn(n: int) -> str:
    """Write a non-negative integer the way Chinese legal texts number articles.

    ``10`` -> ``十``, ``19`` -> ``十九``, ``110`` -> ``一百一十``,
    ``1047`` -> ``一千零四十七``, ``100010`` -> ``十万零一十``.

    Args:
        n: the integer, at least 0.

    Returns:
        The Chinese numeral.

    Raises:
        ValueError: when ``n`` is negative.
    """
    if n < 0:
        raise ValueError(f"cannot write a negative number in Chinese numerals: {n}")
    if n == 0:
        return "零"
    groups: list[int] = []
    while n:
        groups.append(n % 10_000)
        n //= 10_000
    names = ["", "万", "亿", "万亿"]
    out: list[str] = []
    need_zero = False
    for idx in range(len(groups) - 1, -1, -1):
        group = groups[idx]
        if group == 0:
            need_zero = bool(out)
            continue
        if out and (need_zero or group < 1000):
            out.append("零")
        out.append(_group_to_cn(group) + names[idx])
        need_zero = False
    text = "".join(out)
    if text.startswith("一十"):
        text = text[1:]
    return text
