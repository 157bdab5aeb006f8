"""A code listing's comment a PDF wraps over the next line is read with its code line (config
``answer_wrapped_comments``): the RT-Thread MQTT manual of tests/data/real (see its
SOURCE.md)."""

from __future__ import annotations

import pytest

from tests.answer.conftest import real_chunks
from zhiku.answer.extractive import split_sentences, wrapped_comments

pytestmark = pytest.mark.unit


def _listing() -> str:
    return next(c.text for c in real_chunks("Paho-MQTT用户手册.pdf") if "MQTT_URI" in c.text and c.kind == "text")


def test_a_wrapped_comment_is_one_sentence_with_its_code_line():
    text = _listing()
    apart = [s for _, s in split_sentences(text)]
    assert "服务器地址" in apart  # the comment's end, alone: it names the address and states none
    joined = [s for _, s in wrapped_comments(text, split_sentences(text))]
    line = next(s for s in joined if "MQTT_URI" in s)
    assert "iot.eclipse.org:1883" in line and line.endswith("服务器地址")
    assert "服务器地址" not in joined


def test_code_lines_and_prose_stay_apart():
    # the positive twin: a code line with no comment, the next #define and the prose before the
    # listing are their own sentences either way
    text = _listing()
    joined = [s for _, s in wrapped_comments(text, split_sentences(text))]
    assert '#define MQTT_USERNAME "admin"' in joined
    assert any(s.startswith("下面讲解RT-Thread提供的MQTT示例代码") for s in joined)
    prose = "地址 iot.eclipse.org ，端口 1883\n\n见 https://www.eclipse.org 的说明\n\n服务器地址"
    assert [s for _, s in wrapped_comments(prose, split_sentences(prose))] == [s for _, s in split_sentences(prose)]
