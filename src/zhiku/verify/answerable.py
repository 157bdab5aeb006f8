"""Offline answerability: does the evidence match what the question pins down (its named
subject, place, time and the kind of quantity it asks for), not just its topic?"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from zhiku.retrieve.answertype import FREQUENCY
from zhiku.retrieve.segment import normalise
from zhiku.verify.forms import (
    DAYS as _DAYS, LATIN_NAME as _LATIN_NAME, cn_year as _cn_year,
    day_forms as _day_forms, joined as _joined, loosely_in as _loosely_in, norm as _norm,
    ordinal_forms as _ordinal_forms, place_forms as _place_forms,
)
from zhiku.verify.holders import doer_stated, holds_role, names, pages, scopes, sum_stated, sum_verb
from zhiku.verify.instances import about_other, instance_parts, named_places, own_clauses, sibling_model
from zhiku.verify.lay import act_words, law_words
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import (
    CONTRASTS, MEASURES, TIME_KINDS, Constraint, Kind, bounds, cited_documents, compound_name, contrasts, counted,
    dotted_keys, pinned, scoped, shares, sibling_keys, sibling_measures,
)
from zhiku.verify.provisions import provision, unworded, worded
from zhiku.verify.stated import (
    ADDRESS, ADDRESS_ASKED, AREA, CLOCK, CONDITION, DATE, DAY, EDITION_YEAR, EVENT_PERIOD, HALF, MONEY, NOT_COUNT, REL_YEAR, SHARE,
    DIMENSIONS, EVENT_SPAN, FRACTION, SIZE, SIZED, STAMP, STATED_YEAR, STATUTE_MOMENT, STATUTE_WHEN, UNITS, WHEN,
    noted_unit, relative_years, undated, unit_forms, unit_stated,
)
from zhiku.verify.support import quantities


@dataclass(frozen=True)
class Answerability:
    """The verdict: ``ok`` when one cited block meets every pinned constraint; ``missing``
    what the best block lacks; ``reason`` one sentence saying so."""

    ok: bool
    constraints: tuple[Constraint, ...]
    missing: tuple[Constraint, ...] = ()
    reason: str = ""
_SENTENCE = re.compile(r"[^。！？；\n]+")
# a search snippet's pieces, cut at its elisions (「… 16支参赛队名单 ... 浙江省第二届…」: cut from
# different places of the page)
_PIECE = re.compile(r"(?:[^.…]|(?<!\.)\.(?!\.))+")
_KIND_WORDS = {"money": "金额", "amount": "金额", "person": "人或机构", "country": "国家", "place": "地点", "page": "地点或页面", "age": "年龄", "days": "天数", "people": "人数", "duration": "期限", "frequency": "频次", "hours": "小时数", "size": "大小",
               "date": "时间", "clock": "时间", "when": "时间", "number": "数目", "day": "日期"}



def has_quantity(kind: str, text: str, asked: str = "", posts: bool = False, areas: bool = True,
                 spans: bool = False, fractions: bool = False) -> bool:
    """Whether ``text`` states a value of the quantity kind ``kind`` (for ``person`` and
    ``country``: a name or institution, a country or place, other than those in ``asked``,
    the question's words ``|``-joined; with ``posts`` a post's holder named by the post for a
    person: :func:`zhiku.verify.holders.names`; with ``areas``, a size in the units of land and
    distance too, 平方公里, 公顷, 亩, 公里: :data:`zhiku.verify.stated.AREA`; with ``spans``,
    when as a span between two events too, 「到达医院后至进入诊室前」:
    :data:`zhiku.verify.stated.EVENT_SPAN`; with ``fractions``, a count or a head count as a
    share of a whole too, 「三分之二以上」, 「半数以上」: :data:`zhiku.verify.stated.FRACTION`)."""
    t = undated(normalise(text))
    if kind in ("person", "country", "place"):
        return bool(names(kind, t, asked, posts))
    if kind == "page":  # config ``answerability_look_places``: a place, or a page, site, link, file or menu
        return bool(names("place", t, asked) or pages(t, asked))
    if kind == "when":  # a date, or when in other terms: 「孔雀王朝时期」, 「四国征伐后，」, 「高二的时候」
        return has_quantity("date", text, asked) or bool(WHEN.search(t)) or spans and bool(EVENT_SPAN.search(t))
    if kind == "date":  # an age says when, too (「九岁的一天，…他开始写第一本寓言」)
        if asked and "年" not in asked:  # 「…举办时间」: not the year naming the edition; 「哪一年」 asks it
            t = EDITION_YEAR.sub(" ", t)
        return bool(DATE.search(t) or re.search(r"[\d零〇一二两三四五六七八九十]+\s*(?:周岁|岁)", t))
    if kind == "clock":
        return bool(CLOCK.search(t) or DATE.search(t))
    if kind == "money":
        return bool(MONEY.search(t))
    if kind == "day":  # config ``answerability_days``: a day, not a month or a year alone
        return bool(DAY.search(t))
    if kind == "size":  # config ``answerability_sizes``
        return bool(SIZE.search(t) or SIZED.search(t) or DIMENSIONS.search(t) or areas and AREA.search(t))
    if kind == "amount" and (MONEY.search(t) or re.search(r"百分之[零〇一二两三四五六七八九十百]+|[一二两三四五六七八九十]+倍", t)):
        return True
    if kind in ("number", "people"):  # 12月10日, 2021年: when, not how many; 第二届: which
        t = NOT_COUNT.sub(" ", STAMP.sub(" ", t))
        if not re.search(r"占|比|率|百分", asked):  # 「占全国的26.1%」 is a share, not the total
            t = SHARE.sub(" ", t)
    if kind == "people" and re.search(r"\d+(?:\.\d+)?\s*[万亿]", t):  # 网民规模达10.51亿
        return True
    if fractions and kind in ("number", "people") and FRACTION.search(t):  # 「经三分之二以上的委员通过」
        return True
    if kind == "hours" and re.search(r"半个?(?:小时|钟头)", t):
        return True
    if kind == "frequency":  # config ``answerability_frequencies``: how often, or a period
        return bool(FREQUENCY.search(t)) or has_quantity("duration", text, asked)
    if kind == "duration":
        t = STAMP.sub(" ", t)  # 1995年1月1日 is when, not how long
        if HALF.search(t):
            return True
    found = quantities(t)
    if kind == "number":
        return bool(found) or bool(re.search(r"[一二两三四五六七八九十百千万数]+多?[个种项条支次倍级名人家所]", t))
    units = UNITS.get(kind, set())
    if any(u in units for _, _, u in found):
        return True
    rx = "|".join(sorted(map(re.escape, units), key=len, reverse=True))
    return bool(units) and re.search(rf"[零〇一二两三四五六七八九十百千万\d]\s*(?:{rx})", t) is not None


# a sum stated relative to another (价款的三倍, 日工资的百分之三百, 一个月工资): how a statute states
# what is paid or owed, where a question asks 多少钱
_RELATIVE_SUM = re.compile(r"[\d零〇一二两三四五六七八九十百]+\s*倍|百分之[零〇一二两三四五六七八九十百千]+|"
                           r"[\d零〇一二两三四五六七八九十]+\s*个月的?(?:本人)?(?:工资|薪|收入)")


def other_form(kind: str, text: str) -> bool:
    """Whether ``text`` states a value of quantity kind ``kind`` in the other form a statute
    gives it (config ``answerability_units``): a sum asked (多少钱) as a multiple or share of
    another sum (价款的三倍, 百分之三百, 一个月工资). Other kinds: False (a count of days asked
    is not met by months: 「连续工作满12个月以上的」 is a condition, not the days of leave)."""
    return kind == "money" and _RELATIVE_SUM.search(undated(normalise(text))) is not None


# the kinds of quantity asking when (什么时候; 时间/日期; 哪天) that a statute's time of a rule can answer
_RULE_WHEN = ("when", "date", "day")


def statute_time(c: Constraint, text: str, cons: Sequence[Constraint] = (), periods: bool = False,
                 moments: bool = False) -> bool:
    """Whether ``text`` states when, asked by ``c`` (什么时候/何时, or 时间/日期 of a rule: the
    question pins no place, year, edition or event, :func:`_instance`), in the terms a statute
    states it of a rule (config ``answerability_statute_times``, :data:`STATUTE_WHEN`): from an
    event (「从各自收到判决书、裁定书之日计算」, 「期满时」), at once or at any time (立即, 次日, 随时),
    within a reasonable time; not how long ahead (提前三十日: the notice may be the other party's,
    config ``answerability_rule_times``). A rule states no calendar date; a date
    asked of one instance (「2022年冬奥会开幕时间」) is read as before. Read by :func:`meets` with
    ``statute_times`` on, which :func:`check` asks only of a numbered provision and only for a
    weak mismatch (:func:`statute_timed`). With ``periods`` (config ``answerability_event_periods``)
    also relative to an event as a statute states it (:data:`EVENT_PERIOD`): a period before or
    after the event it names (会议召开十五日前, 选举日的二十日以前, 届满后六个月), from it on (自出生时起);
    not how long ahead with no event named (提前三十日). With ``moments`` (config
    ``answerability_statute_moments``) also at the moment of an event (:data:`STATUTE_MOMENT`:
    「应在解除或终止劳动合同时一次付清」)."""
    if c.kind is not Kind.QUANTITY or c.text not in _RULE_WHEN or c.text != "when" and _instance(cons):
        return False
    t = undated(normalise(text))
    return (STATUTE_WHEN.search(t) is not None or periods and EVENT_PERIOD.search(t) is not None
            or moments and STATUTE_MOMENT.search(t) is not None)


def statute_timed(c: Constraint, block: str, said: str, cons: Sequence[Constraint] = (),
                  opts: CheckOptions = CheckOptions()) -> bool:
    """Whether ``c``, when asked of a rule, is met by what the answer quotes from ``block`` when
    that block is a numbered provision, read with the statute's forms of when
    (:func:`statute_time`, config ``answerability_statute_times``) beside the question's words as
    :func:`meets` reads a time: a weak mismatch, answered at a lower confidence — a statute says
    when from an event of its own (「上诉期从…收到判决书…之日计算」), which may be another step's."""
    return (opts.statute_times and c.kind is Kind.QUANTITY and c.text in _RULE_WHEN and provision(block)
            and meets(c, block, said, cons, opts))


