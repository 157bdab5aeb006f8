"""Chinese numerals and article labels, both ways."""

from __future__ import annotations

import pytest

from zhiku.chunk import ARTICLE_RE, article_label, cn_to_int, int_to_cn, normalize_article

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("零", 0),
        ("〇", 0),
        ("一", 1),
        ("十", 10),
        ("十五", 15),
        ("一十五", 15),
        ("二十", 20),
        ("两", 2),
        ("两百", 200),
        ("一百", 100),
        ("一百零五", 105),
        ("一百一十", 110),
        ("一百二十三", 123),
        ("一千", 1000),
        ("一千零一", 1001),
        ("一千零一十", 1010),
        ("一千零四十七", 1047),
        ("一千二百六十", 1260),
        ("一万", 10_000),
        ("十万零一十", 100_010),
        ("一亿零五", 100_000_005),
        ("一九九四", 1994),
        ("二〇二〇", 2020),
        ("壹佰贰拾叁", 123),
        ("19", 19),
        ("１９", 19),
        (" 十九 ", 19),
    ],
)
def test_cn_to_int(text: str, value: int) -> None:
    assert cn_to_int(text) == value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (0, "零"),
        (1, "一"),
        (10, "十"),
        (11, "十一"),
        (19, "十九"),
        (20, "二十"),
        (100, "一百"),
        (101, "一百零一"),
        (110, "一百一十"),
        (120, "一百二十"),
        (1001, "一千零一"),
        (1010, "一千零一十"),
        (1047, "一千零四十七"),
        (1260, "一千二百六十"),
        (10_000, "一万"),
        (10_010, "一万零一十"),
        (100_010, "十万零一十"),
        (1_000_000, "一百万"),
        (100_000_005, "一亿零五"),
    ],
)
def test_int_to_cn(value: int, text: str) -> None:
    assert int_to_cn(value) == text


def test_round_trip_for_every_article_number() -> None:
    for n in range(0, 3000):
        assert cn_to_int(int_to_cn(n)) == n


@pytest.mark.parametrize("bad", ["", "  ", "条", "十十", "一二十", "十百", "abc", "-1"])
def test_cn_to_int_rejects_non_numerals(bad: str) -> None:
    with pytest.raises(ValueError):
        cn_to_int(bad)


def test_int_to_cn_rejects_negative() -> None:
    with pytest.raises(ValueError):
        int_to_cn(-1)


@pytest.mark.parametrize(
    ("line", "label"),
    [
        ("第十九条 劳动合同期限三个月以上不满一年的", "第十九条"),
        ("第一千零四十七条　结婚年龄，男不得早于二十二周岁", "第一千零四十七条"),
        ("第一百二十条之一 资助恐怖活动组织", "第一百二十条之一"),
        ("第19条：试用期", "第十九条"),
        ("\u3000\u3000第二条 内容", "第二条"),
        ("第一百二十八 条侦查人员对于与犯罪有关的场所", "第一百二十八条"),  # typo in the corpus
        ("笫五十四条 清算组成员应当忠于职守", "第五十四条"),  # typo in the corpus
        ("第五条", "第五条"),
    ],
)
def test_article_re_matches_labels(line: str, label: str) -> None:
    match = ARTICLE_RE.match(line)
    assert match is not None
    assert article_label(match["num"], match["sub"]) == label


@pytest.mark.parametrize(
    "line",
    ["第二十条规定的情形除外。", "依照第十九条 的规定", "## 第三章 检察官的条件和遴选", "第一章 总则", "第五条、第六条 同"],
)
def test_article_re_ignores_references(line: str) -> None:
    assert ARTICLE_RE.match(line) is None


@pytest.mark.parametrize(
    ("question", "label"),
    [
        ("劳动合同法第19条规定了什么？", "第十九条"),
        ("劳动合同法第十九条规定了什么？", "第十九条"),
        ("刑法第120条之1", "第一百二十条之一"),
        ("民法典第 1047 条", "第一千零四十七条"),
        ("试用期最长多久？", None),
    ],
)
def test_normalize_article_in_questions(question: str, label: str | None) -> None:
    assert normalize_article(question) == label
