"""The refusal levers of the configuration: the dense veto and the answerability check (each
an ablation row of benchmarks/ablation_answerable.py)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class RefusalLevers(BaseModel):
    """Settings of refusing what the documents do not answer: the dense veto and what the
    answerability check reads. :class:`zhiku.config.Config` inherits them, so each is read
    from the config file and ``ZHIKU_*`` variables like every other key."""

    dense_veto: bool = Field(default=True, description="with vectors, refuse when the blend of term "
                             "coverage and the best dense cosine falls below min_confidence (off: the "
                             "fitted model alone decides)")
    dense_veto_terms: int = Field(default=8, ge=0, description="the dense veto weighs a question of more "
                                  "terms as one of this many (a case narrative's names and dates are in "
                                  "no rule); 0 = every term")
    dense_veto_pieces: bool = Field(default=True, description="the dense veto counts a single character "
                                    "only when it can name something (not 谁, 称) and a word the segmenter "
                                    "guessed by gluing a name to its neighbour (黄华麒是) by the two-character "
                                    "pieces the evidence holds; off: every term, whole")
    answerability: bool = Field(default=True, description="check that the cited evidence meets what the "
                                "question pins down (subject, place, time, kind of value); off: "
                                "answered on confidence alone")
    answerability_clauses: bool = Field(default=True, description="read a doer, a role's holder and a sum "
                                        "in the clause of their act or role; off: anywhere in the sentence")
    answerability_forms: bool = Field(default=True, description="the answerability check takes a value "
                                      "in the other forms a text states it: when in other terms than a "
                                      "date for 什么时候/何时 (孔雀王朝时期, 四国征伐后), a role's holder as "
                                      "its kin character (弟为…), after 由 (由袁丽嫦原唱) or as the doer of "
                                      "the act the role is named for (创造者: 由…所创作); off: dates and "
                                      "the role's own word only")
