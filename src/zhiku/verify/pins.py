"""What a question pins down: its named subjects, place, time, the kind of quantity and the
attribute it asks for (read by the answerability check and the answer's sentence choice)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from zhiku.registry import Choice
from zhiku.retrieve.answertype import FREQUENCY_ASK
from zhiku.retrieve.segment import QUESTION_WORDS, normalise
from zhiku.verify.options import CheckOptions
from zhiku.verify.provisions import of_act


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
    # quantity: asked of an act (「一年能休几天」, 「挣多少钱」), not of a thing the question names
    # (「起征点是多少」): :func:`zhiku.verify.provisions.of_act`
    of_act: bool = False
    # quantity: the cited provision states a value of this kind, but not beside the question's
    # word for it (:func:`zhiku.verify.answerable.check`, ``provisions``): weak, never decisive
    unworded: bool = False


# the clause that asks: the last one holding a question word (context clauses before it,
# 「我在北京上班，…」, are not what the answer is about)
_STRONG = re.compile(r"哪|谁|多少|多久|几|(.)不\1")  # 会不会, 要不要: an A-not-A question
_NOT_ASK = re.compile(r"好几|几乎|几经|几何|没多少|多少有")
# sdk 1.0.1, v1.44.0, python3.11: the whole version (v1 alone is every 1.x release)
_LATIN = re.compile(r"[a-z][a-z0-9\-]*(?:\.[0-9]+)+(?![0-9.])|[a-z][a-z0-9\-]*(?:\s?[0-9]+(?:\.[0-9]+)*[a-z0-9]*)?|"
                    r"[0-9]+[a-z][a-z0-9\-]*")
# with ``versions`` (config ``answerability_versions``): a Latin name and its release series
# (「fastjson 1.x」, 「vue 2.x」), and a full version right after a Chinese name (「语义化版本 3.0.0
# 规范」), not one given as an example (「比如 1.02.0」)
SERIES = re.compile(r"(?<![a-z0-9\-])([a-z][a-z0-9\-]*)\s?(\d+)\.x(?![a-z0-9])")
# 规范, 版本, 固件: the name's last character, not a word of the sentence (在, 了, 到, 的, 比, 和)
_CJK_VERSION = re.compile(r"[\u4e00-\u9fff](?<![的了在和与及或到比从是为由至跟同于对把被向往给自])\s?"
                          r"(v?\d+\.\d+\.\d+)(?![\d.\-a-z])")
_EXAMPLE = re.compile(r"(?:如|像|例)\s?$")
_HAN = re.compile(r"[\u4e00-\u9fff]+")


def glued_word(text: str, start: int, end: int) -> bool:
    """Whether the Latin piece ``text[start:end]`` (case-folded) is part of a common word the
    segmenter's dictionary holds with the Chinese characters glued to it (config
    ``answerability_glued_words``): 「4S店」 is a kind of shop, not a name the evidence must
    repeat; 「世界5G大会」, 「红袜2A波特兰海狗」 and 「STM32L475芯片」 are no dictionary words, their
    Latin pieces names."""
    import rjieba

    heads = [text[start - k: start] for k in (1, 2) if start >= k and _HAN.fullmatch(text[start - k: start])]
    tails = [text[end: end + k] for k in (1, 2) if end + k <= len(text) and _HAN.fullmatch(text[end: end + k])]
    piece = text[start:end]
    return any(rjieba.has_word(h + piece + t) for h in ("", *heads) for t in ("", *tails) if h or t)


# with ``other_kinds`` (config ``answerability_other_kinds``): a Latin word after 其他/别的 names
# a kind of other things (「和页面上其他 JS 框架冲突」), not the name the evidence must repeat
OTHERS = re.compile(r"(?:其他|其它|别的)(?:的)?\s*$")
# with ``which_latin`` (config ``answerability_which_latin``): a Latin word right after 哪个/哪些/
# 什么 is the kind asked (「可以用哪个 command 来做分片验证」: one of the commands), no name
WHICH_BEFORE = re.compile(r"(?:哪[个些种类一]?|(?<!为)什么)(?:个|种|类)?\s*$")
# what follows the kind asked: the clause's end or its act (来做, 可以), not a noun it qualifies
# (「哪个 i2c 总线」, 「什么 API 密钥」: the Latin word names the bus, the key)
KIND_AFTER = re.compile(r"\s*(?:[？?。，,；;！!]|$|来|去|做|可以|能|才|呢|吗|好|比较|最)")
_GENERIC = {"中国", "我国", "全国", "国内", "城市", "国家", "地区", "省市", "当地", "本地", "外地"}
_QUOTED = re.compile(r"《([^》]{1,30})》|“([^”]{1,30})”|「([^」]{1,30})」|\"([^\"]{1,30})\"")
YEAR = re.compile(r"(?<![\d.])((?:19|20)\d{2})(?![\d.])")
# a year with its month (2025年7月, 2025年十一月, 2025-07): a monthly notice or meeting of that
# month, not any of the year's (config ``answerability_months``)
YEAR_MONTH = re.compile(r"(?<![\d.])((?:19|20)\d{2})(?:\s*年\s*(1[0-2]|0?[1-9]|十[一二]?|[一二三四五六七八九])\s*月|"
                        r"[-./](1[0-2]|0?[1-9])(?![\d.]))")
_RELATIVE = re.compile(r"今天|明天|昨天|今年|去年|明年|本周|下周|本月|下个月|目前最新|最新一期")
# a yes/no question (「…能挪到明年接着扣吗」, 是否, 能不能): it asks whether a rule allows
# something; 今年/明年 in it relate periods to each other, they pin no calendar year (明天 in
# 「明天北京会下雨吗」 still pins the day)
# 「今天的路口镇是由哪两个乡镇合并的」: the place as it is now, not a day (「今天的北京天气」 still
# pins the day: there the place is no subject of its own)
_PRESENT = re.compile(r"今天的[\u4e00-\u9fff]{1,6}?(?:省|市|县|镇|乡|村|州|国|城|地区)(?=是|在|位于|属于|由|叫|称|曾|隶属)")
_YES_NO = re.compile(r"[吗么][？?]?$|是否|能否|可否|(.)不\1")
_NAME_TAGS = {"nr", "nrt", "ns", "nt", "nz", "eng"}
# the words that ask which one of a kind (哪位帝王, 什么武功): the noun after them is the kind
_WHICH = re.compile(r"哪|哪[位个些种类]|哪一[位个种]|什么|何")
# the kinds of value that say when (a date, a clock time, or when in any terms)
TIME_KINDS = ("date", "clock", "when", "day")
# question phrasing → the kind of quantity the answer states
_QTY = [
    # 「按什么价格」 asks what a price is based on (投资本金加利息), not a sum
    ("money", re.compile(r"多少钱|多少元|(?<![按以依照]什么)价格|售价|价钱|票价|收费多少")),
    ("amount", re.compile(r"多少费用|罚.{0,3}多少|赔.{0,3}多少|"
                          r"(?:工资|标准|费用|金额|补偿金?|赔偿金?|罚款)(?:是|有|为|大概|一般)*多少")),
    ("age", re.compile(r"几岁|多少岁|几周岁|多少周岁|多大年[龄纪]|年龄是多少|年龄多大|法定年龄")),
    ("days", re.compile(r"多少天|几天|多少日|几日")),
    # with ``periods``: 几个工作日 asks a count of days (「…多少个工作日内完成评审」), not any number
    ("workdays", re.compile(r"(?:多少|几)个?工作日")),
    # with ``sizes``: 多大 asked of a thing that has a size (内存, 消息, 文件, 尺寸) asks a figure in
    # bytes or lengths (256KB, 16GB, 180mm×130mm), not any figure (「…内存的百分比 40%」)
    ("size", re.compile(r"(?:内存|容量|空间|尺寸|消息|文件|面积|体积|存储|磁盘|硬盘|缓存|缓冲区|数据包|报文)"
                        r"[^，,；;。？?]{0,8}多大|多大的?(?:内存|容量|空间|尺寸|面积|体积|存储|磁盘|硬盘|缓存)")),
    # with ``size_words``: 尺寸/规格/大小/长宽 asked 是多少 asks a size too (「汽车号牌尺寸是多少」: a
    # dimension with a length unit or a × b, not a count the passage states beside it)
    ("size_words", re.compile(r"(?:尺寸|规格|大小|长宽高?|长和宽|长、宽)(?:是|为|有|大概|一般|大约|约)*多少")),
    # with ``effort``: 多少人力 asks the work put in, stated as a head count (10人以上) or as
    # hours or days of work (30小时/周, 5人天): any figure (kind ``number``), not a head count
    ("effort", re.compile(r"(?:多少|几个?)人力")),
    ("people", re.compile(r"多少人|几个人|几人|多少名")),
    # hours asked: a figure in hours or minutes (「每天工作最多几个小时」: 八小时), not a period in days
    ("hours", re.compile(r"几个?小时|多少个?小时|几分钟|多少分钟|几个?钟头")),
    # with ``frequencies``: how often (「多长时间要发一次」) asks a period or a frequency (每月, 按季)
    ("frequency", FREQUENCY_ASK),
    ("duration", re.compile(r"多久|多长时间|多长的|多少年|几年|几个月|多少个月|几周|几个小时|多少小时|多少分钟|期限多长|多长$")),
    ("clock", re.compile(r"几点|几时|星期几|周几|礼拜几")),
    # 几号 is a day after a month (几月几号) or alone at the end (「…是几号」), not a number
    # naming a thing (「引脚是几号」, 几号线)
    # 什么时候/何时 asks when in any terms (「四国征伐后」, 「高二的时候」); 时间/日期 ask for a date
    ("when", re.compile(r"什么时候|何时|哪个时候")),
    # with ``days``: 哪天/哪一天 asks a day (a month or a year alone does not say which)
    ("day", re.compile(r"哪天|哪一天")),
    ("date", re.compile(r"哪天|哪一天|哪一?年|几月|(?<![脚线楼门位口房][是为])(?<![脚线楼门位口房])几号|日期|时间$|时间是|开幕时间|时间？")),
    ("country", re.compile(r"哪个国家|哪些国家|哪国|什么国家|研发国家|国籍")),
    ("person", re.compile(r"谁|哪位|哪些人|(?:主演|导演|编剧|作者|扮演者|得主|创始人|创办人)(?:是|有|都|$)")),
    ("number", re.compile(r"多少|几[个种项条支次倍级号]")),
]
_PLACE_SUFFIX_STRICT = re.compile(r"(?:省|市|自治区|特别行政区|县|州|国|岛)$")
PLACES = frozenset("""北京 上海 天津 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南
    广东 海南 四川 贵州 云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏 宁夏 新疆 香港 澳门 深圳 广州 杭州 南京 武汉
    成都 西安 苏州 厦门 青岛 大连 宁波 长沙 郑州 济南 沈阳 哈尔滨 昆明 乌镇 唐山 美国 英国 法国 德国 日本 韩国
    俄罗斯 印度 澳大利亚 新西兰 加拿大 意大利 西班牙 土耳其 马来西亚 新加坡 泰国 越南 巴西 卡塔尔 巴黎 伦敦 纽约
    东京 首尔 莫斯科 乌克兰 朝鲜 菲律宾 印尼 印度尼西亚 以色列 伊朗 埃及 南非 墨西哥 阿根廷""".split())


# a document the question cites as its source in 《》 (按照《…》，…; 《…》规定…; 《…》里…): the
# knowledge base must hold it (config ``answerability_documents``); a title merely named
# (「《三体》这本小说的作者」, a certificate in a case narrative) is no source cited
_CITES_BEFORE = re.compile(r"(?:按照?|根据|依照|依据|参照|对照|遵照|基于|依|据|在)\s*$")
_CITES_AFTER = re.compile(r"^\s*(?:中|里|里面|内|上|规定|的规定|第|要求|的要求|明确|提到|写|说|所称|条款|条文)")
# an edition or date after a title (「公司法（2018年修正）」): the title without it
_EDITION = re.compile(r"[（(][^（）()]*[）)]$")


def cited_documents(question: str) -> tuple[str, ...]:
    """The documents ``question`` cites as its source between 《》 — after 按照/根据/依照/依据/在, or
    followed by 规定/中/里/第…条 — normalised as a title index reads names (spaces, the
    中华人民共和国 prefix and a trailing edition in brackets dropped), in order, once each."""
    q = normalise(question)
    out = []
    for m in re.finditer(r"《([^《》]{2,80})》", q):
        if _CITES_BEFORE.search(q[: m.start()]) or _CITES_AFTER.match(q[m.end():]):
            name = _EDITION.sub("", m.group(1).replace(" ", "")).removeprefix("中华人民共和国")
            if len(name) >= 2:
                out.append(name)
    return tuple(dict.fromkeys(out))


# qualifiers that come in closed sets of siblings (男职工 / 女职工, 境内 / 境外, 大型 / 中型 /
# 小型 平台, 初中 / 高中): a text stating the rule of one sibling says nothing of another
CONTRASTS = (("男", "女"), ("境内", "境外"), ("国内", "国外"), ("大型", "中型", "小型", "微型"),
             ("小学", "初中", "高中"), ("城镇", "农村"), ("上半年", "下半年"))


def contrasts(question: str) -> tuple[Constraint, ...]:
    """The sibling qualifiers ``question`` pins (config ``answerability_contrasts``): a member of a
    closed set of :data:`CONTRASTS` and the word after it, ``|``-joined (「男职工的陪产假」 →
    男|职工, 「在中国境外接受学历继续教育」 → 境外|接受), ``about`` ``contrast``. A block that states
    the word after a sibling (女职工, 境内接受) and never after the qualifier asked misses it
    (:func:`zhiku.verify.answerable.contrast_met`); a block naming neither is read as before."""
    q = normalise(question)
    starts, at = set(), 0
    for w, _ in word_tags(q):  # a member opens a word (男职工, 女职工), not ends one (子女教育)
        starts.add(at)
        at += len(w)
    out = []
    for group in CONTRASTS:
        for member in group:
            for m in re.finditer(re.escape(member), q):
                if m.start() not in starts:
                    continue
                words = [w.strip() for w, _ in word_tags(q[m.end():]) if w.strip()]
                if words and re.fullmatch(r"[\u4e00-\u9fff]+", words[0]) and not words[0].startswith(group):
                    out.append(Constraint(Kind.SUBJECT, f"{member}|{words[0]}", "contrast"))
    return tuple(dict.fromkeys(out))


# quantities measured side by side in one table or limit (a noise standard's table, a sensor's
# ranges): a value stated of one is none of the other (config ``answerability_sibling_measures``)
MEASURES = (("噪声", "振动"), ("温度", "湿度"), ("电压", "电流"))


def sibling_measures(question: str) -> tuple[Constraint, ...]:
    """The measured quantity ``question`` asks a figure of, when it names one member of a group
    of :data:`MEASURES` and no other, in the asking clause or the one setting the case before it
    (「厂界振动限值是多少」, 「工业振动超标7到9分贝，每月交多少」 → 振动), ``about`` ``measure`` (config
    ``answerability_sibling_measures``): a quote naming only a sibling (「厂界噪声排放限值 昼间 60
    dB(A)」) states another quantity's figure (:func:`zhiku.verify.answerable.measure_met`).
    Nothing when the asking clause asks no figure."""
    q = normalise(question)
    if _asked_quantity(asking_clause(q), True) is None:
        return ()
    out = []
    for group in MEASURES:
        named = [m for m in group if m in q]
        if len(named) == 1:
            out.append(Constraint(Kind.SUBJECT, named[0], "measure"))
    return tuple(out)


# a dotted key of a setting or API (setting.check.radioType, sa-token.timeout): its parent and leaf
_KEY = re.compile(r"(?<![a-z0-9_$.\-])[a-z_$][a-z0-9_$\-]*(?:\.[a-z_$][a-z0-9_$\-]*)+(?![a-z0-9_$.\-])")


def sibling_keys(question: str) -> tuple[Constraint, ...]:
    """The dotted keys ``question`` names, as their last parent and leaf, ``|``-joined
    (「zTree的setting.check.radioType默认值是什么」 → check|radiotype), ``about`` ``key`` (config
    ``answerability_sibling_keys``): a block titled with another key of the same parent
    (setting.check.chkStyle's page) names the asked one only in passing
    (:func:`zhiku.verify.answerable.key_met`)."""
    out = [Constraint(Kind.SUBJECT, f"{parts[-2]}|{parts[-1]}", "key") for parts in dotted_keys(question)]
    return tuple(dict.fromkeys(out))


def dotted_keys(text: str) -> list[list[str]]:
    """The dotted keys ``text`` names (normalised, case-folded), each split at its dots
    (setting.check.radioType → setting, check, radiotype): what :func:`sibling_keys` pins and
    :func:`zhiku.verify.answerable.key_met` reads a block's title for."""
    return [m.group().split(".") for m in _KEY.finditer(normalise(text).casefold())]


# the bound a question asks of a figure (「试用期最短多久」: a lower one; 「最多能扣多少」: an upper one)
_ASKED_BOUND = re.compile(r"(最短|最少|最低|至少)|(最长|最多|最高|至多)")


def bounds(question: str, which: bool = False) -> tuple[Constraint, ...]:
    """The bound the asking clause of ``question`` asks of the figure it asks (最短, 最少, 最低,
    至少: a lower bound; 最长, 最多, 最高, 至多: an upper one), ``about`` ``bound`` (config
    ``answerability_bounds``): a text stating only the other bound of it (「满三年的，试用期不得
    超过六个月」 for 「试用期最短多久」) does not state it (:func:`zhiku.verify.answerable.bound_met`).
    Nothing when the clause asks no figure (``which``: :func:`_asked_quantity`'s reading)."""
    clause = asking_clause(normalise(question))
    if _asked_quantity(clause, True, which=which) is None:
        return ()
    m = _ASKED_BOUND.search(clause)
    return (Constraint(Kind.SUBJECT, m.group(), "bound"),) if m else ()


def counted(question: str, which: bool = False) -> tuple[Constraint, ...]:
    """The thing a count is asked of, named right after the count (「多少次代码评审」 → 评审, 「几个
    节点」 → 节点): the head of the nouns after 多少/几 and its measure, ``about`` ``counted`` (config
    ``answerability_counted``). A quote that never names it counts something else
    (「有效贡献次数不少于10次」 for code reviews). Nothing when the asking clause asks no count or no
    noun follows it (「最多会重试几次」); ``which``: :func:`_asked_quantity`'s reading."""
    clause = asking_clause(normalise(question))
    found = _asked_quantity(clause, True, effort=False, which=which)  # 多少人力 asks work, not a count of 人力
    if found is None or found[0] != "number":
        return ()
    tags = [(w.strip(), t) for w, t in word_tags(clause) if w.strip()]
    at = next((i for i, (w, t) in enumerate(tags) if re.match(r"多少|几", w)), None)
    if at is None:
        return ()
    rest = tags[at + 1:]
    if rest and rest[0][1] == "q" and not re.search(r"多少|几", tags[at][0][1:] or "x"):
        rest = rest[1:]  # the measure after 多少 (多少次, 多少个)
    nouns = []
    for w, t in rest:
        if t in ("n", "vn", "eng", "nz") or t == "a" and not nouns:
            nouns.append((w, t))
            continue
        break
    heads = [w for w, t in nouns if t != "a" and len(w) >= 2 and w not in _VAGUE and w not in QUESTION_WORDS]
    return (Constraint(Kind.SUBJECT, heads[-1], "counted"),) if heads else ()


def scoped(question: str) -> tuple[Constraint, ...]:
    """What a question asks of, for reading a quote that puts it out of its document's scope
    (config ``answerability_scopes``): the asking clause's content words, ``|``-joined, ``about``
    ``scope`` (「引入第三方开源软件需要提交哪些评审材料」 → 引入|第三方|开源|软件|提交|评审|材料),
    read by :func:`zhiku.verify.answerable.scope_met`. Nothing for a yes/no question (「…适用于
    公务员吗」: 「不适用」 answers it) or one with no content word."""
    clause = asking_clause(normalise(question))
    if _YES_NO.search(clause):
        return ()
    heads = _head(clause, 0)
    return (Constraint(Kind.SUBJECT, heads, "scope"),) if heads else ()


# a share asked (百分之多少, 百分之几, 百分比是多少, 比例是多少): a percentage or a fraction answers
_SHARE_ASKED = re.compile(r"百分之(?:多少|几)|百分比|(?:比例|比率|占比)(?:是|为|有|大概|一般)*(?:多少|几)")


def shares(question: str) -> tuple[Constraint, ...]:
    """A share the asking clause of ``question`` asks (「…不能低于转正工资的百分之多少」), as
    ``about`` ``share`` (config ``answerability_shares``): a quote stating no share — a percentage
    (80%, 百分之八十), a fraction (三分之二), a tenth (八成) or a multiple — does not answer it
    (:func:`zhiku.verify.answerable.share_met`), whatever figure it states (十二个月)."""
    m = _SHARE_ASKED.search(asking_clause(normalise(question)))
    return (Constraint(Kind.SUBJECT, m.group(), "share"),) if m else ()


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


# a measure word and what may stand before it (这张表, 每份报告, 三张表): with a noun after it the
# tagger may read a surname and a name (张表: nr)
_MEASURE_WORDS = "张个份条项位本篇页台件块套段行列栏"
_COUNTER = re.compile(r"[这那此该每某各哪几]|[零〇一二两三四五六七八九十百\d]+|第[零〇一二两三四五六七八九十百\d]+")


def measured(word: str, tag: str, before: str, before_tag: str) -> bool:
    """Whether ``word``, a word the tagger calls a person's name (``tag`` nr, nrt), is a measure
    word and its noun (config ``answerability_measure_names``): it opens with a measure word (张,
    份, 条, 位…) right after a demonstrative, 哪/几 or a numeral (``before``, tagged ``before_tag``):
    「这张表的填表人是谁」 pins no 张表. A surname after another word (「请问张国荣…」) and a place
    after a year (「2022年台湾人口」: 台湾 is no name of a person) are still read as names."""
    return (tag in ("nr", "nrt") and word[0] in _MEASURE_WORDS
            and (bool(_COUNTER.fullmatch(before)) or before_tag == "m" and not before.endswith(("年", "月", "日"))))


@lru_cache(maxsize=4096)
def word_tags(text: str) -> tuple[tuple[str, str], ...]:
    import rjieba

    return tuple(rjieba.tag(text))


def pinned(question: str, opts: CheckOptions = CheckOptions()) -> tuple[Constraint, ...]:
    """Everything the asking clause of ``question`` pins down.

    Args:
        question: the user's question.
        opts: how the question is read (:class:`zhiku.verify.options.CheckOptions`):
            ``leading_place``, also the place the question opens with when it qualifies the
            noun after it, outside the asking clause (off by default: a case narrative's
            「…市人民检察院指控」 would pin its city); ``last_ask``, the quantity asked read from
            the last clause asking one (:func:`_asked_quantity`); ``phrases``, a verb and its
            object the tagger calls a name (:func:`phrase_name`) pinned as a ``phrase``, whose
            absence does not refuse; ``hours``, 几个小时/多少分钟 ask kind ``hours``, not any
            period; ``periods``, a term of office counted (一届任期, 每届, 连任两届) is no edition
            pinned, and 几个工作日 asks kind ``days`` (off, 「一届」 is pinned as an ordinal and
            几个工作日 asks a number); ``months``, a year with its month (2025年7月) also pins
            that month (``about`` ``month``, :func:`year_months`; off, only the year);
            ``which_kind``, the kind a which-question asks one of is the head noun of the phrase
            after 哪个/哪些 (「哪个堕胎判例」 → 判例, ``about`` ``which``: :func:`_which_kind`);
            ``opening_place``, with ``leading_place`` off, the place the question opens with is
            still pinned, as ``about`` ``opening``: evidence naming another place and not it
            misses it, evidence naming no place meets it; ``versions``, a Latin name with its
            release series (fastjson 1.x) is pinned whole and a full version after a Chinese
            name (语义化版本 3.0.0) is pinned (``about`` ``version``), both met only by evidence
            stating that series or version (:data:`SERIES`); ``glued_words``, a Latin piece of
            a common word the segmenter's dictionary holds with the Chinese glued to it (4S店)
            pins nothing (:func:`glued_word`); ``other_kinds``, a Latin word after 其他/别的
            (其他 JS 框架) pins nothing (:data:`OTHERS`); ``which_latin``, a Latin word right
            after 哪个/什么 (哪个 command) is the kind asked and pins nothing
            (:data:`WHICH_BEFORE`, :data:`KIND_AFTER`).

    Returns:
        Constraints in the order subject/place, time, quantity (at most one quantity).
    """
    clause = asking_clause(normalise(question))
    out: list[Constraint] = []
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(clause)]
    out += [Constraint(Kind.SUBJECT, q.strip()) for q in quoted if q.strip()]
    rest = _QUOTED.sub(" ", clause)
    low = rest.casefold()
    if opts.versions:  # 「fastjson 1.x」: the name and its release series, one pin; 「语义化版本 3.0.0 规范」
        out += [Constraint(Kind.SUBJECT, f"{m.group(1)} {m.group(2)}.x") for m in SERIES.finditer(low)]
        out += [Constraint(Kind.SUBJECT, m.group(1), "version") for m in _CJK_VERSION.finditer(low)
                if not _EXAMPLE.search(low[: m.start(1)])]
        low = SERIES.sub(" ", low)
    latin = [m.group().strip() for m in _LATIN.finditer(low) if len(m.group().strip()) >= 2
             and not (opts.glued_words and glued_word(low, m.start(), m.end()))
             and not (opts.other_kinds and OTHERS.search(low[: m.start()]))
             and not (opts.which_latin and WHICH_BEFORE.search(low[: m.start()])
                      and KIND_AFTER.match(low, m.end()))]
    out += [Constraint(Kind.SUBJECT, w) for w in latin if not YEAR.fullmatch(w)]
    prev, prev_tag = "", ""
    for word, tag in word_tags(rest):
        word, after, after_tag = word.strip(), prev, prev_tag
        prev, prev_tag = (word, tag) if word else (prev, prev_tag)
        if (tag not in _NAME_TAGS or tag == "eng" or word in QUESTION_WORDS or word in _GENERIC
                or len(word) < 2 or YEAR.fullmatch(word) or _WHICH.fullmatch(after)
                or opts.measure_names and measured(word, tag, after, after_tag)):
            continue  # 「哪位帝王」: the kind asked for, whatever the tagger calls it, is no name
        if word in PLACES or _PLACE_SUFFIX_STRICT.search(word) and tag == "ns":
            out.append(Constraint(Kind.PLACE, word))
        elif tag != "ns":  # a phrase of the situation: read, but its absence refuses nothing
            # 「Highlight 高亮组件」: the word right after a Latin name glosses it (config
            # ``answerability_glosses``); the Latin name, pinned on its own, is the document's
            gloss = opts.glosses and after_tag == "eng" and not _LATIN.fullmatch(word.casefold())
            out.append(Constraint(Kind.SUBJECT, word, "gloss" if gloss else "phrase" if opts.phrases and phrase_name(word)
                                  else f"tag:{tag}"))
    if (opts.leading_place or opts.opening_place) and not any(c.kind is Kind.PLACE for c in out):
        lead = _leading_place(normalise(question), clause)
        out += lead if opts.leading_place else [Constraint(Kind.PLACE, c.text, "opening") for c in lead]
    out += [Constraint(Kind.SUBJECT, m.group(), "ordinal") for m in _ORDINAL.finditer(rest)
            if not (opts.periods and _TERMS.match(rest, m.start()))]
    out += [Constraint(Kind.TIME, y) for y in dict.fromkeys(YEAR.findall(rest))]
    out += [Constraint(Kind.TIME, ym, "month") for ym in year_months(rest)] if opts.months else []
    found = _asked_quantity(clause, opts.last_ask, opts.hours, opts.periods, opts.effort, opts.sizes,
                            opts.days, opts.size_words, opts.demonstratives, opts.frequencies, opts.choices,
                            opts.which_asks)
    if found is None and opts.look_places and (look := _LOOK.search(clause)):
        found = ("page", look)  # 「之后去哪里看」: a page, a site, a link, a file or a menu
    if found is None and (where := _WHERE.search(clause)):
        found = ("place", where)
    rule = not found and _YES_NO.search(clause)  # 「今年的扣除没扣完，能挪到明年吗」: a rule, not a year's fact
    out += [Constraint(Kind.TIME, m.group()) for m in _RELATIVE.finditer(rest)
            if not (rule and m.group().endswith("年")) and not _PRESENT.match(rest, m.start())]
    out += _events(rest)
    out += _instance(rest)
    if found:
        event = _event(clause) if found[0] in TIME_KINDS else ""
        out.append(Constraint(Kind.QUANTITY, found[0], event or _head(clause, found[1].start(), opts.kind_compounds),
                              of_act(clause[: found[1].start()])))
        role = _role(clause, opts.posts) if found[0] == "person" else ""
        if role:
            out.append(Constraint(Kind.FOCUS, role, "role"))
        # 「总指挥由谁担任」: holding the post is the role asked, not an act the text must name
        if found[0] in ("person", "country") and (act := _act(clause)) and not (role and act in _POST_VERBS):
            out.append(Constraint(Kind.FOCUS, act, "act"))
        if found[0] in ("money", "amount"):
            from zhiku.verify.holders import sum_act  # it reads what pins a question with the tagger here

            if act := sum_act(clause):
                out.append(Constraint(Kind.FOCUS, act, "sum"))
    elif focus := _focus(rest, opts.which_kind):
        out.append(Constraint(Kind.FOCUS, *focus))
    return tuple(dict.fromkeys(out))


