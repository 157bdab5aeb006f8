"""The LangChain retriever passes langchain-tests' standard retriever suite and carries the
citation metadata (needs the [langchain] extra; `make test-frameworks`)."""

from __future__ import annotations

import pytest

pytest.importorskip("langchain_tests", reason="the [langchain] extra is not installed")

from langchain_tests.integration_tests import RetrieversIntegrationTests  # noqa: E402

from zhiku.integrations.langchain import ZhikuRetriever  # noqa: E402

pytestmark = pytest.mark.integration
_KB: list = []


@pytest.fixture(autouse=True)
def _shared_kb(kb):
    _KB[:] = [kb]


# pytest-asyncio (a langchain-tests dependency) runs in strict mode here: mark the suite's
# async test; its sync tests ignore the mark.
@pytest.mark.asyncio
@pytest.mark.filterwarnings("ignore:.*is marked with '@pytest.mark.asyncio'")
class TestZhikuRetrieverStandard(RetrieversIntegrationTests):
    @property
    def retriever_constructor(self) -> type[ZhikuRetriever]:
        return ZhikuRetriever

    @property
    def retriever_constructor_params(self) -> dict:
        return {"kb": _KB[0], "k": 5}

    @property
    def retriever_query_example(self) -> str:
        return "试用期最长多久？"


def test_documents_carry_the_citation(kb):
    docs = ZhikuRetriever(kb=kb, k=3, subindex=["社会法"]).invoke("劳动合同法第十九条规定了什么")
    top = docs[0]
    assert top.metadata["article"] == "第十九条" and "劳动合同法" in top.metadata["title"]
    assert top.id == top.metadata["chunk_id"] and "试用期" in top.page_content
    assert top.metadata["doc"].startswith("社会法/") and top.metadata["citation"].endswith("第十九条")
    assert all(d.metadata["doc"].startswith("社会法/") for d in docs)


def test_opens_a_home_and_refuses_a_missing_one(kb, tmp_path):
    from zhiku.errors import ZhikuError

    docs = ZhikuRetriever(home=str(kb.config.home), k=2, mode="bm25").invoke("婚姻登记")
    assert len(docs) == 2 and all(d.metadata["chunk_id"] for d in docs)
    with pytest.raises(ZhikuError, match="no knowledge base"):
        ZhikuRetriever(home=str(tmp_path / "nope")).invoke("x")
