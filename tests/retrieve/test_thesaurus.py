"""Thesaurus expansion (the bundled cnsyn groups): a layperson's word searched with the word
the laws use for it, below the question's own words. Real labour laws, real store."""

import pytest

from zhiku.ask.search import Mode, retrieve
from zhiku.kb import KnowledgeBase
from zhiku.retrieve.thesaurus import RARE, Thesaurus, load_thesaurus


def _top(kb, question):
    r = retrieve(kb, question, Mode.BM25, route=False)
    added = [w for s in r.trace if s.stage == "expansion" for w in s.detail["added"]]
    return r.hits, added


@pytest.fixture(scope="module")
def expanding(labour_kb):
    return KnowledgeBase(labour_kb.config.model_copy(update={"thesaurus_expansion": 2}))


@pytest.mark.unit
def test_the_bundled_groups_hold_everyday_words_and_their_formal_ones():
    th = load_thesaurus()
    assert len(th.groups) > 20_000 and all(len(g) >= 2 for g in th.groups)
    assert "妊娠" in th.synonyms("怀孕", 10) and "房屋" in th.synonyms("房子", 10)
    # a broad group (手术 with 针灸, 截肢, 化疗 …) is read only when the limit lets it
    assert "针灸" not in th.synonyms("手术", 10) and "针灸" in th.synonyms("手术", 40)


@pytest.mark.unit
def test_only_a_rare_word_is_expanded_and_only_to_a_commoner_one():
    th = Thesaurus((("工钱", "工资", "薪金", "工薪"),))
    df = {"工钱": 0, "工资": 57, "薪金": 3, "工薪": 0}.get
    assert th.expand(["工钱"], lambda w: df(w, 0), 1, 10) == ["工资"]
    assert th.expand(["工钱"], lambda w: df(w, 0), 5, 10) == ["工资", "薪金"]  # 工薪: no chunk holds it
    common = {"工资": RARE + 1, "薪金": RARE + 5}
    assert th.expand(["工资"], lambda w: common.get(w, 0), 5, 10) == []  # the corpus's own word
    assert th.expand(["工钱"], lambda w: df(w, 0), 5, 3) == []  # a group above the limit is not read


@pytest.mark.integration
def test_a_laypersons_word_finds_the_article_in_the_laws_words(labour_kb, expanding):
    q = "老板一直拖着工钱不发"  # 劳动法 第五十条: 不得克扣或者无故拖欠劳动者的工资
    off, _ = _top(labour_kb, q)
    on, added = _top(expanding, q)
    assert "工资" in added
    assert (on[0].chunk.doc_path.endswith("劳动法(2018-12-29).md"), on[0].chunk.article) == (True, "第五十条")
    assert "工资" not in off[0].chunk.text  # without it a passage on another matter heads the list


@pytest.mark.integration
def test_a_question_in_the_laws_own_words_is_not_expanded(labour_kb, expanding):
    q = "工资可以拖欠吗？"
    off, _ = _top(labour_kb, q)
    on, added = _top(expanding, q)
    assert added == []
    assert [h.chunk.id for h in on] == [h.chunk.id for h in off]
