"""Tests for loading golden question sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhiku.errors import ZhikuError
from zhiku.eval.dataset import EvalItem, Gold, gold_docs, load_set

pytestmark = pytest.mark.unit

DATA = Path(__file__).parents[1] / "data" / "eval"


def test_load_real_slice() -> None:
    items = load_set(DATA / "cmrc2018_queries.jsonl")
    assert len(items) == 18
    first = items[0]
    assert first == EvalItem(
        id="TRIAL_800_QUERY_0",
        question="生命数耗完即算为什么？",
        answers=("踢爆",),
        gold=(Gold(doc="TRIAL_800", article=None),),
        answerable=True,
        kind="extractive",
    )
    assert gold_docs(items) == {"TRIAL_800", "TRIAL_154", "TRIAL_598", "TRIAL_662"}


def test_articles_defaults_and_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text(
        '{"id": "nat-003", "question": "试用期最长多久？", "answers": [], '
        '"gold": [{"doc": "社会法/劳动合同法(2012-12-28).md", "article": "第十九条"}], '
        '"answerable": true, "kind": "natural"}\n'
        "\n"
        '{"id": 7, "question": "华为Mate 60 的售价？"}\n',
        encoding="utf-8",
    )
    a, b = load_set(path)
    assert a.gold == (Gold("社会法/劳动合同法(2012-12-28).md", "第十九条"),)
    assert b == EvalItem(id="7", question="华为Mate 60 的售价？")
    assert gold_docs([a, b]) == {"社会法/劳动合同法(2012-12-28).md"}


@pytest.mark.parametrize(
    ("bad_line", "words"),
    [
        ('{"id": "q2", "question": "x", ', "JSON"),
        ('{"id": "q2", "question": 3}', '"question"'),
        ('{"id": "q2", "question": "x", "gold": [{"article": "第一条"}]}', '"doc"'),
        ('{"id": "q2", "question": "x", "answerable": "yes"}', '"answerable"'),
        ('["q2", "x"]', "JSON object"),
    ],
)
def test_bad_line_names_file_and_line(tmp_path: Path, bad_line: str, words: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"id": "q1", "question": "ok"}\n\n' + bad_line + "\n", encoding="utf-8")
    with pytest.raises(ZhikuError) as err:
        load_set(path)
    message = str(err.value)
    assert f"{path}:3:" in message
    assert words in message


def test_empty_question_skipped_with_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "set.jsonl"
    path.write_text('{"id": "q1", "question": "ok"}\n{"id": "q2", "question": "  "}\n', encoding="utf-8")
    with caplog.at_level("WARNING", logger="zhiku.eval.dataset"):
        items = load_set(path)
    assert [i.id for i in items] == ["q1"]
    assert f"{path}:2: skipped a question that is empty" in caplog.text


def test_duplicate_id_names_both_lines(tmp_path: Path) -> None:
    path = tmp_path / "dup.jsonl"
    path.write_text('{"id": "q1", "question": "a"}\n{"id": "q1", "question": "b"}\n', encoding="utf-8")
    with pytest.raises(ZhikuError, match=r"dup\.jsonl:2: id 'q1' was already used on line 1"):
        load_set(path)


def test_missing_and_empty_files(tmp_path: Path) -> None:
    with pytest.raises(ZhikuError, match="does not exist"):
        load_set(tmp_path / "nope.jsonl")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(ZhikuError, match="no questions"):
        load_set(empty)
