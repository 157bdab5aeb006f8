"""The short forms a document defines for itself: 「权限控制（ACL）」, 「服务等级协议（SLA）」,
「…实施细则（以下简称“细则”）」, read so that a block holding one form holds the other."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

# a Latin abbreviation in brackets right after what it abbreviates: 「权限控制（ACL）」, 「(SLA)」;
# capitals only (「评分（Score）」, 「打印接口（HiLog）」 translate or name, 「引脚（PC13）」 names a pin)
_LATIN = re.compile(r"\s*[（(]\s*([A-Z]{2,8})\s*[)）]")
# 「（以下简称“细则”）」, 「（简称：数据局）」: the short form a text names itself by from here on
_NAMED = re.compile(r"\s*[（(]\s*(?:以下)?简称[：:]?\s*[“\"「『]?([\u4e00-\u9fffA-Za-z0-9]{2,12})[”\"」』]?\s*[)）]")
# the run of Chinese characters (a quoted title's close kept) a bracket stands after, read
# backwards from it: the brackets are found first, as a run matched forwards is retried at
# each of its characters
_RUN = re.compile(r"[\u4e00-\u9fff》]{2,}$")
_BEFORE = 40
# the fewest characters of a long form: a shorter one (银行, 引脚) is too common to stand for a name
_TAIL = 4
# words a long form does not reach across (「…金融业务的银行」: 银行 alone names nothing)
_STOP = frozenset("的和与及或等之对在为将把被")
# the parts of speech (jieba's tags) of the words a name is made of, read backwards once it
# has its :data:`_TAIL` characters: nouns of every kind (n, nr, ns, nt, nz…), verbal and
# adjectival nouns (vn, an), set phrases (l) and abbreviations (j); a verb (提供, 具有, 建立), a
# time word (一年期), a distinguishing word (所有 of 所有测试用例), a pronoun or adverb ends it,
# and so does a word of one character (a PDF's column cut into a name: 「…选择码块链接模式」)
_NAME_POS = ("n", "vn", "an", "l", "j")
# a word that never ends a name: pronouns, adverbs, prepositions, conjunctions, particles and
# interjections (「…我也乐意啊（QAQ）」 names nothing)
_NOT_LAST = ("r", "d", "p", "c", "u", "y", "e", "o", "z", "x", "m", "q")
# what the readings of :func:`definitions` are: stored with a document's definitions at
# ingest (:func:`stored`), so that definitions read by other readings are read again
READING = 3


def _long(run: str, short: str = "") -> str:
    """The long form at the end of a run of Chinese characters: its last whole words (the
    dictionary cut: the index's search cut adds each word's pieces) back to the word that
    starts the name — every word until it reaches :data:`_TAIL` characters (识别代号, 权限控制),
    then the words of two or more characters a name is made of (:data:`_NAME_POS`:
    车辆识别代号, 服务等级协议 of 「提供服务等级协议」, 贷款市场报价利率 of 「一年期贷款市场报价利率」, the whole
    亚甲二氧基甲基苯丙胺 rather than its tail 甲基苯丙胺, another drug's name), never across a
    particle (:data:`_STOP`); "" when that is shorter or its last word is no name's
    (:data:`_NOT_LAST`). A capitals' abbreviation spells out words of another language: its
    letters say nothing of where the Chinese long form starts."""
    import rjieba

    words = [(w, pos) for w, pos in rjieba.tag(run) if w.strip()]
    if not words or words[-1][1].startswith(_NOT_LAST):
        return ""
    out = ""
    for w, pos in reversed(words):
        if w in _STOP or pos.startswith(_NOT_LAST):
            break
        if len(out) >= _TAIL and (len(w) == 1 or not pos.startswith(_NAME_POS)):
            break
        out = w + out
    return out if len(out) >= _TAIL else ""


def _named(run: str, short: str) -> str:
    """The long form a Chinese short form is made from (「（以下简称“科普”）」 after 「…科学技术普及」,
    「市公积金管委会」 after 「上海市住房公积金管理委员会」): the shortest end of the run that starts
    with the short form's first character and holds its characters in order; "" when there
    is none (「（以下简称“黑广播”）」 after 「…广播电台」 names it in other words, and a suffix
    rule would take any 「…民事纠纷案件」 for 「垄断民事纠纷案件」)."""
    run = run.rstrip("》")
    for i in range(len(run) - 1, -1, -1):
        if run[i] == short[0] and _in_order(short, run[i:]):
            return run[i:] if len(run) - i > len(short) else ""
    return ""


def _in_order(short: str, long: str) -> bool:
    """Whether ``long`` holds the characters of ``short`` in order."""
    it = iter(long)
    return all(ch in it for ch in short)


def definitions(texts: Iterable[str]) -> dict[str, str]:
    """The short forms ``texts`` (one document's passages) define: short form → long form.

    Args:
        texts: the document's passage texts.

    Returns:
        Each short form the document defines with the long form it stands for; a short form
        defined twice with different long forms is left out (it names no one thing).
    """
    found: dict[str, set[str]] = {}
    for text in texts:
        if "（" not in text and "(" not in text:
            continue
        for rx, cut in ((_LATIN, _long), (_NAMED, _named)):
            for m in rx.finditer(text):
                run = _RUN.search(text, max(0, m.start() - _BEFORE), m.start())
                if run is None:
                    continue
                short = m.group(1)
                long = cut(run.group(0).rstrip("》") if cut is _long else run.group(0), short)
                if long and short != long and short not in long:
                    found.setdefault(short, set()).add(long)
    return {s: next(iter(ls)) for s, ls in found.items() if len(ls) == 1}


def spelled_out(text: str, forms: Mapping[str, str]) -> str:
    """The definitions among ``forms`` (short → long, of the text's own document) whose one
    form ``text`` holds and the other not, written as the document writes them
    (「权限控制（ACL）」), space-joined; "" when none. Appended to a block's text, a question's
    short form counts in a block holding the long form, and the long form in one holding
    the short form; a short form the document does not define stays missing."""
    low = text.lower()
    return " ".join(f"{long}（{short}）" for short, long in forms.items()
                    if (short.lower() in low) != (long in text))


#: the key of a document's metadata that keeps its definitions (see :func:`stored`)
KEY = "short_forms"


def stored(forms: Mapping[str, str]) -> dict:
    """A document's definitions as its metadata keeps them (under :data:`KEY`) from its
    ingest on, with the readings (:data:`READING`) that found them."""
    return {"reading": READING, "forms": dict(forms)}


def read_stored(metadata: Mapping) -> dict[str, str] | None:
    """The definitions a document's metadata keeps (short form → long form), or None when
    they were not read at its ingest by these readings (an index made before, or by other
    readings): then they are read from its passages (:func:`definitions`)."""
    got = metadata.get(KEY)
    if isinstance(got, dict) and got.get("reading") == READING and isinstance(got.get("forms"), dict):
        return got["forms"]
    return None


def counterparts(question: str, forms: Mapping[str, Mapping[str, str]]) -> dict[str, tuple[str, ...]]:
    """The other forms of the defined forms ``question`` holds, each with the documents that
    define it: the long form of each short form it holds (a capitals' abbreviation in any
    case, as a word of its own: 「改了 acl 权限配置…」 → 权限控制) and the short form of each long
    form it holds, when the question does not hold that other form already. A form the
    documents define with different counterparts (「细则」 of several regulations) names no
    one thing and adds nothing.

    Args:
        question: the question.
        forms: the short forms each document defines (document id → short form → long form,
            :meth:`zhiku.kb.KnowledgeBase.short_forms`).

    Returns:
        Each other form → the ids of the documents defining it, in the order first met.
    """
    longs: dict[str, dict[str, list[str]]] = {}  # short form → long form → documents
    shorts: dict[str, dict[str, list[str]]] = {}  # long form → short form → documents
    for doc, defined in forms.items():
        for short, long in defined.items():
            longs.setdefault(short, {}).setdefault(long, []).append(doc)
            shorts.setdefault(long, {}).setdefault(short, []).append(doc)
    out: dict[str, tuple[str, ...]] = {}
    ends = _word_ends(question)
    for short, by_long in longs.items():
        if len(by_long) == 1 and _holds(question, short, ends):
            (long, docs), = by_long.items()
            if not _holds(question, long, ends):
                out[long] = tuple(dict.fromkeys([*out.get(long, ()), *docs]))
    for long, by_short in shorts.items():
        if len(by_short) == 1 and _holds(question, long, ends):
            (short, docs), = by_short.items()
            if not _holds(question, short, ends):
                out[short] = tuple(dict.fromkeys([*out.get(short, ()), *docs]))
    return out


def _word_ends(text: str) -> set[int]:
    """The offsets where the words of ``text`` (the dictionary cut) start and end."""
    import rjieba

    ends, at = {0}, 0
    for w in rjieba.cut(text):
        at += len(w)
        ends.add(at)
    return ends


def _holds(text: str, form: str, ends: set[int]) -> bool:
    """Whether ``text`` holds ``form``: a Latin one in any case and not inside a longer
    Latin word (ACL, not 「ACLS」), a Chinese one as whole words (``ends``: the offsets where
    the words of ``text`` start and end), not across one (申请人 is not in 「申请人身安全保护令」)."""
    if form.isascii():
        return re.search(rf"(?<![A-Za-z]){re.escape(form)}(?![A-Za-z])", text, re.IGNORECASE) is not None
    at = text.find(form)
    while at >= 0:
        if at in ends and at + len(form) in ends:
            return True
        at = text.find(form, at + 1)
    return False
