"""What a question pins beyond its topic: the role a 「谁」 question asks for, the event a date
question dates, the event a place names, and figures that are dates; each with a twin that is
still answered."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.verify.answerable import check, decisive
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned
from tests.answer.conftest import article_in, law_text, sentence_with

DATA = Path(__file__).resolve().parents[1] / "data"
LABOUR = law_text("社会法/劳动法(2018-12-29).md")
# CMRC 2018 trial paragraphs (Chinese Wikipedia, CC BY-SA 4.0; tests/data/eval/SOURCE.md),
# quoted verbatim: TRIAL_606 《美女食神》 and the opening of TRIAL_970 渠成
FOOD_GOD = ("美女食神 是2007年上映的香港爱情喜剧电影，由佘诗曼及李克勤领衍主演，钟少雄导演。"
            "旺角少女木咀C（佘诗曼饰），是砵兰街老飞潇洒哥的女儿，自小被溺爱，从未走近厨房，弄一碗即食面，"
            "也会不能入口，更被潇洒哥（王　晶饰）冠以地狱厨神称号来取笑她。")
QU_CHENG = ("渠成 (足球运动员) 渠成（），中国足球运动员，江苏省南京市人，司职前锋，现效力四川安纳普尔那。"
            "渠成是江苏南京人，小学就读于南昌路小学，四年级进入南京市足球代表队。小学毕业后，他升入雨花台中学。"
            "他曾参加2005年第15届江苏省运动会，赛后入选江苏舜天二队，司职中后卫。")


@pytest.mark.unit
def test_the_role_a_who_question_asks_for_must_be_named():
    """「导演是谁」 is answered by the sentence naming the director (钟少雄导演); 「编剧是谁」 is
    not, although the same sentence names people (the leads): decisively refused."""
    said = sentence_with(FOOD_GOD, "导演")
    assert [c.text for c in pinned("《美女食神》的导演是谁？") if c.about == "role"] == ["导演"]
    for q in ("《美女食神》的导演是谁？", "《美女食神》的主演有哪些？"):
        assert check(q, [(FOOD_GOD, said)]).ok, q
    no = check("《美女食神》的编剧是谁？", [(FOOD_GOD, said)])
    assert not no.ok and "编剧" in [c.text for c in no.missing]
    assert all(decisive(c) for c in no.missing if c.kind is Kind.FOCUS)
    # a question asking who did something (谁创办) names no role: a name answers it
    assert not any(c.about == "role" for c in pinned("劳动法的起草人是谁创办的？"))


@pytest.mark.unit
def test_a_date_must_be_the_date_of_the_event_asked_for():
    """「上映时间」: 「是2007年上映的…」 dates the release; the same year does not date the
    shooting (拍摄时间). 劳动法 第一百零七条 dates when it takes effect (施行), not when it was
    published (公布)."""
    said = sentence_with(FOOD_GOD, "上映")
    assert check("《美女食神》的上映时间", [(FOOD_GOD, said)]).ok
    no = check("《美女食神》的拍摄时间", [(FOOD_GOD, said)])
    assert not no.ok and no.missing[0].kind is Kind.QUANTITY and decisive(no.missing[0])
    art107 = article_in(LABOUR, "第一百零七条")  # 本法自1995年1月1日起施行。
    assert check("劳动法的施行时间", [(art107, art107)]).ok
    assert not check("劳动法的公布时间", [(art107, art107)]).ok


@pytest.mark.unit
def test_an_event_a_place_names_must_appear_as_that_event():
    """渠成 took part in 江苏省运动会; the paragraph names 南京市 too (his home town, its youth
    team), but no 南京市运动会: another event, refused decisively."""
    said = sentence_with(QU_CHENG, "运动会")
    yes = "渠成参加的江苏省运动会是第几届？"
    assert [c.text for c in pinned(yes) if c.about == "event"] == ["江苏省|运动会"]
    assert check(yes, [(QU_CHENG, said)]).ok
    no = check("渠成参加的南京市运动会是第几届？", [(QU_CHENG, said)])
    assert not no.ok and [c.text for c in no.missing] == ["南京市|运动会"] and decisive(no.missing[0])


@pytest.mark.unit
def test_a_date_is_not_a_count_and_a_lower_case_dateline_is_no_figure():
    """「多少」 is not answered by the date a rule takes effect (1995年1月1日) nor by a page's
    dateline (read case-blind: the text is lower-cased before the check); a sentence stating
    a count answers it."""
    art107 = article_in(LABOUR, "第一百零七条")
    assert not check("劳动法规定的工时是多少？", [(art107, art107)]).ok
    art81 = article_in(LABOUR, "第八十一条").split(" ", 1)[1]  # its text, without the label
    dated = f"Dec 29, 2018 ... {art81}"
    assert not check("劳动争议仲裁委员会有多少个？", [(dated, dated)]).ok
    art36 = article_in(LABOUR, "第三十六条")  # 每日工作时间不超过八小时、平均每周…四十四小时
    assert check("劳动者平均每周工作时间不超过多少小时？", [(art36, art36)]).ok


@pytest.mark.unit
def test_a_keyword_question_ending_in_a_noun_and_a_verb_names_that_verb():
    """「公司注册资本缴纳」 names what it wants (缴纳, tagged a verb after a noun, as 票房收入):
    公司法 第二十八条 says how shareholders pay in; 第二十六条 only defines the registered
    capital, decisively not an answer."""
    company = law_text("民法商法/公司法(2018-10-26).md")
    q = "公司注册资本缴纳"
    assert [(c.kind, c.text) for c in pinned(q)] == [(Kind.FOCUS, "缴纳")]
    art28 = article_in(company, "第二十八条")
    assert check(q, [(art28, art28)]).ok
    art26 = article_in(company, "第二十六条")
    no = check(q, [(art26, art26)])
    assert not no.ok and decisive(no.missing[0])


# 全国年节及纪念日放假办法(2024-11-10) 第二条, inlined (not among the test files; real text)
HOLIDAYS_2 = ("第二条 全体公民放假的节日：\n\n（一）元旦，放假1天（1月1日）；\n\n（二）春节，放假4天（农历除夕、"
              "正月初一至初三）；\n\n（三）清明节，放假1天（农历清明当日）；\n\n（四）劳动节，放假2天（5月1日、2日）；")


@pytest.mark.unit
def test_two_items_of_one_list_are_two_entries_not_a_conflict():
    """第二条 lists each holiday's days (春节 4天, 清明节 1天): no internal conflict; the same
    values as two plain sentences of one document still conflict."""
    from zhiku.types import Chunk
    from zhiku.verify.conflicts import internal_conflicts

    def block(text: str) -> Chunk:
        return Chunk("c1", "holidays", "全国年节及纪念日放假办法.md", "全国年节及纪念日放假办法", "s", (),
                     "第二条", text, 0, len(text))

    assert internal_conflicts({1: block(HOLIDAYS_2)}, {1}) == []
    plain = "第二条 全体公民春节放假4天。全体公民春节放假1天。"
    assert [c.kind for c in internal_conflicts({1: block(plain)}, {1})] == ["internal"]


# 劳动争议调解仲裁法(2007-12-29) 第三十条, 第三十二条, 第四十三条, inlined (real text, not among
# the test files)
ARBITRATION_30 = ("第三十条 劳动争议仲裁委员会受理仲裁申请后，应当在五日内将仲裁申请书副本送达被申请人。\n\n"
                  "被申请人收到仲裁申请书副本后，应当在十日内向劳动争议仲裁委员会提交答辩书。劳动争议仲裁委员会收到"
                  "答辩书后，应当在五日内将答辩书副本送达申请人。被申请人未提交答辩书的，不影响仲裁程序的进行。")
ARBITRATION_32 = "第三十二条 劳动争议仲裁委员会应当在受理仲裁申请之日起五日内将仲裁庭的组成情况书面通知当事人。"
ARBITRATION_43 = ("第四十三条 仲裁庭裁决劳动争议案件，应当自劳动争议仲裁委员会受理仲裁申请之日起四十五日内结束。"
                  "案情复杂需要延期的，经劳动争议仲裁委员会主任批准，可以延期并书面通知当事人，但是延长期限不得超过"
                  "十五日。逾期未作出仲裁裁决的，当事人可以就该劳动争议事项向人民法院提起诉讼。")


@pytest.mark.unit
def test_deadlines_of_two_acts_are_not_a_conflict():
    """A law's time limits (五日内 to serve a copy, 十日内 to answer; 四十五日内 to decide, 五日内 to
    notify the panel) are deadlines of different acts, not two values for one point: no
    internal conflict, so no note and no second citation; two plain values for one point in
    the same law still conflict."""
    from zhiku.types import Chunk
    from zhiku.verify.conflicts import internal_conflicts

    def block(cid: str, label: str, text: str) -> Chunk:
        return Chunk(cid, "arbitration", "劳动争议调解仲裁法(2007-12-29).md", "中华人民共和国劳动争议调解仲裁法",
                     "s", (), label, text, 0, len(text))

    assert internal_conflicts({1: block("c30", "第三十条", ARBITRATION_30)}, {1}) == []
    pair = {1: block("c43", "第四十三条", ARBITRATION_43), 2: block("c32", "第三十二条", ARBITRATION_32)}
    assert internal_conflicts(pair, {1}) == []
    plain = "第九条 劳动争议仲裁委员会的仲裁员为五人。劳动争议仲裁委员会的仲裁员为三人。"
    assert [c.kind for c in internal_conflicts({1: block("c9", "第九条", plain)}, {1})] == ["internal"]


@pytest.mark.unit
def test_foreign_names_no_country():
    """「标明哪个国家」: 公司法 第一百九十四条 says the branch names 该外国公司的国籍 — 外国 (like
    国外, 各国) names no country, decisively; 劳动法 第二条 names one (中华人民共和国)."""
    company = law_text("民法商法/公司法(2018-10-26).md")
    art194 = article_in(company, "第一百九十四条")
    no = check("分支机构的名称应当标明哪个国家？", [(art194, art194)])
    assert not no.ok and no.missing[0].text == "country" and decisive(no.missing[0])
    art2 = article_in(LABOUR, "第二条")
    assert check("劳动法适用于哪个国家境内的企业？", [(art2, art2)]).ok


# CMRC 2018 TRIAL_594 占旭刚, its first sentence (same source as above)
ZHAN = ("占旭刚（），中国浙江省衢州市开化县人，人称「战就刚」，著名男子举重运动员，1996年和2000年夏季奥林匹克运动会"
        "两度获得举重项目金牌，为中国奥运史上连续两届获得举重冠军的第一人。")


@pytest.mark.unit
def test_the_role_asked_for_needs_someone_in_it():
    """The role's word is not enough: someone must fill it, near it (「主任由劳动行政部门代表担任」)
    or as the sentence's subject (占旭刚 … 获得举重冠军); 公司法's 「董事长和副董事长由董事会以全体
    董事的过半数选举产生」 names how the chairman is chosen, nobody as chairman."""
    art81 = article_in(LABOUR, "第八十一条")
    assert check("劳动争议仲裁委员会主任是谁？", [(art81, art81)]).ok
    assert check("连续两届获得奥运会举重冠军的第一人是谁？", [(ZHAN, ZHAN)]).ok
    company = law_text("民法商法/公司法(2018-10-26).md")
    said = next(s for s in article_in(company, "第一百零九条").split("。") if "选举产生" in s) + "。"
    no = check("股份有限公司的董事长是谁？", [(said, said)])
    assert not no.ok and "董事长" in [c.text for c in no.missing]


@pytest.mark.unit
def test_model_names_match_without_separators():
    """A product table writes ESP32C3 where the question writes ESP32-C3 (tests/data/real, the
    ESP-AT parameter table): one name; ESP32 alone, or another model (ESP32S3), is not it. A
    version is read whole (SDK 1.0.1, not 「sdk 1」)."""
    table = (DATA / "real" / "ESP-AT模组出厂参数表.csv").read_text(encoding="utf-8")
    lines = table.splitlines()
    row = lines[0] + "\n" + next(line for line in lines if line.startswith("PLATFORM_ESP32C3,MINI-1"))
    q = "ESP32-C3 的 MINI-1 模组 UART 的 TX 和 RX 接哪个引脚？"
    assert check(q, [(row, row)]).ok
    other = row.replace("PLATFORM_ESP32C3", "PLATFORM_ESP32S3")
    no = check(q, [(other, other)])
    assert not no.ok and [c.text for c in no.missing] == ["esp32-c3"]
    assert [c.text for c in pinned("SDK 1.0.1 版本新加了什么分区？") if c.kind is Kind.SUBJECT] == ["sdk 1.0.1"]


# 个人所得税专项附加扣除暂行办法 (国发〔2018〕41号; tests/data/real), quoted verbatim
IIT_CARRY = "第三十条 个人所得税专项附加扣除额一个纳税年度扣除不完的，不能结转以后年度扣除。"
IIT_STUDY = "第八条 纳税人在中国境内接受学历（学位）继续教育的支出，在学历（学位）教育期间按照每月400元定额扣除。"


@pytest.mark.unit
def test_this_year_and_next_in_a_yes_no_question_pin_no_calendar_year():
    """「今年的…没扣完，能挪到明年接着扣吗」 asks whether a rule allows carrying over: 第三十条
    answers it although it names no year. Asking the figure of next year (「明年…每月多少钱」)
    still pins that year, and 「明天…吗」 still pins the day."""
    q = "今年的专项附加扣除没扣完，能挪到明年接着扣吗？"
    assert not any(c.kind is Kind.TIME for c in pinned(q))
    assert check(q, [(IIT_CARRY, IIT_CARRY)]).ok
    fact = check("明年的继续教育扣除标准是每月多少钱？", [(IIT_STUDY, IIT_STUDY)])
    assert not fact.ok and [c.text for c in fact.missing] == ["明年"] and decisive(fact.missing[0])
    assert [c.text for c in pinned("明天北京会下雨吗？") if c.kind is Kind.TIME] == ["明天"]


@pytest.mark.unit
def test_a_rate_unit_is_not_what_the_sum_is_of():
    """「起征点是每月多少钱」: 第八条's 「每月400元」 is the deduction for further education, not
    the tax threshold; 每月 alone does not tie it to the question (refused decisively). The
    same article answers what further education deducts each month."""
    no = check("个人所得税的起征点是每月多少钱？", [(IIT_STUDY, IIT_STUDY)])
    assert not no.ok and [c.text for c in no.missing] == ["money"] and decisive(no.missing[0])
    assert check("继续教育每月扣除多少钱？", [(IIT_STUDY, IIT_STUDY)]).ok


@pytest.mark.unit
def test_a_dateline_after_a_page_title_is_still_a_dateline():
    """A titled page's block opens with its title, then the dateline (「劳动法 Dec 29, 2018
    ... 」): the dateline is no count there either, and it still dates the page, so 去年 in
    the quoted text means the year before it (2017), not 2018."""
    art81 = article_in(LABOUR, "第八十一条").split(" ", 1)[1]
    titled = f"劳动法 Dec 29, 2018 ... {art81}"
    assert not check("劳动争议仲裁委员会有多少个？", [(titled, titled)]).ok
    said = "去年劳动争议仲裁委员会由劳动行政部门代表、同级工会代表、用人单位方面的代表组成。"
    page = f"劳动法 Dec 29, 2018 ... {said}"
    assert check("2017年劳动争议仲裁委员会由哪些代表组成？", [(page, said)]).ok
    assert not check("2018年劳动争议仲裁委员会由哪些代表组成？", [(page, said)]).ok


@pytest.mark.unit
def test_a_release_names_its_version_in_a_heading_apart_from_the_product():
    """The release notes (tests/data/real, IoT-Board-SDK发布说明.pdf) are titled 「…SDK发布说明」
    and state each release in a heading, 「3 版本 1.0.1」: that block meets 「SDK 1.0.1」; the
    block of another release (1.1.0) does not."""
    q = "SDK 1.0.1 版本新加了什么分区？"
    block = "RT-THREAD IOT-BOARD SDK发布说明 3 版本 1.0.1 • 添加字库（font）分区"
    assert check(q, [(block, "• 添加字库（font）分区")]).ok
    other = "RT-THREAD IOT-BOARD SDK发布说明 2 版本 1.1.0 • 添加 31 MicroPython 例程"
    no = check(q, [(other, "• 添加 31 MicroPython 例程")])
    assert not no.ok and "sdk 1.0.1" in [c.text for c in no.missing]


@pytest.mark.unit
def test_a_pin_number_is_no_date_and_a_price_basis_is_no_sum():
    """「引脚是几号」 asks which pin (a number), not a day; 「几号」 of a calendar still asks a day.
    「按什么价格」 asks what a price is based on (投资本金和利息), not a sum; 「什么价格」 still
    asks a sum."""
    kinds = lambda q: [c.text for c in pinned(q) if c.kind is Kind.QUANTITY]
    assert kinds("ESP32-S2 MINI 模组的 UART RX 引脚是几号？") == ["number"]
    assert kinds("明天是几号？") == ["date"] and kinds("会议几号召开？") == ["date"]
    assert kinds("创业团队回购政府产业基金持有的股权按什么价格？") == []
    assert kinds("这个手机什么价格？") == ["money"]
    # the basis the attachment of 国办发〔2018〕126号 (tests/data/real) states answers it
    row = ("序号 14，改革举措 创新创业团队回购地方政府产业投资基金所持股权的机制，主 要 内 容 地方政府产业投资基金"
           "在参股高层次创新创业团队所办企业时，约定在一定时期内，创新创业团队可按照投资本金和同期商业贷款利息回购"
           "股权，激发创新创业积极性。")
    v = check("创业团队回购政府产业基金持有的股权按什么价格？", [(row, row)])
    assert v.ok or not any(decisive(c, v.constraints) for c in v.missing)  # answered (at most weak)


@pytest.mark.unit
def test_the_act_a_who_question_asks_the_doer_of_must_be_stated():
    """劳动法 第一百零六条: the people's government 规定 the steps and reports them to the State
    Council; it answers who sets them (「由谁规定」), not who approves them (「由谁批准」): a name
    given as the doer of another act does not answer, decisively. 「哪些国家参加了…」 pins its
    act the same way; 「包括哪些国家」 asks no doer."""
    art = article_in(LABOUR, "第一百零六条")
    assert check("劳动合同制度的实施步骤由谁规定？", [(art, art)]).ok
    no = check("劳动合同制度的实施步骤由谁批准？", [(art, art)])
    assert not no.ok and [(c.kind, c.text) for c in no.missing] == [(Kind.FOCUS, "批准")]
    assert decisive(no.missing[0], no.constraints)
    assert [c.text for c in pinned("哪些国家参加了演习？") if c.about == "act"] == ["参加"]
    assert not [c for c in pinned("RCEP具体包括哪些国家") if c.about == "act"]


# tests/data/real/fresh/Sa-Token更新日志.md (dromara/Sa-Token, Apache-2.0): a release's heading
# dates it in figures, the year first
RELEASE = (Path(__file__).resolve().parents[1] / "data" / "real" / "fresh" / "Sa-Token更新日志.md").read_text(
    encoding="utf-8")


@pytest.mark.unit
def test_a_date_in_figures_answers_when_and_counts_no_quantity():
    """「v1.44.0 @2025-6-7」 and a version table's 「更新日期 2022.02.03」 state a date: a question
    asking when is answered; the release's changes alone (no date) still are not, nor is a
    version number (1.7.1) or an address in figures a date. The same date is no count: 「多少」
    is not answered by it."""
    start = RELEASE.index("### v1.44.0")
    block = RELEASE[start:RELEASE.index("### v1.43.0")]
    head, first = block.splitlines()[0].lstrip("# "), next(l for l in block.splitlines() if l.startswith("- "))
    q = "Sa-Token v1.44.0 是哪天发布的？"
    assert check(q, [(block, f"{head}：{first}")]).ok
    assert not check(q, [(block, first)]).ok  # the quoted change states no date
    row = "版本号 1.7.1，制定团队 全球Java社区开发者，更新日期 2022.02.03，备注 黄山版，新增11条新规约。"
    assert check("Java开发手册1.7.1版本的更新日期是哪天？", [(row, row)]).ok
    for figures in ("版本号 1.7.1，备注 黄山版。", "服务地址 192.168.1.1，端口 8080。"):
        assert not check("Java开发手册1.7.1版本的更新日期是哪天？", [(figures, figures)]).ok, figures
    dated = "本次更新发布于 2025-6-7。"
    assert not check("本次更新修复了多少个问题？", [(dated, dated)]).ok


@pytest.mark.unit
def test_an_articles_own_label_is_no_count():
    """上海市城镇职工社会保险费征缴若干规定 (tests/data/real/fresh) 第二条 names the insurances the
    rule covers and no rate: 「第二条」 says which article it is, so 「工伤保险费率是多少」 is not
    answered by it; 第六条 stating 「缓缴期最长为一年」 still answers 「缓缴期最长多久」, and a
    count in an article's text (劳动法 第三十六条, 四十四小时) still answers 「多少」."""
    rule = (Path(__file__).resolve().parents[1] / "data" / "real" / "fresh"
            / "上海市城镇职工社会保险费征缴若干规定.md").read_text(encoding="utf-8")
    title = "上海市城镇职工社会保险费征缴若干规定\n"
    art2, art6 = article_in(rule, "第二条"), article_in(rule, "第六条")
    no = check("上海城镇职工的工伤保险费率是多少？", [(title + art2, art2)])
    assert not no.ok and [c.kind for c in no.missing] == [Kind.QUANTITY]
    assert check("上海单位社会保险费缓缴期最长多久？", [(title + art6, art6)]).ok
    art36 = article_in(LABOUR, "第三十六条")
    assert check("劳动者平均每周工作时间不超过多少小时？", [(art36, art36)]).ok


