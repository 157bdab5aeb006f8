"""Whom a provision binds, as the offline answer weighs it: an article opening with a class of
office holders (「林业主管部门的工作人员违反森林法的规定…」, 「国家工作人员利用职务上的便利…」,
「依法从事生产、运输、管理、使用国家管制的麻醉药品、精神药品的人员，…」) applies to those persons only.

A case narrative or an everyday question about what a person did shares its words with the
article on the official who let it happen: 「盗伐林木…」 ranks the forestry official's offence
(第四百零七条) beside the offence itself (第三百四十五条), 「用人单位拖欠工资…」 the labour
department's official who neglects the complaint beside the employer's duty. Unless the question
names an office holder (工作人员, 职务, 职责, 干部, a post such as 检疫员), such an article is a
weaker source than one binding anyone; read from the article's opening clause only, so a
provision naming officials as its object (「以暴力、威胁方法阻碍国家机关工作人员依法执行职务的」) is
left alone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from zhiku.types import Hit

_LABEL = re.compile(r"^\s*第[零〇一二三四五六七八九十百千万\d]+条(?:之[一二三四五六七八九十]+)?\s*")
# the opening clause names the persons bound: a noun phrase ending in 工作人员 or a relative
# clause's 的人员 (「依法从事…的人员」, 「…等单位的人员」), not after a preposition or verb that makes
# them the object (以暴力…阻碍国家机关工作人员, 对…人员), nor a kind of person in another role
# (「纳税人接受技能人员职业资格继续教育」, 「个体工商户及其雇用人员」)
_BINDS = re.compile(r"^(?![以对向为将把被使在因由从])[^，。；：]{0,40}?(?:工作人员|公职人员|从业人员|的人员)(?!的)")
# a question naming an office holder (工作人员, 职务; a post ending in 员: 检疫员, 公务员, not a
# member 会员/成员): such an article may be what it asks about
OFFICE = re.compile(r"人员|职务|职责|公职|干部|[\u4e00-\u9fff](?<![会成党团学队动])员")


def binds(text: str) -> str:
    """The office holders an article's opening clause names as those it binds (「林业主管部门的
    工作人员」), "" when it binds anyone; ``text`` is the article's text, its 第X条 label first."""
    m = _BINDS.match(_LABEL.sub("", text, count=1))
    return m.group(0) if m else ""


def addressee_bonus(question: str, hits: Sequence[Hit], weight: float) -> tuple[float, ...]:
    """Per hit, ``-weight`` for a numbered provision binding a class of office holders
    (:func:`binds`) when the question names none (:data:`OFFICE`), else 0; () when the weight
    is 0, the question names an office holder, or the evidence is all of one kind (every block
    binding officials, or none).

    Args:
        question: the question as asked.
        hits: the evidence the answer chooses among, best first.
        weight: the config's ``answer_addressee``.
    """
    if not weight or OFFICE.search(question):
        return ()
    out = tuple(-weight if h.chunk.article is not None and binds(h.chunk.text) else 0.0 for h in hits)
    return out if any(out) and not all(out) else ()
