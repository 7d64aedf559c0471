"""The languages the app speaks (English and Russian) and how it writes a day, a validity bound
and a list in each; `wording` says everything else with these."""

from __future__ import annotations

import datetime as dt
import re
from zoneinfo import ZoneInfo

from situated.index.text import EN_STOP_WORDS, RU_STOP_WORDS, script_counts
from situated.modes import Mode
from situated.months import RU_MONTHS


class Lang(Mode):
    EN = "en"
    RU = "ru"


_WORD = re.compile(r"\w+")


def language_of(text: str) -> Lang:
    """The language of the words that frame the text where only one language's are there
    ("С какой версией httpx пришёл zstd content decoding?" is Russian, "What does the Старт
    tariff cost?" English), else Russian when Cyrillic letters outnumber Latin ones (product
    codes and terms are Latin), else English."""
    words = _WORD.findall(text.casefold())
    en, ru = (any(w in stop for w in words) for stop in (EN_STOP_WORDS, RU_STOP_WORDS))
    if en != ru:
        return Lang.RU if ru else Lang.EN
    latin, cyrillic, _ = script_counts(text)
    return Lang.RU if cyrillic > latin else Lang.EN


def day_text(day: dt.date, lang: Lang) -> str:
    if lang is Lang.RU:
        return f"{day.day} {RU_MONTHS[day.month - 1][1]} {day.year}"
    return f"{day.day} {day:%B} {day.year}"


def bound_text(bound: dt.date | dt.datetime, lang: Lang, timezone: str) -> str:
    """A validity bound as a person reads it: a date, or an instant shown in the index's zone."""
    if isinstance(bound, dt.datetime):
        local = bound.astimezone(ZoneInfo(timezone))
        return f"{day_text(local.date(), lang)} {local:%H:%M} ({timezone})"
    return day_text(bound, lang)


__all__ = ["Lang", "bound_text", "day_text", "language_of"]