def _dates_event(event: str, kind: str, sentence: str) -> bool:
    """Whether ``sentence`` states its time (``kind``: date or clock) in the clause naming
    ``event`` or the clause beside it: 「安倍晋三获国葬待遇的部分原因，是他的死亡方式，他在7月初
    一次选举活动上遭枪杀」 dates the shooting, not the state funeral. Across a snippet's
    elision (「2022年12月9日，…C919飞机 ... 首架C919虽然已经交付」) the text between is
    unknown: a piece stating the time without naming the event still counts."""
    for piece in _PIECE.findall(normalise(sentence)):
        parts = [_norm(x) for x in re.split(r"[，,；;：:]", piece)]
        timed = [i for i, x in enumerate(parts) if has_quantity(kind, x, event)]
        named = [i for i, x in enumerate(parts) if _loosely_in(event, x)]
        if timed and (not named or any(abs(i - j) <= 1 for i in named for j in timed)):
            return True
    return False


def meets(c: Constraint, block: str, said: str, others: Sequence[Constraint] = (),
          opts: CheckOptions = CheckOptions()) -> bool:
    """Whether one block (its title and text: ``block``) and what the answer quotes from it
    (``said``) meet constraint ``c``: a quantity must be stated in what is quoted (beside
    one of the words it is the quantity of, and not of a person or place other than those
    the question pins, ``others``: :func:`about_other`), a year must be the year the quoted sentences
    name when they name one (「台湾人口于2023年…」 does not answer 2022年) and otherwise appear in
    the block; a leading news dateline counts for neither. ``opts``
    (:class:`zhiku.verify.options.CheckOptions`): ``clauses``, a doer, a role's holder
    and a sum are read in the clause of their act or role (:mod:`zhiku.verify.holders`);
    ``forms``: a role's holder also in the other forms a text names it (:func:`holds_role`);
    ``stems``: a quantity's word also by its last word where the block holds it whole
    (:func:`_head_in`); ``titled``: a quantity's word the block's document title holds counts
    for each of its sentences (:func:`_titled`); ``place_heads``: a quantity's words leave out a
    place the question pins when others are left, as that place is checked on its own
    (「北京小客车摇号现在的中签率大概是多少」: a figure beside 北京 in 「经北京市人民政府指定的部门批准，
    第四至六年可按前项规定的税率…」 is no 中签率); ``units``: a sum also in the other form a statute
    states it (:func:`other_form`); ``acts``: the act a sum is asked of read without a modal the
    segmenter glued to it (该付 → 付: :func:`zhiku.verify.holders.sum_verb`); ``subject_heads``: a
    quantity's words leave out a name the question pins (a product, a quoted title), as
    ``place_heads`` does a place (:func:`_heads`)."""
    if c.kind is Kind.QUANTITY:
        heads = _heads(c, others, opts.place_heads,
                       opts.subject_heads and c.text not in (*TIME_KINDS, "person", "country", "place", "page"))
        if opts.noun_heads and c.of_act and c.text in _SUMS:  # 「一年挣多少钱」: no 一年, 挣 beside the sum
            heads = [h for h in heads if noun_word(h)]
        if opts.lay_acts:  # 「社保一个月要交多少钱」: 要交 is stated as 缴纳
            heads += [w for h in heads for w in act_words(sum_verb(h))]
        # 「噪声多少分贝」: the document's dB, a symbol read as a unit (not the db of IoTDB)
        forms = [f for h in heads for f in unit_forms(h)] if opts.unit_forms else []
        whole = _norm(block)
        named = opts.titled and c.text not in TIME_KINDS and any(_titled(h, block) for h in heads)
        noted = opts.unit_notes and noted_unit(c.text, block)  # 「（单位：人）」 over bare cells
        for sent in _SENTENCE.findall(said) or _SENTENCE.findall(block):
            normed = _norm(sent)
            if (not heads or named or any(_head_in(h, normed, whole, opts.stems, opts.split_heads) for h in heads)
                    or any(unit_stated(f, normed) for f in forms)) and any(
                    (has_quantity(c.text, unnamed(q, opts.articles, opts.addresses, c.about) if opts.counts and c.text == "number"
                                  else unaddressed(q, c.about) if opts.addresses else q, c.about, opts.posts,
                                  opts.size_areas, opts.event_spans, opts.fractions)
                     or opts.units and other_form(c.text, q)
                     or noted and has_quantity("number", q, c.about)
                     or opts.statute_times and statute_time(c, q, others, opts.event_periods, opts.statute_moments))
                    and not about_other(q, others, c.text)
                    for q in (own_clauses(p, others, opts.asked_instances) for p in _PIECE.findall(sent)) if q):
                if (c.text not in TIME_KINDS or len(heads) != 1 or _dates_event(heads[0], c.text, sent)
                        or opts.statute_times and statute_time(c, sent, others, opts.event_periods, opts.statute_moments)):
                    return True
        return False
    if c.kind is Kind.FOCUS:
        return _focus_met(c, _SENTENCE.findall(said or block), others, opts)
    b = _norm(undated(block.strip()))
    if c.kind is Kind.TIME:
        if c.about == "month":
            return month_stated(c.text, block)
        if c.text.isdigit():
            stated = set(STATED_YEAR.findall(undated(normalise(said)))) or relative_years(said, block)
            if stated:
                return c.text in stated
            whole = _norm(block)  # the dateline's year counts here: news of that year
            return c.text in whole or _cn_year(c.text) in whole
        days = _DAYS.get(c.text)
        if days is not None:  # 今天/明天: a statement dated that very day
            return any(f in b for f in _day_forms(days))
        years = REL_YEAR.get(c.text)
        if years is not None:  # 今年/去年: that year, in figures
            return str(dt.date.today().year + years) in b
        return bool(DATE.search(b))  # 本周, 最新一期: only a dated statement can answer it
    if c.kind is Kind.PLACE:
        if any(_norm(f) in b for f in _place_forms(c.text)):
            return True
        return c.about == "opening" and not other_place(block, c.text)
    if c.about == "event":  # the place, then the event (a year or edition may come between)
        place, event = c.text.split("|", 1)
        gap = r"[\d零〇一二三四五六七八九十年届第]{0,8}"
        return any(re.search(re.escape(_norm(f)) + gap + re.escape(_norm(event)), b) for f in _place_forms(place))
    if c.about == "instance":  # the kind noun and a word of the modifier (罗伯小学|枪击案)
        _, noun, words = instance_parts(c)
        return _loosely_in(noun, b) and any(_loosely_in(w, b) for w in words)
    if c.about == "ordinal":
        return any(_norm(f) in b for f in _ordinal_forms(c.text))
    if c.about == "version":  # 「语义化版本 3.0.0」: that very version, not the 2.0.0 of the page
        return _states_figure(_norm(c.text).lstrip("v"), b)
    if c.about == "contrast":
        return contrast_met(c.text, block, opts.contrast_gaps)
    if c.about == "key":
        return key_met(c.text, block)
    if c.about == "bound":
        return bound_met(c.text, block, said)
    if c.about == "share":
        return share_met(said or block, opts.ratios)
    if c.about == "scope":
        return scope_met(c.text, said or block)
    if c.about == "measure":  # 振动 asked: a quote of the noise limits states another quantity
        return measure_met(c.text, said or block)
    if c.about == "counted":  # the thing counted, named where a count is quoted
        return counted_met(c.text, said or block, opts.unit_forms)
    if opts.lay_words and c.about.startswith("tag:") and any(_norm(x) in b for x in law_words(c.text)):
        return True  # 老公: the statute says 配偶; 初中生: 未成年人
    w = _norm(c.text)
    if opts.unit_forms and not c.about and any(unit_stated(f, b) for f in unit_forms(w)):
        return True  # 「超标多少dB」: a unit, which the document writes 分贝
    if w in b or len(w) < 3 or not c.about:  # quoted names and Latin tokens: whole
        if opts.name_values and valued(c.text, block):
            return True  # 「code 101」: the field and that value on one line (「`101`为无文本」 in code's row)
        if w.endswith(".x") and _versioned(w, b, block):
            return True  # a release series the block states (「1.x特性变更」 on the 2.x page): no sibling
        found = w in b or (_LATIN_NAME.fullmatch(w) is not None and _joined(w) in _joined(b)) or _versioned(w, b, block)
        # a model named in passing on another model's page (config ``answerability_siblings``)
        return found and not (opts.siblings and not c.about and sibling_model(w, block, said))
    if opts.near_names and near_name(w, b):  # 二氧化碳 asked, 二氧化硫 stated: a sibling thing
        return False
    grams = [w[i : i + 2] for i in range(len(w) - 1)]  # a tagged name: most of its bigrams
    return sum(g in b for g in grams) >= len(grams) / 2


