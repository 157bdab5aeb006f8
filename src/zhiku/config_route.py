"""The routing settings of the configuration: sub-indexes, the router cascade, chapters and
question types (see :mod:`zhiku.route`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, field_validator


class RouteLevers(BaseModel):
    """Settings of routing. :class:`zhiku.config.Config` inherits them, so each is read from
    the config file and ``ZHIKU_*`` variables like every other key."""

    routing: bool = Field(default=True, description="route questions to sub-indexes and chapters")
    route_rules: Path | None = Field(
        default=None, description="TOML file of keyword rules; default $ZHIKU_HOME/route_rules.toml")
    subindexes: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="declared sub-indexes and summary overrides: [subindexes.NAME] "
                    "globs = [\"社会法/劳动*\"], summary = \"...\"")
    route_embedding: bool = Field(default=True, description="embedding tier of the router")
    route_threshold: float = Field(default=0.92, ge=0.0, le=1.0,
                                   description="embedding tier: least summary score to route")
    route_margin: float = Field(default=0.01, ge=0.0, le=1.0,
                                description="embedding tier: also route to sub-indexes this close to the best")
    route_min_confidence: float = Field(default=0.6, ge=0.0, le=1.0, description="least confidence "
                                        "of a route (rules 0.9, embedding 0.5 at route_threshold to 1.0 "
                                        "0.05 above it, the LLM's own) that narrows the search to its "
                                        "sub-indexes and chapters; below it, and for the fallback, the "
                                        "search runs as with routing off")
    route_named_subindex: bool = Field(default=False, description="a question naming documents is "
                                       "searched inside their sub-indexes too, not only inside the "
                                       "documents (their hits first either way)")
    route_laws: float = Field(default=0.0, ge=0.0, le=1.0, description="law step: a question naming "
                              "no law that no tier routed is searched inside the law its unrouted "
                              "candidates point at (their reciprocal ranks summed per law, see "
                              "zhiku.route.laws) when the best law's sum stands at least this share "
                              "above the second's (1 - second/best); that law's hits come first, as "
                              "for a named law; 0 = off")
    route_max: int = Field(default=3, ge=1, description="most sub-indexes one question is sent to")
    route_docs: int = Field(default=3, ge=0, description="documents whose chapters are routed; 0 = off")
    route_chapters: int = Field(default=3, ge=1, le=3, description="most chapters picked per question")
    chapter_confidence: float = Field(default=0.7, ge=0.0, le=1.0,
                                      description="below this a chapter is widened to its parent")
    chapter_max_share: float = Field(default=0.5, gt=0.0, le=1.0, description="a sure chapter "
                                     "spanning more than this share of its document's text is not "
                                     "put first (it is nearly the whole document); 1 = off")
    chapter_max_words: int = Field(default=30, ge=0, description="a question of more words than this "
                                   "(a case narrative) puts no chapter first: its words meet chapter "
                                   "titles by chance (经济技术开发区 → 破坏社会主义市场经济秩序罪); 0 = off")
    chapters_within_documents: bool = Field(default=False, description="when the router did not "
                                            "decide, a sure chapter's hits still come first within "
                                            "their document, the documents' places kept; off (the "
                                            "default): such a route ranks as routing off does")
    qtype_max_words: int = Field(default=30, ge=0, description="a question of more words than this "
                                 "(a case narrative) takes no question type's search parameters "
                                 "(candidates, alpha) even where the route decided: it searches as "
                                 "with routing off; 0 = off")
    route_log: bool = Field(default=True, description="record every ask's route in routes.sqlite")
    qtypes: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="retrieval parameters per question type (fact, process, comparison, "
                    "synthesis): candidates, alpha, answer_chunks")

    @field_validator("subindexes")
    @classmethod
    def _check_subindexes(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        for name, o in v.items():
            bad = sorted(set(o) - {"globs", "summary"})
            if bad:
                raise ValueError(f"subindexes.{name} has unknown keys {bad}; valid keys: globs, summary")
        return v

    @field_validator("qtypes")
    @classmethod
    def _check_qtypes(cls, v: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        from zhiku.route.qtype import QType, check_params

        return {QType.from_str(k).value: check_params(k, o) for k, o in v.items()}
