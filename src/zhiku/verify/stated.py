"""What a text states, read without a model: quantities with their units, calendar dates
and years, a news page's dateline and the years 今年/去年 mean against it. The answerability
check (:mod:`zhiku.verify.answerable`) asks these of the sentences it cites."""

from __future__ import annotations

import re

from zhiku.verify.pins import YEAR

_PERIOD_UNITS = frozenset({"年", "个月", "月", "日", "天", "周", "小时", "分钟", "个工作日"})
UNITS = {
    "amount": {"元", "万元", "万", "亿", "%", "倍"},
    "age": {"岁", "周岁"},
    "days": {"日", "天", "个工作日"},
    "people": {"人", "名"},
    "duration": _PERIOD_UNITS,
    "frequency": _PERIOD_UNITS,  # how often: a period with its unit meets it as it meets how long
    "hours": {"小时", "分钟", "分", "秒", "钟头"},
}
MONEY = re.compile(r"[\d零〇一二两三四五六七八九十百千万亿]+(?:\.\d+)?\s*(?:万|亿)?\s*(?:元|块|美元|日元|日圆|欧元|英镑|港元|韩元|卢布)")
# a calendar date in figures (2022.02.03, 2025-6-7, 2021/07/19: a version table's or a
# release note's date), the year first
NUMERIC_DATE = r"(?<![\d.])(?:19|20)\d{2}([-./])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?![\d.])"
DATE = re.compile(NUMERIC_DATE + r"|\d{1,2}\s*月\s*\d{1,2}\s*日|[零〇一二三四五六七八九十]{1,3}月[一二三四五六七八九十]{1,3}日|"
                   r"(?<!\d)(?:1\d{3}|20\d{2})\s*年|\d{1,2}\s*月|[一二三四五六七八九十正]+月|"
                   r"[春夏秋冬]季|[春夏秋冬]天|世纪|年代|[零〇一二三四五六七八九十百]+年|[唐宋元明清汉隋晋][代朝初末]")

# a size in bytes, lengths or areas (256KB, 16G, 4Gbit, 180mm×130mm, 90平米): what 多大 asks of
# a thing that has one (kind ``size``)
SIZE = re.compile(r"[\d零〇一二两三四五六七八九十百千]\s*(?:(?:mm|cm|km|[kmgt]?bit|[kmgt]i?b?|bytes?)(?![a-z])|字节|"
                  r"毫米|厘米|米|英寸|寸|平方米|平米|㎡)", re.IGNORECASE)
# a size in the units of land and distance (0.304平方公里, 约两平方公里, 三公顷, 五亩, 163公里,
# 2英里): what 多大 asks of a park, a lake, an estate (config ``answerability_size_areas``); not the
# idiom 最后一公里 (the last mile of a job)
AREA = re.compile(r"(?<!最后)[\d零〇一二两三四五六七八九十百千万]\s*(?:平方公里|平方千米|平方英里|公顷|英亩|亩|公里|英里|海里|"
                  r"英尺|公尺)")
# two dimensions without a unit (480×140, 85*50): a size too (config ``answerability_size_words``)
DIMENSIONS = re.compile(r"(?<![\d.])\d+(?:\.\d+)?\s*[×＊*]\s*\d+(?:\.\d+)?(?![\d.])")
# a size a setting states as a bare number of bytes (「maxMessageSize 默认 4194304」): a number,
# not a share, in a clause naming a size
SIZED = re.compile(r"(?:size|大小|容量|字节)[^，。；,;]{0,24}?(?<![\d.])\d{3,}(?![\d.]*\s*%)|"
                   r"(?<![\d.])\d{3,}(?![\d.]*\s*%)[^，。；,;]{0,8}?(?:size|大小|容量|字节)", re.IGNORECASE)

# a day (what 哪天 asks): a date with its day (2025.06.03, 2025-6-7, 6月7日, 初五), a day of the
# month (29日), a weekday, or a day told from another (当天, 次日, 之日)
DAY = re.compile(NUMERIC_DATE + r"|\d{1,2}\s*月\s*\d{1,2}\s*[日号]|[零〇一二三四五六七八九十正腊]{1,3}月"
                 r"(?:[一二三四五六七八九十廿]{1,3}|初[一二三四五六七八九十])[日号]?|(?<![\d.])\d{1,2}\s*[日号](?![\d])|"
                 r"初[一二三四五六七八九十]|周[一二三四五六日天]|星期[一二三四五六日天]|礼拜[一二三四五六日天]|"
                 r"当天|当日|次日|同日|之日|除夕|元旦|春节|清明|端午|中秋|国庆|劳动节")