def _asked_quantity(clause: str, last: bool, hours: bool = True,
                    periods: bool = True, effort: bool = True,
                    sizes: bool = True, days: bool = False,
                    size_words: bool = True,
                    demonstratives: bool = False,
                    frequencies: bool = False, choices: bool = False,
                    which: bool = False) -> tuple[str, re.Match[str]] | None:
    """The kind of quantity the asking clause asks (:data:`_QTY`) and where. With ``last``
    the clauses are read from the last one that asks one: a count in a clause before it tells
    the situation (「几个人合伙开公司注册一千万，这钱最晚多少年内要交齐」 asks how long, not
    how many people); off, the first kind found anywhere in the clause. ``hours``,
    ``periods``, ``effort``, ``sizes``, ``days``, ``size_words`` and ``frequencies`` are the readings of the same names
    (:class:`zhiku.verify.options.CheckOptions`); a kind read only with its reading is skipped
    without it, and asks the kind it is read as with it (几个工作日: ``days``). With
    ``demonstratives`` a 几 after 这/那 points at a number the question already has in mind
    (「春节法定假日那几天上班」: those days), it asks none (:func:`_asks_at`). With ``choices``
    the word of a quantity that names an option of a choice (「看的是写入时间还是数据点时间」: two
    times offered, one asked) asks no kind: the answer is one of the options (:func:`_option_at`). With
    ``which`` a count that asks which one after it, or a version asked by 多少, asks no count
    (:func:`_names_value`)."""
    # the kinds of :data:`_QTY` read only with their reading: whether it is on, the kind asked then
    read_as = {"workdays": (periods, "days"), "effort": (effort, "number"), "size": (sizes, "size"),
               "day": (days, "day"), "size_words": (size_words, "size"),
               "frequency": (frequencies, "frequency")}
    parts = [clause]
    if last:
        parts = [p for p in re.split(r"[，,；;]", clause) if p.strip()][::-1] or [clause]
    for part in parts:
        for kind, rx in _QTY:
            if kind in read_as:
                on, asked = read_as[kind]
                if on and (m := _asks_at(rx, part, demonstratives)) and not (choices and _option_at(part, m)):
                    return asked, m
                continue
            if ((hours or kind != "hours") and (m := _asks_at(rx, part, demonstratives))
                    and not (choices and _option_at(part, m))
                    and not (which and kind == "number" and _names_value(part, m))):
                return kind, m
    return None


