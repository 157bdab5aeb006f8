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
    hybrid_rrf_k: int = Field(default=10, ge=0, description="RRF constant when a dense list is fused with "
                              "keyword lists (their 50 candidates each mostly disagree: at 60 any passage "
                              "both hold outranks either list's best alone); 0 = rrf_k")
    alpha: float = Field(default=0.5, ge=0.0, le=1.0, description="dense weight in weighted fusion")

    @field_validator("fusion")
    @classmethod
    def _check_fusion(cls, v: str) -> str:
        from zhiku.retrieve.fusion import FusionMode

        return FusionMode.from_str(v).value