# a weekday or an hour says when only to a question asking for one (几点, 星期几)
CLOCK = re.compile(r"[上下]午|周[一二三四五六日]|星期|\d{1,2}\s*[点时](?:\d|整|半)?")

# when, in other terms than a date: a period (孔雀王朝时期, 万历年间), a stage of a life (高二的
# 时候, 晚年), a time of day or week (平日早上), an event a leading clause names (「四国征伐后，」)
WHEN = re.compile(r"的时候|时期|时代|年间|初期|末期|中期|晚年|早年|幼年|童年|少年时|青年时|"
                  r"早上|早晨|上午|中午|下午|傍晚|晚上|夜间|凌晨|平日|周末|工作日|节假日|"
                  # a weekly recurrence naming its day: when a standing meeting is held (「每双周周五」,
                  # 「每周三」, 「每星期一」)
                  r"每[双两隔]?个?(?:周|星期|礼拜)的?(?:周|星期|礼拜)?[一二三四五六日天]|"
                  r"(?:^|[，,。；;])[^，,。；;]{2,16}(?:之后|以后|后|之前|以前|期间|时)(?:[，,]|$)|"
                  # a time limit: a rule says by when as how long from an event (「自事故伤害发生之日起
                  # 30日内」, 「一年内」)
                  r"[零〇一二两三四五六七八九十百\d]+\s*个?(?:年|月|日|天|周|小时|工作日)(?:内|以内|之内)")
# when, as a statute states it at the moment of an event (config ``answerability_statute_moments``):
# 「用人单位应在解除或终止劳动合同时一次付清劳动者工资」 — 在 an event 时, the duty's time; not an hour
# (在24小时内), real time (实时), a period, a clock's moment or a count of hours (时间, 时期, 时刻,
# 时数), nor 「在…的同时」 or 「不能同时」 (at once, besides; 「合同时」 is a contract's moment)
STATUTE_MOMENT = re.compile(r"在[^，,。；;在]{2,24}?(?<![^合]同)(?<![小实\d])时(?![间期刻候代效限数段])")
# when, as a span between two events (config ``answerability_event_spans``): from one event to
# another, each closing its clause (「按预约时间到达医院后至进入诊室前」, 「自进境起到办结海关手续止」,
# 「自其离开地面时起至其重新着地时止」); not a range of figures (「五日以上十日以下」) nor one event alone
EVENT_SPAN = re.compile(r"[^，,。；;]{2,24}?(?:之后|以后|后|起)\s*(?:至|到)[^，,。；;]{2,24}?(?:之前|以前|前|止)")
# when, as a statute states it of a rule (config ``answerability_statute_times``): from an event
# (「自收到商品之日起」, 「从…之日计算」, 「…届满时」, 「期满前」), at once or at any time (立即, 当日,
# 次日, 随时), within a reasonable time (「在合理期限内」). Not how long ahead (提前三十日): the
# notice a rule states may be the other party's (``answerability_rule_times``, off)
STATUTE_WHEN = re.compile(r"之日起|之日(?:计算|起算)|之时起|时起|(?:届满|期满)(?:时|前|后|之日|以前|之前)?|"
                          r"立即|即时|当日|当天|次日|随时|"
                          r"(?:合理|一定|规定的?)期限内")
# when, as a statute states it relative to an event (config ``answerability_event_periods``): a
# period before or after the event it names (「会议召开十五日前」, 「选举日的二十日以前」, 「期满前三十日」,
# 「届满后六个月」), from it on (「自出生时起」, 「从下月起」, 「自2021年1月1日起」), before or after it
# (「在…前」 of a clause's end: 「在劳动合同期满前」). Not how long ahead with no event named (提前三十日:
# the notice may be the other party's — 「公司要辞退我，应该什么时候通知我？」 was answered from the
# worker's notice, 劳动合同法 第三十七条). Read as :data:`STATUTE_WHEN` is: a weak mismatch of a
# numbered provision only, beside the question's words
_SPAN = r"[零〇一二两三四五六七八九十百\d]+\s*个?(?:年|月|日|天|周|星期|小时|工作日)"
EVENT_PERIOD = re.compile(rf"(?<![提\d零〇一二两三四五六七八九十百]){_SPAN}(?:以前|之前|前|以后|之后|后)|(?<!提)(?:前|后|以前|以后|之前|之后){_SPAN}|"
                          r"(?:自|从)[^，,。；;]{1,24}?(?:时|日|月|年)?起|在[^，,。；;]{2,20}(?:之前|以前|前|之后|以后)(?=[，,。；;]|$)")