_NUMERALS = "零〇一二两三四五六七八九十百千"
# an ordinal's numeral in a name: 第九届, 第十四次, 九届 (the ordinal pin reads it)
_ORDINAL_NUMERAL = re.compile(rf"第?[{_NUMERALS}]+[届次期批轮代]")


def near_name(name: str, text: str) -> bool:
    """Whether normalised ``text`` names a word one Chinese character apart from ``name`` (a
    tagged name of three characters or more it does not hold whole; config
    ``answerability_near_names``): 二氧化硫 for 二氧化碳, 丙烯腈 for 丙烯酸 — a sibling chemical or
    product, whose figures are not the one asked's. The word one character apart counts only
    when it is one of the segmenter's dictionary (二氧化硫, 一氧化碳): not the name and the next
    word of a sentence (「张三说」 for 张三丰), nor a variant or a slip of the name's own spelling
    (the document's 「冰淇林」 for 冰淇淋). An ordinal's numeral inside the name
    (第九届…委员会 against 第八届…) is no sibling: the ordinal is pinned and checked on its own."""
    import rjieba

    for i, ch in enumerate(name):
        if not "\u4e00" <= ch <= "\u9fff" or _ORDINAL_NUMERAL.match(name, max(i - 1, 0)) and ch in _NUMERALS:
            continue
        rx = re.escape(name[:i]) + f"(?!{re.escape(ch)})[\u4e00-\u9fff]" + re.escape(name[i + 1:])
        if any(rjieba.has_word(m.group()) for m in re.finditer(rx, text)):
            return True
    return False


def contrast_met(pinned: str, block: str, gaps: bool = False) -> bool:
    """Whether ``block`` (its title and text) may speak of the sibling qualifier the question pins
    (``pinned``: a member of a closed set of :data:`zhiku.verify.pins.CONTRASTS` and the word after
    it, 男|职工): it states that word after the member asked (男职工), or after none of its
    siblings. A block stating it only after a sibling (「女职工生育享受98天产假」 for 「男职工的陪产假
    有多少天」, 「在中国境内接受学历继续教育」 for 境外, 「大型网络平台」 for 中型) states the rule of
    another (config ``answerability_contrasts``). With ``gaps`` (config
    ``answerability_contrast_gaps``) the member asked also meets the word with one or two Chinese
    characters between them that name no sibling (:func:`contrast_gap`): the user's 「农村污水处理
    设施」 is the standard's 「农村生活污水处理设施」, though the same page names 「城镇污水处理厂」."""
    member, word = pinned.split("|", 1)
    b = _norm(block)
    if _norm(member + word) in b:
        return True
    group = next((g for g in CONTRASTS if member in g), ())
    if gaps and contrast_gap(member, word, b, group):
        return True
    return not any(_norm(o + word) in b for o in group if o != member)


def contrast_gap(member: str, word: str, text: str, group: Sequence[str]) -> bool:
    """Whether normalised ``text`` states ``word`` one or two Chinese characters after ``member``,
    with no member of its sibling ``group`` in between (「农村生活污水处理」 for 农村|污水处理,
    「女性职工」 for 女|职工; 「男女职工」 is no 男…职工: the gap names the sibling 女)."""
    rx = re.escape(_norm(member)) + r"([\u4e00-\u9fff]{1,2})" + re.escape(_norm(word))
    return any(not any(o in m.group(1) for o in group if o != member) for m in re.finditer(rx, text))


def counted_met(thing: str, said: str, forms: bool = False) -> bool:
    """Whether what the answer quotes (``said``) may count ``thing``, the noun a count is asked of
    (「多少次代码评审」: 评审; config ``answerability_counted``): it names it, or states no count at
    all (a list of five insurances for 「社保有几个险种」 is read by the other readings). A count
    beside other words only (「有效贡献次数不少于10次」) counts something else. With ``forms``
    (config ``answerability_unit_forms``) a unit asked is also named in its other written form
    (「多少分贝」: 「夜间 45 dB(A)」; :func:`zhiku.verify.stated.unit_forms`)."""
    t = _norm(said)
    return (_loosely_in(_norm(thing), t) or forms and any(unit_stated(f, t) for f in unit_forms(_norm(thing)))
            or not has_quantity("number", unnamed(said, True, True)))


def measure_met(asked: str, said: str) -> bool:
    """Whether what the answer quotes (``said``) may state a figure of ``asked``, a measured
    quantity of :data:`zhiku.verify.pins.MEASURES` (config ``answerability_sibling_measures``): it
    names it, or names none of its siblings. A quote naming only a sibling (「昼间噪声限值为
    55dB(A)」 for 「振动限值是多少」) states that sibling's figure."""
    t = _norm(said)
    group = next(g for g in MEASURES if asked in g)
    return asked in t or not any(o in t for o in group if o != asked)


def key_met(pinned: str, block: str) -> bool:
    """Whether ``block`` may speak of the dotted key the question names (``pinned``: its last
    parent and leaf, check|radiotype): its title — the block's first word, the document's —
    names no other key of that parent (config ``answerability_sibling_keys``). The page of
    setting.check.chkStyle names setting.check.radioType only in passing (「chkStyle = "radio" 时，
    … setting.check.radioType 属性有效」) and states its own default, not radioType's."""
    parent, leaf = pinned.split("|", 1)
    for parts in dotted_keys(block.split(maxsplit=1)[0] if block.strip() else ""):
        if parent in parts[:-1] and parts[-1] != leaf:
            return False
    return True


# how a text bounds a figure from above (不得超过六个月, 不要打印超过160个字符, 最多, 30日以内) and
# from below (不少于10次, 至少, 1年以上)
_NUM = r"[\d零〇一二两三四五六七八九十百千万]+\s*[^\s，。；,;：:]{0,3}"
_UPPER = re.compile(rf"不[^，,。；;]{{0,4}}?(?:超过|多于|高于|长于|大于)|最多|最长|最高|至多|上限|{_NUM}(?:以下|以内|之内)")
_LOWER = re.compile(rf"不[^，,。；;]{{0,4}}?(?:少于|低于|短于|小于)|至少|最少|最短|最低|下限|{_NUM}以上")


def bound_met(asked: str, block: str, said: str) -> bool:
    """Whether what the answer quotes (``said``) may state the bound the question asks of its
    figure (``asked``: 最短 or 至少 asks a lower one, 最长 or 最多 an upper one; config
    ``answerability_bounds``): it does not when it bounds the figure only the other way — 「满三年
    的，试用期不得超过六个月」 states the longest probation, not the shortest — and the block
    nowhere says the asked word itself (「最低工资」 names a wage, not a bound). A quote bounding
    nothing is read as before."""
    lower = asked in ("最短", "最少", "最低", "至少")
    same, other = (_LOWER, _UPPER) if lower else (_UPPER, _LOWER)
    t = _norm(undated(normalise(said or block)))
    return asked in _norm(block) or same.search(t) is not None or other.search(t) is None


# a clause putting a case out of the document's scope (「也不适用分发第三方开源软件的场景」) or sending
# the reader to another text for it (「该场景参见[…引入指导](….md)」, 「详见《…》」), to its clause's end
_OUT_OF_SCOPE = re.compile(r"(?:不适用|参见|详见|请参考|请参阅)[^，,。；;！!？?\n]*")


def scope_met(words: str, said: str) -> bool:
    """Whether what the answer quotes (``said``) speaks of what the question asks (``words``, its
    content words ``|``-joined) outside a clause putting it out of the document's scope or sending
    the reader elsewhere (config ``answerability_scopes``): 「本规范仅适用于OpenHarmony社区，…也不
    适用分发第三方开源软件的场景（该场景参见[第三方开源软件引入指导](…)）」 names 第三方开源软件 only
    to exclude it, and says nothing of the review materials asked. A quote naming none of the
    words at all is read as before (the other readings decide)."""
    heads = [_norm(w) for w in words.split("|") if w]
    t = _norm(normalise(said))
    kept = _norm(_OUT_OF_SCOPE.sub(" ", normalise(said)))
    return not any(_loosely_in(h, t) for h in heads) or any(_loosely_in(h, kept) for h in heads)


# a ratio of two figures (1:7, 1：7 normalised, 3比2, 三比一); a time of day (10:30) is none
_RATIO = re.compile(r"(?<![\d.:])\d+(?:\.\d+)?\s*(?::|比)\s*\d+(?:\.\d+)?(?![\d.:])|"
                    r"(?<![零〇一二两三四五六七八九十])[一二两三四五六七八九十]比[一二两三四五六七八九十](?![零〇一二两三四五六七八九十])")
_CLOCK_TIME = re.compile(r"(?<![\d.:])(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?![\d.:])(?=\s*(?:[ap]\.?m|点|时|前|后|左右|至|到|-|~|—|起|开始|结束|截止))|"
                        r"(?:[上下]午|凌晨|晚上|早上|中午|傍晚)\s*\d{1,2}:\d{2}")
# a share stated: a percentage, a fraction, a tenth, a multiple
_SHARE_STATED = re.compile(r"\d\s*[%％‰]|百分之|千分之|分之[零〇一二两三四五六七八九十\d]|[一二两三四五六七八九十]成|[\d一二两三四五六七八九十]+\s*倍")


