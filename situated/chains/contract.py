"""The answer contract: the body of `situated ask --json` and of the HTTP answer.

The JSON Schema is generated from `Answer` (`answer_schema()`, printed by `situated schema`) and
shipped in the package as `situated/schemas/answer.schema.json`; a test keeps the two equal, so
users and tests validate against the schema the code really produces.
"""

from __future__ import annotations

import datetime as dt
import json
from importlib import resources
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from situated.modes import Mode
from situated.situation import Situation


class Status(Mode):
    ANSWERED = "answered"
    CLARIFY = "clarify"
    NO_EVIDENCE = "no_evidence"
    WITHHELD = "withheld"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SituationOut(_Strict):
    product: str | None
    purchase_date: dt.date | None
    request_date: dt.date | None
    as_of: dt.date | None
    known_on: dt.date | None = None
    version: str | None = Field(default=None, description="the release the answer is for "
                                "(null: none named; the latest release was read)")
    facets: dict[str, str] = Field(default_factory=dict, description="the index's declared "
                                   "facets the answer is for (`region`: `EU`)")


LABEL_PATTERN = r"^S[0-9]+$"


class Citation(_Strict):
    label: str = Field(pattern=LABEL_PATTERN)
    source_id: str
    section: str | None
    link: str


class Evidence(_Strict):
    label: str = Field(pattern=LABEL_PATTERN)
    block_id: str
    source_id: str
    section: str | None
    page: int | None
    tokens: int
    text: str


class Flagged(_Strict):
    """A supplied block whose text tried something against the answer, made inert before the
    prompt: label-like text, links, HTML, or sentences that read as instructions to the
    assistant (listed; they are evidence about the document, never quoted as the answer)."""

    label: str = Field(pattern=LABEL_PATTERN)
    block_id: str
    source_id: str
    reasons: list[str]
    sentences: list[str]


class Hit(_Strict):
    piece_id: str
    block_id: str
    source_id: str
    score: float


class BudgetOut(_Strict):
    window: int
    reserved_input: int
    reserved_output: int
    allowance: int
    used: int


class SliceOut(_Strict):
    """One period of a comparison ("March 2026"): the situation it was asked in, how it was
    answered, and the labels of its evidence and citations in the answer."""

    label: str
    status: Status
    situation: SituationOut
    evidence: list[str]
    citations: list[str]


class SectionChangeOut(_Strict):
    """One section that differs between two versions: the units (sentences, table rows) that
    left and came, and the labels of the old-side and new-side blocks in `evidence` (empty
    when a block did not fit the evidence allowance)."""

    kind: str = Field(description="added | removed | changed")
    section: str = Field(description="the section's heading path, outermost first, ' › '-joined")
    old_blocks: list[str]
    new_blocks: list[str]
    old_labels: list[str]
    new_labels: list[str]
    removed: list[str]
    added: list[str]


class ChangeOut(_Strict):
    """One change of a family: two consecutive versions the caller may read, the instant the
    newer applies from, and the sections that differ (none: no change in substance)."""

    family: str
    products: list[str]
    from_version: str | None = Field(description="source_id of the older version")
    to_version: str
    effective: str | None = Field(description="valid_from of the newer version (ISO date or "
                                  "instant); null for a release without dates")
    from_release: str | None = Field(default=None, description="the older side's release "
                                     "(`version`), if it has one")
    to_release: str | None = Field(default=None, description="the newer side's release")
    substance: bool = Field(description="false when the versions differ only in formatting "
                            "or in the dates they print")
    sections: list[SectionChangeOut]


class VersionOut(_Strict):
    """One version of a family, from the index's metadata and recorded history."""

    source_id: str
    title: str | None
    revision: str | None
    family: str | None
    products: list[str]
    valid_for: str
    valid_from: str | None
    valid_to: str | None = Field(description="exclusive; null = open end")
    recorded_at: str | None = Field(description="when the index first recorded this version")
    link: str
    version: str | None = Field(default=None, description="the release it describes")


class RelevanceOut(_Strict):
    """The rule that decided whether anything applies (docs/reference.md "Relevance"): the index's
    thresholds, where they come from, and the names or codes of the question that nothing the
    caller may read holds."""

    source: str = Field(description="calibrated (on this index) | default | settings")
    min_cosine: float
    min_sentence: float | None = Field(
        default=None, description="the floor of a block's unit score: its best sentence "
        "cosine (a sentence embedded bare, where a piece carries its title and headings, or "
        "under its section's title less 0.02), moved by multilingual-e5's reading of the block "
        "where the index has that leg; null: the sentence decides nothing for this index")
    min_cover: float
    min_multilingual: float | None = Field(
        default=None, description="the multilingual leg's floor for a question and a block in "
        "the same script MiniLM does not read; null: the index has no multilingual leg")
    min_multilingual_across: float | None = Field(
        default=None, description="its floor for a question and a block in different scripts")
    min_standing_across: float | None = Field(
        default=None, description="the floor of a block's standing across scripts: its "
        "multilingual cosine less the mean of the admitted pieces in its script, sized to the "
        "pieces the search admits; null: the index has no multilingual leg")
    note: str
    unheld: list[str] = Field(default_factory=list)