# when, as a statute states it by the condition or event a duty or a right follows (config
# ``answerability_condition_times``): a clause naming it, then a clause opening with the duty or
# right (its subject first, at most twelve characters): 「召开股东会会议，应当于会议召开十五日前通知全体股东」,
# 「不动产登记机构完成登记，应当依法向申请人核发不动产权属证书」, 「…未同时订立书面劳动合同的，应当…」.
# Groups: the condition, then the rest of the modal's clause (「…，调解不成的，告知当事人另行起诉」 is
# another condition's); a condition stating a duty or a right of its own is none (「用人单位应当建立职工名册，并…」)
_MODAL = r"(?:应当|可以|必须|方可|有权|应(?=[予于在向按依将即自当])|(?<![必无])须)"
CONDITION = re.compile(rf"(?:^|[，,。；;：:])((?:(?!{_MODAL}|不得)[^，,。；;：:]){{2,60}})[，,][^，,。；;：:]{{0,12}}?{_MODAL}([^，,。；;]*)")
HALF = re.compile(r"半(?:年|个月|天|小时)|[一二两三四五六七八九十]+(?:个)?(?:年|月|日|天|周|小时)")


# a news snippet's leading dateline (「Sep 9, 2022 ... 」) says when the page was written, not
# when what it reports happened
_DATED = (r"(?:[A-Z][a-z]{2,8}\.? \d{1,2}, (?:19|20)\d{2}\s*(?:\.{2,}|…+|—|-)?"
          r"|(?:19|20)\d{2}-\d{1,2}-\d{1,2}\s*(?:\.{2,}|…+))")
_DATELINE = re.compile(rf"^\s*{_DATED}\s*", re.I)  # normalised text is lower case
# the same dateline after a page's title (a block's text is its title, file name and section
# labels, then its text: 「印度踩踏事件频发 Sep 9, 2022 ... 」)
_TITLED = re.compile(rf"^(\s*[^\n。！？!?]{{1,80}}?\s)({_DATED})\s*", re.I)
# a calendar date or a year (2022年6月10日, 2022年): not a duration
STAMP = re.compile(NUMERIC_DATE + r"|(?:19|20)\d{2}\s*年(?:\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)?|\d{1,2}\s*月\s*\d{1,2}\s*[日号]")
# a year a sentence is about: 2022年, 2021赛季, 2022世界杯 (not 2000多人)
STATED_YEAR = re.compile(r"(?<![\d.])((?:19|20)\d{2})(?=\s*(?:年|赛季|年度|届|世界杯|冬奥|奥运|春运|财年))")
# which one, not how many: an ordinal (第二届, 第30起; 「连续三届」 still counts), a rule's own
# label (第二条, 第三款, 第一章: which article a quoted sentence is, not a count of anything) or
# a year naming an edition (「2022浙江省第二届龙舟公开赛」)
NOT_COUNT = re.compile(r"第\s*[零〇一二两三四五六七八九十百千\d]+\s*[届次季期代轮名位个批起条款项章节]|"
                        r"(?<![\d.])(?:19|20)\d{2}(?=\s*[\u4e00-\u9fff])(?!\s*[多余万亿千百个名人支家所项次条种位件辆台只座户艘架吨元])")
# a year naming an edition of an event (「2022年世界互联网大会乌镇峰会」): it says which one, not
# when the event the question names (举办, 开幕) took place
EDITION_YEAR = re.compile(r"(?<![\d.])(?:19|20)\d{2}\s*年?(?=[^\d\s，。；、,;：:的于在将举召开办启闭起至到]{0,10}?[会赛节展杯])")
# a network address (127.0.0.1, 127.0.0.1:8848/nacos/…, localhost:9876, broker-a.local:10911):
# its figures name a machine and a port, they count nothing and measure nothing
ADDRESS = re.compile(r"(?<![\w.:])(?:(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?|"
                     r"(?:localhost|[a-z][\w-]*(?:\.[\w-]+)*):\d{2,5})(?![\w.])(?:/[^\s'\"，。；、)）]*)?",
                     re.IGNORECASE)
