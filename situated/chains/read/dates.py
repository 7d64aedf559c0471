"""Date mentions in English and Russian questions, with the role each one plays.

Recognised forms: `15 March 2026`, `March 15, 2026`, `15th of March 2026`, `2026-03-15`,
`15.03.2026`, `15/03/2026` (day first), `15 марта 2026 года`; *periods*: a month with its year
(`March 2024`, `в марте 2024`), a quarter (`Q1 2025`, `first quarter of 2025`, `1 квартал
2025`) and a year after a preposition (`in 2025`, `в 2025 году`), each reported with its first
and last day; and yearless forms (`in March`, `в марте`, `15 March`), reported as *partial* so
the router can ask for the year instead of guessing it. Impossible dates (`31 February 2026`)
are reported as invalid, never corrected.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, replace

from situated.documents import ValidFor
from situated.modes import Mode
from situated.months import MONTH, month_number
from situated.situation import FIRST_DAY, LAST_DAY
from situated.words import alt, each, letters, merged

# a month written before its day ("March 15, 2026")
EN_MONTH = alt("dates", "MONTH_FIRST")
ORD = rf"(?:{alt('dates', 'ORDINAL')})?"
_YEAR_WORD = rf"(?:\s*(?:{alt('dates', 'YEAR_WORD')}))?"  # «2026 года»

_QUARTER_WORDS = merged("dates", "QUARTER_WORDS")
# month words that are other words too ("may" the verb), a month only with its year or after
# the word that puts a date in a month ("in May")
_AMBIGUOUS_MONTHS = frozenset(w for words in each("dates", "AMBIGUOUS_MONTHS") for w in words)
_MONTH_IN_LEAD = re.compile(rf"(?:{alt('dates', 'MONTH_IN')})\s", re.IGNORECASE)
_PATTERNS = [
    # each language's quarter captures its number or word; the year is the last group
    ("quarter", re.compile(rf"\b(?:{alt('dates', 'QUARTER')})\s+(\d{{4}}){_YEAR_WORD}",
                           re.IGNORECASE)),
    ("iso", re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")),
    ("dmy_num", re.compile(r"\b(\d{1,2})[./](\d{1,2})[./](\d{4})\b")),
    ("d_month_y", re.compile(
        rf"\b(\d{{1,2}}){ORD}\s+(?:(?:{alt('dates', 'DAY_OF')})\s+)?({MONTH})(?:,?\s+(\d{{4}}))?"
        rf"{_YEAR_WORD}", re.IGNORECASE)),
    ("month_d_y", re.compile(rf"\b({EN_MONTH})\s+(\d{{1,2}}){ORD}(?:,?\s+(\d{{4}}))?\b",
                             re.IGNORECASE)),
    ("month_y", re.compile(rf"\b(?:(?:{alt('dates', 'MONTH_IN')})\s+)?({MONTH})(?:\s+(\d{{4}}))?"
                           rf"{_YEAR_WORD}", re.IGNORECASE)),
    ("year", re.compile(rf"(?<!\w)(?:{alt('dates', 'YEAR_IN')})\s+((?:19|20)\d\d)"
                        rf"(?:\s*(?:{alt('dates', 'YEAR_IN_WORD')}))?(?!\d)", re.IGNORECASE)),
]


class DateRole(Mode):
    """Which situation date a mention fills (see `ValidFor`)."""

    PURCHASE = ValidFor.PURCHASE_DATE.value
    REQUEST = ValidFor.REQUEST_DATE.value
    AS_OF = ValidFor.AS_OF.value
    KNOWN = "known_on"  # not a validity date: the day the records are read at ("as known on")


# A cue names a date's role only when it governs that date: the cue, at most a few closed-class
# words ("on", "the", "it", «от», «на» …) or the product's own name, then the date ("bought my
# C-3 on D", «при покупке D», "as of D"), or the date, a pronoun and the cue ("On D I bought…").
# Topic words elsewhere ("what was the *return* period on D") govern nothing. Cues are verbs
# and fixed phrases, never bare topic nouns: "returns on D" is a topic, "returned on D" a role.
_CUE_WORDS = {role: alt("dates", role.name) for role in DateRole}
_GLUE = alt("dates", "GLUE")
# between the cue and the date: glue words, codes (C-3), capitalised names (Старт, ChatGPT)
_NAME = rf"(?-i:[{letters('UPPER')}«\"][\w.«»\"'’-]*)|\w*\d[\w-]*"
_GAP_TOKEN = rf"(?:(?:{_GLUE})\b|(?:(?-i:[{letters('LOWER')}])\w*\s+)?(?:{_NAME})|[,:–—-])"
# text in quotes is a topic the asker quotes ("say about “requested data” on D"), never a cue
_QUOTED = re.compile(r"“[^”]*”|„[^“”]*[“”]|\"[^\"]*\"|«[^»]*»")


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Spans of quoted text ("…", “…”, «…»): words the asker quotes, not facts about them."""
    return [q.span() for q in _QUOTED.finditer(text)]


