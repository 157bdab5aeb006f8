"""A question asking when a change was released, answered from the date its changelog states
only in the release's heading (tests/data/real/fresh/Sa-Token更新日志.md: 「### v1.43.0 @2025-5-17」)
or on the first line under it (tests/data/real/fresh6/Vant4更新日志.md: 「`2024-04-06`」); see
tests/data/real/SOURCE.md."""

from __future__ import annotations

import pytest

from zhiku.answer.extractive import compose
from zhiku.retrieve.segment import query_terms, segmenters
from zhiku.types import Hit

from tests.answer.conftest import real_chunks

pytestmark = pytest.mark.unit

LOG = "fresh/Sa-Token更新日志.md"
VANT = "fresh6/Vant4更新日志.md"


def _block(doc: str, holding: str):
    return next(c for c in real_chunks(doc) if c.kind == "text" and holding in c.text)


def _compose(question: str, doc: str, holding: str, dates: bool) -> str:
    terms = query_terms(segmenters.create("words")(question))
    text, _ = compose(terms, [Hit(_block(doc, holding), 0.03, "rrf")], lambda t: 1.0, head_version=True,
                      head_ancestors=True, head_dates=dates)
    return text


# (document, question, the change's text, how the answer opens): the date in the release's own
# heading, or alone on the first line under the heading of the release the change's section sits in
CASES = [(LOG, "SaLogoutParameter 的 deviceId 参数是哪一天发布的？", "新增 `deviceId` 参数", "v1.43.0 @2025-5-17："),
         (VANT, "Vant 的 Coupon 优惠券何时支持复选框用法？", "feat(Coupon)：支持复选框用法", "v4.8.10（2024-04-06）：")]


@pytest.mark.parametrize("doc,question,holding,opening", CASES)
def test_a_when_question_is_answered_with_the_release_and_its_date(doc, question, holding, opening):
    text = _compose(question, doc, holding, True)
    assert text.startswith(opening) and holding in text
    assert opening.split("：")[0] not in _compose(question, doc, holding, False)  # the setting off: no date


def test_the_check_supports_the_dated_release_from_the_block_itself():
    # the release (an ancestor's label) and the date (the block's first line) are both the block's own
    from zhiku.verify.check import Verifier
    from zhiku.verify.support import SupportScorer

    question, holding = CASES[1][1], CASES[1][2]
    scorer = SupportScorer(segmenters.create("words"), None)
    said = _compose(question, VANT, holding, True)
    assert Verifier(scorer, lambda doc, label: False).verify(said, {1: _block(VANT, holding)}).kept == 1


def test_the_answerability_check_finds_the_date_asked_in_the_quote():
    from zhiku.chunk.context import block_text
    from zhiku.verify.answerable import check
    from zhiku.verify.options import CheckOptions
    from zhiku.config import Config

    opts = CheckOptions.from_config(Config())
    for doc, question, holding, _ in CASES:
        block = block_text(_block(doc, holding))
        assert check(question, [(block, _compose(question, doc, holding, True))], (), opts).ok
        assert not check(question, [(block, _compose(question, doc, holding, False))], (), opts).ok


def test_a_release_without_a_date_and_a_body_stating_one_are_quoted_as_before():
    # twins: a release whose heading and first line state no date (it stays unanswered for when),
    # and a notice whose own sentence states the day (it is quoted as it was)
    for doc, question, holding in [
            ("fresh6/DolphinScheduler不兼容更新.md", "DolphinScheduler 的 mysql 驱动是哪天升级到 8.0.33 的？",
             "8.0.33"),
            ("fresh3/OpenHarmony-4.1-Release分支停止维护公告.md", "OpenHarmony 4.1-Release 分支从什么时候停止维护？",
             "6月1日起停止维护")]:
        assert _compose(question, doc, holding, True) == _compose(question, doc, holding, False)


@pytest.mark.parametrize("question,asks", [
    ("Vant 的 Highlight 高亮组件是什么时候发布的？", True), ("Vant 的 Image 组件哪天新增了 crossorigin 属性？", True),
    ("Vant 的 Coupon 优惠券何时支持复选框用法？", True), ("SaLogoutParameter 的 deviceId 参数是哪一天发布的？", True),
    ("Vant 的 Highlight 高亮组件是哪个版本加进来的？", False), ("Vant 的 Coupon 优惠券支持什么用法？", False)])
def test_only_a_question_asking_when_has_the_date_quoted(question, asks):
    # the caller turns head_dates on for a question asking when; which-version and what questions keep theirs
    from zhiku.answer.respond import _WHEN_KINDS
    from zhiku.config import Config
    from zhiku.verify.options import CheckOptions
    from zhiku.verify.pins import Kind, pinned

    cons = pinned(question, CheckOptions.from_config(Config()))
    assert any(c.kind is Kind.QUANTITY and c.text in _WHEN_KINDS for c in cons) is asks
