"""Offline answerability: does the evidence match what the question pins down (its named
subject, place, time and the kind of quantity it asks for), not just its topic?"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from zhiku.registry import Choice
from zhiku.retrieve.segment import QUESTION_WORDS, normalise
from zhiku.verify.support import quantities


class Kind(Choice):
    """What a question pins down."""

    SUBJECT = "subject"
    PLACE = "place"
    TIME = "time"
    QUANTITY = "quantity"
    FOCUS = "focus"  # the attribute asked for (「地震的震级」): the quoted text must name it

    @classmethod
    def label(cls) -> str:
        """Name used in error messages."""
        return "constraint kind"


@dataclass(frozen=True)
class Constraint:
    """One thing the answer must be about: ``text`` must appear in the evidence (subject,
    place, time), or a value of ``text``'s kind in the cited sentence (quantity: ``amount``,
    ``days``, ``duration``, ``age``, ``people``, ``date``, ``number``)."""

    kind: Kind
    text: str
    about: str = ""  # quantity: the word it is the quantity of (年假 in 「年假有多少天」)


@dataclass(frozen=True)
class Answerability:
    """The verdict: ``ok`` when one cited block meets every pinned constraint; ``missing``
    what the best block lacks; ``reason`` one sentence saying so."""

    ok: bool
    constraints: tuple[Constraint, ...]
    missing: tuple[Constraint, ...] = ()
    reason: str = ""


# the clause that asks: the last one holding a question word (context clauses before it,
# 「我在北京上班，…」, are not what the answer is about)
_ASK = re.compile(r"什么|哪|谁|多少|多久|多长|多大|几|怎么|如何|吗|呢|是否|能否|有没有|？|\?|时间$")
_STRONG = re.compile(r"哪|谁|多少|多久|几|(.)不\1")  # 会不会, 要不要: an A-not-A question
_NOT_ASK = re.compile(r"好几|几乎|几经|几何|没多少|多少有")
_LATIN = re.compile(r"[a-z][a-z0-9\-]*(?:\s?[0-9]+[a-z0-9]*)?|[0-9]+[a-z][a-z0-9\-]*")
_GENERIC = {"中国", "我国", "全国", "国内", "城市", "国家", "地区", "省市", "当地", "本地", "外地"}
# words the tagger takes for places that name none (依照外国法律: which country?)
_NO_PLACE = {"外国", "国外", "海外", "各国", "他国", "本国", "国内", "当地", "本地", "外地", "境外", "境内"}
_QUOTED = re.compile(r"《([^》]{1,30})》|“([^”]{1,30})”|「([^」]{1,30})」|\"([^\"]{1,30})\"")
_YEAR = re.compile(r"(?<![\d.])((?:19|20)\d{2})(?![\d.])")
_RELATIVE = re.compile(r"今天|明天|昨天|今年|去年|明年|本周|下周|本月|下个月|目前最新|最新一期")
_NAME_TAGS = {"nr", "nrt", "ns", "nt", "nz", "eng"}
_PLACE_SUFFIX = re.compile(r"(?:省|市|自治区|特别行政区|县|区)$")
# question phrasing → the kind of quantity the answer states
_QTY = [
    ("money", re.compile(r"多少钱|多少元|价格|售价|价钱|票价|收费多少")),
    ("amount", re.compile(r"多少费用|罚.{0,3}多少|赔.{0,3}多少|"
                          r"(?:工资|标准|费用|金额|补偿金?|赔偿金?|罚款)(?:是|有|为|大概|一般)*多少")),
    ("age", re.compile(r"几岁|多少岁|几周岁|多少周岁|多大年[龄纪]|年龄是多少|年龄多大|法定年龄")),
    ("days", re.compile(r"多少天|几天|多少日|几日")),
    ("people", re.compile(r"多少人|几个人|几人|多少名")),
    ("duration", re.compile(r"多久|多长时间|多长的|多少年|几年|几个月|多少个月|几周|几个小时|多少小时|多少分钟|期限多长|多长$")),
    ("clock", re.compile(r"几点|几时|星期几|周几|礼拜几")),
    ("date", re.compile(r"什么时候|何时|哪天|哪一天|哪一?年|几月|几号|日期|时间$|时间是|开幕时间|时间？")),
    ("country", re.compile(r"哪个国家|哪些国家|哪国|什么国家|研发国家|国籍")),
    ("person", re.compile(r"谁|哪位|哪些人|(?:主演|导演|编剧|作者|扮演者|得主|创始人|创办人)(?:是|有|都|$)")),
    ("number", re.compile(r"多少|几[个种项条支次倍级]")),
]
_UNITS = {
    "amount": {"元", "万元", "万", "亿", "%", "倍"},
    "age": {"岁", "周岁"},
    "days": {"日", "天", "个工作日"},
    "people": {"人", "名"},
    "duration": {"年", "个月", "月", "日", "天", "周", "小时", "分钟", "个工作日"},
}
_MONEY = re.compile(r"[\d零〇一二两三四五六七八九十百千万亿]+(?:\.\d+)?\s*(?:万|亿)?\s*(?:元|块|美元|日元|日圆|欧元|英镑|港元|韩元|卢布)")
_DATE = re.compile(r"\d{1,2}\s*月\s*\d{1,2}\s*日|[零〇一二三四五六七八九十]{1,3}月[一二三四五六七八九十]{1,3}日|"
                   r"(?<!\d)(?:1\d{3}|20\d{2})\s*年|\d{1,2}\s*月|[一二三四五六七八九十正]+月|"
                   r"[春夏秋冬]季|[春夏秋冬]天|世纪|年代|[零〇一二三四五六七八九十百]+年|[唐宋元明清汉隋晋][代朝初末]")
# a weekday or an hour says when only to a question asking for one (几点, 星期几)
_CLOCK = re.compile(r"[上下]午|周[一二三四五六日]|星期|\d{1,2}\s*[点时](?:\d|整|半)?")

_HALF = re.compile(r"半(?:年|个月|天|小时)|[一二两三四五六七八九十]+(?:个)?(?:年|月|日|天|周|小时)")
_SENTENCE = re.compile(r"[^。！？；\n]+")
_PLACE_SUFFIX_STRICT = re.compile(r"(?:省|市|自治区|特别行政区|县|州|国|岛)$")
PLACES = frozenset("""北京 上海 天津 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南
    广东 海南 四川 贵州 云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 香港 澳门 深圳 广州 杭州 南京 武汉
    成都 西安 苏州 厦门 青岛 大连 宁波 长沙 郑州 济南 沈阳 哈尔滨 昆明 乌镇 唐山 美国 英国 法国 德国 日本 韩国
    俄罗斯 印度 澳大利亚 新西兰 加拿大 意大利 西班牙 土耳其 马来西亚 新加坡 泰国 越南 巴西 卡塔尔 巴黎 伦敦 纽约
    东京 首尔 莫斯科 乌克兰 朝鲜 菲律宾 印尼 印度尼西亚 以色列 伊朗 埃及 南非 墨西哥 阿根廷""".split())
_KIND_WORDS = {"money": "金额", "amount": "金额", "person": "人或机构", "country": "国家", "place": "地点", "age": "年龄", "days": "天数", "people": "人数", "duration": "期限",
               "date": "时间", "clock": "时间", "number": "数目"}


def asking_clause(question: str) -> str:
    """The clauses of ``question`` that ask: each one closed by a question mark, the last
    one, and any holding 哪/谁/多少/几 (context clauses, 「我在北京上班，…」, are left out)."""
    pieces = re.findall(r"([^，,；;。！!？?]+)([？?]?)", question.strip())
    parts = [(p.strip(), bool(q)) for p, q in pieces if p.strip()]
    if not parts:
        return question
    out = [p for i, (p, q) in enumerate(parts)
           if q or i == len(parts) - 1 or _STRONG.search(_NOT_ASK.sub("", p))]
    return "，".join(out)


@lru_cache(maxsize=4096)
def _tags(text: str) -> tuple[tuple[str, str], ...]:
    import rjieba

    return tuple(rjieba.tag(text))


def pinned(question: str) -> tuple[Constraint, ...]:
    """Everything the asking clause of ``question`` pins down.

    Args:
        question: the user's question.

    Returns:
        Constraints in the order subject/place, time, quantity (at most one quantity).
    """
    clause = asking_clause(normalise(question))
    out: list[Constraint] = []
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(clause)]
    out += [Constraint(Kind.SUBJECT, q.strip()) for q in quoted if q.strip()]
    rest = _QUOTED.sub(" ", clause)
    latin = [m.group().strip() for m in _LATIN.finditer(rest.casefold()) if len(m.group().strip()) >= 2]
    out += [Constraint(Kind.SUBJECT, w) for w in latin if not _YEAR.fullmatch(w)]
    for word, tag in _tags(rest):
        word = word.strip()
        if (tag not in _NAME_TAGS or tag == "eng" or word in QUESTION_WORDS or word in _GENERIC
                or len(word) < 2 or _YEAR.fullmatch(word)):
            continue
        if word in PLACES or _PLACE_SUFFIX_STRICT.search(word) and tag == "ns":
            out.append(Constraint(Kind.PLACE, word))
        elif tag != "ns":
            out.append(Constraint(Kind.SUBJECT, word, f"tag:{tag}"))
    out += [Constraint(Kind.SUBJECT, m.group(), "ordinal") for m in _ORDINAL.finditer(rest)]
    out += [Constraint(Kind.TIME, y) for y in dict.fromkeys(_YEAR.findall(rest))]
    out += [Constraint(Kind.TIME, m.group()) for m in _RELATIVE.finditer(rest)]
    found = next(((k, m) for k, rx in _QTY if (m := rx.search(clause))), None)
    if found is None and (where := _WHERE.search(clause)):
        found = ("place", where)
    out += _events(rest)
    if found:
        event = _event(clause) if found[0] in ("date", "clock") else ""
        out.append(Constraint(Kind.QUANTITY, found[0], event or _head(clause, found[1].start())))
        if found[0] == "person" and (role := _role(clause)):
            out.append(Constraint(Kind.FOCUS, role, "role"))
    elif focus := _focus(rest):
        out.append(Constraint(Kind.FOCUS, *focus))
    return tuple(dict.fromkeys(out))


# an event a place names (北京冬奥会, 成都大运会, 马来西亚公开赛): the place of another event,
# or the event held elsewhere, does not answer (「共青团北京市委…冬奥会金牌得主」)
_EVENT_NOUN = re.compile(r"[\u4e00-\u9fff]*(?:会|赛|杯|节|展)$")


def _events(rest: str) -> list[Constraint]:
    """Each place word directly followed by an event noun, as one subject (``about``
    ``event``; the text is place|event)."""
    tags = [(w.strip(), t) for w, t in _tags(rest) if w.strip()]
    return [Constraint(Kind.SUBJECT, f"{w}|{nxt}", "event") for (w, t), (nxt, _) in zip(tags, tags[1:])
            if (w in PLACES or t == "ns") and w not in _GENERIC and len(nxt) >= 2 and _EVENT_NOUN.fullmatch(nxt)]


def _event(clause: str) -> str:
    """What a date question asks the time of: the word before 时间/日期, past 的 and single
    characters (「成都大运会开幕时间」 → 开幕, 「首架C919的交付日时间」 → 交付); the cited
    sentence giving the date must name it, or it dates something else (ticket sales, not
    the opening). Empty when none."""
    words = [w.strip() for w, _ in _tags(clause) if w.strip()]
    at = next((i for i, w in enumerate(words) if w in ("时间", "日期")), 0)
    before = [w for w in words[:at] if len(w) >= 2]
    if not before or before[-1] in QUESTION_WORDS or _QTY_WORD.search(before[-1]) or _YEAR.search(before[-1]):
        return ""
    return before[-1]


# the role a 「谁」 question asks for (「开幕式总导演是谁」, 「主演有哪些」, 「…的主演」): a name
# the evidence gives in another role (the festival's ambassador, a character) does not answer
_ROLE_ASK = re.compile(r"(?:是|有|都有|还有)(?:谁|哪些人?|哪位)[？?呢]*$")
_ROLE_WORD = re.compile(r"(?:主演|导演|编剧|作者|扮演者|得主|创始人|创办人)$")


def _role(clause: str) -> str:
    """The noun naming the role asked for (总导演, 金牌得主, 主演), or empty."""
    tags = [(w.strip(), t) for w, t in _tags(clause) if w.strip() and t != "x"]
    words = [w for w, _ in tags]
    text = "".join(words)
    for i in range(len(tags) - 1, 0, -1):
        if _ROLE_ASK.fullmatch("".join(words[i:])) and len(words[i - 1]) >= 2 \
                and (tags[i - 1][1].startswith("n") or _ROLE_WORD.search(words[i - 1])) \
                and tags[i - 1][1] not in _NAME_TAGS and words[i - 1] not in _VAGUE:
            return words[i - 1]
    return words[-1] if words and _ROLE_WORD.search(text) and _ROLE_WORD.fullmatch(words[-1]) else ""


# which session, edition or generation (十三届, 五次会议, 第7届, 第二代): another one is
# another event (「十三届一次会议」 does not answer 「十三届五次会议」)
_ORDINAL = re.compile(r"第[零〇一二两三四五六七八九十百\d]+(?:届|次会议|季|期|代)(?!表|价)|"
                      r"(?<![第\d零〇一二两三四五六七八九十百])[零〇一二两三四五六七八九十百\d]+(?:届|次会议|次全会)")


def _ordinal_forms(text: str) -> list[str]:
    """五次会议 → 五次会议, 5次会议; 第7届 → 7届, 七届 (with or without 第: a block may write
    either)."""
    from zhiku.chunk import cn_to_int, int_to_cn

    m = re.match(r"第?([零〇一二两三四五六七八九十百\d]+)(.+)", text)
    if not m:
        return [text]
    num, unit = m.groups()
    try:
        n = int(num) if num.isdigit() else cn_to_int(num)
    except (ValueError, KeyError):
        return [text]
    return list(dict.fromkeys([f"{num}{unit}", f"{n}{unit}", f"{int_to_cn(n)}{unit}"]))


# nouns too general to be the attribute asked for (什么内容, 哪个方面)
# words naming the kind of answer, not a word the answer repeats: 死亡人数 is answered by
# 「12人死亡」 (a count), 发生的地点 by a place name
_WHERE = re.compile(r"地点|地方是|哪里|哪儿|在哪(?![部个些种位年天次届类本首])|位置|举办地|所在地")
_VAGUE = {"人数", "数量", "数目", "次数", "名字", "名称", "地点", "地方", "位置", "时间", "日期", "内容", "东西", "意思", "情况", "方面", "问题", "事情", "标准", "规定", "要求", "条件", "程序",
          "手续", "责任", "后果", "作用", "意义", "原因", "区别", "关系", "方式", "办法", "措施", "时候"}
_ASK_AFTER = {"什么", "哪个", "哪些", "哪种", "哪类", "哪一个"}
_QWORD = re.compile(r"什么|哪|谁|多少|多久|多长|多大|几|怎么|怎样|如何|吗|呢|是否|能否|有没有|可不可以|能不能|还是")
_ASK_BEFORE = re.compile(r"^(?:是|叫|为|有)(?:什么|哪|谁|多少)")


def _focus(clause: str) -> tuple[str, str] | None:
    """The attribute a question asks for: the noun after 什么/哪个 (「什么奖项」), the noun
    before 是什么/叫什么/有哪些 (「全称是什么」), or the last noun of a clause with no question
    word (「土耳其地震的震级」; a choice, 「判给爸爸还是妈妈」, names options, not an
    attribute), with how it was found (``about``: ``asked`` or ``named``, the
    last: a keyword question naming the attribute); None when none, or only a vague one
    (什么内容)."""
    tags = [(w.strip(), t) for w, t in _tags(clause) if w.strip() and t != "x"]
    words = [w for w, _ in tags]
    noun = lambda i: (0 <= i < len(tags) and tags[i][1][:1] in ("n", "v") and len(tags[i][0]) >= 2
                      and tags[i][0] not in QUESTION_WORDS and tags[i][0] not in _VAGUE
                      and tags[i][1] not in _NAME_TAGS and not _YEAR.search(tags[i][0]))
    for i, w in enumerate(words):
        if w in _ASK_AFTER:
            return (tags[i + 1][0], "asked") if noun(i + 1) and tags[i + 1][1].startswith("n") else None
        if _ASK_BEFORE.match("".join(words[i:i + 3])) and w in ("是", "叫", "为", "有"):
            return (tags[i - 1][0], "before") if noun(i - 1) else None
    if _QWORD.search(clause):
        return None
    last = len(tags) - 1
    kind = tags[last][1] if last >= 0 else ""
    verbal = kind == "v" and last > 0 and tags[last - 1][1] in ("uj", "d", "n")  # 最终排名, 的排名, 票房收入
    return (tags[last][0], "named") if noun(last) and (kind in ("n", "vn") or verbal) else None


_MODAL = {"最长", "最多", "最少", "最高", "最低", "一般", "应当", "可以", "能够", "需要", "大概", "具体", "一共"}


def _head(clause: str, at: int) -> str:
    """The words a quantity question asks about, ``|``-joined: the asking clause's content
    words (「公司年假有多少天」 → 公司|年假); the cited sentence must hold one of them."""
    import rjieba

    words = [w for w in rjieba.cut(clause) if len(w) >= 2 and w not in QUESTION_WORDS and w not in _MODAL
             and w not in _GENERIC and not _QTY_WORD.search(w) and not _YEAR.search(w)]
    return "|".join(dict.fromkeys(words))


_QTY_WORD = re.compile(r"多少|几|多久|多长|多大|时间|价格|年龄|是否|什么")


def _loosely_in(word: str, text: str) -> bool:
    """``word`` in ``text``, its characters in order with at most one between each pair
    (年假 in 年休假)."""
    if not word or word in text:
        return True
    rx = "".join(re.escape(ch) + ".?" for ch in word[:-1]) + re.escape(word[-1])
    return re.search(rx, text) is not None


def _norm(s: str) -> str:
    return re.sub(r"\s+", "", normalise(s)).casefold()


def _place_forms(place: str) -> list[str]:
    """上海市 → 上海市, 上海 (a document writes either)."""
    short = _PLACE_SUFFIX.sub("", place)
    return [place] + ([short] if len(short) >= 2 else [])


def has_quantity(kind: str, text: str, asked: str = "") -> bool:
    """Whether ``text`` states a value of the quantity kind ``kind`` (for ``person`` and
    ``country``: a name or institution, a country or place, other than those in ``asked``,
    the question's words ``|``-joined)."""
    t = undated(normalise(text))
    if kind in ("person", "country", "place"):
        return bool(_names(kind, t, asked))
    if kind == "date":  # an age says when, too (「九岁的一天，…他开始写第一本寓言」)
        return bool(_DATE.search(t) or re.search(r"[\d零〇一二两三四五六七八九十]+\s*(?:周岁|岁)", t))
    if kind == "clock":
        return bool(_CLOCK.search(t) or _DATE.search(t))
    if kind == "money":
        return bool(_MONEY.search(t))
    if kind == "amount" and (_MONEY.search(t) or re.search(r"百分之[零〇一二两三四五六七八九十百]+|[一二两三四五六七八九十]+倍", t)):
        return True
    if kind in ("number", "people"):  # 12月10日, 2021年: when, not how many
        t = _STAMP.sub(" ", t)
    if kind == "people" and re.search(r"\d+(?:\.\d+)?\s*[万亿]", t):  # 网民规模达10.51亿
        return True
    if kind == "duration":
        t = _STAMP.sub(" ", t)  # 1995年1月1日 is when, not how long
        if _HALF.search(t):
            return True
    found = quantities(t)
    if kind == "number":
        return bool(found) or bool(re.search(r"[一二两三四五六七八九十百千万数]+多?[个种项条支次倍级名人家所]", t))
    units = _UNITS.get(kind, set())
    if any(u in units for _, _, u in found):
        return True
    rx = "|".join(sorted(map(re.escape, units), key=len, reverse=True))
    return bool(units) and re.search(rf"[零〇一二两三四五六七八九十百千万\d]\s*(?:{rx})", t) is not None


# a news snippet's leading dateline (「Sep 9, 2022 ... 」) says when the page was written, not
# when what it reports happened
_DATELINE = re.compile(r"^\s*(?:[A-Z][a-z]{2,8}\.? \d{1,2}, (?:19|20)\d{2}\s*(?:\.{2,}|…+|—|-)?"
                       r"|(?:19|20)\d{2}-\d{1,2}-\d{1,2}\s*(?:\.{2,}|…+))\s*", re.I)  # normalised text is lower case
# a calendar date or a year (2022年6月10日, 2022年): not a duration
_STAMP = re.compile(r"(?:19|20)\d{2}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)?|\d{1,2}\s*月\s*\d{1,2}\s*[日号]")
# a year a sentence is about: 2022年, 2021赛季, 2022世界杯 (not 2000多人)
_STATED_YEAR = re.compile(r"(?<![\d.])((?:19|20)\d{2})(?=\s*(?:年|赛季|年度|届|世界杯|冬奥|奥运|春运|财年))")
_NAME_OF = {"person": ("nr", "nrt", "nrfg", "nt"), "country": ("ns",)}
# a role or institution answers 「由谁规定」 as well as a name does (人民政府, 用人单位, 劳动者)
_ROLE = re.compile(r"(?:政府|单位|机关|部门|机构|法院|检察院|委员会|公司|组织|协会|学会|集团|大学|学院|"
                   r"劳动者|用人单位|当事人|个人|人员|者)$")


_REL_YEAR = {"今年": 0, "去年": -1, "前年": -2, "明年": 1}


def _relative_years(said: str, block: str) -> set[str]:
    """The years 今年/去年 in ``said`` mean, read against the block's dateline (a page of
    2023 saying 去年 is about 2022); empty without a dateline."""
    m = _DATELINE.match(block.strip())
    year = _YEAR.search(m.group()) if m else None
    if year is None:
        return set()
    return {str(int(year.group()) + off) for w, off in _REL_YEAR.items() if w in said}


def undated(text: str) -> str:
    """``text`` without its leading news dateline (:data:`_DATELINE`)."""
    return _DATELINE.sub("", text, count=1)


def _names(kind: str, text: str, asked: str) -> list[str]:
    """Names of ``kind`` in ``text`` that the question (``asked``) does not already say."""
    q = [a for a in asked.split("|") if a]
    out = []
    for word, tag in _tags(text):
        w = word.strip()
        if len(w) < 2 or any(w in a or a in w for a in q) or kind != "person" and w in _NO_PLACE:
            continue
        if kind == "country" and (w in PLACES or tag in _NAME_OF["country"]):
            out.append(w)
        elif kind == "place" and (w in PLACES or tag == "ns" or _ROLE.search(w)):  # 向仲裁委员会申请
            out.append(w)
        elif kind == "person" and (tag in _NAME_OF["person"] or tag == "eng" and w[:1].isupper()
                                   or _ROLE.search(w)):
            out.append(w)
    return out


ROLE_WINDOW = 20


def _names_role(head: str, sentence: str) -> bool:
    """Whether ``sentence`` names the role ``head`` (总导演 → 导演, 女单冠军 → 冠军) with a
    name or institution within :data:`ROLE_WINDOW` characters of it (「钟少雄导演」, 「主演：
    吴京、刘德华」; a country for a role ending in 国, 主席国), or opening the sentence as its
    subject; 「但是，该剧从主演到配角」 names the role but nobody in it."""
    t = _norm(undated(normalise(sentence)))
    kind = "country" if head.endswith("国") else "person"
    subject = re.split(r"[,，;；:：]", t, maxsplit=1)[0]  # 「占旭刚（），…获得举重冠军的第一人」
    if head in t and head not in subject and _names(kind, subject, ""):
        return True
    for m in re.finditer(re.escape(head), t):
        near = t[max(0, m.start() - ROLE_WINDOW): m.end() + ROLE_WINDOW]
        if _names(kind, near.replace(head, " "), ""):
            return True
    return False


def meets(c: Constraint, block: str, said: str) -> bool:
    """Whether one block (its title and text: ``block``) and what the answer quotes from it
    (``said``) meet constraint ``c``: a quantity must be stated in what is quoted (beside
    one of the words it is the quantity of), a year must be the year the quoted sentences
    name when they name one (「台湾人口于2023年…」 does not answer 2022年) and otherwise appear in
    the block; a leading news dateline counts for neither."""
    if c.kind is Kind.QUANTITY:
        heads = [_norm(h) for h in c.about.split("|") if h]
        for sent in _SENTENCE.findall(said) or _SENTENCE.findall(block):
            if has_quantity(c.text, sent, c.about) and (not heads or any(_loosely_in(h, _norm(sent)) for h in heads)):
                return True
        return False
    if c.kind is Kind.FOCUS and c.about == "role":
        return any(_names_role(_norm(c.text)[-2:], t) for t in _SENTENCE.findall(said or block))
    if c.kind is Kind.FOCUS:  # the word or its two-character stem (增长率: 「同比增长2.6%」)
        stem = _norm(c.text)[:2]
        return any(_loosely_in(_norm(c.text), _norm(t)) or stem in _norm(t) for t in _SENTENCE.findall(said or block))
    b = _norm(undated(block.strip()))
    if c.kind is Kind.TIME:
        if c.text.isdigit():
            stated = set(_STATED_YEAR.findall(undated(normalise(said)))) or _relative_years(said, block)
            if stated:
                return c.text in stated
            whole = _norm(block)  # the dateline's year counts here: news of that year
            return c.text in whole or _cn_year(c.text) in whole
        days = _DAYS.get(c.text)
        if days is not None:  # 今天/明天: a statement dated that very day
            return any(f in b for f in _day_forms(days))
        years = _REL_YEAR.get(c.text)
        if years is not None:  # 今年/去年: that year, in figures
            return str(dt.date.today().year + years) in b
        return bool(_DATE.search(b))  # 本周, 最新一期: only a dated statement can answer it
    if c.kind is Kind.PLACE:
        return any(_norm(f) in b for f in _place_forms(c.text))
    if c.about == "event":  # the place, then the event (a year or edition may come between)
        place, event = c.text.split("|", 1)
        gap = r"[\d零〇一二三四五六七八九十年届第]{0,8}"
        return any(re.search(re.escape(_norm(f)) + gap + re.escape(_norm(event)), b) for f in _place_forms(place))
    if c.about == "ordinal":
        return any(_norm(f) in b for f in _ordinal_forms(c.text))
    w = _norm(c.text)
    if w in b or len(w) < 3 or not c.about:  # quoted names and Latin tokens: whole
        return w in b
    grams = [w[i : i + 2] for i in range(len(w) - 1)]  # a tagged name: most of its bigrams
    return sum(g in b for g in grams) >= len(grams) / 2


def meets_all(cons: Sequence[Constraint], sentence: str, block: str) -> bool:
    """Whether a sentence of a block (``block``: its title and text) meets every constraint
    in ``cons`` (a quantity in the sentence itself).

    Args:
        cons: the question's constraints (:func:`pinned`).
        sentence: the sentence an answer would quote.
        block: the text of the block holding it.
    """
    return all(meets(c, sentence if c.kind is Kind.QUANTITY else block, sentence) for c in cons
               if c.kind is not Kind.FOCUS)  # a literal attribute word is no reason to prefer a sentence


# heads of common nouns for roles and institutions (钟点工, 民政局, 仲裁委) and for kinds of
# name (英文名, 学名): such a word is a kind of thing, even where the tagger calls it a name
_COMMON_HEAD = tuple("工员人者局所院部处站厅委会科队名")
# quantities a rule states as a number (天数, 年龄, 人数, 日期, a price) and places asked for;
# an amount or a period is often a rule instead (「不得超过服务期尚未履行部分所应分摊的培训费用」)
_NUMERIC_KINDS = {"days", "age", "people", "date", "clock", "money", "country"}


def decisive(c: Constraint) -> bool:
    """Whether missing ``c`` alone shows the documents do not answer: a place, a time, a
    quoted or Latin name, a tagged name that is not a role or institution noun (比亚迪,
    not 钟点工 or 民政局), a count of days, an age, a head count, a date, a sum of money,
    a country asked for. Other mismatches lower the confidence but do not refuse:
    they are often the user's words for what a rule says otherwise (非全日制用工, 婚姻登记
    机关; a rule instead of a sum), a name the tagger does not know (「谁」: 大久保笃), or
    an instance of the attribute asked for (「什么职务」: 省长)."""
    if c.kind is Kind.FOCUS:  # 「地震的震级」 names what it wants; 「担任什么职务」 wants an instance (省长)
        return c.about in ("named", "role")
    if c.about == "event":
        return True
    if c.kind in (Kind.PLACE, Kind.TIME):
        return True
    if c.kind is Kind.QUANTITY:
        return c.text in _NUMERIC_KINDS
    return not c.about or not c.text.endswith(_COMMON_HEAD)


_DAYS = {"今天": 0, "明天": 1, "昨天": -1}


def _day_forms(offset: int) -> list[str]:
    """How a document writes the day ``offset`` days from today: 12月2日, 2026-12-02."""
    d = dt.date.today() + dt.timedelta(days=offset)
    return [f"{d.month}月{d.day}日", d.isoformat(), f"{d.year}年{d.month}月{d.day}日"]


def _cn_year(year: str) -> str:
    return "".join("〇一二三四五六七八九"[int(d)] for d in year)


def check(question: str, cited: Sequence[tuple[str, str]], topic: Sequence[str] = ()) -> Answerability:
    """Does one cited block meet every constraint the question pins?

    Args:
        question: the question.
        cited: per cited block, (its title + text, the answer sentences citing it).
        topic: the question's content terms the evidence does hold (named in the reason).

    Returns:
        ``ok`` with nothing missing, or the best block's missing constraints and a
        sentence naming them (「知识库中有「最低工资」的相关内容，但没有 2023 年上海市的信息」).
    """
    cons = pinned(question)
    if not cons:
        return Answerability(True, cons)
    if not cited:
        return Answerability(False, cons, cons, _reason(cons, topic))
    best: tuple[Constraint, ...] | None = None
    for block, said in cited:
        miss = tuple(c for c in cons if not meets(c, block, said))
        if best is None or len(miss) < len(best):
            best = miss
        if not miss:
            return Answerability(True, cons)
    assert best is not None
    return Answerability(False, cons, best, _reason(best, topic))


def _reason(missing: Sequence[Constraint], topic: Sequence[str]) -> str:
    """「知识库中有「最低工资」的相关内容，但没有 2023 年、上海市的信息」."""
    names = [f"{c.text} 年" if c.kind is Kind.TIME and c.text.isdigit() else c.text
             for c in missing if c.kind is not Kind.QUANTITY]
    qty = [_KIND_WORDS[c.text] for c in missing if c.kind is Kind.QUANTITY]
    what = "、".join(names)
    tail = (f"{what}的{qty[0]}" if what and qty else what + "的信息" if what else f"问题所问的{qty[0]}")
    have = "、".join(f"「{t}」" for t in topic[:3])
    return f"知识库中有{have}的相关内容，但没有{tail}" if have else f"知识库中没有{tail}"
