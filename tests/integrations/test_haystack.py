"""The Haystack component runs inside a Haystack Pipeline: top_k, filters, citation
metadata, serialisation (needs the [haystack] extra; `make test-frameworks`)."""

from __future__ import annotations

import pytest

pytest.importorskip("haystack", reason="the [haystack] extra is not installed")

from haystack import Document, Pipeline  # noqa: E402

from zhiku.integrations.haystack import ZhikuRetriever  # noqa: E402

pytestmark = pytest.mark.integration


def test_pipeline_runs_the_retriever_with_top_k_and_filters(kb):
    from haystack.components.builders import PromptBuilder

    pipe = Pipeline()
    pipe.add_component("retriever", ZhikuRetriever(kb=kb, top_k=4))
    pipe.add_component("prompt", PromptBuilder(
        template="{% for d in documents %}[{{ loop.index }}] {{ d.meta.citation }}\n{{ d.content }}\n{% endfor %}问：{{ q }}",
        required_variables=["documents", "q"]))
    pipe.connect("retriever.documents", "prompt.documents")
    q = "劳动合同法第十九条规定了什么"
    out = pipe.run({"retriever": {"query": q, "top_k": 2,
                                  "filters": {"field": "meta.subindex", "operator": "==", "value": "社会法"}},
                    "prompt": {"q": q}}, include_outputs_from={"retriever"})
    docs = out["retriever"]["documents"]
    assert len(docs) == 2 and all(isinstance(d, Document) for d in docs)
    assert docs[0].meta["article"] == "第十九条" and docs[0].id == docs[0].meta["chunk_id"]
    assert all(d.meta["subindex"] if "subindex" in d.meta else d.meta["doc"].startswith("社会法/") for d in docs)
    assert docs[0].score >= docs[1].score
    assert "[1] " in out["prompt"]["prompt"] and "第十九条" in out["prompt"]["prompt"]


def test_filters_are_checked_and_the_component_serialises(kb):
    from zhiku.errors import ZhikuError

    r = ZhikuRetriever(kb=kb)
    with pytest.raises(ZhikuError, match="meta.subindex"):
        r.run("试用期", filters={"field": "meta.author", "operator": "==", "value": "x"})
    both = {"operator": "AND", "conditions": [
        {"field": "meta.subindex", "operator": "in", "value": ["民法商法"]},
        {"field": "meta.versions", "operator": "==", "value": "all"}]}
    docs = r.run("公司的注册资本", top_k=5, filters=both)["documents"]
    assert docs and all(d.meta["doc"].startswith("民法商法/") for d in docs)
    again = Pipeline.loads(Pipeline().dumps()) and ZhikuRetriever.from_dict(
        ZhikuRetriever(home="/tmp/x", top_k=3).to_dict())
    assert again.home == "/tmp/x" and again.top_k == 3
