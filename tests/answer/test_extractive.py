"""The offline composer: lists come with their items, weak second sources stay out."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.answer.extractive import compose
from zhiku.answer.reading import counted_terms
from zhiku.types import Chunk, Hit

pytestmark = pytest.mark.unit

# 医师法 (2021-08-20) 第二十三条 and 第三十五条, shortened.
DUTIES = ("第二十三条 医师在执业活动中履行下列义务：\n（一）树立敬业精神，恪守职业道德，履行医师职责；\n"
          "（二）遵循临床诊疗指南，遵守临床技术操作规范和医学伦理规范等；\n"
          "（三）尊重、关心、爱护患者，依法保护患者隐私和个人信息；")
STUDENTS = ("第三十五条 参加临床教学实践的医学生，应当在执业医师监督、指导下参与临床诊疗活动。"
            "医疗卫生机构应当为其提供相应的条件。")


def _hit(i: int, article: str, text: str, score: float) -> Hit:
    c = Chunk(f"c{i}", "d", "行政法/医师法.md", "医师法", str(i), ("第三章 执业规则",), article, text, 0, len(text))
    return Hit(c, score, "rrf")


def _terms():
    return ["医师", "执业", "活动", "履行", "义务"]


def test_a_list_lead_in_brings_its_items():
    hits = [_hit(1, "第二十三条", DUTIES, 0.033)]
    text, cites = compose(_terms(), hits, lambda t: 1.0)
    assert "履行下列义务：（一）树立敬业精神" in text and "（三）尊重、关心、爱护患者" in text
    assert text.count("（二）") == 1 and len(cites) == 1


def test_a_second_source_that_covers_little_is_not_cited():
    hits = [_hit(1, "第二十三条", DUTIES, 0.0330), _hit(2, "第三十五条", STUDENTS, 0.0328)]
    text, cites = compose(_terms(), hits, lambda t: 1.0)
    assert [c.article for c in cites] == ["第二十三条"]
    assert "医学生" not in text


def test_another_articles_list_item_is_not_quoted_alone():
    # 民法典 第一千零四十七条 and an item of 第一千零五十一条 (the cases of an invalid marriage)
    age = "第一千零四十七条 结婚年龄，男不得早于二十二周岁，女不得早于二十周岁。"
    invalid = "第一千零五十一条 有下列情形之一的，婚姻无效：\n（一）重婚；\n（二）有禁止结婚的亲属关系；\n（三）未到法定婚龄。"
    hits = [_hit(1, "第一千零四十七条", age, 0.0330), _hit(2, "第一千零五十一条", invalid, 0.0329)]
    idf = {"结婚": 3.0, "法定": 1.0, "年龄": 1.0}.get  # 结婚 is the rare word, as in the corpus
    text, cites = compose(["结婚", "法定", "年龄"], hits, idf)
    assert "二十二周岁" in text and "（二）" not in text and "（三）" not in text


# 劳动法 (2018-12-29), as the test copy has them (real text)
LABOUR = (Path(__file__).resolve().parents[1] / "data" / "laws" / "社会法" / "劳动法(2018-12-29).md").read_text(encoding="utf-8")


def _article(label: str) -> str:
    start = LABOUR.index(f"\n{label} ") + 1
    return LABOUR[start:LABOUR.index("\n", start)]


def _law_hit(i: int, label: str, score: float) -> Hit:
    text = _article(label)
    return Hit(Chunk(f"l{i}", "labour", "社会法/劳动法(2018-12-29).md", "劳动法", str(i), (), label, text, 0,
                     len(text)), score, "bm25")


def test_an_answer_states_one_block_and_cites_it_once():
    """Two articles both covering 「每日工作时间不超过几个小时」: the answer quotes the better
    one and cites only it (a second block covering as much was mostly a neighbouring
    article, not the one asked about)."""
    hits = [_law_hit(1, "第三十六条", 1.0), _law_hit(2, "第四十一条", 0.95)]
    text, cites = compose(["每日", "工作时间", "超过"], hits, lambda t: 1.0)
    assert [c.article for c in cites] == ["第三十六条"] and "八小时" in text
    assert "延长工作时间" not in text


def test_a_sentence_stating_the_quantity_asked_is_preferred():
    """「女职工生育能休多少天产假？」 asks for days: 第六十一条 (women workers, pregnancy, no
    number of days) covers the words better at rank 1, 第六十二条 states 九十天."""
    from zhiku.verify.answerable import meets_all
    from zhiku.verify.pins import pinned

    cons = pinned("女职工生育能休多少天产假？")
    hits = [_law_hit(1, "第六十一条", 1.0), _law_hit(2, "第六十二条", 0.9)]
    terms = ["女职工", "怀孕", "期间", "产假"]
    plain, _ = compose(terms, hits, lambda t: 1.0)
    text, cites = compose(terms, hits, lambda t: 1.0, meets=lambda s, b: meets_all(cons, s, b))
    assert "九十天" not in plain  # without the pinned quantity the better-covering article wins
    assert "九十天" in text and [c.article for c in cites] == ["第六十二条"]


COMPANY = (Path(__file__).resolve().parents[1] / "data" / "laws" / "民法商法" / "公司法(2023-12-29).md").read_text(encoding="utf-8")


def _company_hit(i: int, label: str) -> Hit:
    start = COMPANY.index(f"\n{label} ") + 1
    nxt = COMPANY.find("\n第", start + 1)
    text = COMPANY[start:nxt if nxt > 0 else None].strip()
    return Hit(Chunk(f"g{i}", "company", "民法商法/公司法(2023-12-29).md", "公司法", str(i), (), label, text, 0,
                     len(text)), 1.0 / i, "bm25")


def test_common_single_characters_do_not_choose_the_source():
    """「我是公司的小股东，想看看公司的账本，公司不给看怎么办？」: 第五十七条 (the shareholder's
    right to read the books) ranks first; 第一百三十三条 (「规模较小…股东人数较少」) matched the
    single characters 小 (an adjective) and 看 (a verb) only. The answer quotes the first. A
    single character that names something (钱) still counts, and a question of single
    characters alone still gets an answer."""
    hits = [_company_hit(1, "第五十七条"), _company_hit(2, "第一百三十三条")]
    terms = ["公司", "小", "股东", "想", "看看", "账本", "不", "看"]
    text, cites = compose(terms, hits, lambda t: 1.0)
    assert [c.article for c in cites] == ["第五十七条"] and "查阅" in text
    assert counted_terms(terms + ["钱"]) == ["公司", "股东", "看看", "账本", "钱"]
    assert compose(["小", "看"], hits, lambda t: 1.0)[1]


def test_only_a_question_ending_its_line_is_an_faq_question():
    """An FAQ entry's question line asks and is not quoted as the answer; a question inside
    running prose (a news text's rhetorical 「为什么…却是5.7%？」 followed by its explanation)
    is part of what the text says and may be quoted."""
    from zhiku.answer.extractive import question_line, split_sentences

    faq = "## 消息\n1. **消息在服务器上可以保存多长时间？**\n存储的消息将最多保存 3 天。\n"
    prose = "美国GDP增长率应该是10.24%，为什么GDP增长率却是5.7%？事实上，10.24%属于名义增速。"
    asks = {s: question_line(t, p, s) for t in (faq, prose) for p, s in split_sentences(t)}
    assert asks["1. **消息在服务器上可以保存多长时间？"] is True
    assert asks["存储的消息将最多保存 3 天。"] is False
    assert asks["美国GDP增长率应该是10.24%，为什么GDP增长率却是5.7%？"] is False


def test_a_numbered_provision_is_quoted_over_a_story_about_it():
    """A case retold in a labour-dispute guide (tests/data/laws/其他) covers more of a worker's
    question in the worker's own words than 劳动合同法 第八十二条, which states the rule: the
    article is quoted and cited; with the lever off (``provision=0``) the story is, and a
    provision covering little of the question is not preferred."""
    laws = Path(__file__).resolve().parents[1] / "data" / "laws"
    guide = (laws / "其他" / "劳动仲裁和劳动诉讼的攻略.md").read_text(encoding="utf-8")
    story = next(line for line in guide.splitlines() if line.startswith("2008年5月1日，程序员李某"))
    contract = (laws / "社会法" / "劳动合同法(2012-12-28).md").read_text(encoding="utf-8")
    art82 = next(line for line in contract.splitlines() if line.startswith("第八十二条"))
    told = Chunk("s", "g", "其他/劳动仲裁和劳动诉讼的攻略.md", "劳动仲裁和劳动诉讼的攻略", "1", (), None,
                 story, 0, len(story))
    rule = Chunk("a", "c", "社会法/劳动合同法(2012-12-28).md", "劳动合同法", "2", ("第七章 法律责任",),
                 "第八十二条", art82, 0, len(art82))
    terms = ["公司", "签订", "劳动合同", "工资", "二倍"]
    hits = [Hit(told, 0.034, "rrf"), Hit(rule, 0.033, "rrf")]
    _, cites = compose(terms, hits, lambda t: 1.0)
    assert [c.article for c in cites] == ["第八十二条"]
    _, cites = compose(terms, hits, lambda t: 1.0, provision=0)
    assert [c.article for c in cites] == [None]
    _, cites = compose(["公司", "签订", "劳动合同", "工资", "程序员"], hits, lambda t: 1.0)
    assert [c.article for c in cites] == [None]


def test_a_list_item_is_held_to_the_question_with_its_lead_in():
    """个人所得税专项附加扣除暂行办法 (tests/data/real) 第二十二条: the item 「（一）纳税人为独生子女
    的，按照每月2000元…」 does not say 赡养 itself, its lead-in does. A sentence is preferred
    when it meets what the question pins (here: the word 赡养 beside a figure); the item,
    read with its lead-in, does, so 第二条's 「赡养老人等6项专项附加扣除」 (a count of kinds of
    deduction) is not preferred over it."""
    art22 = ("第二十二条 纳税人赡养一位及以上被赡养人的赡养支出，统一按照以下标准定额扣除：\n"
             "（一）纳税人为独生子女的，按照每月2000元的标准定额扣除；\n"
             "（二）纳税人为非独生子女的，由其与兄弟姐妹分摊每月2000元的扣除额度，每人分摊的额度不能超过每月1000元。")
    art2 = ("第二条 本办法所称个人所得税专项附加扣除，是指个人所得税法规定的子女教育、继续教育、大病医疗、"
            "住房贷款利息或者住房租金、赡养老人等6项专项附加扣除。")
    hits = [_hit(1, "第二十二条", art22, 0.034), _hit(2, "第二条", art2, 0.033)]
    terms = ["独生子女", "赡养", "老人", "每月", "能扣"]
    meets = lambda sentence, block: "赡养" in sentence and any(ch.isdigit() for ch in sentence)
    text, cites = compose(terms, hits, lambda t: 1.0, meets=meets)
    assert [c.article for c in cites] == ["第二十二条"] and "2000元" in text


# 个人所得税法 (2018-08-31) 第四条, its first items, and 对储蓄存款利息所得征收个人所得税的实施办法
# (2007-07-20) 第五条 (real text): one sentence of the second covers 「哪些个人所得可以免征个人所得税」
# word for word, the first announces the list that answers it
EXEMPT = ("第四条 下列各项个人所得，免征个人所得税:\n（一）省级人民政府、国务院部委和中国人民解放军军以上单位，"
          "以及外国组织、国际组织颁发的科学、教育、技术、文化、卫生、体育、环境保护等方面的奖金；\n"
          "（二）国债和国家发行的金融债券利息；")
SAVINGS = ("第五条 对个人取得的教育储蓄存款利息所得以及国务院财政部门确定的其他专项储蓄存款或者储蓄性专项基金"
           "存款的利息所得，免征个人所得税。")


def test_a_question_asking_which_ones_is_answered_by_a_list():
    """「哪些…」 asks for a list: the lead-in announcing one is the source, with its items, over
    a single sentence of a better-ranked block that covers the question as well; a question
    asking no list (its twin, 「…免征个人所得税吗」) keeps the best sentence."""
    hits = [_hit(1, "第五条", SAVINGS, 0.034), _hit(2, "第四条", EXEMPT, 0.032)]
    terms, idf = ["个人所得", "免征", "个人所得税"], lambda t: 1.0
    text, cites = compose(terms, hits, idf, lists=True)
    assert [c.article for c in cites] == ["第四条"] and "（二）国债" in text
    text, cites = compose(terms, hits, idf, lists=False)
    assert [c.article for c in cites] == ["第五条"] and "教育储蓄" in text
    from zhiku.answer.reading import LIST_ASK

    assert LIST_ASK.search("哪些个人所得可以免征个人所得税？")
    assert not LIST_ASK.search("教育储蓄存款的利息所得免征个人所得税吗？")


# 政府网站集约化试点工作方案 (tests/data/real, 国务院办公厅), sections 二 and 三, verbatim: the
# sentence naming the 试点地区, and the next section's lead-in announcing its tasks
SCOPE = ("根据各地区政府网站集约化工作进展情况和试点申报情况，确定北京、吉林、安徽、山东、湖北、湖南、广东、广西、"
         "重庆、贵州10个省（区、市）和西藏自治区拉萨市作为试点地区。")
TASKS = ("试点地区要认真组织实施，按照统一标准体系、统一技术平台、统一安全防护、统一运维监管的要求，推进数据融通、"
         "服务融通、应用融通，重点做好以下工作：\n（一）建设集约化平台。平台建设可采用省级统建模式，也可根据实际情况"
         "选择省级、地市级分建模式。")


def test_a_list_is_the_answer_only_when_its_lead_in_names_the_kind_asked():
    """「…试点选了哪些地区？」 asks which 地区: 三、试点任务's lead-in (「…重点做好以下工作：」) names
    the 试点地区 only as who carries out the tasks, not the kind listed, so the sentence of 二、试点范围
    naming them stays the source; without the kind (list_kind off) the lead-in took over.
    The twin: 「哪些个人所得…」 still gets 第四条's lead-in, which names 个人所得."""
    from zhiku.answer.reading import listed_kind

    def part(i: int, head: str, text: str, score: float) -> Hit:
        c = Chunk(f"p{i}", "plan", "政府网站集约化试点工作方案.html", "政府网站集约化试点工作方案", str(i), (head,),
                  None, text, 0, len(text))
        return Hit(c, score, "rrf")

    hits = [part(1, "二、试点范围", SCOPE, 0.034), part(2, "三、试点任务", TASKS, 0.033)]
    question, terms, idf = "政府网站集约化试点选了哪些地区？", ["政府网站", "集约化", "试点", "地区"], lambda t: 1.0
    assert listed_kind(question, terms) == "地区"
    text, cites = compose(terms, hits, idf, lists=True, listed=listed_kind(question, terms), doc_name=True)
    assert [c.chunk_id for c in cites] == ["p1"] and "拉萨市" in text
    text, cites = compose(terms, hits, idf, lists=True, doc_name=True)
    assert [c.chunk_id for c in cites] == ["p2"] and "重点做好以下工作" in text
    exempt = [_hit(1, "第五条", SAVINGS, 0.034), _hit(2, "第四条", EXEMPT, 0.032)]
    asked = "哪些个人所得可以免征个人所得税？"
    kind = listed_kind(asked, ["个人所得", "免征", "个人所得税"])
    assert kind == "个人所得" and listed_kind("在什么情况下保险公司可以解除合同？", ["保险公司", "解除合同"]) == ""
    text, cites = compose(["个人所得", "免征", "个人所得税"], exempt, idf, lists=True, listed=kind)
    assert [c.article for c in cites] == ["第四条"] and "（二）国债" in text



