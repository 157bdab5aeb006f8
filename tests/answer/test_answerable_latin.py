"""How Latin pieces of a question are pinned: a release series after a Latin name and a full
version after a Chinese name (config ``answerability_versions``), a Latin piece of a dictionary
word glued to Chinese (``answerability_glued_words``), a Latin word after 其他
(``answerability_other_kinds``), a field with its value (``answerability_name_values``) and a
Latin word after 哪个 (``answerability_which_latin``).
Real documents of tests/data/real (see its SOURCE.md): the feature reference of fresh8, the
versioning specification and the upload component's pages of fresh14, the car warranty rule
of fresh9, the OCR tool's HTTP reference of fresh10 and the dev set's FAQ of Arthas."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.chunk.context import block_text
from zhiku.verify.answerable import check
from zhiku.verify.options import CheckOptions
from zhiku.verify.pins import Kind, pinned

pytestmark = pytest.mark.unit

FEATURES = "fresh8/FASTJSON2特性配置说明.md"
FAQ = "fresh8/FASTJSON2常见问题.md"
SEMVER = "fresh14/语义化版本2.0.0规范.md"
CARS = "fresh9/家用汽车产品三包责任规定.md"
RENAMED = "fastjson 1.x 里的 DisableCircularReferenceDetect 到了 2.x 改叫什么？"
NEXT = "语义化版本 3.0.0 规范新增了哪些规则？"
SPARE_CAR = "车在包修期内一次修了超过5天，4S店要给我备用车吗？"


def _chunk(name: str, holding: str):
    return next(c for c in real_chunks(name, whole_path=True) if holding in c.text and c.kind != "parent")


def _ok(question: str, chunk, opts: CheckOptions) -> bool:
    return check(question, [(block_text(chunk), chunk.text)], opts=opts).ok


def _subjects(question: str, opts: CheckOptions) -> list[str]:
    return [c.text for c in pinned(question, opts) if c.kind is Kind.SUBJECT]


def test_a_release_series_is_pinned_whole():
    assert "fastjson 1.x" in _subjects(RENAMED, CheckOptions(versions=True))
    assert "fastjson 1" in _subjects(RENAMED, CheckOptions(versions=False))


def test_the_changes_of_the_series_meet_it():
    # the 2.x reference's list of 1.x changes: 「7.2 1.x特性变更 … 更名为`DisableReferenceDetect`」
    changes = _chunk(FEATURES, "更名为`DisableReferenceDetect`")
    assert _ok(RENAMED, changes, CheckOptions(versions=True))
    assert not _ok(RENAMED, changes, CheckOptions(versions=False))


def test_a_block_without_the_series_misses_it():
    # the positive twin from the FAQ: a block naming FASTJSON 1.x meets the series, one naming
    # only fastjson2 does not
    both = _chunk(FAQ, "FASTJSON 1.x 冲突")
    assert _ok("fastjson2 和老的 fastjson 1.x 能放在同一个项目里一起用吗？", both, CheckOptions(versions=True))
    only2 = next(c for c in real_chunks(FAQ, whole_path=True)
                 if c.kind != "parent" and "1.x" not in block_text(c) and "fastjson2" in c.text.lower())
    assert not _ok("fastjson 1.x 里的 SerializerFeature 怎么用？", only2, CheckOptions(versions=True))


def test_a_version_the_document_is_not_of_refuses():
    intro = _chunk(SEMVER, "主版本号：当你做了不兼容的 API 修改")
    assert not _ok(NEXT, intro, CheckOptions(versions=True))
    assert _ok(NEXT, intro, CheckOptions(versions=False))  # before: 3.0.0 went unchecked
    assert _ok("语义化版本 2.0.0 规范新增了哪些规则？", intro, CheckOptions(versions=True))


def test_a_version_given_as_an_example_or_after_a_word_of_the_sentence_is_not_pinned():
    for question in ("版本号里的数字前面可以补零吗，比如 1.02.0？", "1.0.0-alpha 和 1.0.0 哪个版本优先级更高？",
                     "Umi-OCR 最早的 1.0.0 版本是什么时候发布的？"):
        assert not [c for c in pinned(question, CheckOptions(versions=True)) if c.about == "version"]


def test_a_figure_and_letter_glued_to_a_word_pin_nothing():
    assert _subjects(SPARE_CAR, CheckOptions(glued_words=True)) == []
    assert _subjects(SPARE_CAR, CheckOptions(glued_words=False)) == ["4s"]
    article = _chunk(CARS, "第二十一条")
    assert "第6日起" in article.text
    assert _ok(SPARE_CAR, article, CheckOptions(glued_words=True))
    assert not _ok(SPARE_CAR, article, CheckOptions(glued_words=False))


def test_a_model_code_glued_to_a_word_is_still_pinned():
    # the positive twin from another document: a chip's code before 芯片 is its name
    for opts in (CheckOptions(glued_words=True), CheckOptions(glued_words=False)):
        assert "stm32l475芯片" not in _subjects("STM32L475芯片进入低功耗模式后电流是多少？", opts)
        assert any(s.startswith("stm32l475") for s in _subjects("STM32L475芯片进入低功耗模式后电流是多少？", opts))
        # 「世界5G大会」 is no word of the dictionary: 5G names the event
        assert "5g" in _subjects("2022世界5G大会举办的地点是哪里", opts)


FRAMEWORKS = "WebUploader 会不会和页面上其他 JS 框架冲突？"


def test_a_latin_word_after_other_names_a_kind_not_a_name():
    # 「所以完全不用担心此框架会与其他框架冲突」: the page never writes JS
    usage = _chunk("fresh14/WebUploader使用文档.html", "不用担心此框架会与其他框架冲突")
    assert _subjects(FRAMEWORKS, CheckOptions(other_kinds=True)) == ["webuploader"]
    assert _ok(FRAMEWORKS, usage, CheckOptions(other_kinds=True))
    assert not _ok(FRAMEWORKS, usage, CheckOptions(other_kinds=False))


def test_a_latin_word_not_after_other_is_still_pinned():
    # the positive twin from another document: the tool's own name and a named runtime
    for opts in (CheckOptions(other_kinds=True), CheckOptions(other_kinds=False)):
        assert _subjects("Arthas 能 attach 到运行中的 Java 进程吗？", opts)[:1] == ["arthas"]
        assert "java" in _subjects("Arthas 能 attach 到运行中的 Java 进程吗？", opts)


OCR = "fresh10/Umi-OCR图片识别接口.md"
CODE = "图片OCR接口返回 code 101 表示什么？"


def test_a_field_and_its_value_are_met_on_one_line():
    # the response table's row: 「字段 code，类型 int，描述 任务状态码。`100`为成功，`101`为无文本…」
    row = _chunk(OCR, "`101`为无文本")
    assert _ok(CODE, row, CheckOptions(name_values=True))
    assert not _ok(CODE, row, CheckOptions(name_values=False))
    # a value the line does not hold is not met
    assert not _ok("图片OCR接口返回 code 102 表示什么？", row, CheckOptions(name_values=True))


def test_a_name_and_a_number_on_another_page_are_still_missed():
    # the positive twin from another document: the upload component's pages name no Vue 3
    page = _chunk("fresh14/WebUploader快速开始.html", "fileQueued")
    for opts in (CheckOptions(name_values=True), CheckOptions(name_values=False)):
        assert not _ok("WebUploader 的 Vue 3 组件怎么安装？", page, opts)


HOOK = "WebUploader 在分片发送之前，可以用哪个 command 来做分片验证？"


def test_a_latin_word_after_which_is_the_kind_asked():
    # the Hook table's row 「名称 before-send，…说明 在分片发送之前request，可以用来做分片验证…」 never says command
    row = _chunk("fresh14/WebUploader使用文档.html", "在分片发送之前request")
    assert "command" not in _subjects(HOOK, CheckOptions(which_latin=True))
    assert "command" in _subjects(HOOK, CheckOptions(which_latin=False))
    assert _ok(HOOK, row, CheckOptions(which_latin=True))
    assert not _ok(HOOK, row, CheckOptions(which_latin=False))


def test_a_latin_word_naming_the_noun_after_it_is_still_pinned():
    # the positive twin from other documents: i2c names the bus, API the key (a question no
    # document of its set answers); 为什么 asks why, not which
    for opts in (CheckOptions(which_latin=True), CheckOptions(which_latin=False)):
        assert "i2c" in _subjects("温湿度传感器挂载在哪个 i2c 总线上？", opts)
        assert "api" in _subjects("Umi-OCR 的 HTTP 接口要用什么 API 密钥做认证？", opts)
        assert "64dd" in _subjects("为什么64DD从上市就充满著困难？", opts)
