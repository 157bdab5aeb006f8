"""The search every caller shares (HTTP /api/search, MCP, the framework adapters) returns its
passages best first with scores that never rise down the list, even where a stage moved a
hit up without rescoring it (a named clause put first)."""

from zhiku import library


def test_scores_never_rise_down_the_ranked_list(kb):
    for q in ("劳动合同法第十九条规定了什么", "试用期最长多久", "加班费怎么算"):
        hits = library.search(kb, q, 5)
        assert hits, q
        scores = [h.score for h in hits]
        assert scores == sorted(scores, reverse=True), (q, scores)
    first = library.search(kb, "劳动合同法第十九条规定了什么", 2)[0]
    assert first.chunk.article == "第十九条" and "劳动合同法" in first.chunk.doc_path