# 居住证暂行条例 (2015-11-26) 第二条 and 第十六条 (real text, the latter's first two items): the first
# states the conditions for a residence permit in one sentence, the second is a long article
# listing the conditions for settling, which a question asking 什么条件 also reads as a list
PERMIT = ("第二条 公民离开常住户口所在地，到其他城市居住半年以上，符合有合法稳定就业、合法稳定住所、连续就读条件"
          "之一的，可以依照本条例的规定申领居住证。")
SETTLING = ("第十六条 居住地人民政府应当根据下列规定确定落户条件：\n(一)建制镇和城区人口50万以下的小城市的落户条件为在"
            "城市市区、县人民政府驻地镇或者其他建制镇有合法稳定住所。\n(二)城区人口50万至100万的中等城市的落户条件"
            "为在城市有合法稳定就业并有合法稳定住所，同时按照国家规定参加城镇社会保险达到一定年限。")


def test_a_list_takes_over_only_when_its_block_stands_near_the_best():
    """「外地人在城里要住多久、满足什么条件才能办居住证？」 asks which conditions: 第十六条's lead-in
    (「…确定落户条件：」) scores more than 0.6 of 第二条's sentence, but 第二条 is first and means
    the question far better (a meaning bonus of 0.3 over it, as the bundled encoder measured):
    with ``list_block`` the lead-in's whole score (sentence, block coverage, meaning) must reach
    0.6 of the best one's, so 第二条 stays the source; read by the sentence alone, the list took
    over. Without the meaning gap the list still answers, and so does 个人所得税法 第四条's for
    「哪些个人所得…」 (the twins must not change)."""
    hits = [_hit(1, "第二条", PERMIT, 0.034), _hit(2, "第十六条", SETTLING, 0.030)]
    terms, idf = ["外地人", "城里", "居住", "满足", "条件", "居住证"], lambda t: 1.0
    _, cites = compose(terms, hits, idf, lists=True, bonus=(0.3, 0.0))
    assert [c.article for c in cites] == ["第十六条"]
    text, cites = compose(terms, hits, idf, lists=True, bonus=(0.3, 0.0), list_block=True)
    assert [c.article for c in cites] == ["第二条"] and "居住半年以上" in text
    text, cites = compose(terms, hits, idf, lists=True, list_block=True)
    assert [c.article for c in cites] == ["第十六条"] and "(一)建制镇" in text
    exempt = [_hit(1, "第五条", SAVINGS, 0.034), _hit(2, "第四条", EXEMPT, 0.032)]
    text, cites = compose(["个人所得", "免征", "个人所得税"], exempt, idf, lists=True, list_block=True)
    assert [c.article for c in cites] == ["第四条"] and "（二）国债" in text

