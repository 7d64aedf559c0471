"""Date mentions in English and Russian questions, with the role each one plays.

Recognised forms: `15 March 2026`, `March 15, 2026`, `15th of March 2026`, `2026-03-15`,
`15.03.2026`, `15/03/2026` (day first), `15 марта 2026 года`, and month-only or yearless forms
(`in March`, `в марте`, `15 March`), which are reported as *partial* so the router can ask for
the full date instead of guessing the year. Impossible dates (`31 February 2026`) are reported
as invalid, never corrected.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

from situated.documents import ValidFor
from situated.modes import Mode

EN_MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august", "september",
     "october", "november", "december"], start=1)}
EN_MONTHS |= {k[:3]: v for k, v in EN_MONTHS.items()} | {"sept": 9}
# Russian month stems cover every case ending: марта, марте, март, мартом ...
RU_MONTH_STEMS = [("январ", 1), ("феврал", 2), ("март", 3), ("апрел", 4), ("ма", 5), ("июн", 6),
                  ("июл", 7), ("август", 8), ("сентябр", 9), ("октябр", 10), ("ноябр", 11),
                  ("декабр", 12)]
RU_MONTH = r"(?:январ|феврал|март|апрел|ма[йяею]|июн|июл|август|сентябр|октябр|ноябр|декабр)[а-яё]*"
EN_MONTH = r"(?:" + "|".join(sorted(EN_MONTHS, key=len, reverse=True)) + r")\.?"
MONTH = f"(?:{EN_MONTH}|{RU_MONTH})"
ORD = r"(?:st|nd|rd|th)?"

_PATTERNS = [
    ("iso", re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")),
    ("dmy_num", re.compile(r"\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b")),
    ("d_month_y", re.compile(
        rf"\b(\d{{1,2}}){ORD}\s+(?:of\s+)?({MONTH})(?:,?\s+(\d{{4}}))?(?:\s*(?:года|г\.))?",
        re.IGNORECASE)),
    ("month_d_y", re.compile(rf"\b({EN_MONTH})\s+(\d{{1,2}}){ORD}(?:,?\s+(\d{{4}}))?\b",
                             re.IGNORECASE)),
    ("month_y", re.compile(rf"\b(?:in\s+|в\s+)?({MONTH})(?:\s+(\d{{4}}))?(?:\s*(?:года|г\.))?",
                           re.IGNORECASE)),
]


class DateRole(Mode):
    """Which situation date a mention fills (see `ValidFor`)."""

    PURCHASE = ValidFor.PURCHASE_DATE.value
    REQUEST = ValidFor.REQUEST_DATE.value
    AS_OF = ValidFor.AS_OF.value


ROLE_CUES = {
    DateRole.PURCHASE: re.compile(
        r"\b(bought|buy|purchas\w*|ordered|acquired|got it|subscribed|signed up|connected|"
        r"куп\w*|покуп\w*|приобр\w*|подключ\w*|оформ\w*|заказ\w*)\b", re.IGNORECASE),
    DateRole.REQUEST: re.compile(
        r"\b(return\w*|request\w*|refund\w*|claim\w*|send it back|cancel\w*|вер(ну|ть|нуть)\w*|"
        r"возвра\w*|заявк\w*|обрат\w*|отказ\w*|расторг\w*)\b", re.IGNORECASE),
    DateRole.AS_OF: re.compile(
        r"\b(as of|as at|valid on|in force on|on the date|по состоянию на|на дату|действ\w*)\b",
        re.IGNORECASE),
}
NOW = re.compile(
    r"\b(today|now|currently|at the moment|this week|right now|сейчас|сегодня|"
    r"на данный момент|в настоящее время|теперь)\b", re.IGNORECASE)


@dataclass(frozen=True)
class DateMention:
    text: str
    start: int
    value: dt.date | None  # None when partial or invalid
    partial: bool = False  # a day/month without a year, or a month alone
    invalid: bool = False  # e.g. 31 February
    role: DateRole | None = None


def _month(token: str) -> int | None:
    t = token.lower().rstrip(".")
    if t in EN_MONTHS:
        return EN_MONTHS[t]
    for stem, n in RU_MONTH_STEMS:
        if t.startswith(stem) and (stem != "ма" or re.fullmatch(r"ма[йяею]", t)):
            return n
    return None


def _make(y: int | None, m: int | None, d: int | None) -> tuple[dt.date | None, bool, bool]:
    if y is None or m is None or d is None:
        return None, True, False
    try:
        return dt.date(y, m, d), False, False
    except ValueError:
        return None, False, True


def find_dates(text: str) -> list[DateMention]:
    """Every date mention in `text`, left to right, non-overlapping, with its role cue."""
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            if kind == "iso":
                value, partial, invalid = _make(int(m[1]), int(m[2]), int(m[3]))
            elif kind == "dmy_num":
                value, partial, invalid = _make(int(m[3]), int(m[2]), int(m[1]))
            elif kind == "d_month_y":
                value, partial, invalid = _make(
                    int(m[3]) if m[3] else None, _month(m[2]), int(m[1]))
            elif kind == "month_d_y":
                value, partial, invalid = _make(
                    int(m[3]) if m[3] else None, _month(m[1]), int(m[2]))
            else:
                if _month(m[1]) is None or (m[1].lower() in ("may", "mar", "jun", "dec")
                                            and not m[0].lower().startswith("in ")
                                            and not m[2]):
                    continue  # "may" the verb; bare short month names are too ambiguous
                value, partial, invalid = None, True, False
            taken.append((m.start(), m.end()))
            found.append(DateMention(m[0].strip(), m.start(), value, partial, invalid))
    found.sort(key=lambda d: d.start)
    return [_with_role(text, d) for d in found]


def _with_role(text: str, mention: DateMention) -> DateMention:
    """The cue closest before the date (within its clause) names its role."""
    clause_start = max(text.rfind(c, 0, mention.start) for c in ".;?!") + 1
    window = text[max(clause_start, mention.start - 60):mention.start]
    best: tuple[int, DateRole] | None = None
    for role, cue in ROLE_CUES.items():
        for m in cue.finditer(window):
            if best is None or m.start() > best[0]:
                best = (m.start(), role)
    if best is None:
        return mention
    return DateMention(mention.text, mention.start, mention.value, mention.partial,
                       mention.invalid, best[1])
