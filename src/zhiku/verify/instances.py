"""Which instance a sentence speaks of: the people and places it names against those the
question pins, and the clauses about another instance of the kind the question asks about
(another 合唱团 than 果果合唱团), read by the answerability check."""

from __future__ import annotations

import re
from collections.abc import Sequence

from zhiku.retrieve.segment import normalise
from zhiku.verify.forms import PLACE_SUFFIX as _PLACE_SUFFIX, loosely_in as _loosely_in, norm as _norm, place_forms as _place_forms
from zhiku.verify.holders import NO_PLACE
from zhiku.verify.pins import PLACES, TIME_KINDS, Constraint, Kind, word_tags
from zhiku.verify.stated import undated

_PERSON_TAGS = ("nr", "nrt", "nrfg")


def _named(text: str) -> tuple[set[str], set[str]]:
    """The people and the places ``text`` names (tagged names of two characters or more;
    places: known ones or tagged places with a place suffix, 衡阳市)."""
    people, places = set(), set()
    for word, tag in word_tags(text):
        w = word.strip()
        if len(w) < 2 or w in NO_PLACE:
            continue
        if tag in _PERSON_TAGS:
            people.add(w)
        elif w in PLACES or tag == "ns" and _PLACE_SUFFIX.search(w):
            places.add(w)
    return people, places


def named_places(text: str) -> set[str]:
    """The places ``text`` names (:func:`_named`), normalised."""
    return _named(_norm(undated(normalise(text))))[1]


def about_other(sentence: str, others: Sequence[Constraint], kind: str = "") -> bool:
    """Whether ``sentence`` states its value of someone or somewhere else: the question pins
    a person or a place (``others``), the sentence names none of them and names another
    person or place instead (「1953年伊丽莎白二世加冕时」 does not date 查尔斯's coronation;
    「衡阳市龙舟赛，16支参赛队」 does not count 浙江省's teams). For a date (``kind``) only
    people count: a sentence dating something often names where it happened, not which
    instance it is about (「2006年度财政报告显示…位于美国」 beside 台湾)."""
    asked_people = [c.text for c in others if c.kind is Kind.SUBJECT and c.about in ("tag:nr", "tag:nrt")]
    asked_places = [c.text for c in others if c.kind is Kind.PLACE and kind not in TIME_KINDS]
    if not asked_people and not asked_places:
        return False
    t = _norm(undated(normalise(sentence)))
    if any(_norm(a) in t for a in asked_people) or any(_norm(f) in t for p in asked_places for f in _place_forms(p)):
        return False
    people, places = _named(t)
    return bool(asked_people and people or asked_places and places)


# what may stand before an instance's kind noun and still mean the instance asked about
# (本届冬奥会, 此次枪击案, 该合唱团)
_SAME = re.compile(r"[本此这该其今同的之]")


def other_instance(piece: str, others: Sequence[Constraint], asked: bool = False) -> bool:
    """Whether ``piece`` speaks of another instance of the kind the question names (its
    ``instance`` constraint, 果果|合唱团): it holds the kind noun (合唱团) after a modifier of
    its own (「马兰花儿童声合唱团」, not the end of the question's, 「现任校长」) and not every word
    of the question's modifier, each loosely (果果; 劳动争议仲裁委员会 is not 「劳动争议调解委员会」;
    西贡商信银行 is 「西贡商业信用银行」). With ``asked`` (config ``answerability_asked_instances``)
    the kind noun after a word the question itself says is the instance asked, not another: 「应急
    救援专用号牌的汽车号牌尺寸」 asks of the 汽车号牌 the passage sizes (the words of the quantity
    asked, the question's content words)."""
    t = _norm(undated(normalise(piece)))
    said = {_norm(w) for c in others if c.kind is Kind.QUANTITY for w in c.about.split("|") if len(w) >= 2} \
        if asked else set()
    for c in others:
        if c.about != "instance":
            continue
        mod, noun, words = instance_parts(c)
        if noun not in t or all(_loosely_in(w, t) for w in words):  # 西贡商信: 「西贡商业信用银行」
            continue
        before = [t[max(0, m.start() - 2):m.start()] for m in re.finditer(re.escape(noun), t)]
        if all(re.fullmatch(r"[\u4e00-\u9fff]{2}", b) and not _SAME.search(b) and b not in mod
               and not any(w.endswith(b) for w in said) for b in before):
            return True  # 「现任校长」 asked about 公理高中书院现任校长: the question's own modifier
    return False


def own_clauses(piece: str, others: Sequence[Constraint], asked: bool = False) -> str:
    """``piece`` without its clauses about another instance of the kind asked about
    (:func:`other_instance`): 「马兰花童声合唱团来自保定阜平县，和…果果合唱团」 keeps its second
    clause only; nothing when the whole piece is about another one (「马兰花儿童声合唱团”，它的
    前身是邓小岚女士所创办的马兰小乐队」). ``asked``: see :func:`other_instance`."""
    if not any(c.about == "instance" for c in others):
        return piece
    if other_instance(piece, others, asked):
        return ""
    return "，".join(x for x in re.split(r"[，,；;]", piece) if not other_instance(x, others, asked))


def instance_parts(c: Constraint) -> tuple[str, str, list[str]]:
    """An ``instance`` constraint's modifier, kind noun and the modifier's words of two
    characters or more (the whole modifier when it has none), normalised."""
    mod, noun = (_norm(x) for x in c.text.split("|", 1))
    return mod, noun, [w for w in instance_words(mod) if len(w) >= 2] or [mod]


def instance_words(mod: str) -> list[str]:
    """The words of an instance's modifier (罗伯小学 → 罗伯, 小学)."""
    return [w.strip() for w, _ in word_tags(mod) if w.strip()]


# a model name: letters, then a figure and what follows it (hi3516dv300, dayu200, niobe407,
# esp32c3 once its separators are out); a release number (v1.44.0: one letter) is none
_MODEL = re.compile(r"(?<![a-z0-9])([a-z]{2,})(\d[a-z0-9]*)(?![a-z0-9])")


# models listed together (「Hi3516DV300/Hi3751V350/Hi3518EV300开发板串口驱动」): a page several
# boards share, named in passing
_MODEL_LIST = re.compile(r"[a-z]+\d[a-z0-9_.\-]*(?:\s*[/、]\s*[a-z]+\d[a-z0-9_.\-]*)+")


def sibling_model(name: str, block: str, said: str) -> bool:
    """Whether ``block`` (its title, labels and text) is about another model of the line
    ``name`` is of, the question's model only in passing (config ``answerability_siblings``):
    the answer does not quote ``name`` (but in a list of models joined by / or 、), and the
    block names one other model of the same letters (hi3751v350 for hi3516dv300, dayu210 for
    dayu200) more often than it does ``name`` — a burning guide of Hi3751V350 naming
    Hi3516DV300 once, in a link to a driver page several boards share, states nothing of
    Hi3516DV300's own options. A model whose name begins with ``name`` or with which ``name``
    begins (esp32c3mini1 of esp32c3) is the same line's. False for a name that is no model (no
    letters then a figure)."""
    from zhiku.verify.forms import joined

    asked = _MODEL.fullmatch(joined(_norm(name)))
    if asked is None or asked.group() in joined(_MODEL_LIST.sub(" ", _norm(said))):
        return False
    own, others = 0, {}
    for m in _MODEL.finditer(joined(_norm(block))):
        model = m.group()
        if model.startswith(asked.group()) or asked.group().startswith(model):
            own += 1
        elif m.group(1) == asked.group(1):
            others[model] = others.get(model, 0) + 1
    return max(others.values(), default=0) > own
