"""The offline composer's reading of the act a sum is asked of (config ``answer_sum_act``): 「还能让
超市赔多少」 asks the sum of a compensation, which an article stating a fine does not give; verbatim
articles of 食品安全法 and 个人所得税法 (the whole laws corpus, ../shared/data/laws)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.answer.conftest import law_hit, words
from zhiku.answer.extractive import compose
from zhiku.answer.respond import _meets
from zhiku.config import Config
from zhiku.retrieve.segment import query_terms
from zhiku.verify.answerable import meets_all
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import pinned

pytestmark = pytest.mark.unit

FINES = ("第一百二十四条 违反本法规定，有下列情形之一，尚不构成犯罪的，由县级以上人民政府食品安全监督管理部门没收违法所得和"
         "违法生产经营的食品、食品添加剂，并可以没收用于违法生产经营的工具、设备、原料等物品；违法生产经营的食品、食品添加剂"
         "货值金额不足一万元的，并处五万元以上十万元以下罚款；货值金额一万元以上的，并处货值金额十倍以上二十倍以下罚款；情节"
         "严重的，吊销许可证：\n\n（二）用超过保质期的食品原料、食品添加剂生产食品、食品添加剂，或者经营上述食品、食品添加剂；"
         "\n\n（五）生产经营标注虚假生产日期、保质期或者超过保质期的食品、食品添加剂；")
DAMAGES = ("第一百四十八条 消费者因不符合食品安全标准的食品受到损害的，可以向经营者要求赔偿损失，也可以向生产者要求赔偿损失。"
           "接到消费者赔偿要求的生产经营者，应当实行首负责任制，先行赔付，不得推诿；属于生产者责任的，经营者赔偿后有权向"
           "生产者追偿；属于经营者责任的，生产者赔偿后有权向经营者追偿。\n\n生产不符合食品安全标准的食品或者经营明知是不"
           "符合食品安全标准的食品，消费者除要求赔偿损失外，还可以向生产者或者经营者要求支付价款十倍或者损失三倍的赔偿金；"
           "增加赔偿的金额不足一千元的，为一千元。但是，食品的标签、说明书存在不影响食品安全且不会对消费者造成误导的瑕疵的除外。")
INCOME = ("第六条 应纳税所得额的计算:\n\n（一）居民个人的综合所得，以每一纳税年度的收入额减除费用六万元以及专项扣除、"
          "专项附加扣除和依法确定的其他扣除后的余额，为应纳税所得额。")
INTEREST = ("第十八条 对储蓄存款利息所得开征、减征、停征个人所得税及其具体办法，由国务院规定，并报全国人民代表大会常务委员会"
            "备案。")
DOCS = {FINES: "行政法/食品安全法(2021-04-29).md", DAMAGES: "行政法/食品安全法(2021-04-29).md",
        INCOME: "经济法/个人所得税法(2018-08-31).md", INTEREST: "经济法/个人所得税法(2018-08-31).md"}
MILK = "食品安全法规定，在超市买了一盒已经过期的牛奶，除了退钱还能让超市赔多少？"
WAGES = "按个人所得税法，现在一年挣多少钱以内不用交个税？"


def _cited(question: str, texts: list[str], sums: bool) -> str:
    """The article the offline answer quotes from ``texts`` (best first) with the reading on or off."""
    kb = SimpleNamespace(config=Config(answer_sum_act=sums))
    hits = [law_hit(t, DOCS[t], i) for i, t in enumerate(texts)]
    meets = _meets(kb, question, pinned(question, CheckOptions()), None, hits)
    _, cites = compose(query_terms(words()(question)), hits, lambda t: 1.0, meets=meets)
    return cites[0].article


def test_the_sum_of_the_act_asked_is_met_in_that_act_s_clause():
    cons = pinned(MILK, CheckOptions())
    fine = "货值金额一万元以上的，并处货值金额十倍以上二十倍以下罚款；"
    damages = "消费者除要求赔偿损失外，还可以向生产者或者经营者要求支付价款十倍或者损失三倍的赔偿金；增加赔偿的金额不足一千元的，为一千元。"
    assert not meets_all(cons, fine, FINES, sums=True)
    assert meets_all(cons, damages, DAMAGES, sums=True)
    # the twin: read as context only, a fine meets the amount asked as the damages do
    assert meets_all(cons, fine, FINES) and meets_all(cons, damages, DAMAGES)


def test_damages_asked_quote_the_article_on_damages_over_the_one_on_fines():
    # the article on fines ranks first and states sums (五万元以上十万元以下罚款) beside 保质期;
    # the article on damages states the sum of the act asked (赔: 十倍…的赔偿金)
    assert _cited(MILK, [FINES, DAMAGES], sums=True) == "第一百四十八条"
    assert _cited(MILK, [FINES, DAMAGES], sums=False) == "第一百二十四条"


def test_an_act_no_block_states_is_the_asker_s_word_and_read_as_before():
    # the twin: 挣 is the asker's verb (the statute says 所得, 收入), held by no block: the reading
    # does not apply and the same article is quoted with it on or off
    assert _cited(WAGES, [INCOME, INTEREST], sums=True) == _cited(WAGES, [INCOME, INTEREST], sums=False) == "第六条"
