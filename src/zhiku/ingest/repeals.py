"""A document's own statement that it repeals other documents by name:
「本法自2022年3月1日起施行。《中华人民共和国公司登记管理条例》、《…》同时废止。」"""

from __future__ import annotations

import re

_TITLE = re.compile(r"《([^《》\n]+)》")
# the words between the last title and 废止: nothing else (「依照《立法法》…予以废止」 is no statement)
_REPEAL = re.compile(r"》\s*(?:[(（]试行[)）])?\s*[，,]?\s*(?:都|也|亦)?\s*(?:同时|即行|一并)?\s*(?:予以)?废止")
_CLAUSE = re.compile(r"[。；;\n]")
_PART = re.compile(r"[，,]")
_PREFIX = "中华人民共和国"


def repealed_titles(body: str) -> list[str]:
    """The titles a document says it repeals (「《X》同时废止」, 「《X》和《Y》即行废止」), in
    order, once each: only titles in the same clause as the 废止 that directly follows the last
    of them (a title only mentioned, or 「关于废止《X》的决定」 which names what another act
    repeals, is none).

    Args:
        body: the document text.

    Returns:
        The titles as written (without 《》).
    """
    out: list[str] = []
    if "废止" not in body:
        return out
    for clause in _CLAUSE.split(body):
        m = _REPEAL.search(clause)
        if not m:
            continue
        parts = _PART.split(clause[: m.start() + 1])
        # 「…《X》，同时废止」: the titles are in the part before the comma
        part = parts[-1] if _TITLE.search(parts[-1]) else (parts[-2] if len(parts) > 1 else "")
        for t in _TITLE.findall(part):
            if t not in out:
                out.append(t)
    return out


def title_key(title: str) -> str:
    """A title as documents of the same law are named alike: no spaces, no 中华人民共和国
    prefix, half-width brackets made full-width (never looser: no fuzzy match)."""
    t = re.sub(r"\s+", "", title).replace("(", "（").replace(")", "）")
    return t[len(_PREFIX):] if t.startswith(_PREFIX) and len(t) > len(_PREFIX) else t


# 「最高人民法院关于适用《中华人民共和国婚姻法》若干问题的解释（一）」, 「中国人民解放军实施《执业医师法》办法」
_APPLIES = re.compile(r"(?:适用|执行|实施)《([^《》]+)》")
# 「中华人民共和国公民出境入境管理法实施细则」: the rules a law (or a regulation) is carried out by
_RULES = re.compile(r"^(.+(?:法|条例))(?:实施条例|实施细则|实施办法)$")


def applied_law(title: str) -> str | None:
    """The one law a judicial interpretation or an implementing rule exists to apply, as
    :func:`title_key` writes it: its title applies (适用/执行/实施) the only law it names, or is
    that law's 实施条例/实施细则/实施办法. None for any other title (one naming two laws, or a
    law it amends: 「关于修改《X》的决定」)."""
    named = {title_key(t) for t in _TITLE.findall(title)}
    if named:
        m = _APPLIES.search(title)
        return title_key(m.group(1)) if m and len(named) == 1 else None
    m = _RULES.match(title_key(title))
    return m.group(1) if m else None
