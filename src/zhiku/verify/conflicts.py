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


def find_conflicts(blocks: Mapping[int, Chunk], cited: set[int],
                   words: Callable[[str], list[str]], same_topic: float = 0.5) -> list[Conflict]:
    """Pairs of evidence blocks that disagree: two versions when at least one is cited,
    two documents only when both are cited and state disjoint values with one unit.

    Args:
        blocks: block number → chunk.
        cited: block numbers the answer cites.
        words: a word segmenter (for the same-topic test).
        same_topic: content-term overlap above which two documents talk about one point.

    Returns:
        One :class:`Conflict` per disagreeing pair: ``version`` when two versions of one
        document word the same article differently, ``source`` when two documents on the
        same topic state different values with the same unit.
    """
    out: list[Conflict] = []
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
            if a not in cited or b not in cited:  # other documents: only when both are cited
                continue
            va, vb = _values(ca.text), _values(cb.text)
            units = [u for u in va if u in vb and va[u].isdisjoint(vb[u])]
            if units and _overlap(words, ca.text, cb.text) >= same_topic:
                out.append(Conflict("source", (a, b), f"《{_law(ca)}》与《{_law(cb)}》对同一事项的规定不一致"
                                    f"（{_show(va[units[0]])}{units[0]} 对 {_show(vb[units[0]])}{units[0]}）"))
    return out
