"""Comparing two periods: "How did the return period of Старт change between March and May
2026?", «Сравни срок возврата по тарифу Старт в марте и в мае 2026».

A question is a comparison when it says so (compare, differ, versus, "how did … change", «сравни»,
«изменился», «разница», «отличается», …) and names two periods; "between D1 and D2" alone is one
period (`extract`), and two dates with different roles ("bought on D1 … change the battery on D2")
are two facts, not two periods: days, or months with a
year ("March 2026"; a month without one borrows the year the other period gives: "between
March and May 2026"). Each period becomes one *slice*: the question without the periods, asked
with the period's date — a day as itself, a month as its last day (the rule in force at the
end of the period) — in the role its cue gives ("bought in March") or as the as-of date. Each
slice runs the whole ask chain (filter, routing, budget, model, citation check), so each is
answered from the version in force in its period and labelled with it; `merge` joins them
into one answer whose `slices` list the periods and their evidence labels.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass

from situated.chains.contract import Answer, SliceOut, Status
from situated.chains.read.dates import (
    DateMention,
    DateRole,
    find_dates,
    strip_dates,
)
from situated.chains.read.intent import compares
from situated.chains.say import assemble
from situated.chains.say import wording as w
from situated.months import RU_MONTHS, month_number
from situated.situation import Situation

_YEAR = re.compile(r"\b(\d{4})\b")
_JOINERS = re.compile(r"(?<!\w)(?:between|and|from|to|vs\.?|versus|между|и|с|по)(?=\s*[?.!,]|\s*$)",
                      re.IGNORECASE)


@dataclass(frozen=True)
class Period:
    label: str  # as the asker wrote it, with the year: "March 2026", "1 мая 2026"
    day: dt.date  # the date the slice is asked at
    role: DateRole


@dataclass(frozen=True)
class Comparison:
    periods: tuple[Period, Period] | None  # None: a period lacks its year
    query: str  # the question without the periods
    missing_year: str | None = None




def _month_label(month: int, year: int, lang: w.Lang) -> str:
    if lang is w.Lang.RU:
        return f"{RU_MONTHS[month - 1][0]} {year}"
    return f"{calendar.month_name[month]} {year}"


def _bare(text: str) -> str:
    return re.sub(r"^(?:in|в|во)\s+", "", text, flags=re.IGNORECASE)


def find_comparison(question: str, mentions: list[DateMention] | None = None,
                    ) -> Comparison | None:
    """The comparison the question asks for, or None when it is not one (`mentions`: its dates
    when already found)."""
    if not compares(question):
        return None
    mentions = [m for m in (find_dates(question) if mentions is None else mentions)
                if not m.invalid]
    lang = w.language_of(question)
    if len(mentions) != 2:
        return None
    roles = {m.role for m in mentions if m.role is not None}
    if len(roles) > 1:
        return None  # a purchase date and a request date: two facts of one situation
    years = {int(y) for m in mentions for y in _YEAR.findall(m.text)}
    periods: list[Period] = []
    for m in mentions:
        role = m.role or DateRole.AS_OF
        if role is DateRole.KNOWN:
            return None  # "as known on" is not a period of the rule
        if m.value is not None:
            periods.append(Period(w.day_text(m.value, lang), m.value, role))
            continue
        month = next((n for tok in re.findall(r"[^\W\d_]+\.?", m.text)
                      if (n := month_number(tok)) is not None), None)
        own = _YEAR.findall(m.text)
        if month is None or re.search(r"\b\d{1,2}\b(?!\d)", _YEAR.sub("", m.text)):
            return Comparison(None, question, missing_year=_bare(m.text))  # a day without its year
        if not own and len(years) != 1:
            return Comparison(None, question, missing_year=_bare(m.text))
        year = int(own[0]) if own else next(iter(years))
        last = dt.date(year, month, calendar.monthrange(year, month)[1])
        periods.append(Period(_month_label(month, year, lang), last, role))
    if periods[0].day == periods[1].day:
        return None
    query = strip_dates(question, mentions)
    while (cleaner := re.sub(r"\s{2,}", " ", _JOINERS.sub("", query)).strip()) != query:
        query = cleaner  # "between and?" → "between?" → "?"
    query = re.sub(r"(?<!\w)(?:between|между)\s+(?:and|и)(?!\w)\s*", "", query)
    query = re.sub(r"\s+([?.!,])", r"\1", query)
    return Comparison((periods[0], periods[1]), query)


def slice_situation(carried: Situation | None, period: Period) -> Situation:
    """The situation one slice is asked in: the carried facts plus the period's date."""
    base = (carried or Situation()).model_dump()
    base[period.role.value] = period.day
    return Situation(**base)


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


__all__ = ["Comparison", "Period", "ask_year", "find_comparison", "merge", "slice_situation"]