def share_met(said: str, ratios: bool = True) -> bool:
    """Whether what the answer quotes states a share (config ``answerability_shares``): a
    percentage (80%, 百分之五十), a fraction (三分之二, 2/3), a tenth (八成) or a multiple (三倍);
    with ``ratios`` (config ``answerability_ratios``) a ratio of two figures too (「男女生比例约为
    1：7」, 3比2: :data:`_RATIO`).
    「…前十二个月的平均工资收入计算」 states none, for 「试用期的工资最低不能低于转正工资的百分之多少」;
    「…在法定工作时间的百分之五十以下」 states one, and meets the count the check reads 多少 as."""
    t = normalise(said)
    return _SHARE_STATED.search(t) is not None or re.search(r"(?<![\d/])\d+\s*/\s*\d+(?![\d/])", t) is not None \
        or ratios and _RATIO.search(_CLOCK_TIME.sub(" ", t)) is not None


def other_place(block: str, place: str) -> bool:
    """Whether ``block`` names a place (a known one, or a tagged place with a place suffix:
    上海市, 衡阳市) other than ``place`` and the places around or within it: a rule of 上海市
    does not answer a question opening with 深圳 (config ``answerability_opening_place``),
    while an article naming no place (刑法's, for a case narrative opening 「江苏省南京市人民检察院
    指控…」) still may."""
    own = [_norm(f) for f in _place_forms(place)]
    return any(not any(o in _norm(p) or _norm(p) in o for o in own) for p in named_places(block))


def month_stated(year_month: str, block: str) -> bool:
    """Whether ``block`` (its title, file name and text) states the month ``year_month``
    (「2025年7月」): with its year (2025年7月, 2025年07月, 2025-07, 2025.7.1, 二〇二五年七月), or
    as 7月/七月 in a block naming that year; a notice of 2025-06 or minutes of 2025-12-04 do not
    state 2025年7月."""
    from zhiku.chunk import int_to_cn

    y, m = re.match(r"(\d{4})年(\d{1,2})月", year_month).groups()
    b = _norm(block)
    n = int(m)
    month = rf"(?:0?{n}|{int_to_cn(n)})"
    if re.search(rf"(?:{y}|{_cn_year(y)})年{month}月|(?<![\d.]){y}[-./]0?{n}(?![\d])", b):
        return True
    return (y in b or _cn_year(y) in b) and re.search(rf"(?<![\d\-./年]){month}月", b) is not None


def _heads(c: Constraint, others: Sequence[Constraint], places: bool, subjects: bool = False) -> list[str]:
    """The words quantity ``c`` is asked of, normalised; with ``places`` without a place the
    question pins (checked on its own: the value must be of the thing), with ``subjects``
    without a name it pins (a Latin or quoted name, a tagged name: 「RocketMQ 控制台的默认端口是多少」
    asks a port, and any figure in a sentence naming RocketMQ is none: ``meets`` leaves them
    out for a figure asked, not for a date, a name or a place, which are read beside the act
    or role asked whoever it is of), unless nothing is left."""
    heads = [_norm(h) for h in c.about.split("|") if h]
    own = [h for h in heads if not any(_norm(x.text) == h and (places and x.kind is Kind.PLACE or subjects and _named(x))
                                       for x in others)]
    return own or heads


# the quantities a sum is asked as (多少钱, 赔多少)
_SUMS = ("money", "amount")


@lru_cache(maxsize=4096)
def noun_word(word: str) -> bool:
    """Whether ``word`` (normalised), one of the words a quantity is asked of, ends in a noun as
    the tagger reads it alone (医院, 智齿, 带薪假: 带薪 + 假, 工资), not a verb (要花, 挣), a
    numeral (一年), a measure (交个, 平米) or a locative (以内): what a value is of is a thing."""
    from zhiku.verify.pins import word_tags

    tags = [t for w, t in word_tags(word) if w.strip()]
    return bool(tags) and tags[-1].startswith(("n", "vn", "j")) and tags[-1] != "nx"


def user_verb(c: Constraint, block: str) -> bool:
    """Whether ``c``, the act a sum is asked of (「一年挣多少钱」: 挣), is the user's verb: the
    cited block nowhere holds its verb (挣; 准备, the word whole), so the statute states the sum by
    its own act (所得, 收入) and the clause cannot be read for the user's (config
    ``answerability_noun_heads``): a weak mismatch, answered at a lower confidence when the sum
    itself is stated. 罚 in a block stating 罚款 is the statute's act and is read as before."""
    from zhiku.verify.holders import sum_verb

    if c.kind is not Kind.FOCUS or c.about != "sum":
        return False
    verb = sum_verb(c.text)
    return bool(verb) and _norm(verb) not in _norm(block)


def _named(c: Constraint) -> bool:
    """A name the question pins that the evidence is checked for on its own and decisively: a
    quoted title, a Latin name, a tagged name (not a phrase of the user's situation)."""
    return c.kind is Kind.SUBJECT and (not c.about or c.about.startswith("tag:"))


def _head_in(head: str, sent: str, block: str, stems: bool, split: bool = False) -> bool:
    """Whether sentence ``sent`` speaks of ``head``, a word the quantity asked is of: it holds
    the word (loosely), or, with ``stems``, the word's last word (献血 of 无偿献血, 工资 of
    最低工资) while its block holds the whole word: a provision names its subject in full once
    and states the value in the next sentence (「国家实行无偿献血制度。国家提倡十八周岁至五十五
    周岁的健康公民自愿献血。」); with ``split``, a verb and its object apart in one clause
    (:func:`_split_in`). All normalised."""
    if _loosely_in(head, sent) or split and _split_in(head, sent):
        return True
    stem = _stem(head) if stems else ""
    return bool(stem) and stem in sent and _loosely_in(head, block)


# how far apart a verb and its object may stand in a clause (承担｜连带赔偿｜责任): the object's qualifier
SPLIT_GAP = 4


def _split_in(head: str, sent: str) -> bool:
    """Whether ``sent`` holds ``head``, a verb and its object of two characters each (承担 + 责任,
    支付 + 工资: the tagger's verb, then its noun), as a statute writes it with the object
    qualified: the verb, then within :data:`SPLIT_GAP` characters of one clause the object
    (「应当承担侵权责任」, 「承担连带赔偿责任」 for 承担责任). Not a word of other length or
    another make (女子单打, 人口密度: no verb; 无偿献血: no object). All normalised."""
    if len(head) != 4 or not _verb_object(head):
        return False
    gap = r"[^，,。；;：:！!？?、\s]{1,%d}" % SPLIT_GAP
    return re.search(re.escape(head[:2]) + gap + re.escape(head[2:]), sent) is not None


@lru_cache(maxsize=4096)
def _verb_object(word: str) -> bool:
    """Whether a four-character ``word`` is a verb of two characters and then its object, a noun of
    two (承担责任, 支付工资, 缴纳保险), as the tagger reads each half alone."""
    from zhiku.verify.pins import word_tags

    verb, obj = word_tags(word[:2]), word_tags(word[2:])
    return (len(verb) == 1 and verb[0][1] == "v" and len(obj) == 1
            and obj[0][1] in ("n", "vn", "nz"))


def _titled(head: str, block: str) -> bool:
    """Whether ``block`` is a numbered provision (its title, then 第…条: :func:`zhiku.chunk.context.block_text`)
    whose title holds ``head``, a word of two characters or more the quantity asked is of:
    every provision of 职工带薪年休假条例 is about 带薪 leave, so its 「已满1年不满10年的，年休假5天」
    states the days of 「一年能休几天带薪假」. An article of an encyclopedia is named for its
    subject, not for what each sentence states (「魏玩的弟弟是谁」 is not met by any sentence
    naming a person there); a text with no title before its first space has none."""
    return len(head) >= 2 and provision(block) and _loosely_in(head, _norm(block.split(maxsplit=1)[0]))


@lru_cache(maxsize=4096)
def _stem(word: str) -> str:
    """The head of a compound of two dictionary words, its last two characters (无偿献血 →
    献血, 最低工资 → 工资), or empty: a shorter word's last characters are seldom a word of
    their own (养老金, 开发商), a longer one's first part seldom one word (经济补偿金)."""
    import rjieba

    ok = len(word) >= 4 and rjieba.has_word(word[-2:]) and rjieba.has_word(word[:-2])
    return word[-2:] if ok else ""


# kinds of place a which-question asks one of (哪些地区, 哪个城市): a place the text names is one
_PLACE_KINDS = ("地区", "地方", "城市", "省市", "省份", "国家", "地点")


def _asked_words(asked: str) -> list[str]:
    """The question's pinned words, ``|``-joined in ``asked``, normalised (what a name must not
    repeat to name something the question does not say)."""
    return [a for a in _norm(asked).split("|") if a]


def _names_one(sentence: str, asked: str) -> bool:
    """Whether ``sentence`` names something the question (its pinned words, ``|``-joined) does
    not: a quoted title (《1973年罗伊诉韦德案》), a Latin name, a word the tagger calls a name
    (a person, a place, an institution)."""
    t = normalise(sentence)
    q = _asked_words(asked)
    if any(not any(m in a for a in q) for m in (_norm(x) for x in re.findall(r"《([^》]{2,40})》", t))):
        return True
    from zhiku.verify.pins import word_tags

    return any(len(w.strip()) >= 2 and tag in ("nr", "nrt", "nrfg", "ns", "nt", "nz", "eng")
               and not any(_norm(w) in a or a in _norm(w) for a in q) for w, tag in word_tags(t))


