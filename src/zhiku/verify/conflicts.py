"""Evidence that disagrees: two versions of one document with different text for the same
article, or two documents (departments) stating different values for the same point."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from zhiku.chunk import cn_to_int
from zhiku.retrieve.segment import normalise
from zhiku.types import Chunk, Conflict
from zhiku.verify.support import content_terms

_DATE = re.compile(r"[（(]\d{4}-\d{2}-\d{2}[)）]")
# a value with its unit: 六个月, 3 个月, 15 日, 200 元, 40 小时, 8%
_VALUE = re.compile(r"([零〇一二两三四五六七八九十百千万\d.]+)\s*(个月|日|天|年|岁|元|倍|小时|周|%|万元|人)")


def _law(c: Chunk) -> str:
    return _DATE.sub("", c.title or c.doc_path).replace("中华人民共和国", "").strip()


def _values(text: str) -> dict[str, set[int]]:
    out: dict[str, set[int]] = {}
    for num, unit in _VALUE.findall(normalise(text)):
        try:
            v = int(float(num)) if num[0].isdigit() else cn_to_int(num)
        except (ValueError, KeyError):
            continue
        out.setdefault(unit, set()).add(v)
    return out


def _show(values: set[int]) -> str:
    return "、".join(str(v) for v in sorted(values))


def _overlap(words: Callable[[str], list[str]], a: str, b: str) -> float:
    ta, tb = set(content_terms(words, a)), set(content_terms(words, b))
    return len(ta & tb) / max(1, min(len(ta), len(tb)))


UNCITED_TOPIC = 0.8  # content-term overlap an uncited block needs to be a competing source


def find_conflicts(blocks: Mapping[int, Chunk], cited: set[int],
                   words: Callable[[str], list[str]], same_topic: float = 0.5) -> list[Conflict]:
    """Pairs of evidence blocks that disagree: two versions when at least one is cited,
    two documents stating disjoint values with one unit when both are cited and on one
    topic, or one is cited and the other says nearly the same (:data:`UNCITED_TOPIC`).

    Args:
        blocks: block number → chunk.
        cited: block numbers the answer cites.
        words: a word segmenter (for the same-topic test).
        same_topic: content-term overlap above which two documents talk about one point.

    Returns:
        One :class:`Conflict` per disagreeing pair: ``version`` when two versions of one
        document word the same article differently, ``source`` when two documents on the
        same topic state different values with the same unit, ``internal`` when one
        document states two values for one point (see :func:`internal_conflicts`).
    """
    out: list[Conflict] = internal_conflicts(blocks, cited)
    nums = sorted(blocks)
    for i, a in enumerate(nums):
        for b in nums[i + 1 :]:
            if a not in cited and b not in cited:
                continue
            ca, cb = blocks[a], blocks[b]
            if ca.doc_id == cb.doc_id or normalise(ca.text) == normalise(cb.text):
                continue
            if _law(ca) == _law(cb):
                if ca.version_date != cb.version_date and ca.article and ca.article == cb.article:
                    out.append(Conflict("version", (a, b), f"《{_law(ca)}》{ca.version_date} 版与 "
                                        f"{cb.version_date} 版的{ca.article}规定不同"))
                continue
            # other documents: both cited and on one topic, or one cited and the other
            # saying nearly the same words (an answer cites one block; the block that
            # disagrees with it is cited by the conflict note)
            need = same_topic if a in cited and b in cited else UNCITED_TOPIC
            va, vb = _values(ca.text), _values(cb.text)
            units = [u for u in va if u in vb and va[u].isdisjoint(vb[u])]
            if units and _overlap(words, ca.text, cb.text) >= need:
                out.append(Conflict("source", (a, b), f"《{_law(ca)}》与《{_law(cb)}》对同一事项的规定不一致"
                                    f"（{_show(va[units[0]])}{units[0]} 对 {_show(vb[units[0]])}{units[0]}）"))
    return out


# a sentence stating a rule under a condition (「满10年不满20年的，年休假10天」) is one of
# several cases, not a competing value; nor is a time limit for an act, counted from an event
# (「自…之日起四十五日内结束」, 「应当在五日内将…送达」): two of them in one law are deadlines of
# two acts (劳动争议调解仲裁法 第三十条 gives 5 days to serve a copy and 10 to answer)
_CONDITIONAL = re.compile(r"的[，,]|以上|以下|不满|已满|超过|以内|不少于|至少|不得|最长|最多|或者|每满"
                          r"|日起|[日天月年周时]内")
_SENT = re.compile(r"[^。！？；\n]+")
_LABEL = re.compile(r"^\s*第[零〇一二两三四五六七八九十百千万\d]+条\s*")
# an enumerated item (（二）春节，放假4天): two items of a list are two entries, not two
# values for one point
_ITEM = re.compile(r"^\s*[（(][一二三四五六七八九十\d]+[)）]")


_COPULA = re.compile(r"(?:为|是|有|共|共计|合计|享有|享受|可享受|可享有|可休|休|给予|计|达|约|每年|每月|每天)+$")


def _plain_values(text: str) -> list[tuple[str, str, str, int]]:
    """(sentence, point, unit, value) for each unconditional sentence of ``text`` stating
    one value of a unit; the point is the two characters naming what the value is of
    (年假 in 「公司年假为零天」 and in 「员工每年享有带薪年假十五天」)."""
    out = []
    for s in _SENT.findall(normalise(text)):
        s = _LABEL.sub("", s).strip()
        if _CONDITIONAL.search(s):
            continue
        found = list(_VALUE.finditer(s))
        if len(found) != 1:
            continue
        m = found[0]
        try:
            v = int(float(m.group(1))) if m.group(1)[0].isdigit() else cn_to_int(m.group(1))
        except (ValueError, KeyError):
            continue
        point = _COPULA.sub("", s[: m.start()])[-2:]
        if len(point) == 2:
            out.append((s, point, m.group(2), v))
    return out


def internal_conflicts(blocks: Mapping[int, Chunk], cited: set[int]) -> list[Conflict]:
    """One document stating two values for one point: two unconditional sentences of the
    same document (one block, or two blocks of it, at least one cited) giving different
    values of one unit for the same point (「公司年假为零天」 next to 「员工每年享有带薪年假十五天」).

    Returns:
        ``internal`` conflicts naming the document and both values; one per block pair.
    """
    out: list[Conflict] = []
    nums = sorted(blocks)
    facts = {k: _plain_values(blocks[k].text) for k in nums}
    for i, a in enumerate(nums):
        for b in nums[i:]:
            ca, cb = blocks[a], blocks[b]
            if (a not in cited and b not in cited) or ca.doc_id != cb.doc_id:
                continue
            hit = next(((u, x, y) for sa, pa, u, x in facts[a] for sb, pb, ub, y in facts[b]
                        if sa != sb and pa == pb and u == ub and x != y
                        and not (_ITEM.match(sa) and _ITEM.match(sb))), None)
            if hit:
                unit, va, vb = hit
                out.append(Conflict("internal", (a,) if a == b else (a, b),
                                    f"《{_law(ca)}》中对同一事项有两种说法（{va}{unit} 对 {vb}{unit}）"))
    return out