# a which-question after a count in one clause: the count names the setting asked for (「最多能订阅多少个
# Topic 在哪个配置项里设置」 asks the configuration item, not how many)
_WHICH_AFTER = re.compile(r"哪[个些里项种一]|什么")
# a version asked by 多少 (「版本号该填多少」, 「版本是多少」): a release's name, not a count
_VERSION_BEFORE = re.compile(r"版本号?[^，,；;。？?]{0,4}$")


def _names_value(part: str, m: re.Match[str]) -> bool:
    """Whether the count word matched by ``m`` (多少, 几个) in the clause ``part`` asks no count
    (config ``answerability_which_asks``): the clause asks which one after it (哪个, 什么), so the
    count only names what is set there (「最多能订阅多少个 Topic 在哪个配置项里设置」: the item is
    asked), or a 版本/版本号 right before it asks a release's name (「依赖的版本号该填多少」:
    ``${project.version}``, 「与数据库版本号相同」), which states no count."""
    return (_WHICH_AFTER.search(part, m.end()) is not None
            or _VERSION_BEFORE.search(part[: m.start()]) is not None)


# an alternative question: 「A还是B」 offers its options on both sides of 还是
_CHOICE = re.compile(r"还是")
# a word that asks a value itself (多少, 几, 哪, 什么, 多久): not the name of an option
_ASKS_ITSELF = re.compile(r"多少|几|哪|什么|何|多久|多长|多大|谁")


