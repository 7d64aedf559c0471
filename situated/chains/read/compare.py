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

from situated.chains.read.dates import (
    DateMention,
    DateRole,
    find_dates,
    strip_dates,
)
from situated.chains.read.intent import compares
from situated.chains.read.lang import Lang, day_text, language_of
from situated.months import RU_MONTHS, month_number
from situated.situation import Situation
from situated.words import alt

_YEAR = re.compile(r"\b(\d{4})\b")
_JOINERS = re.compile(rf"(?<!\w)(?:{alt('periods', 'JOINERS')})(?=\s*[?.!,]|\s*$)",
                      re.IGNORECASE)
_IN = re.compile(rf"^(?:{alt('periods', 'IN')})\s+", re.IGNORECASE)
_BETWEEN_AND = re.compile(rf"(?<!\w)(?:{alt('periods', 'BETWEEN')})\s+(?:{alt('periods', 'AND')})"
                          r"(?!\w)\s*")


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




def _month_label(month: int, year: int, lang: Lang) -> str:
    if lang is Lang.RU:
        return f"{RU_MONTHS[month - 1][0]} {year}"
    return f"{calendar.month_name[month]} {year}"


def _bare(text: str) -> str:
    return _IN.sub("", text)


def find_comparison(question: str, mentions: list[DateMention] | None = None,
                    ) -> Comparison | None:
    """The comparison the question asks for, or None when it is not one (`mentions`: its dates
    when already found)."""
    if not compares(question):
        return None
    mentions = [m for m in (find_dates(question) if mentions is None else mentions)
                if not m.invalid]
    lang = language_of(question)
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
            periods.append(Period(day_text(m.value, lang), m.value, role))
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
    query = _BETWEEN_AND.sub("", query)
    query = re.sub(r"\s+([?.!,])", r"\1", query)
    return Comparison((periods[0], periods[1]), query)


def slice_situation(carried: Situation | None, period: Period) -> Situation:
    """The situation one slice is asked in: the carried facts plus the period's date."""
    base = (carried or Situation()).model_dump()
    base[period.role.value] = period.day
    return Situation(**base)


__all__ = ["Comparison", "Period", "find_comparison", "slice_situation"]
