"""The OpenAI-compatible endpoint through the official ``openai`` SDK against a real uvicorn:
models, answers with references and structured citations, streaming, follow-ups,
refusals and keys."""

from __future__ import annotations

import httpx
import openai
import pytest

from tests.server.conftest import ADMIN_KEY, READ_KEY

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def client(served):
    url, _ = served
    return openai.OpenAI(base_url=f"{url}/v1", api_key=READ_KEY, max_retries=0, timeout=120)


def test_models_are_the_knowledge_base_and_its_subindexes(client):
    ids = [m.id for m in client.models.list()]
    assert ids[0] == "zhiku" and "zhiku/社会法" in ids and "zhiku/民法商法" in ids


def test_answer_has_markers_references_and_structured_citations(client):
    r = client.chat.completions.create(model="zhiku", messages=[
        {"role": "system", "content": "你是助手"},
        {"role": "user", "content": "劳动合同法第十九条规定了什么？"}])
    text = r.choices[0].message.content
    assert r.choices[0].finish_reason == "stop" and r.choices[0].message.role == "assistant"
    assert "[1]" in text and "参考：" in text and "第十九条" in text.split("参考：")[1]
    cites = r.model_extra["citations"]
    first = cites[0]
    assert first["marker"] == 1 and first["article"] == "第十九条" and first["chunk_id"]
    assert "劳动合同法" in first["document"] and first["path"].startswith("社会法/")
    assert first["chapter"] and first["quote"] in text.split("参考：")[0] or first["quote"]
    zk = r.model_extra["zhiku"]
    assert zk["refused"] is False and 0 < zk["confidence"] <= 1


def test_streaming_chunks_end_with_citations_and_done(client, served):
    stream = client.chat.completions.create(model="zhiku/社会法", stream=True, messages=[
        {"role": "user", "content": "劳动合同法第十九条规定了什么？"}])
    chunks = list(stream)
    text = "".join(c.choices[0].delta.content or "" for c in chunks)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert chunks[-1].choices[0].finish_reason == "stop"
    assert chunks[-1].model_extra["citations"][0]["article"] == "第十九条"
    assert "[1]" in text and "参考：" in text
    url, _ = served  # the raw stream ends with the OpenAI terminator
    with httpx.stream("POST", f"{url}/v1/chat/completions", timeout=120,
                      headers={"Authorization": f"Bearer {READ_KEY}"},
                      json={"model": "zhiku", "stream": True,
                            "messages": [{"role": "user", "content": "试用期最长多久？"}]}) as resp:
        frames = [line for line in resp.iter_lines() if line]
    assert frames[-1] == "data: [DONE]" and all(f.startswith("data: ") for f in frames)


def test_follow_up_uses_the_earlier_turns(client):
    r = client.chat.completions.create(model="zhiku", messages=[
        {"role": "user", "content": "《劳动合同法》规定的试用期最长多久？"},
        {"role": "assistant", "content": "试用期最长不得超过六个月。[1]\n\n参考：\n[1] 《中华人民共和国劳动合同法》"},
        {"role": "user", "content": [{"type": "text", "text": "那它第二十一条说了什么？"}]}])
    zk = r.model_extra["zhiku"]
    assert "劳动合同法" in zk["question"] and not zk["refused"]
    assert any(c["article"] == "第二十一条" for c in r.model_extra["citations"])


def test_refusal_is_a_normal_message(client):
    r = client.chat.completions.create(model="zhiku", messages=[
        {"role": "user", "content": "火星基地的氧气配给标准是多少升每天？"}])
    msg = r.choices[0].message
    assert r.model_extra["zhiku"]["refused"] is True and r.model_extra["citations"] == []
    assert msg.role == "assistant" and "未找到" in msg.content and r.choices[0].finish_reason == "stop"


def test_keys_are_required_and_checked(served):
    url, _ = served
    for key in ("wrong-key", ""):
        c = openai.OpenAI(base_url=f"{url}/v1", api_key=key or "x", max_retries=0,
                          default_headers={} if key else {"Authorization": ""})
        with pytest.raises(openai.AuthenticationError):
            c.models.list()
    admin = openai.OpenAI(base_url=f"{url}/v1", api_key=ADMIN_KEY, max_retries=0)
    assert admin.models.list().data


def test_bad_requests_are_clear(client):
    with pytest.raises(openai.NotFoundError, match="zhiku/社会法"):
        client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "x"}])
    with pytest.raises(openai.BadRequestError, match="user message"):
        client.chat.completions.create(model="zhiku", messages=[{"role": "system", "content": "x"}])