def _option_at(part: str, m: re.Match[str]) -> bool:
    """Whether the quantity word matched by ``m`` names an option of a choice in ``part``
    (「…看的是写入时间还是数据点时间」: 时间 closes the option after 还是, and the one before it
    is of the same kind), not a value asked: the match asks no value itself and stands in
    the clause of a 还是, right after it or as the head of the option before it."""
    if _ASKS_ITSELF.search(m.group()) or not _CHOICE.search(part):
        return False
    for c in _CHOICE.finditer(part):
        before, after = part[: c.start()], part[c.end():]
        if m.start() >= c.end() and not _CHOICE.search(part[c.end(): m.start()]):
            return True  # the option after 还是 (「还是数据点时间」)
        if m.end() <= c.start() and not re.search(r"[，,；;]", part[m.end(): c.start()]) \
                and len(before) - m.end() <= 2 and after.strip():
            return True  # the head of the option before 还是 (「写入时间还是…」)
    return False


# 这/那 before 几 (这几天, 那几个, 那几年): a demonstrative pointing at a number already in mind
_DEMONSTRATIVE = re.compile(r"[这那]$")


def _asks_at(rx: re.Pattern[str], part: str, demonstratives: bool) -> re.Match[str] | None:
    """The first match of ``rx`` in ``part`` that asks; with ``demonstratives``, a match opening
    with 几 right after 这/那 (「那几天上班」: those days) asks nothing and is passed over."""
    for m in rx.finditer(part):
        if not (demonstratives and m.group().startswith("几") and _DEMONSTRATIVE.search(part[: m.start()])):
            return m
    return None


