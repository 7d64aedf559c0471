"""Every `Answer` the ask path returns is made here, from one of three things: a decision that
stops before the model (`stopped`, `unanswered`), a text the citation check has read (`cited`:
a model's reply, or a text code wrote with labels), or a text written from metadata alone
(`from_metadata`: a listing, the line's facts). No other module constructs `Answer`."""

from __future__ import annotations

from typing import Any

from situated.chains.contract import Answer, Citation, SituationOut, Status, situation_out
from situated.chains.decision import Decision, Route
from situated.loaders.neutralise import neutralise
from situated.situation import Situation


def _out(situation: Situation | SituationOut) -> SituationOut:
    return situation if isinstance(situation, SituationOut) else situation_out(situation)


def unanswered(status: Status, text: str, situation: Situation, **extra: Any) -> Answer:
    """An answer the model was not asked for (clarify, no evidence, nothing fits the
    allowance): no evidence, no citations."""
    return Answer.unanswered(status, text, situation, **extra)


def stopped(decision: Decision, situation: Situation, *, neutralised: bool = False,
            **extra: Any) -> Answer:
    """A clarification or no evidence said as the answer, without a model call (its message
    may quote metadata: neutralised like evidence, unless `neutralised` says the rule quoted
    it so already)."""
    status = Status.CLARIFY if decision.route is Route.CLARIFY else Status.NO_EVIDENCE
    message = decision.message if neutralised else neutralise(decision.message)
    return Answer.unanswered(status, message, situation, missing=list(decision.missing),
                             **extra)


def cited(status: Status, text: str, citations: list[Citation],
          situation: Situation | SituationOut, evidence: list, *,
          evidence_always: bool = False, **extra: Any) -> Answer:
    """A text the citation check has read: its evidence is shown when it answered (or always,
    `evidence_always`: a model's reply, whose withheld evidence is part of the record)."""
    shown = evidence if evidence_always or status is Status.ANSWERED else []
    return Answer(status=status, answer=text, missing=[], situation=_out(situation),
                  citations=citations, evidence=shown, **{"hits": [], **extra})


def from_metadata(text: str, situation: Situation, **extra: Any) -> Answer:
    """An answer written from metadata alone (a listing, the line's facts): no citations."""
    return Answer(status=Status.ANSWERED, answer=text, missing=[],
                  situation=situation_out(situation), citations=[], evidence=[],
                  **{"hits": [], "budget": None, **extra})


__all__ = ["cited", "from_metadata", "stopped", "unanswered"]
