"""The answer contract (DESIGN "`situated ask --json`", shared/contract/answer.schema.json)."""

from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, ConfigDict

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


class Citation(_Strict):
    label: str
    source_id: str
    section: str | None
    link: str


class Evidence(_Strict):
    label: str
    block_id: str
    source_id: str
    section: str | None
    page: int | None
    tokens: int
    text: str


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


class Answer(_Strict):
    status: Status
    answer: str
    missing: list[str]
    situation: SituationOut
    citations: list[Citation]
    evidence: list[Evidence]
    hits: list[Hit]
    budget: BudgetOut | None


def situation_out(s: Situation) -> SituationOut:
    return SituationOut(**s.model_dump())