# 民法典 侵权责任编 第一千二百零三条 and 产品质量法 (2018-12-29) 第四十一条 (real text, first paragraphs)
CIVIL = ("第一千二百零三条 因产品存在缺陷造成他人损害的，被侵权人可以向产品的生产者请求赔偿，也可以向产品的"
         "销售者请求赔偿。")
QUALITY = ("第四十一条 因产品存在缺陷造成人身、缺陷产品以外的其他财产（以下简称他人财产）损害的，生产者应当承担"
           "赔偿责任。")


def _named_hit(doc: str, path: str, title: str, article: str, text: str, score: float) -> Hit:
    return Hit(Chunk(f"{doc}-{article}", doc, path, title, "1", (), article, text, 0, len(text)), score, "rrf")


def test_between_documents_a_word_the_sentence_states_beats_one_the_name_lends():
    """「产品缺陷让人受了损害，生产者负什么赔偿责任？」: 第一千二百零三条 ranks first and states every
    word but 责任, which its document's name 「侵权责任编」 holds inside a longer word; 第四十一条
    states all of them. Read under their names, the two tie and the first hit was quoted; with
    such a word counting ``name_weight`` (0) between documents, 第四十一条 is."""
    hits = [_named_hit("civil", "民法典/侵权责任编.md", "中华人民共和国民法典", "第一千二百零三条", CIVIL, 0.034),
            _named_hit("quality", "经济法/产品质量法(2018-12-29).md", "中华人民共和国产品质量法", "第四十一条",
                       QUALITY, 0.033)]
    terms, idf = ["产品", "缺陷", "损害", "生产者", "赔偿", "责任"], lambda t: 1.0
    _, cites = compose(terms, hits, idf, doc_name=True, name_weight=0.0)
    assert [c.article for c in cites] == ["第四十一条"]
    _, cites = compose(terms, hits, idf, doc_name=True, name_weight=1.0)  # the lever off
    assert [c.article for c in cites] == ["第一千二百零三条"]