# a word pointing back to what the clause before named (「推翻了罗伊诉韦德案，这一判例确立了…」)
_BACK = re.compile(r"(?:这|该|此|那)[一个项起宗件]?$")


def kind_named(kind: str, sentence: str, asked: str) -> bool:
    """Whether ``sentence`` names one of the kind a which-question asks (config
    ``answerability_which_named``, for a question pinning one instance or a name: a fact, not a
    rule's list of 职责): where it holds the kind's word, a name the question (its
    words ``|``-joined: ``asked``) does not say — a tagged name, a 《title》, an identifier
    (:func:`_identified`), a person, role or institution (劳动行政部门代表) — stands in a clause holding that word, or in the
    clause before when the word points back to it (「这一判例」); 「…推翻确立堕胎权的判例」
    describes the case and names none. Where it does not hold the word, a name anywhere in it
    (「C罗加盟利雅得胜利」 for 哪个球队: :func:`_names_one`)."""
    t = _norm(undated(normalise(sentence)))
    word = _norm(kind)
    one = lambda text: _names_one(text, asked) or _identified(text, asked) or bool(names("person", text, asked))
    if word not in t:
        return one(t)
    parts = re.split(r"[,，;；]", t)
    for i, part in enumerate(parts):
        for m in re.finditer(re.escape(word), part):
            if _BACK.search(part[: m.start()]) and i > 0 and one(parts[i - 1]):
                return True
    return _sort_named(word, t, asked) or any(one(scope) for scope in scopes(t, word))


def _sort_named(word: str, text: str, asked: str) -> bool:
    """Whether ``text`` (normalised) names a sort of the kind ``word`` by a compound the
    question (its words ``|``-joined: ``asked``) does not say: a word of two characters or more
    right before the kind's word, no 的 between (「简体中文使用直角引号」 names one sort of 引号
    for 「哪种引号」; 「推翻确立堕胎权的判例」 names none)."""
    from zhiku.verify.pins import word_tags

    q = _asked_words(asked)
    said = lambda w: any(w in a or a in w for a in q)
    tags = [(w, tg) for w, tg in word_tags(text) if w.strip()]
    for k, (w, tg) in enumerate(tags):
        if w == word and k > 0:
            prev, ptag = tags[k - 1]
            if len(prev) >= 2 and ptag[:1] in ("n", "a", "b") and not said(prev):
                return True
        elif w.endswith(word) and len(w) >= len(word) + 2 and not said(w[: -len(word)]):
            return True
    return False


# what names one of a kind in a manual: a Latin word with or without figures (KEY2, v1.1.0,
# offsets.json), a path, a port's or a code's figures (8080) — not a year, nor a figure of a date,
# an amount or a count (6月24日, 13球)
_IDENT = re.compile(r"(?<![A-Za-z0-9_.])(?!(?:19|20)\d\d(?!\d))(?:[A-Za-z][A-Za-z0-9_.\-/]*|[~/.]+[A-Za-z0-9_\-][A-Za-z0-9_.\-/]*|"
                    r"\d{2,}(?![\d%\u4e00-\u9fff]|\.\d))")


def _identified(text: str, asked: str) -> bool:
    """Whether ``text`` (normalised) holds an identifier (:data:`_IDENT`) the question (its
    words ``|``-joined: ``asked``) does not say."""
    q = _asked_words(asked)
    return any(not any(m.group() in a for a in q) for m in _IDENT.finditer(text) if len(m.group()) >= 2)


def _focus_met(c: Constraint, sentences: Sequence[str], others: Sequence[Constraint], opts: CheckOptions) -> bool:
    """Whether one of ``sentences`` meets the attribute ``c`` asks for (:func:`meets`): the
    doer of its act or the sum it moved in the act's clause, the holder of its role, or else
    the word itself or its two-character stem (增长率: 「同比增长2.6%」)."""
    asked = next((x for x in others if x.kind is Kind.QUANTITY), Constraint(Kind.QUANTITY, "person", ""))
    if c.about == "sum":
        act = sum_verb(c.text) if opts.acts else c.text
        lay = act_words(act) if opts.lay_acts else ()
        return any(sum_stated(act, t, lambda x: has_quantity(asked.text, x, asked.about)
                              or opts.units and other_form(asked.text, x), lay) for t in sentences)
    if c.about == "act":  # 配合|开展: either act
        return any(doer_stated(_norm(act), asked.text, t, asked.about, opts.clauses)
                   for t in sentences for act in c.text.split("|"))
    if c.about == "role":
        return any(holds_role(c.text, t, asked.about, opts.clauses, opts.forms, opts.posts) for t in sentences)
    stem = _norm(c.text)[:2]
    if c.about == "which":  # the kind named, or one of it named (a place for 哪些地区)
        asked_words = "|".join(x.text for x in others)
        if opts.which_named and _fact(others):
            return any(kind_named(c.text, t, asked_words)
                       or c.text.endswith(_PLACE_KINDS) and names("place", t, asked_words) for t in sentences)
        return any(_loosely_in(_norm(c.text), _norm(t)) or stem in _norm(t) or _names_one(t, asked_words)
                   or c.text.endswith(_PLACE_KINDS) and names("place", t, asked_words) for t in sentences)
    return any(_loosely_in(_norm(c.text), _norm(t)) or stem in _norm(t) for t in sentences)


_NAME_VERSION = re.compile(r"([a-z][a-z0-9\-]*)\s*(v?\d+(?:\.\d+)+|\d+\.x)")


# a Latin name, a space and a whole number (「code 101」, 「errno 2」): a field and its value
_NAME_VALUE = re.compile(r"([a-z][a-z0-9_\-]*)\s+(\d+)")


def valued(text: str, block: str) -> bool:
    """Whether ``block`` states the field ``text`` pins with its value (config
    ``answerability_name_values``): one of its lines names the field and holds that whole
    number, as a table row does (「| code | int | 任务状态码。`100`为成功，`101`为无文本 |」 for
    「code 101」) or an expression (「code==101」); a number written glued to its name (aht10) is
    a model's name and stays whole."""
    m = _NAME_VALUE.fullmatch(normalise(text).casefold().strip())
    if m is None:
        return False
    return any(m.group(1) in line and _states_figure(m.group(2), line)
               for line in normalise(block).casefold().splitlines())


def _versioned(w: str, b: str, block: str = "") -> bool:
    """Whether a Latin name with its version (「sdk 1.0.1」) is in ``b`` as the name and, apart,
    that very version: a release note titled 「…SDK发布说明」 states 「版本 1.0.1」 in a heading;
    a release series (「fastjson 1.x」) as the name and 1.x or one of its releases (1.2), read in
    ``block`` with its spaces (「7.2 1.x特性变更」 is no 21.x)."""
    m = _NAME_VERSION.fullmatch(w)
    if m is not None and m.group(2).endswith(".x"):  # a release series: 1.x, or any 1.y of it
        spaced = normalise(block or b).casefold()
        return m.group(1) in b and re.search(rf"(?<![\d.]){m.group(2)[:-2]}\.(?:x|\d)", spaced) is not None
    return m is not None and m.group(1) in b and _states_figure(m.group(2).lstrip("v"), b)


def _states_figure(figure: str, text: str) -> bool:
    """Whether ``text`` states ``figure`` (a version 1.0.1, a value 101) whole: no digit or
    point goes on either side of it (1.0.1 is not in 11.0.1 or 1.0.12)."""
    return re.search(rf"(?<![\d.]){re.escape(figure)}(?![\d.])", text) is not None


def meets_all(cons: Sequence[Constraint], sentence: str, block: str, opts: CheckOptions = CheckOptions(),
              only: Callable[[Constraint], bool] | None = None, sums: bool = False) -> bool:
    """Whether a sentence of a block (``block``: its title and text) meets every constraint
    in ``cons`` (a quantity in the sentence itself).

    Args:
        cons: the question's constraints (:func:`pinned`).
        sentence: the sentence an answer would quote.
        block: the text of the block holding it.
        opts: the check's readings (:class:`zhiku.verify.options.CheckOptions`), as
            :func:`meets` takes them; besides, ``stems`` off, a quantity's word must be in the
            sentence itself (not only in its block: :func:`_head_in`), and ``provisions``, in a
            numbered provision a value of the kind asked counts without the question's word
            for it, as the check takes it (:func:`check`): 「…年休假5天」 for 「一年能休几天带薪假」;
            ``article_periods``, so does a period asked (:func:`period_stated`).
        only: which of ``cons`` must be met (the others are read as context only); None: all.
        sums: the act a sum is asked of (「…赔多少」: a focus on 赔) must be met too: the sentence
            states a sum in a clause of that act (:func:`_focus_met`), not a fine where damages are
            asked (config ``answer_sum_act``); off, that focus is read as context only.
    """
    opts = replace(opts, statute_times=False)  # the check reads them as a weak mismatch only

    def met(c: Constraint) -> bool:
        where = block if c.kind is not Kind.QUANTITY or opts.stems else sentence
        if meets(c, where, sentence, cons, opts):
            return True
        if opts.article_periods and period_stated(c, block, sentence, cons, opts):
            return True  # a period its provision states, whatever of
        return opts.provisions and worded(c) and provision(block) and meets(Constraint(c.kind, c.text), where,
                                                                            sentence, cons, opts)

    # a literal attribute word is no reason to prefer a sentence; a name of the kind a which-question
    # asks is (config ``answerability_which_named``: 「C罗加盟沙特球队利雅得胜利」 over 「C罗…已打进13球」),
    # in the sentence, or in the block's first line (its title and heading) where that line holds the
    # kind's word (「简体中文使用直角引号」 over 「用法：」; a title merely naming something is no sort named)
    head = block.split("\n", 1)[0]
    headed = lambda c: _norm(c.text) in _norm(head) and _focus_met(c, [head], cons, opts)
    return all(met(c) if c.kind is not Kind.FOCUS else _focus_met(c, [sentence], cons, opts) or headed(c)
               for c in cons if (c.kind is not Kind.FOCUS or opts.which_named and c.about == "which" and _fact(cons)
                                 or sums and c.about == "sum")
               and (only is None or only(c)))


