"""How a structured source is written in the config (``[[structured_sources]]``)."""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, model_validator


class ColumnSpec(BaseModel):
    """What the config says about one column; wins over the generated schema."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    description: str = ""
    synonyms: list[str] = Field(default_factory=list)
    unit: str = ""
    values: dict[str, list[str]] = Field(
        default_factory=dict, description="phrase in questions → cell values it means, "
                                          "e.g. 耐腐蚀 = [\"A\"]")


class SourceSpec(BaseModel):
    """One external table source: a CSV/XLSX file or a SQLAlchemy database URL."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    path: str = ""
    url: str = ""
    table: str = Field(default="", description="sheet or database table; empty = every one")
    key: str = Field(default="", description="column that names a row (型号); empty = guessed")
    description: str = ""
    synonyms: list[str] = Field(default_factory=list, description="words naming the source (水泵)")
    columns: dict[str, ColumnSpec] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> SourceSpec:
        if not re.fullmatch(r"\w+", self.name):
            raise ValueError(f"source name {self.name!r} must be letters, digits or _ only")
        if bool(self.path) == bool(self.url):
            raise ValueError(f"source {self.name!r} needs exactly one of path (CSV/XLSX) or url "
                             "(a SQLAlchemy database URL)")
        return self
