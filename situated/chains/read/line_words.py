"""How a question about a release line asks (docs/design.md "Releases"): the words of its
order, its end and its whole, read once in `prepare` into `LineWords` (the answer from
metadata, `chains.versions.release_history`, reads only those)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from situated.chains.read.intent import LineFact
from situated.chains.read.version_words import (
    BACKWARD_WORDS,
    LISTING_ORDER,
    NEWEST_FIRST,
    NEWEST_WORDS,
    OLDEST_WORDS,
    ORDER_NAMED,
    RU_NEWEST_WORDS,
    RU_OLDEST_WORDS,
)

_EXISTS = re.compile(r"\bexists?\b|\bis\s+there\b|\bare\s+there\b(?!.*\bhow\s+many\b)|"
                     r"\b(?:include|includes|contain|contains)\b|"
                     r"(?:есть|существует)\s+ли|(?:есть|существует)\b", re.IGNORECASE)
_LATEST = re.compile(rf"\b(?:{NEWEST_WORDS}|current|last|final|greatest|biggest|maximum|max|"
                     rf"top)\b|(?<!\w)(?:{RU_NEWEST_WORDS})", re.IGNORECASE)
_OLDEST = re.compile(rf"\b(?:{OLDEST_WORDS}|first|initial|original|ancient|smallest|minimum|"
                     rf"min)\b|(?<!\w)(?:{RU_OLDEST_WORDS}|перв\w*|ранн\w*)", re.IGNORECASE)
_IN_ORDER = re.compile(LISTING_ORDER, re.IGNORECASE)
_NEWEST_FIRST = re.compile(NEWEST_FIRST, re.IGNORECASE)
_ORDER_NAMED = re.compile(ORDER_NAMED, re.IGNORECASE)
_BACKWARD = re.compile(BACKWARD_WORDS, re.IGNORECASE)
_WHICH_END = re.compile(r"\b(?:which|what)(?:['’]s|\s+is|\s+was)?\s+(?:the\s+)?(?:very\s+)?"
                        r"(?:oldest|earliest|first|newest|latest|most\s+recent|last)\b|"
                        r"(?<!\w)как(?:ая|ой|ое)\s+(?:сам\w+\s+(?:стар|ранн|нов|свеж|поздн)\w*|"
                        r"последн\w*|перв\w*)", re.IGNORECASE)
# the release named, said to be one end of the line ("Is 1.1.0 the latest version?", "Is 1.0
# really the first version you have?", «Версия 1.1.0 последняя?»): yes or no, and that end
_NAMED_END = re.compile(
    r"(?<![\w.])v?\d+(?:\.\d+)+\s+(?:really\s+|actually\s+|still\s+)?(?:the|your)\s+"
    r"(?:very\s+)?(?:(?P<new>latest|newest|most\s+recent|last|freshest)|"
    r"(?P<old>oldest|earliest|first))\b|"
    r"(?<![\w.])v?\d+(?:\.\d+)+\s+(?:—\s+|-\s+)?(?:это\s+)?(?:и\s+есть\s+)?"
    r"(?:(?P<ru_new>сам\w+\s+(?:нов|поздн|свеж)\w*|последн\w*|новейш\w*)|"
    r"(?P<ru_old>сам\w+\s+(?:стар|ранн)\w*|перв\w*|старейш\w*))", re.IGNORECASE)
_RELEASE = r"v?\d+(?:\.\d+)*(?:\.[xX*])?"
# the part of the line a listing asks for: releases after one, before one, or between two
# ("Which starlette versions came out after 0.40.0?", "list every httpx version between 0.20
# and 0.25", «Какие версии вышли после 1.0?»); "since" and "from" include the release named,
# "after" does not; "up to" and "until" include it, "before" does not («до 1.0 включительно»
# does); «по» alone is "about" («документация по 1.1.0»), a bound only in «с … по …»
_BETWEEN = re.compile(rf"\b(?:between|from)\s+(?P<lo>{_RELEASE})\s+(?:and|to|through|till|"
                      rf"until)\s+(?P<hi>{_RELEASE})(?![\w.])|"
                      rf"(?<!\w)(?:между|от|с)\s+(?P<ru_lo>{_RELEASE})\s+(?:и|до|по)\s+"
                      rf"(?P<ru_hi>{_RELEASE})(?![\w.])", re.IGNORECASE)
_AFTER = re.compile(rf"\b(?:(?P<open>after|newer\s+than|later\s+than|above|past)|"
                    rf"(?P<closed>since|from|starting\s+(?:at|with|from)))\s+"
                    rf"(?:version\s+|release\s+)?(?P<v>{_RELEASE})(?![\w.])|"
                    rf"(?<!\w)(?:(?P<ru_open>после|новее|позже)\s+(?:версии\s+|релиза\s+)?|"
                    rf"(?P<ru_closed>начиная\s+с\s+(?:версии\s+|релиза\s+)?|"
                    rf"с\s+(?:версии|релиза)\s+))(?P<ru_v>{_RELEASE})(?![\w.])", re.IGNORECASE)
_BEFORE = re.compile(rf"\b(?:(?P<open>before|older\s+than|earlier\s+than|below|prior\s+to)|"
                     rf"(?P<closed>up\s+to|until|till|through))\s+(?:version\s+|release\s+)?"
                     rf"(?P<v>{_RELEASE})(?![\w.])|"
                     rf"(?<!\w)(?:до|раньше|старше)\s+(?:версии\s+|релиза\s+)?"
                     rf"(?P<ru_v>{_RELEASE})(?![\w.])(?P<ru_closed>\s+включительно)?",
                     re.IGNORECASE)


@dataclass(frozen=True)
class Bound:
    """One end of the part of a line a listing asks for: the release as written, and whether
    it is itself included."""

    release: str
    included: bool


def _bounds(text: str) -> tuple[Bound | None, Bound | None]:
    between = _BETWEEN.search(text)
    if between and _RELEASE_LIKE.search(between.group("lo") or between.group("ru_lo")):
        lo, hi = between.group("lo") or between.group("ru_lo"), \
            between.group("hi") or between.group("ru_hi")
        return Bound(lo, True), Bound(hi, True)
    after, before = _AFTER.search(text), _BEFORE.search(text)
    return _bound(after), _bound(before)


def _bound(found: re.Match | None) -> Bound | None:
    """A bound, where its number reads as a release: dotted ("0.40.0"), written "v18", or after
    a release noun ("after version 18"); a bare number is a year or a count ("after 2024")."""
    if found is None:
        return None
    release = found.group("v") or found.group("ru_v")
    if not _RELEASE_LIKE.search(release) and not _RELEASE_NOUN.search(found.group(0)):
        return None
    return Bound(release, bool(found.group("closed") or found.group("ru_closed")))


_RELEASE_LIKE = re.compile(r"^v|\.")
_RELEASE_NOUN = re.compile(r"version|release|верси|релиз", re.IGNORECASE)


# a question about the whole line, not one release: "Which versions …", "How many …"
# ("Is 1.1.0 documented here at all?" asks of one)
_WHOLE = re.compile(r"\b(?:which|list|(?<!\bat\s)all|how\s+many|number|count)\b|какие|сколько|"
                    r"перечисл|список|все\b", re.IGNORECASE)


@dataclass(frozen=True)
class LineWords:
    """What a question's words say of a release line (each the search of its pattern above)."""

    exists: bool  # "does … exist", "is there", «есть ли»
    latest: bool  # an order word for the newest ("latest", "current", «последняя»)
    oldest: bool  # one for the oldest ("first", "earliest", «самая старая»)
    in_order: bool  # a listing in an order ("oldest first")
    newest_first: bool  # … the newest first
    order_named: bool  # an order named at all
    backward: bool  # "going back in time"
    which_end: bool  # "which is the oldest", asked outright
    whole: bool  # the whole line ("which", "how many", «сколько»)
    named_end: LineFact | None  # "Is 1.1.0 the latest?": the end the named release is said to be
    after: Bound | None = None  # the part of the line asked for: from this release on
    before: Bound | None = None  # … up to this one


def line_words(text: str) -> LineWords:
    end = _NAMED_END.search(text)
    named_end = None if end is None else (
        LineFact.LATEST if end.group("new") or end.group("ru_new") else LineFact.OLDEST)
    after, before = _bounds(text)
    return LineWords(
        exists=bool(_EXISTS.search(text)), latest=bool(_LATEST.search(text)),
        oldest=bool(_OLDEST.search(text)), in_order=bool(_IN_ORDER.search(text)),
        newest_first=bool(_NEWEST_FIRST.search(text)),
        order_named=bool(_ORDER_NAMED.search(text)), backward=bool(_BACKWARD.search(text)),
        which_end=bool(_WHICH_END.search(text)), whole=bool(_WHOLE.search(text)),
        named_end=named_end, after=after, before=before)


__all__ = ["Bound", "LineWords", "line_words"]
