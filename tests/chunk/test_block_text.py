"""The text a block is held to for what a question pins (chunk.context.block_text)."""

from __future__ import annotations

import pytest

from zhiku.chunk.context import block_text
from zhiku.types import Chunk
from zhiku.verify.answerable import check

pytestmark = pytest.mark.unit

# a real news snippet of the RGB zh corpus: a yield over six years, none for 2021
SNIPPET = ("Mar 19, 2023 ... 作为粮食生产大省，河南连续6年粮食总产量稳定在1300亿斤以上，去年夏粮 ... 于此。"
           "2021年，河南省聚合全省优质种业科研资源，成立神农种业实验室。")


def _chunk(path: str, title: str = "", text: str = SNIPPET) -> Chunk:
    return Chunk(id="c", doc_id="d", doc_path=path, title=title, section_id="", section_path=(),
                 article=None, text=text, start=0, end=len(text))


def test_the_file_name_lends_its_words_not_its_numbers():
    """A page titled 经常被问到的问题 in RocketMQ常见问题.md is about RocketMQ; a corpus id
    (p00435) or a date suffix adds no number or year to what the block says."""
    faq = block_text(_chunk("docs/RocketMQ常见问题.md", "经常被问到的问题", "消息最多保存 3 天。"))
    assert "RocketMQ常见问题" in faq
    assert "00435" not in block_text(_chunk("p00435"))
    assert "2018" not in block_text(_chunk("民法商法/公司法(2018-10-26).md", "公司法", "第一条 …"))


def test_a_corpus_id_in_the_path_is_no_count_the_question_asks_for():
    """「河南2021年的粮食总产量是多少？」 over a dated snippet that gives only a six-year
    figure is refused: a corpus id as the document's path (p00435)
    adds nothing before the snippet's dateline; the twin whose block states the 2021 count is
    answered."""
    q = "河南2021年的粮食总产量是多少？"
    said = SNIPPET.split("。")[0] + "。"
    missing = check(q, [(block_text(_chunk("p00435")), said)])
    assert not missing.ok and missing.missing
    twin = "2021年河南粮食总产量为1308.84亿斤，再创历史新高。"
    assert check(q, [(block_text(_chunk("p00435", text=twin)), twin)]).ok


def test_a_model_code_in_the_file_name_is_a_name_not_a_number():
    """「Niobe407固件烧录.md」, a page titled 固件烧录 that never names its board, is about the
    Niobe407: the file name's model code stays in the block's text (and in what the keyword
    index reads of its chunks); a corpus id (p00435) and a date stay out."""
    from zhiku.chunk.context import file_codes

    page = _chunk("device/Niobe407固件烧录.md", "固件烧录", "烧录起始地址使用默认的8000000，点击OK即可")
    assert "Niobe407" in block_text(page) and file_codes(page) == "Niobe407"
    q = "Niobe407固件的烧录起始地址是多少？"
    assert check(q, [(block_text(page), page.text)]).ok
    other = _chunk("device/Hi3751V350烧录指南.md", "烧录", page.text)
    assert not check(q, [(block_text(other), page.text)]).ok
    assert file_codes(_chunk("润和DAYU210开发套件说明.md", "润和HH-SCDAYU210 开发套件")) == "DAYU210"
    assert file_codes(_chunk("AHT10温湿度传感器例程.md", "AHT10 温湿度传感器例程")) == ""
    assert "00435" not in block_text(_chunk("p00435")) and file_codes(_chunk("p00435")) == ""
