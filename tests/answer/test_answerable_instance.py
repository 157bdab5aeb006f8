"""A value stated of someone or somewhere else, a question that pins one instance, a page that
only echoes the question, and a snippet's elided pieces; each with a twin that is still answered."""

from __future__ import annotations


import pytest

from zhiku.verify.answerable import check, decisive
from zhiku.verify.pins import Kind, pinned
from tests.answer.conftest import article_in, law_text, line_with, sentence_with

GUIDE = law_text("其他/劳动仲裁和劳动诉讼的攻略.md")
LABOUR = law_text("社会法/劳动法(2018-12-29).md")


@pytest.mark.unit
def test_a_figure_stated_of_another_place_does_not_answer():
    """The guide names 《广东省工资支付条例》 and, a paragraph later, the overtime base of
    《上海市企业工资支付办法》 (「…计算基数为（实发工资-加班工资）* 70%」): that figure answers
    上海市, not 广东省 although the block names both; refused decisively (a place is pinned)."""
    block = line_with(GUIDE, "广东省工资支付条例") + "\n" + line_with(GUIDE, "打七折")
    said = sentence_with(line_with(GUIDE, "打七折"), "70%")
    assert check("上海市加班工资的计算基数是多少？", [(block, said)]).ok
    no = check("广东省加班工资的计算基数是多少？", [(block, said)])
    assert not no.ok and [c.kind for c in no.missing] == [Kind.QUANTITY]
    assert decisive(no.missing[0], no.constraints)


@pytest.mark.unit
def test_a_figure_stated_of_another_person_does_not_answer():
    """The guide's case: 「张某…约定工资每月5000元+提成」, and 王某 is the colleague who testifies:
    the 5000元 is 张某's pay, not 王某's."""
    case = line_with(GUIDE, "张某是某超市销售人员")
    said = sentence_with(case, "5000元")
    assert check("张某的工资每月多少钱？", [(case, said)]).ok
    no = check("王某的工资每月多少钱？", [(case, said)])
    assert not no.ok and no.missing[0].text == "money"


@pytest.mark.unit
def test_a_question_pinning_one_instance_asks_a_fact_not_a_rule():
    """A count missing from the evidence decides where the question pins a place or a year
    (上海市…是多少): it asks a fact of that instance; the same question about the rule in
    general (劳动法 第一百零七条 says when the law takes effect, no count) stays a weak
    mismatch, answered with lower confidence."""
    art107 = article_in(LABOUR, "第一百零七条")
    rule = check("劳动法规定的工时是多少？", [(art107, art107)])
    assert not rule.ok and not any(decisive(c, rule.constraints) for c in rule.missing)
    shanghai = f"上海市 {art107}"
    fact = check("上海市规定的工时是多少？", [(shanghai, art107)])
    assert not fact.ok and [c.text for c in fact.missing] == ["number"]
    assert all(decisive(c, fact.constraints) for c in fact.missing)


@pytest.mark.unit
def test_a_page_echoing_the_question_does_not_state_the_answer():
    """A page titled with the question itself (「劳动者平均每周工作时间不超过多少小时」) above
    劳动法 第一百零七条 (when the law takes effect) names 小时 only by echoing it; 第三十六条 states
    the hours (四十四小时) and answers."""
    q = "劳动者平均每周工作时间不超过多少小时"
    art107 = article_in(LABOUR, "第一百零七条")
    echo = f"{q} {art107}"
    assert not check(q + "？", [(echo, echo)]).ok
    art36 = article_in(LABOUR, "第三十六条")
    assert check(q + "？", [(f"{q} {art36}", f"{q} {art36}")]).ok