# parts of speech of the object of a verb: a noun, a verb's noun, a verb (驾照 is tagged one)
_OBJECT_TAGS = ("n", "vn", "v")


@lru_cache(maxsize=4096)
def phrase_name(word: str) -> bool:
    """Whether ``word``, which the tagger calls a name, is a verb of one character and its
    object, a common word (考驾照: 考 + 驾照): an act of the user's situation, not a name the
    evidence must repeat. A person's name opens with a surname, which the tagger does not
    call a verb (张学友: 张; 刘德华), and a name made of an adjective and a noun (新手机) or of
    a word and a suffix (仲裁法, 初中生) is still a name."""
    import rjieba

    if len(word) < 3:
        return False
    head, rest = word_tags(word[0]), word_tags(word[1:])
    return (len(head) == 1 and head[0][1] == "v" and len(rest) == 1 and rest[0][1] in _OBJECT_TAGS
            and rjieba.has_word(word[1:]))


@lru_cache(maxsize=4096)
def compound_name(word: str) -> bool:
    """Whether ``word``, which the tagger calls a person's name (``nr``), is two common words:
    its first two characters and the rest are each a dictionary word the tagger calls no name
    (法律援助: 法律 + 援助, 仲裁法: 仲裁 + 法, 初中生: 初中 + 生). The user's word for a kind of
    thing, which a statute names in its own terms (未成年人), not a name the evidence must
    repeat. A person's name does not split so: its surname and given name read as a name
    (张学友: 张学, 刘德华: 刘德, 林则徐: 徐, 安倍晋三: 安倍)."""
    import rjieba

    if len(word) < 3:
        return False
    parts = (word[:2], word[2:])
    return all(rjieba.has_word(w) and all(t not in _NAME_TAGS and not t.startswith("nr") for _, t in word_tags(w))
               for w in parts)


