"""One settings object that builds everything (index, retriever, chains, server).

Values come from arguments or `SITUATED_*` environment variables; unknown keys are refused.
"""

from __future__ import annotations

import os
from enum import Enum
from pathlib import Path

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "situated"


class FusionMethod(str, Enum):
    """How leg rankings are combined."""

    RRF = "rrf"


class Settings(BaseSettings):
    """Every tunable of the application, validated at construction."""

    model_config = SettingsConfigDict(env_prefix="SITUATED_", extra="forbid", frozen=True)

    index_dir: Path | None = Field(
        default=None, description="Index directory; None means the built-in sample corpus index."
    )
    cache_dir: Path = Field(default_factory=_default_cache_dir)

    # retrieval
    leg_k: int = Field(default=20, ge=1, description="Pieces each leg returns.")
    top_blocks: int = Field(default=6, ge=1, description="Blocks the fused retriever returns.")
    rrf_k: int = Field(default=10, ge=1, description="Tuned on SciFact train queries.")
    weight_exact: float = Field(default=1.5, ge=0)
    weight_bm25: float = Field(default=1.0, ge=0)
    weight_vector: float = Field(default=1.0, ge=0)
    fusion: FusionMethod = FusionMethod.RRF
    # relevance floor, per leg (see README "Relevance floor")
    min_vector_similarity: float = Field(default=0.35, ge=-1, le=1)
    min_bm25_score: float = Field(default=2.0, ge=0)

    # ingest
    embed_batch_size: int = Field(default=64, ge=1)
    chroma_write_batch: int = Field(default=2000, ge=1, le=5461)

    @model_validator(mode="after")
    def _check(self) -> Settings:
        if self.weight_exact + self.weight_bm25 + self.weight_vector <= 0:
            raise ValueError(
                "at least one leg weight must be positive, got exact=0, bm25=0, vector=0; "
                "set SITUATED_WEIGHT_BM25=1 (or another weight)"
            )
        return self

    def sample_index_dir(self) -> Path:
        return self.cache_dir / "sample-index"

    def resolved_index_dir(self) -> Path:
        return self.index_dir if self.index_dir is not None else self.sample_index_dir()