@pytest.mark.unit
def test_a_version_the_question_names_is_the_whole_version():
    """「v1.44.0」 pins that release, not 「v1」 (every 1.x release): the release notes' v1.45.0
    section, dated too, does not answer when v1.44.0 came out; the v1.44.0 section does, and
    「SDK 1.0.1」 is still pinned whole."""
    def section(version: str) -> tuple[str, str]:
        start = RELEASE.index(f"### {version}")
        block = RELEASE[start:RELEASE.index("\n### ", start + 1)]
        change = next(line.strip() for line in block.splitlines() if line.strip().startswith("- "))
        return block, f"{block.splitlines()[0].lstrip('# ')}：{change}"

    q = "Sa-Token v1.44.0 是哪天发布的？"
    assert "v1.44.0" in [c.text for c in pinned(q) if c.kind is Kind.SUBJECT]
    assert check(q, [section("v1.44.0")]).ok
    no = check(q, [section("v1.45.0")])
    assert not no.ok and "v1.44.0" in [c.text for c in no.missing]
    assert "sdk 1.0.1" in [c.text for c in pinned("IoT Board SDK 1.0.1 版本新加了什么分区？")]


@pytest.mark.unit
def test_a_place_opening_the_question_pins_it():
    """上海市劳动合同条例 (tests/data/real/fresh) 第十三条 on probation periods does not answer
    「深圳劳动合同期限满一年不满三年的，试用期最长多久」: 深圳 qualifies the contracts asked
    about, though its clause asks nothing; the same question of 上海 is answered, a place read
    as context (「我在北京上班，…」) pins nothing, and off (``leading``) 深圳 is not checked."""
    rule = (Path(__file__).resolve().parents[1] / "data" / "real" / "fresh" / "上海市劳动合同条例.md").read_text(
        encoding="utf-8")
    art13 = article_in(rule, "第十三条")
    block = "上海市劳动合同条例\n" + art13
    q = "深圳劳动合同期限满一年不满三年的，试用期最长多久？"
    on = CheckOptions(leading_place=True)
    no = check(q, [(block, art13)], opts=on)
    assert not no.ok and [c.text for c in no.missing] == ["深圳"] and decisive(no.missing[0])
    assert check(q.replace("深圳", "上海"), [(block, art13)], opts=on).ok
    assert check(q, [(block, art13)], opts=CheckOptions(leading_place=False, opening_place=False)).ok
    assert not check(q, [(block, art13)]).ok  # shipped, the opening place is read leniently: 上海市 is another
    assert not any(c.kind is Kind.PLACE for c in pinned("我在北京上班，试用期最长多久？", on))