def _leading_place(question: str, clause: str) -> list[Constraint]:
    """The place a question opens with when it qualifies the noun after it (「深圳劳动合同期限满
    一年不满三年的，试用期最长多久」: Shenzhen's contracts), though that clause asks nothing and
    is left out of the asking clause; a place read as context (「我在北京上班，…」) or followed
    by 的 pins nothing here. ``about`` is ``leading`` (config ``answerability_leading_place``)."""
    first = re.split(r"[，,；;。！!？?]", question.strip(), maxsplit=1)[0]
    if not first or first in clause:
        return []
    tags = [(w.strip(), t) for w, t in word_tags(first) if w.strip()]
    if len(tags) < 2 or tags[1][1][:1] not in ("n", "l", "j") and tags[1][1] != "vn":
        return []
    word, tag = tags[0]
    place = word in PLACES or tag == "ns" and _PLACE_SUFFIX_STRICT.search(word)
    return [Constraint(Kind.PLACE, word, "leading")] if place and word not in _GENERIC else []


# an event a place names (北京冬奥会, 成都大运会, 马来西亚公开赛): the place of another event,
# or the event held elsewhere, does not answer (「共青团北京市委…冬奥会金牌得主」)
_EVENT_NOUN = re.compile(r"[\u4e00-\u9fff]*(?:会|赛|杯|节|展)$")


def _events(rest: str) -> list[Constraint]:
    """Each place word directly followed by an event noun, as one subject (``about``
    ``event``; the text is place|event)."""
    tags = [(w.strip(), t) for w, t in word_tags(rest) if w.strip()]
    return [Constraint(Kind.SUBJECT, f"{w}|{nxt}", "event") for (w, t), (nxt, _) in zip(tags, tags[1:])
            if (w in PLACES or t == "ns") and w not in _GENERIC and len(nxt) >= 2 and _EVENT_NOUN.fullmatch(nxt)]


# parts of speech that end the noun phrase a question opens with: verbs, pronouns, particles,
# numerals, adverbs, prepositions, punctuation
_PHRASE_END = ("v", "r", "u", "m", "d", "p", "x", "y", "e", "q", "f", "t", "a", "l", "i")
_CONJ = {"如果", "但是", "因为", "或者", "而且", "以及", "并且", "还是", "虽然", "所以", "和", "与", "及", "或"}


