"""The answer to a comparison of two periods (`chains.read.compare`): the two slices' answers
joined into one, or the question for the year a period lacks."""

from __future__ import annotations

from situated.chains.contract import Answer, SliceOut, Status
from situated.chains.read.compare import Comparison, Period
from situated.chains.say import assemble
from situated.chains.say import wording as w


def ask_year(comparison: Comparison, lang: w.Lang) -> str:
    return w.fixed("ask_year", lang, period=comparison.missing_year)


def merge(periods: tuple[Period, Period], answers: list[Answer], lang: w.Lang) -> Answer:
    """Two slice answers → one: evidence and citations relabelled S1… across both, each
    slice's text under its period, `slices` listing the periods and their labels."""
    if any(a.status is Status.CLARIFY for a in answers):
        return next(a for a in answers if a.status is Status.CLARIFY)
    evidence, citations, hits, flagged, slices, texts = [], [], [], [], [], []
    offset = 0
    for period, a in zip(periods, answers, strict=True):
        relabel = {e.label: f"S{offset + i}" for i, e in enumerate(a.evidence, start=1)}
        evidence += [e.model_copy(update={"label": relabel[e.label]}) for e in a.evidence]
        citations += [c.model_copy(update={"label": relabel[c.label]}) for c in a.citations
                      if c.label in relabel]
        flagged += [f.model_copy(update={"label": relabel[f.label]}) for f in a.flagged
                    if f.label in relabel]
        hits += [h for h in a.hits if h not in hits]
        offset += len(a.evidence)
        slices.append(SliceOut(label=period.label, status=a.status,
                               situation=a.situation, evidence=list(relabel.values()),
                               citations=[relabel[c.label] for c in a.citations
                                          if c.label in relabel]))
        texts.append(f"{period.label}: {a.answer}")
    answered = [a for a in answers if a.status is Status.ANSWERED]
    status = Status.ANSWERED if answered else answers[0].status
    budget = answered[0].budget if answered else None
    if budget is not None:  # one prompt per slice, each within the allowance
        budget = budget.model_copy(update={"used": max(a.budget.used for a in answered
                                                       if a.budget is not None)})
    situation = answers[0].situation.model_copy(update={
        k: None for k in ("purchase_date", "request_date", "as_of")})
    return assemble.cited(status, "\n\n".join(texts), citations, situation, evidence,
                          evidence_always=True, hits=hits, budget=budget, flagged=flagged,
                          slices=slices)


__all__ = ["ask_year", "merge"]
