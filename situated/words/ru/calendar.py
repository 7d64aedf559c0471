"""The Russian calendar words (`situated.months` joins every language's): months in every case
ending, weekdays and holidays."""

from __future__ import annotations

import re

# the one Russian month table: (nominative, genitive) — «март 2026», «1 марта 2026»
MONTHS = [("январь", "января"), ("февраль", "февраля"), ("март", "марта"),
          ("апрель", "апреля"), ("май", "мая"), ("июнь", "июня"), ("июль", "июля"),
          ("август", "августа"), ("сентябрь", "сентября"), ("октябрь", "октября"),
          ("ноябрь", "ноября"), ("декабрь", "декабря")]
# their stems cover every case ending: марта, марте, март, мартом ...
STEMS = [(nom.rstrip("ьй"), n) for n, (nom, _) in enumerate(MONTHS, start=1)]
MONTH = "(?:" + "|".join("ма[йяею]" if s == "ма" else s for s, _ in STEMS) + ")[а-яё]*"
WEEKDAYS = r"^(?:понедельник|вторник|сред[аы]|четверг|пятниц[аы]|суббот[аы]|воскресень[ея])$"
HOLIDAYS = r"^(?:рождеств\w*|пасх\w*|масленниц\w*|новог\w*)$"


def month_number(token: str) -> int | None:
    """The month a Russian month word names, in any case ending («марта», «мае»), else None."""
    t = token.lower().rstrip(".")
    for stem, n in STEMS:
        if t.startswith(stem) and (stem != "ма" or re.fullmatch(r"ма[йяею]", t)):
            return n
    return None
