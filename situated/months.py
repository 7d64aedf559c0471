"""The one calendar vocabulary, joined from every language's `words/<lang>/calendar.py`: month
words (every case ending), weekdays and holidays. Dates read them (`chains.read.dates`);
relevance reads them to tell a month from a name (`retrievers.relevance`); a Russian reply
writes its months from `RU_MONTHS`."""

from __future__ import annotations

import re

from situated.words import alt, each
from situated.words.en.calendar import MONTHS as EN_MONTHS
from situated.words.ru.calendar import MONTHS as RU_MONTHS

# a month word in any language, its case endings included
MONTH = alt("calendar", "MONTH")
_READERS = each("calendar", "month_number")


def month_number(token: str) -> int | None:
    """The month a month word of any language names (any case ending), else None."""
    return next((n for read in _READERS if (n := read(token)) is not None), None)


_WEEKDAYS = re.compile(alt("calendar", "WEEKDAYS"), re.IGNORECASE)
_HOLIDAYS = re.compile(alt("calendar", "HOLIDAYS"), re.IGNORECASE)


def is_calendar_word(token: str) -> bool:
    """A month, a weekday or a holiday, in any language (any case ending)."""
    return month_number(token) is not None or bool(_WEEKDAYS.match(token)
                                                  or _HOLIDAYS.match(token))


__all__ = ["EN_MONTHS", "MONTH", "RU_MONTHS", "is_calendar_word", "month_number"]
