"""Whether a block summarises others, as the offline answer weighs it: a summary, overview or
contents section restates each clause of its document in a line, so it shares the words of
almost any question about them, and quoted it answers with the line that names the clause
instead of the clause that states it.

The SemVer specification's 「摘要」 lists every rule of its 「语义化版本控制规范」 in one sentence
each (「2. 次版本号：当你做了向下兼容的功能性新增」), and 「次版本号加一的时候，修订号要怎么处理？」 quoted
that list where rule 7 says the patch number is reset to 0; a manual's 「1. 概览」 names each
setting its sections explain. Such a block is read from its section labels (its own heading or
an ancestor's: 摘要, 概述, 概览, 目录, overview, summary, contents), not from its text; the
composer quotes a sentence of another block of the same document instead when it scores nearly
as well (config ``answer_overview``, :func:`zhiku.answer.extractive.compose`): the clause
summarised is then a candidate, and a question only the summary answers keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence


# a section label naming a summary of what follows: 「摘要」, 「1. 概览」, 「内容概要」, 「Overview」; the
# numbering and trailing punctuation around it are allowed, nothing else (「概述与安装」 is a section
# of its own)
SUMMARY = re.compile(r"^\s*(?:[\d.、]+|[一二三四五六七八九十]+、)?\s*"
                     r"(?:摘要|概述|概览|概要|总览|综述|内容提要|内容概要|目录|"
                     r"overview|summary|abstract|contents|table of contents|tl;?dr)\s*[:：]?\s*$", re.I)


def summarises(section_path: Sequence[str]) -> bool:
    """Whether a block's section labels (outermost first) name it a summary of others
    (:data:`SUMMARY`): its own heading or an ancestor's."""
    return any(SUMMARY.match(label) for label in section_path)