def inside(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(s < span[0] and span[1] < e for s, e in spans)
ROLE_CUES = {
    role: re.compile(rf"(?<!\w)(?:{words})(?:\s+{_GAP_TOKEN}){{0,4}}\s*$", re.IGNORECASE)
    for role, words in _CUE_WORDS.items()
}
# "On 15 March 2026 I bought …": the date, a subject pronoun, then the cue
_POST_CUES = {
    role: re.compile(rf"^\s*,?\s*(?:(?:{alt('dates', 'PRONOUN')})\s+)?"
                     rf"(?:{words})(?!\w)", re.IGNORECASE)
    for role, words in _CUE_WORDS.items() if role not in (DateRole.AS_OF, DateRole.KNOWN)
}
# a bare preposition before an unattached date belongs to the date ("… on D", «… на D»)
_LEAD_PREP = re.compile(rf"(?<!\w)(?:{alt('dates', 'LEAD_PREP')})\s*$", re.IGNORECASE)
NOW = re.compile(rf"\b({alt('dates', 'NOW')})\b", re.IGNORECASE)


@dataclass(frozen=True)
class DateMention:
    text: str
    start: int
    value: dt.date | None  # None when partial or invalid
    partial: bool = False  # a day/month without a year, or a month alone
    invalid: bool = False  # e.g. 31 February
    period: tuple[dt.date, dt.date] | None = None  # first and last day of a month/quarter/year
    role: DateRole | None = None
    # the span of the date with the words that govern it (cue or preposition): what the search
    # legs must not see ("bought on 15 March 2026", «по состоянию на 1 мая 2026 г.»)
    span: tuple[int, int] = (0, 0)

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def _span(y1: int, m1: int, y2: int, m2: int) -> tuple[dt.date, dt.date] | None:
    """First and last day of the months; None outside the dates a situation may hold."""
    if not (FIRST_DAY.year <= y1 and y2 <= LAST_DAY.year):
        return None
    return dt.date(y1, m1, 1), dt.date(y2, m2, calendar.monthrange(y2, m2)[1])


def _make(y: int | None, m: int | None, d: int | None) -> tuple[dt.date | None, bool, bool]:
    if y is None or m is None or d is None:
        return None, True, False
    try:
        value = dt.date(y, m, d)
    except ValueError:
        return None, False, True
    # outside the dates a situation may hold: invalid
    return (value, False, False) if FIRST_DAY <= value <= LAST_DAY else (None, False, True)


def find_dates(text: str) -> list[DateMention]:
    """Every date mention in `text`, left to right, non-overlapping, with its role cue."""
    taken: list[tuple[int, int]] = []
    found: list[DateMention] = []
    for kind, pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(m.start() < e and s < m.end() for s, e in taken):
                continue
            period = None
            if kind == "quarter":
                said = next(g for g in m.groups()[:-1] if g)
                q = int(said) if said.isdigit() else _QUARTER_WORDS[said.lower()]
                year = int(m[m.lastindex or 0])
                value, partial, invalid = None, False, False
                period = _span(year, 3 * q - 2, year, 3 * q)
                invalid = period is None
            elif kind == "year":
                value, partial, invalid = None, False, False
                period = _span(int(m[1]), 1, int(m[1]), 12)
                invalid = period is None
            elif kind == "iso":
                value, partial, invalid = _make(int(m[1]), int(m[2]), int(m[3]))
            elif kind == "dmy_num":
                value, partial, invalid = _make(int(m[3]), int(m[2]), int(m[1]))
            elif kind == "d_month_y":
                value, partial, invalid = _make(
                    int(m[3]) if m[3] else None, month_number(m[2]), int(m[1]))
            elif kind == "month_d_y":
                value, partial, invalid = _make(
                    int(m[3]) if m[3] else None, month_number(m[1]), int(m[2]))
            else:
                if month_number(m[1]) is None or (m[1].lower() in _AMBIGUOUS_MONTHS
                                                  and not _MONTH_IN_LEAD.match(m[0])
                                                  and not m[2]):
                    continue  # "may" the verb; bare short month names are too ambiguous
                value, partial, invalid = None, True, False
                if m[2]:  # a month with its year: a period, not a partial date
                    month, year = month_number(m[1]), int(m[2])
                    partial = False
                    period = None if month is None else _span(year, month, year, month)
                    invalid = period is None
            taken.append((m.start(), m.end()))
            text_m = m[0].rstrip()
            found.append(DateMention(text_m, m.start(), value, partial, invalid, period=period,
                                     span=(m.start(), m.start() + len(text_m))))
    found.sort(key=lambda d: d.start)
    quoted = quoted_spans(text)  # a date inside a quoted phrase is part of the phrase
    return [_with_role(text, d) for d in found if not inside((d.start, d.end), quoted)]


def _with_role(text: str, mention: DateMention) -> DateMention:
    """The cue that governs the date (attached before it, or right after it) names its role."""
    before = text[max(0, mention.start - 100):mention.start]
    offset = mention.start - len(before)
    quoted = quoted_spans(text)
    role, span_start, span_end = None, mention.start, mention.end
    for candidate, cue in ROLE_CUES.items():
        m = cue.search(before)
        if not m or any(s <= offset + m.start() < e for s, e in quoted):
            continue
        if role is None or offset + m.start() < span_start:
            role, span_start = candidate, offset + m.start()
    if role is None:
        after = text[mention.end:mention.end + 40]
        for candidate, cue in _POST_CUES.items():
            m = cue.match(after)
            if m:
                role, span_end = candidate, mention.end + m.end()
                break
        lead = _LEAD_PREP.search(before)
        if lead:
            span_start = offset + lead.start()
    return replace(mention, role=role, span=(span_start, span_end))


def strip_dates(text: str, mentions: list[DateMention]) -> str:
    """The text without its dates and the words that govern them (the query the legs see)."""
    out, last = [], 0
    for m in sorted(mentions, key=lambda m: m.span[0]):
        start, end = max(m.span[0], last), m.span[1]
        out.append(text[last:start])
        last = max(last, end)
    out.append(text[last:])
    stripped = re.sub(r"\s+([?.!,;:])", r"\1", re.sub(r"\s{2,}", " ", "".join(out)))
    stripped = re.sub(r"([,;:])[,;:]+", r"\1", stripped)
    return re.sub(r"^[\s,;:–—-]+|[\s,;:–—-]+$", "", stripped).strip()