@pytest.mark.unit
def test_the_pieces_of_a_search_snippet_are_read_apart():
    """A snippet joins pieces of a page with 「...」: the figure of one piece is read with the
    place of that piece (上海市 70%), not with a place named in another piece."""
    shanghai = sentence_with(line_with(GUIDE, "打七折"), "70%").rstrip("。")
    snippet = f"Jun 8, 2023 ... {shanghai} ... 而按《广东省工资支付条例》的规定 ..."
    assert check("上海市加班工资的计算基数是多少？", [(snippet, snippet)]).ok
    no = check("广东省加班工资的计算基数是多少？", [(snippet, snippet)])
    assert not no.ok and no.missing[0].kind is Kind.QUANTITY


@pytest.mark.unit
def test_a_name_in_a_listing_fills_its_own_field():
    """A film page's fields (the credits of 《美女食神》, CMRC 2018 TRIAL_606, as a listing):
    钟少雄 fills 导演, not the empty 主演 field after it; with the leads listed, 主演 is answered."""
    empty = "美女食神 导演：钟少雄 主演："
    assert check("《美女食神》的导演是谁？", [(empty, empty)]).ok
    no = check("《美女食神》的主演有哪些？", [(empty, empty)])
    assert not no.ok and "主演" in [c.text for c in no.missing]
    full = "美女食神 导演：钟少雄 主演：佘诗曼、李克勤"
    assert check("《美女食神》的主演有哪些？", [(full, full)]).ok


@pytest.mark.unit
def test_an_attribute_asked_of_one_instance_must_be_named():
    """「…是什么」 names the attribute before it: the guide's paragraph on 上海市 and 广东省 says
    what 正常工作时间的工资 is, not what the pay is made of (构成) — refused where 上海市 is
    pinned, a weak mismatch for the general question; 「正常工作时间工资是什么」 is answered."""
    para = line_with(GUIDE, "广东省工资支付条例")
    fact = check("上海市企业的工资构成是什么？", [(para, para)])
    assert not fact.ok and [c.kind for c in fact.missing] == [Kind.FOCUS]
    assert decisive(fact.missing[0], fact.constraints)
    rule = check("企业的工资构成是什么？", [(para, para)])
    assert not rule.ok and not decisive(rule.missing[0], rule.constraints)
    assert check("上海市企业的正常工作时间工资是什么？", [(para, para)]).ok


@pytest.mark.unit
def test_an_ordinal_or_an_edition_year_is_not_a_count():
    """「第二届」, 「第九届」 and the 2022 naming the edition (RGB zh news text) say which
    tournament, not how many teams: refused; the page counting its teams (16支) answers."""
    q = "浙江省第二届国际龙舟公开赛有多少支队伍参赛"
    edition = "“瓯海农商银行杯”2022浙江省第二届国际龙舟公开赛暨温州第九届龙舟系列赛总决赛火热开赛。"
    no = check(q, [(edition, edition)])
    count = [c for c in no.missing if c.text == "number"]  # (and 参赛, the thing counted: answerability_counted)
    assert not no.ok and count and decisive(count[0], no.constraints)
    counted = edition + "来自金华、嘉兴、湖州等地8支队伍以及温州系列赛首站前8名，共16支龙舟队伍360多名运动员参赛。"
    said = counted.split("。")[1] + "。"
    assert check(q, [(counted, f"浙江省第二届国际龙舟公开赛{said}")]).ok


@pytest.mark.unit
def test_a_share_of_a_whole_is_not_the_total():
    """「河南夏粮总产量占全国的26.1%」 (RGB zh) gives a share, not the harvest asked for; the
    sentence stating the total in 亿斤 answers, and so does the share where the question asks
    for one (占比)."""
    share = "2021年，河南夏粮总产量占全国的26.1%；其中，小麦总产量占全国的28.3%。"
    no = check("河南2021年的粮食总产量是多少？", [(share, share)])
    assert not no.ok and [c.text for c in no.missing] == ["number"]
    total = "2021年河南全省粮食总产量达1308.84亿斤，占全国的9.6%。"
    assert check("河南2021年的粮食总产量是多少？", [(total, total)]).ok
    assert check("河南2021年夏粮总产量占全国的比例是多少？", [(share, share)]).ok