# heads of common nouns for roles and institutions (钟点工, 民政局, 仲裁委) and for kinds of
# name (英文名, 学名): such a word is a kind of thing, even where the tagger calls it a name
_COMMON_HEAD = tuple("工员人者局所院部处站厅委会科队名")
# quantities a rule states as a number (天数, 年龄, 人数, 日期, a price) and places asked for;
# an amount or a period is often a rule instead (「不得超过服务期尚未履行部分所应分摊的培训费用」)
_NUMERIC_KINDS = {"days", "hours", "age", "people", "date", "clock", "when", "money", "country", "size", "day"}
# figures a fact of one instance states (a count, a period, a sum): a name asked for (谁, 在哪)
# may be one the tagger does not know, so it never decides on its own
_FIGURES = {"number", "duration", "frequency", "amount"}


def _instance(cons: Sequence[Constraint]) -> bool:
    """Whether the question pins one instance of its topic: a place, a year, an edition or
    an event (2022年男排亚洲杯, 浙江省第二届龙舟公开赛, 唐山烧烤店打人案) — it asks a fact of that
    instance, not a rule."""
    return any(c.kind in (Kind.PLACE, Kind.TIME) or c.about in ("ordinal", "event") for c in cons)


def _fact(cons: Sequence[Constraint]) -> bool:
    """Whether the question asks a fact, not a rule: it pins one instance (:func:`_instance`) or a
    name (:func:`_named`)."""
    return _instance(cons) or any(_named(x) for x in cons)


def decisive(c: Constraint, cons: Sequence[Constraint] = (), opts: CheckOptions = CheckOptions()) -> bool:
    """Whether missing ``c`` alone shows the documents do not answer: a place, a time, a
    quoted or Latin name, a tagged name that is not a role or institution noun (比亚迪,
    not 钟点工 or 民政局), a count of days, an age, a head count, a date, a sum of money,
    a country asked for. Other mismatches lower the confidence but do not refuse:
    they are often the user's words for what a rule says otherwise (非全日制用工, 婚姻登记
    机关; a rule instead of a sum), a name the tagger does not know (「谁」: 大久保笃), or
    an instance of the attribute asked for (「什么职务」: 省长). A question pinning one
    instance (``cons``, :func:`_instance`: a place, a year, an edition, an event) asks a
    fact, not a rule: there a count, a period or a sum, and an attribute named before 是什么/是哪个
    (「冠军是哪个队」), decide too. The act a sum is asked of (「被罚了多少钱」) decides as that
    sum does. With ``opts.compounds`` (config ``answerability_compounds``) a word the tagger calls a
    person's name that is two common words (法律援助, 初中生: :func:`zhiku.verify.pins.compound_name`)
    does not decide: it is the user's word for a kind of thing a statute names in its own terms.

    Args:
        c: a constraint the evidence misses.
        cons: every constraint the question pins.
        opts: the check's readings (``compounds``: see above)."""
    if c.unworded:  # a value of the kind the provision states, beside another word than the question's
        return False
    if c.about == "document":  # a source the question cites that the knowledge base does not hold
        return True
    if c.kind is Kind.FOCUS and c.about == "sum":  # decides as the sum it is of does
        return any(decisive(x, cons, opts) for x in cons if x.kind is Kind.QUANTITY)
    if c.kind is Kind.FOCUS:  # 「地震的震级」 names what it wants; 「担任什么职务」 wants an instance (省长);
        # 「美国最高法院推翻了哪个堕胎判例」 wants one 判例, of a fact the question pins
        return (c.about in ("named", "role", "act") or c.about == "before" and _instance(cons)
                or c.about == "which" and _fact(cons))
    if c.about in ("event", "contrast", "key", "bound", "counted", "scope", "share", "measure"):  # a sibling's rule (女职工's for 男职工),
        return True  # another key's page, the other bound, a count of another thing
    if c.about in ("instance", "phrase", "gloss"):  # a modifier often pinned on its own; the user's situation;
        return False  # a Latin name's gloss (Highlight 高亮), the name pinned on its own
    if c.kind in (Kind.PLACE, Kind.TIME):
        return True
    if c.kind is Kind.QUANTITY:
        return c.text in _NUMERIC_KINDS or c.text in _FIGURES and _instance(cons)
    if opts.compounds and c.about == "tag:nr" and compound_name(c.text):
        return False
    return not c.about or not c.text.endswith(_COMMON_HEAD)


def check(question: str, cited: Sequence[tuple[str, str]], topic: Sequence[str] = (),
          opts: CheckOptions = CheckOptions(), near: Callable[[str, str], bool] | None = None,
          held: Callable[[str], bool] | None = None) -> Answerability:
    """Does one cited block meet every constraint the question pins?

    Args:
        question: the question.
        cited: per cited block, (its title + text, the answer sentences citing it).
        topic: the question's content terms the evidence does hold (named in the reason).
        opts: how the question and the evidence are read (:class:`zhiku.verify.options.CheckOptions`,
            built once from the config's ``answerability_*`` keys): ``clauses``, read a doer, a
            role's holder and a sum in their act's or role's clause (off, no sum is pinned);
            ``forms``, take a value in the other forms a text states it — when in other terms
            than a date for 什么时候/何时, a role's holder as
            :func:`zhiku.verify.holders.holds_role` reads it (off, a when-question asks a date);
            ``stems``, a quantity's word counts in the sentence stating the value by its last
            word where the block holds it whole (:func:`_head_in`); ``leading_place``, pin the
            place a question opens with when it qualifies the noun after it, outside the asking
            clause; ``titled``, a quantity's word the block's title holds counts
            (:func:`_titled`); ``last_ask``, ``phrases``, ``hours``, ``periods`` and ``months``,
            how the question is read (:func:`zhiku.verify.pins.pinned`; a year with its month
            pins the month, which a cited block must state: :func:`month_stated`);
            ``subject_heads``, a quantity's words leave out a name the question pins, checked
            on its own (:func:`_heads`); ``provisions``, a quantity the best block misses only by
            the question's word for it, where that block is a numbered provision and what the
            answer quotes from it states a value of the kind asked, is a weak mismatch
            (:func:`zhiku.verify.provisions.unworded`): a statute names its subject in its own
            terms (「一年能休几天带薪假」: 「…年休假5天」; 「生孩子能歇多少天」: 「…九十天的产假」);
            ``place_heads``, a quantity's words leave out a place the question pins
            (:func:`meets`); ``units``, a sum also as a multiple or share of another
            (:func:`other_form`): 「价款的三倍」 for 多少钱; ``acts``, the act a sum is asked of
            read without a modal the segmenter glued to it
            (:func:`zhiku.verify.holders.sum_verb`): 「该付多少钱」 asks what is paid (支付), not
            what is 该; ``separators``, a number's thousands separators are taken out of
            the cited blocks before they are read (:func:`unseparated`); ``counts``, a count
            asked (多少, 几个: kind ``number``) is not met by a name's digits, a release number or a
            caption's number (:func:`unnamed`).
        near: with ``opts.near_words``, whether a block holds a word close in meaning to a
            word (:func:`zhiku.verify.near.near_reader`): a word the tagger calls a name that a
            block misses is met by it (:func:`lay_near`).
        held: with ``opts.documents``, whether the knowledge base holds a document of a name
            (:meth:`zhiku.kb.KnowledgeBase.holds_document`): a document the question cites as its
            source (:func:`zhiku.verify.pins.cited_documents`) that it does not hold refuses,
            whatever the blocks say (``about`` ``document``, decisive).

    Returns:
        ``ok`` with nothing missing, or the best block's missing constraints and a
        sentence naming them (「知识库中有「最低工资」的相关内容，但没有 2023 年上海市的信息」).
    """
    cons = tuple(c if opts.forms or c.text != "when" or c.kind is not Kind.QUANTITY  # off: when asks a date
                 else Constraint(c.kind, "date", c.about) for c in pinned(question, opts)
                 if opts.clauses or c.about != "sum")
    absent = tuple(Constraint(Kind.SUBJECT, f"《{d}》", "document") for d in
                   (cited_documents(question) if opts.documents and held is not None else ()) if not held(d))
    if absent:  # 「按照《数据出境安全评估办法》，…」 with no such document: another one's rule is no answer
        return Answerability(False, (*cons, *absent), absent, _reason(absent, topic))
    # sibling qualifiers (男职工, 境外): read by the check alone, so a question whose blocks meet
    # them is answered as before (the composer and the confidence read ``cons``)
    sibs = (*(contrasts(question) if opts.contrasts else ()), *(sibling_keys(question) if opts.sibling_keys else ()),
            *(bounds(question, opts.which_asks) if opts.bounds else ()),
            *(counted(question, opts.which_asks) if opts.counted else ()),
            *(scoped(question) if opts.scopes else ()), *(shares(question) if opts.shares else ()),
            *(sibling_measures(question) if opts.sibling_measures else ()))
    asks_share = any(c.about == "share" for c in sibs)
    if not cons and not sibs:
        return Answerability(True, cons)
    if not cited:  # nothing quoted: only what the question pins itself is missing
        return Answerability(not cons, cons, cons, _reason(cons, topic) if cons else "")
    if opts.separators:  # 「最高1,000,000元」: one sum, not three clauses
        cited = [(unseparated(block), unseparated(said)) for block, said in cited]
    best: tuple[Constraint, ...] | None = None
    plain = replace(opts, statute_times=False)  # the statute's forms of when: a weak mismatch only
    for block, said in cited:
        missed = [c for c in sibs if not meets(c, block, said, cons, plain)]
        for c in cons:
            where = _unechoed(c, question, block, said)
            if meets(c, *where, cons, plain) and not (opts.year_beside and not year_beside(c, cons, block, said, opts)):
                continue
            if asks_share and c.kind is Kind.QUANTITY and c.text == "number" and share_met(said or block, opts.ratios):
                continue  # 「百分之多少」 asks a share: 「百分之五十以下」 states one
            if opts.near_words and near is not None and lay_near(c, block, near):
                continue
            # the period its provision states, the sum of an act in the user's verb: a weak
            # mismatch, never decisive
            weak = (opts.article_periods and period_stated(c, *where, cons, opts)
                    or opts.article_times and time_stated(c, *where, cons, opts)
                    or opts.condition_times and condition_time(c, *where, cons, opts)
                    or opts.effect_times and effect_time(c, where[1] or where[0], question)
                    or opts.noun_heads and user_verb(c, where[0])
                    or opts.rule_times and rule_time(c, *where, cons)
                    or opts.rule_doers and rule_doer(c, question, block)
                    or statute_timed(c, *where, cons, opts))
            missed.append(replace(c, unworded=True) if weak else c)
        miss = tuple(missed)
        if best is None or _rank(miss) < _rank(best):
            best = miss
        if not miss:
            return Answerability(True, cons)
    assert best is not None
    if opts.provisions:
        loose = unworded((*cons, *sibs), cited, lambda c, b, s: meets(c, *_unechoed(c, question, b, s), cons, plain))
        if loose is not None:
            return Answerability(False, *loose, _reason(loose[1], topic))
    return Answerability(False, (*cons, *sibs), best, _reason(best, topic))



