"""A question naming a person by a verb's role (项目维护者) answered from the sentence naming
them by the role's other form (项目维护人员): the 我们的义务 and 贯彻落实 sections of a real code of
conduct (tests/data/real/参与者公约行为准则-1.4版.md, see tests/data/real/SOURCE.md), ranked as the
real-document benchmark ranked them (the duties first)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import words
from zhiku.answer.extractive import compose
from zhiku.answer.reading import agent_forms
from zhiku.retrieve.segment import normalise, query_terms
from zhiku.types import Chunk, Hit

pytestmark = pytest.mark.unit

CODE = "参与者公约行为准则-1.4版.md"
DUTIES = ("项目维护者有义务诠释何谓“妥当行为”，并妥善公正地纠正已发生的不当行为。\n\n"
          "项目维护者有权利和义务去删除、编辑、拒绝违背本行为标准的评论（comments）、提交（commits）、代码、wiki "
          "编辑、问题（issues）等贡献；项目维护者可暂时或永久地封禁任何他们认为行为不当、威胁、冒犯、有害的参与者。")
ENFORCED = "未切实遵守或执行本行为标准的项目维护人员，经项目负责人或其他成员决议，可能被暂时或永久地剥夺参与本项目的资格。"
ENFORCEMENT = ("可以致信[在此输入EMAIL]，向项目团队举报滥用、骚扰及不当行为。\n\n"
               "维护团队将审议并调查全部投诉，妥善地予以必要的回应。项目团队有义务保密举报者信息。具体执行方针或将另行发布。\n\n"
               + ENFORCED)
SECTIONS = {DUTIES: "我们的义务", ENFORCEMENT: "贯彻落实"}


def _answer(question: str, agents: bool) -> str:
    hits = [Hit(Chunk(f"c{r}", CODE, CODE, "参与者公约行为准则-1.4版", f"s{r}", (SECTIONS[t],), None, t, 0, len(t)),
                0.033 - r * 0.001, "rrf") for r, t in enumerate((DUTIES, ENFORCEMENT))]
    text, _ = compose(query_terms(words()(question)), hits, lambda t: 1.0, agents=agents)
    return text


def test_a_role_counts_in_a_sentence_naming_it_by_its_other_form():
    terms = ["项目", "维护者", "遵守"]
    assert agent_forms(terms, normalise(ENFORCED)) == ["维护者"]  # 维护人员 names the 维护者
    assert agent_forms(["开发人员"], normalise("开发者可以在本地构建。")) == ["开发人员"]


def test_a_sentence_holding_the_role_as_asked_or_not_at_all_gains_nothing():
    # the positive twin: the question's own form is held, so there is nothing to lend
    assert agent_forms(["项目", "维护者"], normalise(DUTIES)) == []
    # a role the sentence names in neither form, and a word that is no verb's role (记者 alone)
    assert agent_forms(["维护者", "贡献者"], normalise("可以致信向项目团队举报滥用、骚扰及不当行为。")) == []
    assert agent_forms(["记者"], normalise("记者人员")) == []


def test_what_befalls_a_maintainer_is_answered_from_the_sentence_naming_maintainers():
    question = "1.4 版里项目维护者自己不遵守行为标准会怎么样？"
    assert "剥夺参与本项目的资格" in _answer(question, True)
    # off: the sentence lacks the question's heaviest word, and the duties are quoted instead
    off = _answer(question, False)
    assert "剥夺参与本项目的资格" not in off and "项目维护者" in off


def test_a_question_in_the_codes_own_form_is_answered_alike():
    # its positive twin: the question names the role as the duties do, nothing to lend
    question = "项目维护者有义务纠正哪些行为？"
    on = _answer(question, True)
    assert "纠正已发生的不当行为" in on
    assert on == _answer(question, False)
