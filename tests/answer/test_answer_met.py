"""The offline composer's look for a sentence meeting what the question pins when its best one does
not: among the sentences whose whole score is near the best one's (config ``answer_met_whole``),
and reading a list's lead-in with the numbered items it announces (config ``answer_met_items``);
verbatim articles of 民法典 总则, 民事诉讼法, 公司法, 机动车驾驶证申领和使用规定 and the court's
second rule on 企业破产法 (the whole laws corpus, ../shared/data/laws), ranked as the whole corpus
ranked them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.answer.conftest import law_hit, words
from zhiku.answer.extractive import Sentence, _listed, compose
from zhiku.answer.reading import asked_types
from zhiku.answer.respond import _meets
from zhiku.config import Config
from zhiku.retrieve.answertype import AnswerType
from zhiku.retrieve.segment import query_terms
from zhiku.verify.answerable import meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned

pytestmark = pytest.mark.unit

DEATH = ("第四十六条 自然人有下列情形之一的，利害关系人可以向人民法院申请宣告该自然人死亡：\n\n"
         "（一）下落不明满四年；\n\n（二）因意外事件，下落不明满二年。\n\n"
         "因意外事件下落不明，经有关机关证明该自然人不可能生存的，申请宣告死亡不受二年时间的限制。")
NOTICE = ("第一百九十二条 人民法院受理宣告失踪、宣告死亡案件后，应当发出寻找下落不明人的公告。宣告失踪的公告期间"
          "为三个月，宣告死亡的公告期间为一年。因意外事件下落不明，经有关机关证明该公民不可能生存的，宣告死亡的"
          "公告期间为三个月。\n\n公告期间届满，人民法院应当根据被宣告失踪、宣告死亡的事实是否得到确认，作出宣告"
          "失踪、宣告死亡的判决或者驳回申请的判决。")
MISSING = "第四十条 自然人下落不明满二年的，利害关系人可以向人民法院申请宣告该自然人为失踪人。"
COMPANY = "第五十四条 公司不能清偿到期债务的，公司或者已到期债权的债权人有权要求已认缴出资但未届出资期限的股东提前缴纳出资。"
BANKRUPTCY = ("第十二条 破产申请受理前一年内债务人提前清偿的未到期债务，在破产申请受理前已经到期，管理人请求撤销该清偿"
              "行为的，人民法院不予支持。但是，该清偿行为发生在破产申请受理前六个月内且债务人有企业破产法第二条第一款"
              "规定情形的除外。")
LICENCE = ("第六十三条 机动车驾驶人应当于机动车驾驶证有效期满前九十日内，向机动车驾驶证核发地或者核发地以外的车辆管理所"
           "申请换证。申请时应当确认申请信息，并提交以下证明、凭证：\n\n（一）机动车驾驶人的身份证明；\n\n"
           "（二）医疗机构出具的有关身体条件的证明。")
DOCS = {DEATH: "民法典/总则.md", MISSING: "民法典/总则.md", NOTICE: "诉讼与非诉讼程序法/民事诉讼法(2023-09-01).md",
        COMPANY: "民法商法/公司法(2023-12-29).md", LICENCE: "部门规章/公安部/机动车驾驶证申领和使用规定(2021-12-17).md",
        BANKRUPTCY: "司法解释/最高人民法院关于适用《企业破产法》若干问题的规定（二）(2020-12-29).md"}


def _cited(question: str, texts: list[str], bonus: tuple[float, ...] = (), **levers) -> str:
    """The article the offline answer quotes from ``texts`` (best first, as retrieval ranked them)."""
    opts = CheckOptions()
    cons = pinned(question, opts)
    hits = [law_hit(t, DOCS[t], i) for i, t in enumerate(texts)]
    _, cites = compose(query_terms(words()(question)), hits, lambda t: 1.0,
                       meets=lambda s, b: meets_all(cons, s, b, opts), bonus=bonus, **levers)
    return cites[0].article


DEATH_ASKED = "家里人失联好几年了，要过多久才能去法院申请宣告死亡？"
RENEWAL_ASKED = "驾照快到期了，提前多久可以去换新的？"


def test_a_lead_in_is_read_with_the_items_it_announces():
    lead = "第四十六条 自然人有下列情形之一的，利害关系人可以向人民法院申请宣告该自然人死亡："
    read = _listed(DEATH, Sentence(0, 0, lead, 0.0))
    assert read.startswith(lead) and "（一）下落不明满四年；" in read and "（二）因意外事件，下落不明满二年。" in read
    assert "不受二年时间的限制" not in read  # the paragraph after the list is not an item of it


def test_a_sentence_announcing_no_items_is_read_alone():
    # the positive twin: a lead-in with no numbered item after it, and the article's last sentence
    sent = "申请时应当确认申请信息，并提交以下证明、凭证："
    assert _listed("第六十三条 …申请换证。" + sent, Sentence(0, 9, sent, 0.0)) == sent
    assert _listed(NOTICE, Sentence(0, NOTICE.index("公告期间届满"), "公告期间届满，…的判决。", 0.0)) == "公告期间届满，…的判决。"


def test_the_period_asked_in_a_lead_in_s_items_makes_its_article_the_source():
    # 多久: a period; the civil code's article states it (下落不明满四年) in the items its lead-in
    # announces; the procedure law's article, first and a little ahead as a whole (``bonus``), states
    # its notice periods in a sentence beside the question's words
    bonus = (0.1, 0.0)
    assert _cited(DEATH_ASKED, [NOTICE, DEATH], bonus, met_items=True) == "第四十六条"
    assert _cited(DEATH_ASKED, [NOTICE, DEATH], bonus) == "第一百九十二条"


def test_an_article_stating_the_period_asked_in_its_own_sentence_is_chosen_either_way():
    # the twin: 第四十条 states the period (下落不明满二年) in the sentence holding the question's words
    question = "家里人失联好几年了，要过多久才能去法院申请宣告失踪？"
    for items in (True, False):
        assert _cited(question, [NOTICE, MISSING], met_items=items) == "第四十条"


def test_the_sentence_meeting_the_pins_is_looked_for_by_the_whole_score():
    # the licence rule's article states the period asked (期满前九十日内) in other words than the
    # question's (驾驶证, 换证 for 驾照, 换新的): its sentence scores low, its meaning (the bonus) high,
    # and its whole score is second only to the company law's article, which states no period
    bonus = (0.2, 0.6, 0.1)
    assert _cited(RENEWAL_ASKED, [COMPANY, LICENCE, BANKRUPTCY], bonus, met_whole=True) == "第六十三条"
    assert _cited(RENEWAL_ASKED, [COMPANY, LICENCE, BANKRUPTCY], bonus) == "第十二条"


def test_a_block_far_below_the_best_in_whole_is_not_looked_for():
    # the twin: without its meaning the licence article's whole score is far below the best one's;
    # the bankruptcy rule's sentence stating a period (前一年内) is quoted either way
    for whole in (True, False):
        assert _cited(RENEWAL_ASKED, [COMPANY, LICENCE, BANKRUPTCY], met_whole=whole) == "第十二条"


SPEED = ("第四十六条 机动车行驶中遇有下列情形之一的，最高行驶速度不得超过每小时30公里，其中拖拉机、电瓶车、轮式专用机械车"
         "不得超过每小时15公里：\n\n(一)进出非机动车道，通过铁路道口、急弯路、窄路、窄桥时；\n\n(二)掉头、转弯、下陡坡时；")
CYCLES = ("第七十二条 在道路上驾驶自行车、三轮车、电动自行车、残疾人机动轮椅车应当遵守下列规定：\n\n"
          "(一)驾驶自行车、三轮车必须年满12周岁；\n\n(二)驾驶电动自行车和残疾人机动轮椅车必须年满16周岁；\n\n"
          "(三)不得醉酒驾驶；")
DOCS.update({SPEED: "行政法规/道路交通安全法实施条例(2017-10-07).md", CYCLES: "行政法规/道路交通安全法实施条例(2017-10-07).md"})


def test_a_regulation_s_items_in_ascii_brackets_are_read_with_their_lead_in():
    lead = "第七十二条 在道路上驾驶自行车、三轮车、电动自行车、残疾人机动轮椅车应当遵守下列规定："
    read = _listed(CYCLES, Sentence(0, 0, lead, 0.0))
    assert "(二)驾驶电动自行车和残疾人机动轮椅车必须年满16周岁；" in read
    # the twin: the speed article's last item is read with its lead-in; nothing after the list
    lead = SPEED.split("\n")[0]
    assert _listed(SPEED, Sentence(0, 0, lead, 0.0)).endswith("(二)掉头、转弯、下陡坡时；")


def test_a_stated_age_asks_what_that_age_allows():
    assert asked_types("孩子今年14岁，能让他自己骑电瓶车去上学吗？", ages=True) == (AnswerType.AGE,)
    assert asked_types("我开了个小饭馆，亲戚家15岁的孩子暑假想来帮工挣钱，我能雇他吗？", ages=True) == (AnswerType.AGE,)
    assert asked_types("孩子今年14岁，能让他自己骑电瓶车去上学吗？") == ()
    # the twins: an age asked is the age type either way; a question asking another kind keeps it;
    # no age stated, nothing
    assert asked_types("孩子几岁可以单独坐飞机？") == (AnswerType.AGE,)
    assert asked_types("护照法规定给10岁的孩子办护照，有效期是几年？", ages=True) == (AnswerType.PERIOD,)
    assert asked_types("孩子能让他自己骑电瓶车去上学吗？", ages=True) == ()


def _aged(question: str, texts: list[str], ages: bool) -> str:
    """The article quoted from ``texts`` when the composer's check reads a stated age or not."""
    kb = SimpleNamespace(config=Config(answer_stated_age=ages))
    meets = _meets(kb, question, pinned(question, CheckOptions()))
    hits = [law_hit(t, DOCS[t], i) for i, t in enumerate(texts)]
    _, cites = compose(query_terms(words()(question)), hits, lambda t: 1.0, meets=meets, met_items=True)
    return cites[0].article


def test_a_stated_age_prefers_the_article_stating_an_age_bound():
    # the speed article names 电瓶车; the article on cycles states the age (年满16周岁) in its items
    question = "孩子今年14岁，能让他自己骑电瓶车去上学吗？"
    assert _aged(question, [SPEED, CYCLES], ages=True) == "第七十二条"
    assert _aged(question, [SPEED, CYCLES], ages=False) == "第四十六条"


def test_without_an_age_the_best_covering_article_is_quoted_either_way():
    # the twin: no age stated, the speed article naming 电瓶车 is quoted with the reading on or off
    question = "电瓶车在窄路上能开多快？"
    for ages in (True, False):
        assert _aged(question, [SPEED, CYCLES], ages) == "第四十六条"
