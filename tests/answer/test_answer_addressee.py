"""An article binding office holders the question does not name is a weaker source
(``answer_addressee``): verbatim articles of 刑法 (the offence of illegal felling and the
forestry official's offence of issuing felling permits), a real store in a temporary home."""

from __future__ import annotations

import pytest

from zhiku.answer.addressee import addressee_bonus, binds
from zhiku.answer.extractive import compose
from zhiku.ask.search import Mode, retrieve
from tests.answer.conftest import law_kb

FELLING = ("第三百四十五条 盗伐森林或者其他林木，数量较大的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；"
           "数量巨大的，处三年以上七年以下有期徒刑，并处罚金；数量特别巨大的，处七年以上有期徒刑，并处罚金。\n\n"
           "违反森林法的规定，滥伐森林或者其他林木，数量较大的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；"
           "数量巨大的，处三年以上七年以下有期徒刑，并处罚金。\n\n"
           "非法收购、运输明知是盗伐、滥伐的林木，情节严重的，处三年以下有期徒刑、拘役或者管制，并处或者单处罚金；"
           "情节特别严重的，处三年以上七年以下有期徒刑，并处罚金。\n\n"
           "盗伐、滥伐国家级自然保护区内的森林或者其他林木的，从重处罚。")
PERMITS = ("第四百零七条 林业主管部门的工作人员违反森林法的规定，超过批准的年采伐限额发放林木采伐许可证或者违反规定"
           "滥发林木采伐许可证，情节严重，致使森林遭受严重破坏的，处三年以下有期徒刑或者拘役。")
BRIBES = "第三百八十五条 国家工作人员利用职务上的便利，索取他人财物的，或者非法收受他人财物，为他人谋取利益的，是受贿罪。"
OBSTRUCTION = "第二百七十七条 以暴力、威胁方法阻碍国家机关工作人员依法执行职务的，处三年以下有期徒刑、拘役、管制或者罚金。"
CRIMINAL_LAW = ("# 中华人民共和国刑法\n\n## 第六章 妨害社会管理秩序罪\n\n### 第六节 破坏环境资源保护罪\n\n"
                f"{FELLING}\n\n## 第九章 渎职罪\n\n{PERMITS}\n")
STORY = "村民甲没办采伐许可证，违反森林法的规定砍了村里一大片林木，森林遭到严重破坏，会怎么处罚？"
OFFICIAL = "林业局的工作人员超过批准的限额滥发采伐许可证，森林遭到严重破坏，会怎么处罚？"


def test_the_persons_an_article_binds():
    assert binds(PERMITS) == "林业主管部门的工作人员"
    assert binds(BRIBES) == "国家工作人员"
    assert binds("第三百五十五条 依法从事生产、运输、管理、使用国家管制的麻醉药品、精神药品的人员，违反国家规定，"
                 "向吸食、注射毒品的人提供国家规定管制的能够使人形成瘾癖的麻醉药品、精神药品的，处三年以下有期徒刑。")


def test_an_article_binding_anyone_or_naming_officials_as_its_object():
    """Twin: the offence anyone commits, and officials as those obstructed, bind no office holder."""
    assert binds(FELLING) == ""
    assert binds(OBSTRUCTION) == ""
    assert binds("第十九条 劳动合同期限三个月以上不满一年的，试用期不得超过一个月。") == ""


@pytest.fixture(scope="module")
def kb(tmp_path_factory):
    return law_kb(tmp_path_factory, (("刑法", "刑法.md", CRIMINAL_LAW),))


def _quoted(kb, question: str, weight: float) -> str:
    """The article the composer quotes with the official's article ranked first, as the whole
    corpus ranks it for a felling story."""
    found = retrieve(kb, question, Mode.BM25, route=False)
    hits = sorted(found.hits, key=lambda h: h.chunk.article != "第四百零七条")
    assert [h.chunk.article for h in hits[:2]] == ["第四百零七条", "第三百四十五条"]
    _, cites = compose(found.terms, hits, kb.idf, bonus=addressee_bonus(question, hits, weight))
    return cites[0].article


@pytest.mark.integration
def test_a_story_of_felling_quotes_the_offence_not_the_officials(kb):
    assert _quoted(kb, STORY, 0.0) == "第四百零七条"
    assert _quoted(kb, STORY, kb.config.answer_addressee or 0.5) == "第三百四十五条"


@pytest.mark.integration
def test_a_question_naming_the_official_keeps_the_officials_article(kb):
    """Twin: the question names an office holder (工作人员): no weight is taken off."""
    hits = retrieve(kb, OFFICIAL, Mode.BM25, route=False).hits
    assert addressee_bonus(OFFICIAL, hits, 0.5) == ()
    assert _quoted(kb, OFFICIAL, 0.5) == "第四百零七条"
