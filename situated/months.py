"""The one calendar vocabulary: English and Russian month words (every case ending),
weekdays and holidays. Dates read them (`chains.read.dates`); relevance reads them to tell a month from a name
(`retrievers.relevance`)."""

from __future__ import annotations

import re

EN_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
EN_MONTHS |= {k[:3]: v for k, v in EN_MONTHS.items()} | {"sept": 9}
# the one Russian month table: (nominative, genitive) — «март 2026», «1 марта 2026»
RU_MONTHS = [("январь", "января"), ("февраль", "февраля"), ("март", "марта"),
             ("апрель", "апреля"), ("май", "мая"), ("июнь", "июня"), ("июль", "июля"),
             ("август", "августа"), ("сентябрь", "сентября"), ("октябрь", "октября"),
             ("ноябрь", "ноября"), ("декабрь", "декабря")]
# their stems cover every case ending: марта, марте, март, мартом ...
RU_MONTH_STEMS = [(nom.rstrip("ьй"), n) for n, (nom, _) in enumerate(RU_MONTHS, start=1)]
RU_MONTH = "(?:" + "|".join("ма[йяею]" if s == "ма" else s for s, _ in RU_MONTH_STEMS) \
    + ")[а-яё]*"


def month_number(token: str) -> int | None:
    """The month an English or Russian month word names (any case ending), else None."""
    t = token.lower().rstrip(".")
    if t in EN_MONTHS:
        return EN_MONTHS[t]
    for stem, n in RU_MONTH_STEMS:
        if t.startswith(stem) and (stem != "ма" or re.fullmatch(r"ма[йяею]", t)):
            return n
    return None


_WEEKDAYS = re.compile(
    r"^(?:mon|tues|wednes|thurs|fri|satur|sun)day$|"
    r"^(?:понедельник|вторник|сред[аы]|четверг|пятниц[аы]|суббот[аы]|воскресень[ея])$",
    re.IGNORECASE)


# holidays and the words that make a day of them: a document states the date ("closes on 25
# December"), an asker names the day ("Are you open on Christmas Day?")
_HOLIDAYS = re.compile(
    r"^(?:christmas|xmas|easter|thanksgiving|halloween|hanukkah|chanukah|ramadan|eid|diwali|"
    r"passover|pentecost|whitsun|boxing|day|days|eve|year|year's|years|weekend|weekends)$|"
    r"^(?:рождеств\w*|пасх\w*|масленниц\w*|новог\w*)$", re.IGNORECASE)


def is_calendar_word(token: str) -> bool:
    """A month, a weekday or a holiday, in English or Russian (any case ending)."""
    return month_number(token) is not None or bool(_WEEKDAYS.match(token)
                                                  or _HOLIDAYS.match(token))


__all__ = ["EN_MONTHS", "RU_MONTH", "RU_MONTHS", "RU_MONTH_STEMS", "is_calendar_word",
           "month_number"]
