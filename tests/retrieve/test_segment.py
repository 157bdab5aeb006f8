"""Segmenters turn Chinese into real tokens, never one token per sentence."""

import pytest

from zhiku.errors import ZhikuError
from zhiku.retrieve.segment import query_terms, segmenters

pytestmark = pytest.mark.unit


def test_jieba_splits_words_and_normalises_width():
    seg = segmenters.create("jieba")
    toks = seg("劳动合同的试用期最长不得超过六个月ＡＢＣ")
    assert "试用期" in toks and "劳动合同" in toks
    assert "abc" in toks
    assert all(t.strip() for t in toks)


def test_char_and_mixed():
    assert segmenters.create("char")("试用期 60天") == ["试", "用", "期", "60", "天"]
    mixed = segmenters.create("mixed")("试用期")
    assert "试用期" in mixed and "试" in mixed


def test_query_terms_drop_question_words():
    seg = segmenters.create("jieba")
    assert "什么" not in query_terms(seg("试用期最长是什么"))
    assert query_terms(["什么"]) == ["什么"]  # never empty


def test_unknown_segmenter():
    with pytest.raises(ZhikuError, match="char, jieba, mixed, words"):
        segmenters.create("ik")


def test_english_words_are_stemmed_and_stop_words_dropped():
    for name in ("mixed", "jieba", "char", "words"):
        toks = segmenters.create(name)("The genomes of the variants，VPN 登录")
        assert "genom" in toks and "variant" in toks and "vpn" in toks
        assert "the" not in toks and "of" not in toks


def test_english_titles_do_not_make_every_word_a_document_name():
    from zhiku.index.store import DocRecord
    from zhiku.retrieve.clause import TitleIndex

    def doc(i: str, title: str) -> DocRecord:
        return DocRecord(i, f"{i}.md", (), title, None, "default", 1, {}, ())
    idx = TitleIndex([doc("31715818", "Airway inflammation in asthma"), doc("l", "中华人民共和国民法典 婚姻家庭编")])
    assert idx.resolve("CX3CR1 on the Th2 cells promotes airway inflammation.").doc_ids == ()
    assert idx.resolve("婚姻家庭编第一千零四十七条").doc_ids == ("l",)


def test_normalise_is_nfkc_and_lower_case():
    import unicodedata

    from zhiku.retrieve.segment import normalise

    for text in ("第１２条　ＡＢＣ，（一）", "ﬁ①㍿ 试用期", "plain ASCII Text", "劳动合同法"):
        assert normalise(text) == unicodedata.normalize("NFKC", text).lower()


def test_mixed_tokens_are_the_same_on_first_and_later_sight():
    seg = segmenters.create("mixed")
    text = "用人单位与劳动者约定试用期，ＶＰＮ账号的登录 variants"
    first = seg(text)
    assert first == seg(text)
    assert first[:4] == ["用人", "用", "人", "单位"] and "vpn" in first and "variant" in first


def _records(*paths: str):
    from zhiku.index.store import DocRecord

    return [DocRecord(str(i), p, (), "", None, "default", 1, {}, ()) for i, p in enumerate(paths)]


def test_a_shortened_statute_name_is_read_where_a_law_is_cited():
    from zhiku.retrieve.clause import TitleIndex

    words = segmenters.create("words")
    idx = TitleIndex(_records("行政法规/职工带薪年休假条例(2007-12-14).md", "经济法/企业所得税法(2018-12-29).md",
                              "行政法规/城市居民最低生活保障条例(1999-09-28).md"), words)
    assert idx.resolve("按年休假条例没休的年假怎么折算？").doc_ids == ("0",)
    assert idx.resolve("依照带薪年休假条例，年假几天").names == ("带薪年休假条例",)
    assert idx.resolve("根据所得税法，工资要交税吗").doc_ids == ("1",)
    # inside a longer name the question gives, or a company's own rules, it names no statute
    assert idx.resolve("根据医疗保障条例能报销吗").doc_ids == ()
    assert idx.resolve("我们公司的年休假条例规定了什么").doc_ids == ()
    # without a segmenter only whole names count
    assert TitleIndex(_records("行政法规/职工带薪年休假条例(2007-12-14).md")).resolve("按年休假条例").doc_ids == ()


def test_a_tail_two_laws_share_names_neither():
    from zhiku.retrieve.clause import TitleIndex

    idx = TitleIndex(_records("经济法/企业所得税法(2018-12-29).md", "经济法/个人所得税法(2018-08-31).md",
                              "行政法/企业所得税法(2018-12-29).md"), segmenters.create("words"))
    assert idx.resolve("根据所得税法，工资要交税吗").doc_ids == ()  # 企业所得税法's tail, held by 个人所得税法 too
    assert set(idx.resolve("根据企业所得税法，利润要交税吗").doc_ids) == {"0", "2"}  # one law in two folders


def test_a_one_word_title_names_its_document_only_as_its_file_name():
    """A burning guide titled 「烧录」 (Hi3751V350烧录指南.md) is not what a question asking of
    烧录 for another board names; a title equal to the file name (刑法), a longer title, the
    file name itself and a model code of the file name (Niobe407) still name their documents."""
    from zhiku.index.store import DocRecord
    from zhiku.retrieve.clause import TitleIndex

    def doc(i: str, path: str, title: str) -> DocRecord:
        return DocRecord(i, path, (), title, None, "default", 1, {}, ())
    idx = TitleIndex([doc("g", "Hi3751V350烧录指南.md", "烧录"), doc("n", "Niobe407固件烧录.md", "固件烧录"),
                      doc("x", "刑法/刑法.md", "中华人民共和国刑法"), doc("r", "RocketMQ权限控制.md", "权限控制")])
    assert idx.resolve("固件的烧录起始地址是多少？").doc_ids == ()
    assert idx.resolve("Niobe407固件的烧录起始地址是多少？").doc_ids == ("n",)  # by its model code
    assert idx.resolve("Hi3751V350烧录指南里upload_protocol选什么").doc_ids == ("g",)
    assert idx.resolve("固件烧录的起始地址").doc_ids == ("n",)
    assert idx.resolve("刑法第二十条怎么规定").doc_ids == ("x",)
    assert idx.resolve("权限控制怎么开启").doc_ids == ("r",)


def test_a_model_code_of_the_file_name_names_the_document_not_a_code_alike():
    """「DAYU210底板…」 names 润和DAYU210开发套件说明.md, not its near twin of the DAYU200; a code no
    file name holds (Niobe429), a corpus id (p00435) and a dated law file name name nothing."""
    from zhiku.index.store import DocRecord
    from zhiku.retrieve.clause import TitleIndex

    def doc(i: str, path: str, title: str) -> DocRecord:
        return DocRecord(i, path, (), title, None, "default", 1, {}, ())
    idx = TitleIndex([doc("a", "润和DAYU200开发套件说明.md", "【开发板名称】润和HH-SCDAYU200开发套件"),
                      doc("b", "润和DAYU210开发套件说明.md", "【开发板名称】润和HH-SCDAYU210 开发套件"),
                      doc("p", "p00435.md", ""), doc("l", "经济法/广告法(2021-04-29).md", "中华人民共和国广告法")])
    assert idx.resolve("DAYU210底板的电源输入是什么规格？").doc_ids == ("b",)
    assert idx.resolve("Niobe429开发板的CPU主频最高多少？").doc_ids == ()
    assert idx.resolve("p00435说了什么").doc_ids == () and idx.resolve("2021年的规定").doc_ids == ()