def test_a_word_naming_the_document_still_counts_in_full():
    """The twins: a question word that names a document counts in full between documents. A
    CMRC-style article leaves its subject to its title 「五月艾」: its sentence naming the place
    asked about is quoted over a better-ranked passage of another document that states the
    name; a law's short name (消防法 of 「中华人民共和国消防法」) counts as its text would."""
    from zhiku.answer.reading import coverage

    own = "艾（名医别录、台湾植物志），野艾蒿（植物名实图考），白蒿（四川），白艾（浙江），黑蒿（云南）"
    other = "五月艾与牡蒿同为菊科蒿属的植物。"
    hits = [_named_hit("mu", "cmrc/牡蒿.md", "牡蒿", None, other, 0.034),
            _named_hit("wu", "cmrc/五月艾.md", "五月艾", None, own, 0.033)]
    terms = ["四川", "五月", "艾", "称之为"]
    text, cites = compose(terms, hits, lambda t: 1.0, doc_name=True, name_weight=0.0)
    assert "白蒿（四川）" in text and [c.title for c in cites] == ["五月艾"]
    assert coverage(["消防法", "罚款"], "处五百元以下罚款", lambda t: 1.0, "中华人民共和国消防法", 0.0) == 1.0
    assert coverage(["责任", "赔偿"], "应当赔偿", lambda t: 1.0, "中华人民共和国民法典 侵权责任编", 0.0) == 0.5