def _instance(rest: str) -> list[Constraint]:
    """The instance a question opens with, a modifier and the noun of its kind (果果合唱团,
    罗伯小学枪击案, 美国最高法院), as one subject (``about`` ``instance``, text modifier|noun): a
    value stated of another instance of that kind (「马兰花儿童声合唱团…邓小岚女士所创办」) does
    not answer. Leading years and numbers are skipped; empty when the question does not open
    with such a phrase (「安倍晋三的国葬时间」: 的 ends it at one word) or its modifier is one
    common noun (公司注册资本)."""
    tags = [(w.strip(), t) for w, t in word_tags(rest) if w.strip()]
    while tags and (tags[0][1].startswith(("m", "t")) or YEAR.fullmatch(tags[0][0])):
        tags = tags[1:]
    run: list[tuple[str, str]] = []
    for w, t in tags:
        if t.startswith(_PHRASE_END) and t != "vn" or w in _CONJ or w in QUESTION_WORDS or _QWORD.search(w):
            break  # 「法院多长时间内会给答复」: the phrase ends at the question word
        run.append((w, t))
    while run and not run[-1][1].startswith(("n", "j")):  # 仲裁委员会主任 (主任: b) ends at 委员会
        run.pop()
    if len(run) < 2 or len(run[-1][0]) < 2 or run[-1][0] in _VAGUE or _QTY_WORD.search(run[-1][0]):
        return []
    if len(run) == 2 and run[0][1] in ("n", "vn"):  # 公司注册资本: a common noun names no instance
        return []
    run = [w for w, _ in run]
    mod = "".join(run[:-1])
    if len(mod) < 2 or mod in _GENERIC:
        return []
    return [Constraint(Kind.SUBJECT, f"{mod}|{run[-1]}", "instance")]


def _event(clause: str) -> str:
    """What a date question asks the time of: the word before 时间/日期, past 的 and single
    characters (「成都大运会开幕时间」 → 开幕, 「首架C919的交付日时间」 → 交付); the cited
    sentence giving the date must name it, or it dates something else (ticket sales, not
    the opening). Empty when none."""
    words = [w.strip() for w, _ in word_tags(clause) if w.strip()]
    at = next((i for i, w in enumerate(words) if w in ("时间", "日期")), 0)
    before = [w for w in words[:at] if len(w) >= 2]
    if not before or before[-1] in QUESTION_WORDS or _QTY_WORD.search(before[-1]) or YEAR.search(before[-1]):
        return ""
    return before[-1]


# the role a 「谁」 question asks for (「开幕式总导演是谁」, 「主演有哪些」, 「…的主演」): a name
# the evidence gives in another role (the festival's ambassador, a character) does not answer
_ROLE_ASK = re.compile(r"(?:是|有|都有|还有)(?:谁|哪些人?|哪位)[？?呢]*$")
_ROLE_WORD = re.compile(r"(?:主演|导演|编剧|作者|扮演者|得主|创始人|创办人)$")


# holding a post (「总指挥由谁担任」, 「谁来兼任组长」): the post is the role asked (config
# ``answerability_posts``)
_POST_VERBS = {"担任", "兼任", "出任", "担当"}
_POST_ASK = re.compile(r"由?(?:谁|哪位|什么人)来?(?:担任|兼任|出任|担当)[？?呢]*$")
_POST_BEFORE = re.compile(r"由?(?:谁|哪位|什么人)来?(?:担任|兼任|出任|担当)$")


def _role(clause: str, posts: bool = False) -> str:
    """The noun naming the role asked for (总导演, 金牌得主, 主演), or empty; with ``posts`` also
    the post whose holder the question asks (「总指挥由谁担任」, 「谁担任组长」 → 总指挥, 组长)."""
    tags = [(w.strip(), t) for w, t in word_tags(clause) if w.strip() and t != "x"]
    words = [w for w, _ in tags]
    text = "".join(words)
    role = lambda i: (len(words[i]) >= 2 and tags[i][1].startswith("n") and tags[i][1] not in _NAME_TAGS
                      and words[i] not in _VAGUE)
    for i in range(len(tags) - 1, 0, -1):
        if _ROLE_ASK.fullmatch("".join(words[i:])) and len(words[i - 1]) >= 2 \
                and (tags[i - 1][1].startswith("n") or _ROLE_WORD.search(words[i - 1])) \
                and tags[i - 1][1] not in _NAME_TAGS and words[i - 1] not in _VAGUE:
            return words[i - 1]
        if posts and _POST_ASK.fullmatch("".join(words[i:])) and words[i] in ("由", "谁", "哪位", "什么人") \
                and role(i - 1):
            return words[i - 1]  # 「…的总指挥由谁担任」
        if posts and _POST_BEFORE.fullmatch("".join(words[:i])) and role(len(words) - 1) \
                and all(t.startswith("n") or t == "uj" for _, t in tags[i:]):
            return words[-1]  # 「谁担任组长」
    return words[-1] if words and _ROLE_WORD.search(text) and _ROLE_WORD.fullmatch(words[-1]) else ""


_DOER = re.compile(r"谁|哪位|哪些人|哪[些个]?国家?")


def _act(clause: str) -> str:
    """The act a 「谁」 or 「哪些国家」 question asks the doer of: the verb right after the
    question word (「是谁创办的」 → 创办, 「哪些国家参加了…」 → 参加), or empty; a name quoted
    beside another act (「果果以为合唱团是到那里演出」) names nobody who founded it. After a
    verb whose object it is (「配合谁开展禁烟运动」) the question word is that verb's object and
    the next verb's doer: either act, ``|``-joined (配合|开展), the text may state
    (「积极配合两广总督邓廷桢和林则徐的禁烟运动」)."""
    tags = [(w.strip(), t) for w, t in word_tags(clause) if w.strip()]
    words = [w for w, _ in tags]
    for i in range(len(tags) - 1):
        for j in range(i + 1, min(i + 3, len(tags))):
            if _DOER.fullmatch("".join(words[i:j])) and tags[j][1] == "v" and len(words[j]) == 2:
                pivot = words[i - 1] if i > 0 and tags[i - 1][1] == "v" and len(words[i - 1]) == 2 \
                    and words[i - 1] not in QUESTION_WORDS else ""
                return f"{pivot}|{words[j]}" if pivot else words[j]
    return ""


# a count of terms of office, not which edition (「一届任期多久」, 「每届」, 「连任两届」, 「两届任期」)
_TERMS = re.compile(r"[零〇一二两三四五六七八九十百\d]+届(?=任期|的任期)|(?<=[每任])[零〇一二两三四五六七八九十百\d]+届")
# which session, edition or generation (十三届, 五次会议, 第7届, 第二代): another one is
# another event (「十三届一次会议」 does not answer 「十三届五次会议」)
_ORDINAL = re.compile(r"第[零〇一二两三四五六七八九十百\d]+(?:届|次会议|季|期|代)(?!表|价)|"
                      r"(?<![第\d零〇一二两三四五六七八九十百])[零〇一二两三四五六七八九十百\d]+(?:届|次会议|次全会)")