# the words of a question asking for an address or a port: then the address is the answer
ADDRESS_ASKED = re.compile(r"端口|地址|网址|ip|port|host|url|域名|链接")
# a share of a whole (「占全国的26.1%」): no count or total of its own
SHARE = re.compile(r"占[^，。；,;]{0,12}?\d+(?:\.\d+)?\s*%")


REL_YEAR = {"今年": 0, "去年": -1, "前年": -2, "明年": 1}


def _dateline(text: str) -> tuple[int, int, str] | None:
    """Where ``text``'s leading news dateline lies — at its start (:data:`_DATELINE`) or
    after a page's title (:data:`_TITLED`) — as (start, end, the date it states); None
    without one."""
    m = _DATELINE.match(text)
    if m:
        return 0, m.end(), m.group()
    m = _TITLED.match(text)
    return (m.end(1), m.end(), m.group(2)) if m else None


def relative_years(said: str, block: str) -> set[str]:
    """The years 今年/去年 in ``said`` mean, read against the block's dateline (a page of
    2023 saying 去年 is about 2022); empty without a dateline."""
    line = _dateline(block.strip())
    year = YEAR.search(line[2]) if line else None
    if year is None:
        return set()
    return {str(int(year.group()) + off) for w, off in REL_YEAR.items() if w in said}


def undated(text: str) -> str:
    """``text`` without its leading news dateline, at its start or after a page's title
    (the title is kept)."""
    line = _dateline(text)
    return text[: line[0]] + text[line[1]:] if line else text


# a table's note of the unit its figures are in (「扩大招生计划表（单位：人）」, 单位:万元)
_UNIT_NOTE = re.compile(r"单位\s*[:：]\s*([\u4e00-\u9fff%]{1,3})")


def noted_unit(kind: str, block: str) -> bool:
    """Whether ``block`` notes that its figures are in a unit of quantity kind ``kind``
    (config ``answerability_unit_notes``): 「（单位：人）」 over a table's rows states the unit
    its bare cells (「1997年 140」) leave out; a sum (``money``) in any unit ending in 元."""
    for m in _UNIT_NOTE.finditer(block):
        unit = m.group(1)
        if unit in UNITS.get(kind, ()) or kind in ("money", "amount") and unit.endswith("元"):
            return True
    return False


# a count stated as a share of a whole (config ``answerability_fractions``): 「三分之二以上」, 「二分之一」,
# 「百分之二十以上」, 「半数以上」, 「过半数」 — how a statute states how many members, votes or
# shareholders a rule needs, where a question asks 多少人, 几名, 多少票
FRACTION = re.compile(r"[零〇一二两三四五六七八九十百\d]+\s*分之\s*[零〇一二两三四五六七八九十百\d]+|"
                      r"百分之[零〇一二两三四五六七八九十百\d]+|(?:过|超过|逾)?半数")

# a unit written in words in a question and as a symbol in a document, or the other way
# (config ``answerability_unit_forms``), normalised (lower case; ℃ reads °c, m² and ㎡ read m2)
UNIT_FORMS = (("分贝", "db"), ("千瓦", "kw"), ("平方米", "平米", "m2"), ("摄氏度", "°c"),
              ("毫克每升", "毫克/升", "mg/l"), ("毫克每立方米", "毫克/立方米", "mg/m3"),
              ("千帕", "kpa"), ("兆帕", "mpa"), ("赫兹", "hz"), ("毫米", "mm"), ("千克", "公斤", "kg"))


def unit_forms(word: str) -> tuple[str, ...]:
    """The other written forms of ``word`` (normalised) when it is a unit of :data:`UNIT_FORMS`
    (分贝 → db; mg/l → 毫克每升, 毫克/升); empty for any other word."""
    return next((tuple(f for f in group if f != word) for group in UNIT_FORMS if word in group), ())


def unit_stated(form: str, text: str) -> bool:
    """Whether normalised ``text`` writes the unit form ``form`` (of :data:`UNIT_FORMS`): a symbol
    with no Latin letter beside it (45db(a), 7.5kw; not the db of iotdb), a word anywhere."""
    if re.fullmatch(r"[\u4e00-\u9fff/]+", form):
        return form in text
    return re.search(rf"(?<![a-z]){re.escape(form)}(?![a-z])", text) is not None
