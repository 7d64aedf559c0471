"""The English calendar words (`situated.months` joins every language's): months, weekdays and
holidays."""

from __future__ import annotations

MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
MONTHS |= {k[:3]: v for k, v in MONTHS.items()} | {"sept": 9}
# a month word ends where a letter does not follow: "separate", "novel" and "octopus" name none
MONTH = r"(?:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")(?![^\W\d_])\.?"
WEEKDAYS = r"^(?:mon|tues|wednes|thurs|fri|satur|sun)day$"
# holidays and the words that make a day of them: a document states the date ("closes on 25
# December"), an asker names the day ("Are you open on Christmas Day?")
HOLIDAYS = (r"^(?:christmas|xmas|easter|thanksgiving|halloween|hanukkah|chanukah|ramadan|eid|"
            r"diwali|passover|pentecost|whitsun|boxing|day|days|eve|year|year's|years|weekend|"
            r"weekends)$")


def month_number(token: str) -> int | None:
    """The month an English month word names ("March", "mar.", "sept"), else None."""
    return MONTHS.get(token.lower().rstrip("."))
