"""A question asking which version, answered from a changelog whose entries' headings state
the release (tests/data/real/fresh/Sa-Token更新日志.md, see tests/data/real/SOURCE.md)."""

from __future__ import annotations

import pytest

from zhiku.answer.extractive import compose
from zhiku.retrieve.segment import query_terms, segmenters
from zhiku.types import Chunk, Hit

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit

LOG = "fresh/Sa-Token更新日志.md"


def _chunks(name: str) -> tuple[Chunk, ...]:
    return real_chunks(name)


def _compose(question: str, holding: str, head_version: bool, doc: str = LOG, ancestors: bool = False) -> str:
    chunk = next(c for c in _chunks(doc) if c.kind == "text" and holding in c.text)
    terms = query_terms(segmenters.create("words")(question))
    text, _ = compose(terms, [Hit(chunk, 0.03, "rrf")], lambda t: 1.0, head_version=head_version,
                      head_ancestors=ancestors)
    return text


VANT = "fresh6/Vant4更新日志.md"
# (document, question, the change's text, the release quoted, the twin asking something else, what it quotes):
# the release is the change's own heading (「### v1.46.0 @2026-8-18」), or an ancestor's label, the change
# sitting in 「#### 新组件 🎉」 under 「### v4.8.0」 (answer_head_ancestors)
CASES = [(LOG, "allowLoginIdColon 配置是哪个版本新增的？", "allowLoginIdColon", "v1.46.0 @2026-8-18",
          "allowLoginIdColon 配置默认允许 loginId 包含冒号吗？", "默认禁止 loginId 包含冒号"),
         (VANT, "Vant 的 Highlight 高亮组件是哪个版本加进来的？", "新增 Highlight 组件", "v4.8.0",
          "Highlight 组件是谁贡献的？", "wjw-gavin")]


@pytest.mark.parametrize("doc,question,holding,release,_twin,_said", CASES)
def test_which_version_is_answered_with_the_release_heading_of_the_change(doc, question, holding, release,
                                                                          _twin, _said):
    text = _compose(question, holding, True, doc, ancestors=True)
    assert text.startswith(f"{release}：") and holding in text
    assert release.split()[0] not in _compose(question, holding, False, doc)  # the setting off
    if doc == VANT:  # the ancestor's label needs its own setting as well
        assert release not in _compose(question, holding, True, doc, ancestors=False)


@pytest.mark.parametrize("doc,_question,holding,release,twin,said", CASES)
def test_a_question_not_about_a_version_quotes_the_change_alone(doc, _question, holding, release, twin, said):
    # its positive twin: the same entry, asked what the setting does or who added it, needs no release
    text = _compose(twin, holding, True, doc, ancestors=True)
    assert said in text and release.split()[0] not in text


def test_the_check_reads_a_block_under_the_release_it_sits_in():
    # the statement the composer builds from the ancestor's heading is supported by its block,
    # which its text under its own heading did not support: its release number was missing
    from zhiku.chunk.context import heading, headed
    from zhiku.verify.check import Verifier
    from zhiku.verify.support import SupportScorer

    chunk = next(c for c in _chunks(VANT) if c.kind == "text" and "新增 Highlight 组件" in c.text)
    scorer = SupportScorer(segmenters.create("words"), None)
    said = _compose("Vant 的 Highlight 高亮组件是哪个版本加进来的？", "新增 Highlight 组件", True, VANT, True)
    assert Verifier(scorer, lambda doc, label: False).verify(said, {1: chunk}).kept == 1
    statement = said.removesuffix("[1]")
    assert headed(chunk).startswith("v4.8.0 ") and scorer.score(statement, headed(chunk)).supported
    assert not scorer.score(statement, f"{heading(chunk)} {chunk.text}").supported