# figures that count nothing: the digits of a name (DAYU210, Hi3516DV300, v1.44.0, esp32-c3), a
# release number (4.3.2), a figure's or table's caption number (图2, 表3-1), an answer's marker ([1]),
# a link (…/issues/362#issuecomment-448185416)
_NAME_FIGURE = re.compile(r"https?://[^\s)\]>]+|[A-Za-z_][A-Za-z0-9_.\-]*\d[A-Za-z0-9_.\-]*|(?<![\d.])\d+(?:\.\d+){2,}(?![\d.])|"
                          r"[图表]\s*\d+(?:[-.]\d+)*|\[\d+\]")


def unnamed(text: str, articles: bool = False, addresses: bool = False, asked: str = "") -> str:
    """``text`` without the figures that count nothing (config ``answerability_counts``): a
    name's digits, a release number, a caption's number, a marker, a link. 「DAYU210开发板的工作温度范围是
    多少？」 was met by 「图2：润和HH-SCDAYU210开发板正面外观图」, 「Arthas 的商业技术支持热线电话是多少？」 by
    「从 Arthas 4.3.2 开始，…」 and by a link's issue number. A figure with its unit (16MB, 115200)
    stays. With ``articles`` (config ``answerability_articles``) 一个/一种 read as the
    indefinite article is left out too (:func:`unarticled`); with ``addresses`` (config
    ``answerability_addresses``) a network address with its port (127.0.0.1:8848, localhost:9876:
    :data:`zhiku.verify.stated.ADDRESS`) as well, unless ``asked`` (the question's words, ``|``-joined)
    asks for a port or an address (端口, 地址, ip)."""
    text = _NAME_FIGURE.sub(" ", unaddressed(text, asked) if addresses else text)
    return unarticled(text) if articles else text


def unaddressed(text: str, asked: str = "") -> str:
    """``text`` without its network addresses (config ``answerability_addresses``): the figures of
    127.0.0.1:8848 or localhost:9876 name a machine and its port, not how many or how much of
    anything — 「Nacos 集群最少要部署几个节点？」 was met by 「curl '127.0.0.1:8848/nacos/v1/ns/raft/state'」.
    Kept when ``asked`` (the question's words) asks for a port or an address (「控制台的默认端口是多少」)."""
    return text if ADDRESS_ASKED.search(asked.lower()) else ADDRESS.sub(" ", normalise(text))


# 一个/一种 not inside a longer number (十一个, 第一个): a count or the indefinite article
_ONE = re.compile(r"(?<![零〇一二两三四五六七八九十百千万\d第])一\s*[个种](?!月)")
# the words that make 一个 a count: a bound (至少一个, 最多一个, 只能有一个), each (每…一个), a total
_BOUND = re.compile(r"至少|最少|最多|至多|不超过|不少于|超过|多于|少于|只|仅|唯一|每|共|合计|总共|有且")


def unarticled(text: str) -> str:
    """``text`` without 一个/一种 where it is the indefinite article (「做了一个字符串拼接」, 「是一种
    消息中间件」: a thing, not one of it), so a count asked (多少, 几个) is not met by it; kept where
    the four characters before it bound or total a count (「至少一个节点」, 「只能有一个」, 「每个组一个」)
    or it ends its clause (「…的数量为一个。」). 一个月 is a period and stays."""
    def keep(m: re.Match[str]) -> str:
        before, after = text[max(0, m.start() - 4): m.start()], text[m.end(): m.end() + 1]
        return m.group() if _BOUND.search(before) or not after or after in "，。；,;.!！?？、）)" else " "
    return _ONE.sub(keep, text)


# a thousands separator inside a number (1,000,000; 10，000): a comma between a digit and three
# digits that end the number or come before another such group
_SEPARATOR = re.compile(r"(?<=\d)[,，](?=\d{3}(?:[,，]\d{3})*(?!\d))")


def unseparated(text: str) -> str:
    """``text`` with the thousands separators of its numbers taken out (「最高1,000,000元」 →
    「最高1000000元」; config ``answerability_separators``): the check reads a sum in the clause of
    its act, and clauses are cut at commas, so a separated sum was three clauses of which only the
    last held its unit (「1」, 「000」, 「000元」) and none beside 奖励 stated a sum. A comma not
    followed by exactly three digits (「第1,2项」) stays."""
    return _SEPARATOR.sub("", text)


def lay_near(c: Constraint, block: str, near: Callable[[str, str], bool]) -> bool:
    """Whether ``c``, a word the tagger calls a name (not quoted, not Latin, not a place, not a
    phrase of the user's situation), is met by a noun of ``block`` close to it in meaning
    (``near``: :func:`zhiku.verify.near.near_reader`, config ``answerability_near_words``):
    宝宝 by 婴儿, 租客 by 承租人 — the statute names the same people in its own word."""
    return (c.kind is Kind.SUBJECT and c.about.startswith("tag:") and not _LATIN_NAME.fullmatch(_norm(c.text))
            and near(c.text, block))


def rule_doer(c: Constraint, question: str, block: str) -> bool:
    """Whether ``c``, a name the question pins (a Latin or tagged name), is the doer of the act it
    asks of (the name right before its verb: 「App 收集不满十四岁孩子的个人信息要经过谁同意」) and
    ``block`` a numbered provision stating that act (收集): a statute states the rule for whoever
    does it (网络数据处理者, or no doer at all), never of the user's app or brand, so the name is a
    weak mismatch, answered at a lower confidence (config ``answerability_rule_doers``). A name
    that does not open an act (「比亚迪汽车质保多久」) is read as before."""
    if c.kind is not Kind.SUBJECT or c.about and not c.about.startswith("tag:") or not provision(block):
        return False
    from zhiku.verify.pins import word_tags

    tags = [(w.strip(), t) for w, t in word_tags(normalise(question)) if w.strip()]
    b = _norm(block)
    return any(_norm(w) == _norm(c.text) and t == "v" and len(act) >= 2 and _norm(act) in b
               for (w, _), (act, t) in zip(tags, tags[1:]))


def _rank(miss: Sequence[Constraint]) -> tuple[int, int]:
    """How far a block's misses are from an answer: the misses that may decide first (a period
    its provision states only lowers the confidence: :func:`period_stated`), then all of them."""
    return sum(not c.unworded for c in miss), len(miss)


# the periods a question asks (几天, 多久) that a statute states of its own subject
_PERIODS = ("days", "duration", "frequency")
# when asked (什么时候, 何时)
_WHEN = ("when",)


def _asked_of_provision(c: Constraint, kinds: Sequence[str], block: str, cons: Sequence[Constraint]) -> bool:
    """Whether ``c`` is a quantity of one of ``kinds`` asked of a rule and ``block`` a numbered
    provision: the guard of the readings that take what a provision states of its own subject
    as a weak answer (:func:`period_stated`, :func:`time_stated`, :func:`condition_time`,
    :func:`rule_time`). A time (``when``) is asked of a rule where the question pins no place,
    year, edition or event (:func:`_instance`); a period always is."""
    return (c.kind is Kind.QUANTITY and c.text in kinds and (c.text != "when" or not _instance(cons))
            and provision(block))


