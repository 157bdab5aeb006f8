"""The fusion settings of the configuration: how the ranked lists of one search become one."""

from __future__ import annotations

from pydantic import BaseModel, Field, field_validator


class FusionLevers(BaseModel):
    """How keyword, dense and per-sub-index lists are fused. :class:`zhiku.config.Config`
    inherits them, so each is read from the config file and ``ZHIKU_*`` variables like every
    other key."""

    fusion: str = Field(default="rrf", description="rrf or weighted")
    rrf_k: int = Field(default=60, ge=1, description="RRF constant (Cormack et al. 2009) of lists of one "
                       "kind: keyword lists, sub-indexes, chapters first, a reranker's order")
    hybrid_rrf_k: int = Field(default=0, ge=0, description="RRF constant when a dense list is fused with "
                              "keyword lists (their 50 candidates each mostly disagree: at 60 any passage "
                              "both hold outranks either list's best alone; 10 puts more gold articles in "
                              "the top 5 but the full ask answers fewer, see the README); 0 = rrf_k")
    fusion_complete: bool = Field(default=True, description="before a keyword and a dense list are fused, "
                                  "score each candidate only one of them holds by the other too (the BM25 of "
                                  "the keyword query over that chunk, from the index; the cosine of its "
                                  "stored vector), so the fusion reads both retrievers on every candidate "
                                  "instead of 'not retrieved'; false = fuse the lists as retrieved")
    alpha: float = Field(default=0.5, ge=0.0, le=1.0, description="dense weight in weighted fusion")
    hybrid_fusion: str = Field(default="weighted", description="how a search fuses its lists when a dense "
                               "list is among them: weighted (`hybrid_alpha`) or rrf; empty = `fusion`")
    hybrid_alpha: float = Field(default=0.7, ge=0.0, le=1.0, description="dense weight of `hybrid_fusion` "
                                "= weighted")
    hybrid_fusion_max_words: int = Field(default=30, ge=0, description="a question of more words than this "
                                         "(a case narrative) is fused as `fusion` says; 0 = no limit")
    dense_candidates: int = Field(default=0, ge=0, description="hits the dense retriever returns before "
                                  "fusion when more than `candidates` (the fused list is still cut to "
                                  "`candidates`); 0 = `candidates`")
    hybrid_doc_weight: float = Field(default=0.05, ge=0.0, description="after an everyday question's keyword "
                                     "and dense lists are fused by `hybrid_fusion`, each hit gains this weight × "
                                     "its document's evidence (its best three fused scores over the best "
                                     "document's) on the best hit's scale; 0 = off")
    dense_focus: str = Field(default="", description="the dense search encodes the question with its "
                             "asking phrases cut: all (这样做行吗, 怎么办, 多久, 能…吗, as the keyword search "
                             "segments it) or whether (only those asking whether or filling: 是否, 行吗, 怎么办; "
                             "多久, 多少, 什么情况下 stay); empty = off")
    dense_nameless: bool = Field(default=False, description="the dense search inside the documents a question "
                                 "names encodes the question without their names (按消防法…: every passage "
                                 "there is about what the name says)")
    dense_clauses: str = Field(default="", description="a question of several clauses (split at ，。？；) "
                               "searches each clause's vector too, its dense lists joined with the whole "
                               "question's: max (best cosine), rrf or mean (one search with the mean vector); "
                               "empty = off")
    dense_feedback: float = Field(default=0.0, ge=0.0, description="pseudo-relevance feedback in vector space: "
                                  "the dense search runs again with the question's vector moved towards the "
                                  "mean stored vector of the first `dense_feedback_docs` fused hits by this "
                                  "weight (Rocchio); 0 = off")
    dense_feedback_docs: int = Field(default=3, ge=1, description="fused hits whose vectors `dense_feedback` "
                                     "reads")

    @field_validator("dense_focus", mode="before")
    @classmethod
    def _check_focus(cls, v: object) -> str:
        from zhiku.retrieve.dense_query import DenseFocus

        if isinstance(v, bool) or str(v).lower() in {"true", "false", "1", "0"}:  # a switch: all or off
            v = "all" if v is True or str(v).lower() in {"true", "1"} else ""
        return DenseFocus.from_str(str(v)).value

    @field_validator("dense_clauses")
    @classmethod
    def _check_clauses(cls, v: str) -> str:
        from zhiku.retrieve.dense_query import ClauseMerge

        return ClauseMerge.from_str(v).value

    @field_validator("fusion", "hybrid_fusion")
    @classmethod
    def _check_fusion(cls, v: str) -> str:
        from zhiku.retrieve.fusion import FusionMode

        return FusionMode.from_str(v).value if v else v