# nouns too general to be the attribute asked for (什么内容, 哪个方面)
# words naming the kind of answer, not a word the answer repeats: 死亡人数 is answered by
# 「12人死亡」 (a count), 发生的地点 by a place name
_WHERE = re.compile(r"地点|地方是|哪里|哪儿|在哪(?![部个些种位年天次届类本首])|位置|举办地|所在地")
# where to look something up, find or download it (去哪里看, 在哪里查, 到哪儿下载, 哪里可以找到): a
# page, a site, a link, a file or a menu (kind ``page``, config ``answerability_look_places``),
# not only a place; 「户口在哪里办」 still asks a place
_LOOK = re.compile(r"哪(?:里|儿)?(?:可以|能够?|才能|能)?(?:看到?|查看|查询|查阅|查到|查|找到|找|下载|获取|获得|阅读|浏览)")
_VAGUE = {"人数", "数量", "数目", "次数", "名字", "名称", "地点", "地方", "位置", "时间", "日期", "内容", "东西", "意思", "情况", "方面", "问题", "事情", "标准", "规定", "要求", "条件", "程序",
          "手续", "责任", "后果", "作用", "意义", "原因", "区别", "关系", "方式", "办法", "措施", "时候",
          # what a word means or how a thing stands: answered by 「X指…」, 「每星期只开6天」
          "定义", "含义", "涵义", "概念", "状况", "现状"}
_ASK_AFTER = {"什么", "哪个", "哪些", "哪种", "哪类", "哪一个"}
_QWORD = re.compile(r"什么|哪|谁|多少|多久|多长|多大|几|怎么|怎样|如何|吗|呢|是否|能否|有没有|可不可以|能不能|还是")
_ASK_BEFORE = re.compile(r"^(?:是|叫|为|有)(?:什么|哪|谁|多少)")


def year_months(text: str) -> list[str]:
    """The months ``text`` names with their year, as 「2025年7月」 (2025年七月, 2025-07 and 2025.7
    alike), in order, once each."""
    from zhiku.chunk import cn_to_int

    out = []
    for m in YEAR_MONTH.finditer(text):
        month = m.group(2) or m.group(3)
        out.append(f"{m.group(1)}年{int(month) if month.isdigit() else cn_to_int(month)}月")
    return list(dict.fromkeys(out))


def _which_kind(tags: list[tuple[str, str]], at: int) -> str:
    """The kind a which-question asks one of: the head noun of the phrase after the asking
    word at ``at`` (「哪个堕胎判例」 → 判例, 「哪些新手机」 → 手机), its modifiers (a verb, an
    adjective, a noun) read past up to the last noun of the phrase; empty when no noun follows
    (「哪个更好」) or the head is a name, a question word or too vague (哪个方面)."""
    nouns: list[str] = []
    mods = 0
    for w, t in tags[at + 1:]:
        if t[:1] == "n" and t not in _NAME_TAGS:
            nouns.append(w)
            continue
        if nouns or t not in ("v", "vn", "a", "b", "an") or mods >= 2 or w in QUESTION_WORDS:
            break
        mods += 1
    # the last noun that names a kind (「哪个司法解释规定了…」: 规定, tagged a noun, is the verb)
    heads = [w for w in nouns if len(w) >= 2 and w not in _VAGUE and w not in QUESTION_WORDS]
    return heads[-1] if heads else ""


def _focus(clause: str, which: bool = False) -> tuple[str, str] | None:
    """The attribute a question asks for: the noun after 什么/哪个 (「什么奖项」), the noun
    before 是什么/叫什么/有哪些 (「全称是什么」), or the last noun of a clause with no question
    word (「土耳其地震的震级」; a choice, 「判给爸爸还是妈妈」, names options, not an
    attribute), with how it was found (``about``: ``asked`` or ``named``, the
    last: a keyword question naming the attribute); None when none, or only a vague one
    (什么内容). With ``which`` (config ``answerability_which_kind``) a which-question's kind is
    the head noun of the phrase after 哪个/哪些 (``about`` ``which``: :func:`_which_kind`)."""
    tags = [(w.strip(), t) for w, t in word_tags(clause) if w.strip() and t != "x"]
    words = [w for w, _ in tags]
    noun = lambda i: (0 <= i < len(tags) and tags[i][1][:1] in ("n", "v") and len(tags[i][0]) >= 2
                      and tags[i][0] not in QUESTION_WORDS and tags[i][0] not in _VAGUE
                      and tags[i][1] not in _NAME_TAGS and not YEAR.search(tags[i][0]))
    for i, w in enumerate(words):
        if w in _ASK_AFTER:
            if which and w.startswith("哪") and (kind := _which_kind(tags, i)):
                return kind, "which"
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


def _head(clause: str, at: int, compounds: bool = False) -> str:
    """The words a quantity question asks about, ``|``-joined: the asking clause's content
    words (「公司年假有多少天」 → 公司|年假); the cited sentence must hold one of them. A rate's
    unit (每月, 每人, 每年) belongs to the quantity, not to what it is a quantity of: 「起征点是
    每月多少钱」 is not answered by any 「每月400元」. A word naming the kind asked (年龄, 时间)
    is left out; with ``compounds`` (config ``answerability_kind_compounds``) a word ending in
    it keeps its other part (结婚年龄 → 结婚, 营业时间 → 营业) beside the other words:
    「法定结婚年龄是多少岁」 asks the age of 法定 or 结婚, not of 法定 alone; a clause of no other
    word (「结婚年龄是多少岁」) still asks any age."""
    import rjieba

    words, parts = [], []
    for w in rjieba.cut(clause):
        m = _KIND_COMPOUND.fullmatch(w) if compounds else None
        if m and _kept(m["rest"]):
            parts.append(m["rest"])
        elif _kept(w):
            words.append(w)
    # the parts only widen words there are: asked of nothing else, any figure of the kind counts
    return "|".join(dict.fromkeys([*words, *parts] if words else []))


def _kept(w: str) -> bool:
    """Whether segmented word ``w`` of an asking clause is a word a figure is asked of."""
    return (len(w) >= 2 and w not in QUESTION_WORDS and w not in _MODAL and not w.startswith("每")
            and w not in _GENERIC and not _QTY_WORD.search(w) and not YEAR.search(w))


# a word ending in the word of the kind asked: its other part is what the figure is of
_KIND_COMPOUND = re.compile(r"(?P<rest>[\u4e00-\u9fff]{2,})(?:年龄|年纪|岁数|时间|价格)")


_QTY_WORD = re.compile(r"多少|几|多久|多长|多大|时间|时候|何时|价格|年龄|年纪|岁数|是否|什么")
