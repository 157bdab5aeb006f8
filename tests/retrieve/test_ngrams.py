"""Character bigrams beside words (bigram_weight) and term proximity (proximity_weight): real
law articles (职工带薪年休假条例, 劳动合同法), and the settings reaching a real store's search."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.ngrams import (BigramStats, best_sentence, bigram_rescore, bigrams, proximity_boost,
                                   question_bigrams)
from zhiku.types import Chunk, Hit

# 职工带薪年休假条例 第三条 and 第五条; 劳动合同法 第二十二条, 第四十七条 (its first paragraph) and 第八十五条
LEAVE_3 = ("第三条 职工累计工作已满1年不满10年的，年休假5天；已满10年不满20年的，年休假10天；"
           "已满20年的，年休假15天。\n\n国家法定休假日、休息日不计入年休假的假期。")
LEAVE_5 = ("第五条 单位根据生产、工作的具体情况，并考虑职工本人意愿，统筹安排职工年休假。\n\n"
           "年休假在1个年度内可以集中安排，也可以分段安排，一般不跨年度安排。单位因生产、工作特点确有"
           "必要跨年度安排职工年休假的，可以跨1个年度安排。")
TRAINING_22 = ("第二十二条 用人单位为劳动者提供专项培训费用，对其进行专业技术培训的，可以与该劳动者订立协议，"
               "约定服务期。\n\n劳动者违反服务期约定的，应当按照约定向用人单位支付违约金。违约金的数额不得超过"
               "用人单位提供的培训费用。用人单位要求劳动者支付的违约金不得超过服务期尚未履行部分所应分摊的培训费用。")
SEVERANCE_47 = ("第四十七条 经济补偿按劳动者在本单位工作的年限，每满一年支付一个月工资的标准向劳动者支付。"
                "六个月以上不满一年的，按一年计算；不满六个月的，向劳动者支付半个月工资的经济补偿。")
PENALTY_85 = ("第八十五条 用人单位有下列情形之一的，由劳动行政部门责令限期支付劳动报酬、加班费或者经济补偿；"
              "劳动报酬低于当地最低工资标准的，应当支付其差额部分；逾期不支付的，责令用人单位按应付金额百分之五十以上"
              "百分之一百以下的标准向劳动者加付赔偿金:\n\n（一）未按照劳动合同的约定或者国家规定及时足额支付劳动者"
              "劳动报酬的；\n\n（二）低于当地最低工资标准支付劳动者工资的；\n\n（三）安排加班不支付加班费的；\n\n"
              "（四）解除或者终止劳动合同，未依照本法规定向劳动者支付经济补偿的。")


def _hit(text: str, score: float, article: str) -> Hit:
    chunk = Chunk(article, "doc", "社会法/x.md", "x", "s", ("第一章",), article, text, 0, len(text))
    return Hit(chunk, score, "bm25", {"bm25": (1, score)})


def _words(text: str) -> list[str]:
    import rjieba

    return list(rjieba.cut(text))


@pytest.mark.unit
def test_bigrams_stay_inside_runs_of_characters():
    assert bigrams("年休假5天；") == ["年休", "休假"]  # the digit and the mark end a run
    assert bigrams("天") == [] and bigrams("") == []


@pytest.mark.unit
def test_question_bigrams_cut_question_words_and_punctuation():
    grams = question_bigrams("工作满十年了，年假到底能休多少天？", _words)
    assert "年假" in grams and "工作" in grams  # the content part's bigrams
    # no bigram spans the comma (年了 / 了，年), a question phrase (多少) or a function word (了)
    assert not any(g in grams for g in ("了年", "年了", "多少", "少天", "休多"))
    # the twin: the same words without a question phrase or comma do join
    assert "休多" not in grams and "满十" in question_bigrams("工作满十年", _words)


@pytest.mark.unit
def test_bigrams_move_up_the_article_sharing_the_question_s_compound():
    stats = BigramStats.build([LEAVE_3, LEAVE_5, TRAINING_22, SEVERANCE_47])
    assert stats.n == 4 and stats.df["年休"] == 2 and stats.idf("年休") < stats.idf("累计")
    grams = question_bigrams("累计工作满十年，年休假能休几天", _words)
    hits = [_hit(LEAVE_5, 2.0, "第五条"), _hit(LEAVE_3, 1.9, "第三条")]
    moved = bigram_rescore(hits, grams, stats, 0.6)
    assert [h.chunk.article for h in moved] == ["第三条", "第五条"]  # 累计/已满 meet in 第三条 only
    assert all("bigrams" in h.sources and "bm25" in h.sources for h in moved)
    # the twin: off, or no bigram of the question, keeps the order
    assert [h.chunk.article for h in bigram_rescore(hits, grams, stats, 0.0)] == ["第五条", "第三条"]
    assert [h.chunk.article for h in bigram_rescore(hits, [], stats, 0.5)] == ["第五条", "第三条"]


@pytest.mark.unit
def test_best_sentence_reads_the_words_one_sentence_holds():
    together = {"违约金": 2.0, "培训费用": 1.0}
    assert best_sentence(TRAINING_22, together) == 1.0  # 「违约金的数额不得超过…培训费用」
    apart = {"专项培训": 1.0, "违约金": 1.0}  # the first sentence holds one, the next ones the other
    assert best_sentence(TRAINING_22, apart) == 0.5
    assert best_sentence(TRAINING_22, {}) == 0.0


@pytest.mark.unit
def test_proximity_moves_up_the_article_holding_the_words_together():
    words = {"经济补偿": 2.0, "工资": 1.0}
    # 第八十五条 holds both, in different sentences; 第四十七条 in one
    scattered, together = _hit(PENALTY_85, 2.0, "第八十五条"), _hit(SEVERANCE_47, 1.8, "第四十七条")
    assert best_sentence(PENALTY_85, words) == pytest.approx(2 / 3)
    moved = proximity_boost([scattered, together], words, 0.5)
    assert [h.chunk.article for h in moved] == ["第四十七条", "第八十五条"]
    assert moved[0].sources["proximity"] == (1, 1.0)
    # the twin: weight 0, or no word of two characters, keeps the order
    assert [h.chunk.article for h in proximity_boost([scattered, together], words, 0.0)] == ["第八十五条", "第四十七条"]
    assert [h.chunk.article for h in proximity_boost([scattered, together], {}, 0.3)] == ["第八十五条", "第四十七条"]


@pytest.mark.integration
def test_the_settings_reach_the_keyword_search(labour_kb):
    kb = labour_kb
    question = "公司出钱送我去培训，签了服务期，提前走要赔违约金吗"
    off = retrieve(kb, question, Mode.BM25, route=False).hits
    assert not any("bigrams" in h.sources or "proximity" in h.sources for h in off)
    on = KnowledgeBase(kb.config.model_copy(update={"bigram_weight": 0.3, "proximity_weight": 0.2}))
    hits = retrieve(on, question, Mode.BM25, route=False).hits
    assert all("bigrams" in h.sources and "proximity" in h.sources for h in hits)
    assert any(h.chunk.article == "第二十二条" for h in hits[:5])  # the 服务期 article stays near the top
    # the statistics were counted once and kept under the home for the next process
    assert (kb.config.home / "bigrams.json").exists()
    assert BigramStats.load(kb.config.home / "bigrams.json", "another state") is None
