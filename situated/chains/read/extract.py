"""Extraction of the asker's situation behind one Runnable, and its validation in code.

Two extractors return the same `ExtractedSituation`: a chat model with structured output
(`EXTRACTION_PROMPT | model.with_structured_output(ExtractedSituation)`), or the offline
rule-based extractor. Whatever they propose goes through `validate_extraction`, which keeps only
values grounded in the question and known to the index: an unknown product, an impossible or
unreadable date, or a value absent from the question counts as missing.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict, Field

from situated.chains.read.dates import (
    NOW,
    DateMention,
    DateRole,
    find_dates,
    strip_dates,
)
from situated.chains.read.intent import Intent, LineFact, names_nothing, read_cue, talks_of_versions
from situated.chains.read.products import ProductMatcher
from situated.chains.read.release import ReleaseReading
from situated.documents import ValidFor
from situated.modes import Mode
from situated.months import month_number
from situated.situation import FIRST_DAY, LAST_DAY, Situation
from situated.words import alt

Clock = Callable[[], dt.date]


def today_in(timezone: str, now: Callable[[], dt.datetime] | None = None) -> Clock:
    """The clock "today" and "now" are read from: the date in `timezone` (the configured one),
    at the instant `now()` gives (injectable; default the system time)."""
    from zoneinfo import ZoneInfo

    zone = ZoneInfo(timezone)
    now = now or (lambda: dt.datetime.now(dt.UTC))
    return lambda: now().astimezone(zone).date()


class ExtractedSituation(BaseModel):
    """What an extractor proposes (structured-output schema; nothing here is trusted yet)."""

    model_config = ConfigDict(extra="forbid")

    product: str | None = Field(None, description="Product name or id as written, else null.")
    purchase_date: str | None = Field(None, description="YYYY-MM-DD when fully stated, else null.")
    request_date: str | None = Field(None, description="YYYY-MM-DD when fully stated, else null.")
    as_of: str | None = Field(None, description="YYYY-MM-DD when fully stated, else null.")
    known_on: str | None = Field(None, description="YYYY-MM-DD of an \"as known on\" / "
                                 "«по данным на» date when fully stated, else null.")
    partial_dates: list[str] = Field(
        default_factory=list, description="Dates written without a year, copied as written.")
    asks_about_now: bool = Field(False, description="True only if the question says today/now.")
    version: str | None = Field(
        None, description="The software, firmware or model release the question is about, "
        "copied as written (\"16.20.2\", \"v5.3\", \"2.x\"), else null.")
    intent: str | None = Field(
        None, description="\"changes\" when the question asks what changed in a document or "
        "rule (or when it changed); \"versions\" when it asks which versions exist; \"since\" "
        "when it asks in which version something was added, removed or deprecated; else null.")
    line_fact: str | None = Field(
        None, description="Only when intent is \"versions\": \"oldest\" when it asks for the "
        "first or earliest version, \"latest\" for the newest or last one, \"exists\" when it "
        "asks whether a version it names exists, \"count\" for how many, \"list\" for which; "
        "else null.")


class Meaning(Enum):
    """What the reading by meaning (`QuestionReader.by_meaning`) set on a validated question."""

    UNUSED = "unused"
    WHOLE = "whole"  # the intent and line fact, read from the whole question: its fact wins
    # the words asked only "versions" and meaning said which fact of the line: the words' own
    # order and count words still win, and the question is asked of the line
    FACT = "fact"


@dataclass(frozen=True)
class Validated:
    """A validated situation plus what the router needs to know about what was not usable."""

    situation: Situation
    partial: Mapping[str, str] = field(default_factory=dict)  # role -> text ("15 March")
    notes: tuple[str, ...] = ()  # what was dropped and why
    query: str = ""  # the question without its situation: what the search legs see
    topic: str = ""  # ... without the product it names, where relevance is judged on that
    unplaced: tuple[str, ...] = ()  # dates with no role, when several
    # role -> (first day, last day) of a month, quarter or year the question gives for it; the
    # situation holds the last day (the router checks one version covers the whole period)
    periods: Mapping[str, tuple[dt.date, dt.date]] = field(default_factory=dict)
    intent: Intent = Intent.AT  # the question's own cue, else the model's valid proposal
    line_fact: LineFact | None = None  # the model's, for a question about versions its words
    # leave open ("Up to which version does your coverage extend?"); the words decide first
    # (`line_text`), unless the whole question's meaning gave it (`Meaning.WHOLE`)
    meaning: Meaning = Meaning.UNUSED  # what the reading by meaning set (`chains.read.meaning`)
    release: ReleaseReading = field(default_factory=ReleaseReading)  # `chains.read.release`


def rule_extract(question: str, matcher: ProductMatcher,
                 mentions: list[DateMention] | None = None) -> ExtractedSituation:
    """The offline extractor: English and Russian date forms, products known to the index.

    A date takes the role of the cue that governs it; a date with no such cue is the as-of date
    (DESIGN "Dates in a question"). Two or more dates without a role are not guessed between."""
    found = matcher.find(question)
    dates: dict[str, str] = {}
    partial: list[str] = []
    unlabeled: list[dt.date] = []
    for m in find_dates(question) if mentions is None else mentions:
        if m.partial:
            partial.append(m.text)
        elif m.value is not None:
            if m.role is None:
                unlabeled.append(m.value)
            else:
                dates.setdefault(m.role.value, m.value.isoformat())
        elif m.invalid:
            role = (m.role or DateRole.AS_OF).value
            dates.setdefault(role, m.text)  # kept as written; validation rejects it
    if len(set(unlabeled)) == 1 and DateRole.AS_OF.value not in dates:
        dates[DateRole.AS_OF.value] = unlabeled[0].isoformat()
    return ExtractedSituation(  # the intent is the question's own cue (`validate_intent`)
        product=found[0] if len(found) == 1 else None, partial_dates=partial,
        asks_about_now=bool(NOW.search(question)), **dates,
    )


def _grounded_date(value: dt.date, question: str, mentions: list) -> bool:
    """Day, month and year of a proposed date all stand in the question ("bought in 2025" does
    not ground 3 July 2025)."""
    if any(m.value == value for m in mentions):
        return True
    month = any(month_number(w) == value.month for w in re.findall(r"[^\W\d_]+", question)) \
        or bool(re.search(rf"(?<!\d)0?{value.day}[./-]0?{value.month}(?!\d)|"
                          rf"(?<!\d)0?{value.month}[./-]0?{value.day}(?!\d)", question))
    return month and str(value.year) in question and bool(
        re.search(rf"(?<!\d)0?{value.day}(?!\d)", question))


_RANGE_OPEN = re.compile(rf"(?<!\w)(?:{alt('periods', 'RANGE_OPEN')})\s*$", re.IGNORECASE)
_RANGE_JOIN = re.compile(rf"^\s*(?:{alt('periods', 'RANGE_JOIN')}|[-–—])\s*$", re.IGNORECASE)


def _ranges(question: str, mentions: list) -> list[tuple[dt.date, dt.date, str]]:
    """"between D1 and D2", "from D1 to D2", «с D1 по D2»: (first, last, role) periods."""
    out = []
    dated = [m for m in mentions if m.value is not None]
    for a, b in itertools.pairwise(dated):
        if (a.value < b.value and _RANGE_JOIN.match(question[a.end:b.start])
                and _RANGE_OPEN.search(question[:a.start])
                and (a.role is None or b.role is None or a.role is b.role)):
            role = (a.role or b.role or DateRole.AS_OF).value
            out.append((a.value, b.value, role))
    return out


def _periods(base: dict[str, Any], question: str, mentions: list[DateMention],
             ) -> tuple[dict[str, tuple[dt.date, dt.date]], list[DateMention]]:
    """Periods the question gives, each set in `base` as its last day; and the mentions that
    stand alone (not one end of a "between D1 and D2")."""
    periods: dict[str, tuple[dt.date, dt.date]] = {}
    ranged = _ranges(question, mentions)
    for first, last, role in ranged:  # "between D1 and D2": one period, not two dates
        if base.get(role) is None and role not in periods:
            base[role], periods[role] = last, (first, last)
    in_range = {m.start for a, b, _ in ranged for m in mentions if m.value in (a, b)}
    single = [m for m in mentions if m.start not in in_range]
    for m in single:  # a month, quarter or year: its last day, checked over the whole period
        role = (m.role or DateRole.AS_OF).value
        if m.period is not None and base.get(role) is None and role not in periods:
            base[role], periods[role] = m.period[1], m.period
    return periods, single


def validate_intent(proposed: str | None, cue: Intent | None, notes: list[str],
                    question: str | None = None) -> Intent:
    """The question's own cue (`intent.read_cue`: its words, else those of the question a reply
    follows; or fixed by the chain: a comparison's slice is asked at its period) wins; else the
    model's proposal when it is a valid intent a single question can have (a comparison needs
    two periods, found by rules) and the question uses a word of change or versions. Naming a
    product with releases, or the word "release", is not enough: a small model proposes an
    intent for most questions that name one (docs/design.md "A model's proposal about
    versions")."""
    if cue is not None or not proposed:
        return cue or Intent.AT
    try:
        intent = Intent(str(proposed).strip().lower())
    except ValueError:
        notes.append(f"intent {proposed!r} is not one of changes, versions, since")
        return Intent.AT
    if intent is Intent.COMPARE:
        notes.append("a comparison needs two periods in the question; read as one question")
        return Intent.AT
    if question is not None and intent is not Intent.AT and not talks_of_versions(question):
        notes.append(f"intent {intent.value!r} is not in the question's words (it says nothing "
                     "of change or versions); read as a question about a moment")
        return Intent.AT
    return intent


def validate_line_fact(proposed: str | None, intent: Intent, notes: list[str]
                       ) -> LineFact | None:
    """The model's line fact when the question is about versions and the value is one of
    `LineFact`; else None (noted when something was proposed)."""
    if not proposed:
        return None
    if intent is not Intent.VERSIONS:
        notes.append(f"line fact {proposed!r} belongs to a question about versions; ignored")
        return None
    try:
        return LineFact(str(proposed).strip().lower())
    except ValueError:
        notes.append(f"line fact {proposed!r} is not one of "
                     f"{', '.join(f.value for f in LineFact)}; ignored")
        return None


class NotRead(Mode):
    """A reading not made yet (None is a reading: "the words give no cue")."""

    NOT_READ = "not read"


def validate_extraction(
    proposed: ExtractedSituation, question: str, matcher: ProductMatcher, clock: Clock,
    carried: Situation | None = None, *, mentions: Sequence[DateMention] | None = None,
    cue: Intent | None | NotRead = NotRead.NOT_READ, notes: Sequence[str] = (),
) -> Validated:
    """Keep only what the question states and the index knows; merge over the carried turn.
    `mentions`: the question's dates when already found (`find_dates`), so they are read once;
    `cue`: the intent the question's words give, None where they give none (`intent.read_cue`,
    read once by the chain; `NOT_READ`: read here), which wins over the proposal's (`validate_intent`); `notes`: what the
    proposal already noted (`chains.read.proposal`), kept first."""
    notes = list(notes)
    mentions = find_dates(question) if mentions is None else list(mentions)
    cue = read_cue(question, unnamed=matcher.strip) if cue is NotRead.NOT_READ else cue
    base = (carried or Situation()).model_dump()
    product = _grounded_product(proposed.product, question, matcher, notes)
    if product:
        base["product"] = product
    for role in DateRole:
        raw = getattr(proposed, role.value)
        if not raw:
            continue
        try:
            value = dt.date.fromisoformat(str(raw).strip())
        except ValueError:
            notes.append(f"{role.value} {raw!r} is not a valid date")
            continue
        if not _grounded_date(value, question, mentions):
            notes.append(f"{role.value} {raw} is not in the question")
            continue
        if not FIRST_DAY <= value <= LAST_DAY:
            notes.append(f"{role.value} {raw} is outside the supported dates")
            continue
        base[role.value] = value
    periods, single = _periods(base, question, mentions)
    if proposed.asks_about_now and NOW.search(question):
        base["as_of"] = base["as_of"] or clock()  # stands in for every date: "return it now?"
    if base.get("known_on") and not any(base.get(vf.value) for vf in ValidFor):
        base["as_of"] = base["known_on"]  # "as known on D" alone: the rule of D, as known then
    partial = _partial_dates(proposed.partial_dates, question, mentions, base, notes)
    unroled = list(dict.fromkeys(m.text for m in single if m.value and m.role is None))
    unplaced = unroled if len({m.value for m in single if m.value and m.role is None}) > 1 \
        else []
    if unplaced:
        notes.append(f"dates without a role: {', '.join(unplaced)}; none was guessed")
    intent = validate_intent(proposed.intent, cue, notes, question)
    undated = strip_dates(question, mentions)
    line_fact = validate_line_fact(proposed.line_fact, intent, notes)
    return Validated(situation=Situation(**base), partial=partial, notes=tuple(notes),
                     query=matcher.canonical(undated),
                     topic=topic_of(undated, matcher, base["product"]),
                     unplaced=tuple(unplaced), periods=periods, intent=intent,
                     line_fact=line_fact)


def _partial_dates(proposed: Sequence[str], question: str, mentions: Sequence[DateMention],
                   base: dict, notes: list[str]) -> dict[str, str]:
    """The proposed partial dates ("March 2026") the question holds, by the role their words
    give (as of where none), for roles no whole date filled."""
    partial: dict[str, str] = {}
    for text in proposed:
        if not str(text).strip():
            notes.append("an empty partial date was proposed; ignored")
            continue
        mention = next((m for m in mentions if m.text == text and m.partial), None)
        if mention is None and text not in question:
            notes.append(f"partial date {text!r} is not in the question")
            continue
        role_name = (mention.role if mention and mention.role else DateRole.AS_OF).value
        if base.get(role_name) is None:
            partial.setdefault(role_name, text)
    return partial


def topic_of(query: str, matcher: ProductMatcher, product: str | None) -> str:
    """What the relevance rule weighs (the legs rank on the query): the question without its
    dates and, once a product is its situation, without the product's name standing as a
    word. The situation is not the topic: "What licence is pixpack released under?" over
    pixpack's docs must be weighed on "licence", not on the name every block of the product
    shares. A name inside an identifier stays (`httpx.Client`), and so does a name that is all
    the question says ("What is pixpack?"). "" where it is the query."""
    if product is None:
        return ""
    unnamed = matcher.strip(query, standalone=True)
    return "" if names_nothing(unnamed) or unnamed == query else matcher.canonical(unnamed)


def _grounded_product(proposed: str | None, question: str, matcher: ProductMatcher,
                      notes: list[str]) -> str | None:
    """The proposed product when it is one of the index's and the question names it."""
    if not proposed:
        return None
    product = matcher.resolve(proposed)
    if product is None:
        notes.append(f"product {proposed!r} is not a product of this index")
    elif product not in matcher.find(question):
        notes.append(f"product {proposed!r} is not in the question")
        return None
    return product


def supports_structured_output(model: BaseChatModel) -> bool:
    """Does the model implement tool calling (what `with_structured_output` needs)? The base
    class raises `NotImplementedError`; a model class that overrides `bind_tools` can."""
    return type(model).bind_tools is not BaseChatModel.bind_tools