def period_stated(c: Constraint, block: str, said: str, cons: Sequence[Constraint] = (),
                  opts: CheckOptions = CheckOptions()) -> bool:
    """Whether quantity ``c``, a period asked (几天, 多久: :data:`_PERIODS`), is met by what the
    answer quotes from ``block`` when that block is a numbered provision: a period of that kind
    stated there, read as :func:`meets` reads it, whatever the statute states it of (config
    ``answerability_article_periods``). People ask in their words (「生孩子能在家歇多少天」), the
    statute states the period of its own subject (「女职工生育享受不少于九十天的产假」). The
    composer prefers such a sentence (:func:`meets_all`); the check reads it as a weak mismatch,
    answered at a lower confidence, since any period a provision states reads so (劳动法 第三十八条's
    weekly 「休息一日」 for 「一年能休几天带薪假」)."""
    return (_asked_of_provision(c, _PERIODS, block, cons)
            and meets(Constraint(c.kind, c.text), block, said, cons, opts))


def time_stated(c: Constraint, block: str, said: str, cons: Sequence[Constraint] = (),
                opts: CheckOptions = CheckOptions()) -> bool:
    """Whether ``c``, when asked of a rule (什么时候, 何时: kind ``when``; the question pins no
    place, year, edition or event, :func:`_instance`), is met by what the answer quotes from
    ``block`` when that block is a numbered provision: a time stated there in any form
    :func:`meets` reads (a date, a time limit, from an event, with ``statute_times`` a statute's
    forms), whatever the statute states it of (config ``answerability_article_times``). People
    ask in their words (「什么时候要交仲裁费」), the statute names the act in its own
    (「申请人应当自收到仲裁委员会受理通知书之日起15日内…预交案件受理费」): a weak mismatch, answered
    at a lower confidence, as :func:`period_stated` reads a period. The composer does not read it
    (:func:`meets_all`): any time a provision states would read so."""
    return (_asked_of_provision(c, _WHEN, block, cons)
            and meets(Constraint(c.kind, c.text), block, said, cons, opts))


def condition_time(c: Constraint, block: str, said: str, cons: Sequence[Constraint] = (),
                   opts: CheckOptions = CheckOptions()) -> bool:
    """Whether ``c``, when asked of a rule (什么时候, 何时: kind ``when``; no place, year, edition
    or event pinned, :func:`_instance`), is answered by what the answer quotes from the numbered
    provision ``block`` with the condition or event the duty or right asked follows
    (:data:`zhiku.verify.stated.CONDITION`, config ``answerability_condition_times``):
    「不动产登记证书什么时候发？」 — 「不动产登记机构完成登记，应当依法向申请人核发不动产权属证书」, when
    registration is done. One of the question's words must stand after the duty's modal and not in
    the condition: 「用人单位安排加班的，应当…支付加班费」 says what follows overtime, not when
    「公司什么时候可以安排加班」 (加班 is the condition itself). A weak mismatch, answered at a lower
    confidence: a condition is when, not a time. Every word of the question must stand in that
    sentence: a condition says when only of the act it names (「设立公司，应当…申请设立登记」 is no
    answer to when a company must register its staff for social insurance)."""
    if not _asked_of_provision(c, _WHEN, block, cons):
        return False
    heads = _heads(c, cons, opts.place_heads)
    for sent in _SENTENCE.findall(normalise(said)):
        if not all(_loosely_in(h, _norm(sent)) for h in heads):
            continue
        for m in CONDITION.finditer(sent):
            cond, duty = _norm(m.group(1)), _norm(m.group(2))
            if any(_loosely_in(h, duty) and not _loosely_in(h, cond) for h in heads):
                return True
    return False


# the effect a when-question asks the moment of: the verb right after 什么时候/何时 (生效, 触发)
_EFFECT_ASK = re.compile(r"(?:什么时候|啥时候|何时)(?:会|才|才会|能|可以)?([\u4e00-\u9fff]{2})")


def effect_time(c: Constraint, said: str, question: str) -> bool:
    """Whether ``c``, when asked of an effect (「setting.async.url什么时候生效？」: kind ``when``,
    the verb after 什么时候), is answered by what the answer quotes (``said``) stating the
    condition it happens on, the question's verb right after 时, 后 or 前 (「[setting.async.enable
    = true 时生效]」, 「重启后生效」; config ``answerability_effect_times``): a manual states when
    a setting applies or an event fires by its condition, not by a date. A weak mismatch,
    answered at a lower confidence: a condition is when, not a time. The verb before 时
    (「生效时…」) says what happens then, not when it does."""
    if c.kind is not Kind.QUANTITY or c.text != "when":
        return False
    m = _EFFECT_ASK.search(question)
    if m is None:
        return False
    verb = re.escape(m.group(1))
    return re.search(rf"(?:时|后|之后|以后|前|之前)\s*(?:才|会|才会|即可|就)?\s*{verb}", said) is not None


# when a rule states in its own terms: how long from an event (提前三十日, 十五日, 三个月) or
# how often (按月, 每年)
_RULE_TIME = re.compile(r"[零〇一二两三四五六七八九十百\d]+\s*个?(?:年|月|日|天|周|小时|工作日)|"
                        r"按(?:日|天|周|月|季|季度|年)|每(?:日|天|周|星期|月|季度|年)|当[日天月年]|次[日月年]")


def rule_time(c: Constraint, block: str, said: str, cons: Sequence[Constraint] = ()) -> bool:
    """Whether ``c``, when asked (什么时候, 何时: kind ``when``) of a rule — the question pins no
    place, year, edition or event (:func:`_instance`) — is stated by the numbered provision
    ``block`` in its own terms in what the answer quotes from it (``said``): how long from an
    event (「用人单位应当自…之日起三十日内」, 「提前三十日以书面形式通知」) or how often (「按月支付」)
    (config ``answerability_rule_times``). A weak mismatch, answered at a lower confidence: the
    period may be of another step of the rule. A date asked (几月, 几号, 哪天) is read as before."""
    return (_asked_of_provision(c, _WHEN, block, cons)
            and _RULE_TIME.search(undated(normalise(said or block))) is not None)


# the attributes a year is asked of: the one named (「2021赛季中超冠军」), before 是什么, after
# 哪个, a role's holder, an act's doer
_ATTRIBUTES = ("named", "before", "which", "role", "act", "asked")


def year_beside(c: Constraint, cons: Sequence[Constraint], block: str, said: str, opts: CheckOptions) -> bool:
    """Whether a year the question pins (``c``) stands in a quoted sentence stating what is asked
    of it — the attribute (冠军, 震级) or the figure — as a figure or a relative year the block's
    dateline dates (config ``answerability_year_beside``): 「卫冕冠军江苏苏宁…赛季前解散」 names a
    champion in a page about the 2021 season, but the champion of the season before. True for
    any other constraint, or where the question asks nothing beside the year, or a time (the
    year is then part of the answer)."""
    if c.kind is not Kind.TIME or not c.text.isdigit():
        return True
    asked = [a for a in cons if a.kind is Kind.FOCUS and a.about in _ATTRIBUTES
             or a.kind is Kind.QUANTITY and a.text not in TIME_KINDS]
    if not asked or any(a.kind is Kind.QUANTITY and a.text in TIME_KINDS for a in cons):
        return True
    for sent in _SENTENCE.findall(normalise(said)):
        if all(meets(a, block, sent, cons, opts) for a in asked):
            years = set(STATED_YEAR.findall(undated(sent))) or relative_years(sent, block)
            if c.text in years:
                return True
    return False


def _unechoed(c: Constraint, question: str, block: str, said: str) -> tuple[str, str]:
    """``block`` and ``said`` without the question's own words where they repeat it whole (a
    page titled 「卡塔尔世界杯决赛队伍」 names the attribute asked for only by echoing the
    question): a quantity or an attribute must be stated beyond the echo."""
    echo = re.sub(r"[？?。！!\s]+$", "", normalise(question).strip())
    if c.kind not in (Kind.QUANTITY, Kind.FOCUS) or len(echo) < 6:
        return block, said
    return normalise(block).replace(echo, " "), normalise(said).replace(echo, " ")


def _reason(missing: Sequence[Constraint], topic: Sequence[str]) -> str:
    """「知识库中有「最低工资」的相关内容，但没有 2023 年、上海市的信息」."""
    names = [f"{c.text} 年" if c.kind is Kind.TIME and c.text.isdigit()
             else c.text.split("|")[-1] if c.about == "key"  # check|radiotype: radiotype
             else c.text.replace("|", "或" if c.about == "act" else "")  # 配合或开展; 北京奥运会
             for c in missing if c.kind is not Kind.QUANTITY]
    names = list(dict.fromkeys(names))  # a name pinned twice (a tag and a sibling's miss) is named once
    qty = [_KIND_WORDS[c.text] for c in missing if c.kind is Kind.QUANTITY]
    what = "、".join(names)
    tail = (f"{what}的{qty[0]}" if what and qty else what + "的信息" if what else f"问题所问的{qty[0]}")
    have = "、".join(f"「{t}」" for t in topic[:3])
    return f"知识库中有{have}的相关内容，但没有{tail}" if have else f"知识库中没有{tail}"