class NoteOut(_Strict):
    """A document's own note of a release (a changelog section headed by it)."""

    release: str
    source_id: str
    label: str | None = Field(description="its label in the evidence, when it fits")


class AppearanceOut(_Strict):
    """In which version something was added, removed or deprecated, computed from the
    versions themselves, with the documents' own notes beside it."""

    kind: str = Field(description="added | removed | deprecated")
    subject: str = Field(description="what was looked for, as the question says it")
    release: str | None = Field(description="the version the answer names (its release)")
    source_id: str = Field(description="the document that shows it: that version's page, or "
                           "for basis \"notes\" the note's document (a changelog)")
    basis: str = Field(description="pages: the first version whose pages show the change | "
                       "notes: a note of the documents states it (it leads when the pages "
                       "disagree)")
    pages_release: str | None = Field(description="the version the pages themselves show it "
                                      "at; null when they show none")
    previous_release: str | None = Field(description="the version before it on the pages' "
                                         "axis; null when it is the first, or for basis "
                                         "\"notes\"")
    previous_source_id: str | None
    effective: str | None = Field(description="valid_from of that version, for dated families")
    notes: list[NoteOut] = Field(default_factory=list)
    agrees: bool | None = Field(description="whether the notes name the same version (null: "
                                "no notes)")


class Answer(_Strict):
    """One answer. `evidence` is exactly what the model received (for a change question,
    answered by code, exactly the blocks its text cites); `hits` are eligible pieces only;
    `budget` is null on routes that never reach the budget (clarify, no evidence, listings)."""

    model_config = ConfigDict(extra="forbid", title="situated answer")

    status: Status
    answer: str
    missing: list[str]
    situation: SituationOut
    citations: list[Citation]
    evidence: list[Evidence]
    hits: list[Hit]
    budget: BudgetOut | None
    flagged: list[Flagged] = Field(default_factory=list)
    relevance: RelevanceOut | None = Field(
        default=None, description="The relevance thresholds that decided (null for a "
        "comparison's merged answer: see its slices' own answers).")
    slices: list[SliceOut] = Field(
        default_factory=list, description="For a comparison of two periods: one slice per "
        "period, each answered from the version in force then (one prompt each; `budget.used` "
        "is the larger of the two).")

    changes: list[ChangeOut] = Field(
        default_factory=list, description="For a question about what changed: one entry per "
        "pair of consecutive versions in the period asked about (written by code from the "
        "versions; no model call).")
    versions: list[VersionOut] = Field(
        default_factory=list, description="For a version listing (and beside changes): the "
        "versions the caller may read, oldest first.")
    releases: list[str] = Field(
        default_factory=list, description="For a question about a release line (which "
        "versions exist, the latest, the oldest, does X exist): the releases the answer names, "
        "oldest first.")
    appearance: AppearanceOut | None = Field(
        default=None, description="For \"in which version was X added / removed / "
        "deprecated\": the version found and the one before it.")

    @classmethod
    def unanswered(cls, status: Status, text: str, situation: Situation, *,
                   missing: list[str] | None = None, hits: list[Hit] | None = None,
                   budget: BudgetOut | None = None, relevance: RelevanceOut | None = None,
                   ) -> Answer:
        """An answer the model was not asked for (clarify, no evidence, nothing fits the
        allowance): no evidence, no citations."""
        return cls(status=status, answer=text, missing=missing or [],
                   situation=situation_out(situation), citations=[], evidence=[],
                   hits=hits or [], budget=budget, relevance=relevance)


def situation_out(s: Situation) -> SituationOut:
    return SituationOut(**{**s.model_dump(), "facets": dict(s.facets)})


SCHEMA_RESOURCE = "answer.schema.json"


def answer_schema() -> dict[str, Any]:
    """The JSON Schema of `Answer` (draft 2020-12), as generated from the model."""
    schema = Answer.model_json_schema(mode="serialization")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def answer_schema_text() -> str:
    return json.dumps(answer_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def shipped_answer_schema() -> dict[str, Any]:
    """The schema file shipped in the package (what users validate against)."""
    text = resources.files("situated.schemas").joinpath(SCHEMA_RESOURCE).read_text("utf-8")
    return json.loads(text)