@pytest.mark.unit
def test_a_year_naming_an_edition_does_not_date_the_event():
    """「介绍2022年世界互联网大会乌镇峰会举办情况」 (RGB zh news text) names the 2022 edition; it
    does not say when the summit is held: refused for 「举办时间」. The sentence giving the
    dates answers, and the edition's year answers a question asking for the year."""
    q = "乌镇峰会举办时间"
    edition = "王纲介绍2022年世界互联网大会乌镇峰会举办情况和取得的成果。"
    no = check(q, [(edition, edition)])
    assert not no.ok and [c.text for c in no.missing] == ["date"]
    assert decisive(no.missing[0], no.constraints)
    dated = "2022年世界互联网大会乌镇峰会于11月9日至11日在浙江乌镇举办。"
    assert check(q, [(dated, dated)]).ok
    assert check("世界互联网大会乌镇峰会是哪一年举办的", [(edition, edition)]).ok


@pytest.mark.unit
def test_a_value_of_another_instance_of_the_kind_asked_about_does_not_answer():
    """劳动法 第八十条 names who sits on the 劳动争议调解委员会; 第八十一条 on the 仲裁委员会. Asked
    about the 仲裁委员会, the 调解委员会's members do not answer (another instance of
    委员会), although the block shares the words 劳动争议 and 委员会; 第八十一条 answers. The
    same for a news snippet (RGB zh): 邓小岚 founded the band that became 马兰花儿童声合唱团,
    which does not say who founded 果果合唱团; asked about 马兰花儿童声合唱团 it answers."""
    q = "劳动争议仲裁委员会由哪些人组成？"
    assert [c.text for c in pinned(q) if c.about == "instance"] == ["劳动争议仲裁|委员会"]
    mediation, arbitration = article_in(LABOUR, "第八十条"), article_in(LABOUR, "第八十一条")
    no = check(q, [(mediation, sentence_with(mediation, "组成"))])
    assert not no.ok and [c.text for c in no.missing] == ["person"]
    assert check(q, [(arbitration, sentence_with(arbitration, "组成"))]).ok
    # the phrase ends at a question word: no instance 「法院多长时间|内会」
    assert not [c for c in pinned("被老公家暴后去法院申请人身安全保护令，法院多长时间内会给答复？")
                if c.about == "instance"]
    snippet = "马兰花儿童声合唱团”，它的前身是邓小岚女士所创办的马兰小乐队，位于 ..."
    assert not check("果果合唱团是谁创办的？", [(snippet, snippet)]).ok
    assert check("马兰花儿童声合唱团是谁创办的？", [(snippet, snippet)]).ok


@pytest.mark.unit
def test_a_date_must_stand_beside_the_event_it_dates():
    """「安倍晋三获国葬待遇的部分原因，是他的死亡方式，他在7月初一次选举活动上遭枪杀」 (RGB zh)
    names the state funeral two clauses before the date of the shooting: it does not date
    the funeral (refused decisively), and it does date the shooting. Across a snippet's
    elision the text between is unknown: the date still counts there."""
    said = "安倍晋三获国葬待遇的部分原因，是他的死亡方式，他在7月初一次选举活动上遭枪杀，而日本为他哀悼。"
    no = check("安倍晋三的国葬时间？", [(said, said)])
    assert not no.ok and [c.text for c in no.missing] == ["date"] and decisive(no.missing[0], no.constraints)
    assert check("安倍晋三遇刺的时间？", [(said, said.replace("遭枪杀", "遇刺"))]).ok
    elided = "东航供图2022年12月9日，中国商飞将编号为B-919A的全球首架国产C919飞机 ... 事实上，首架C919虽然已经交付。"
    assert check("首架C919的交付时间？", [(elided, elided)]).ok
