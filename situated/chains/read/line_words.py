"""How a question about a release line asks (docs/design.md "Releases"): the words of its
order, its end and its whole, read once in `prepare` into `LineWords` (the answer from
metadata, `chains.versions.release_history`, reads only those)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from situated.chains.read.intent import LineFact
from situated.words import Either, alt


def _any(name: str, concern: str = "lines") -> re.Pattern[str]:
    return re.compile(alt(concern, name), re.IGNORECASE)


_EXISTS, _LATEST, _OLDEST = _any("EXISTS"), _any("LATEST"), _any("OLDEST")
_WHICH_END, _WHOLE = _any("WHICH_END"), _any("WHOLE")
# an order asked for, the newest first, any order named, going back in time (the order words
# of words/<lang>/versions.py)
_IN_ORDER, _NEWEST_FIRST = _any("LISTING_ORDER", "versions"), _any("NEWEST_FIRST", "versions")
_ORDER_NAMED, _BACKWARD = _any("ORDER_NAMED", "versions"), _any("BACKWARD_WORDS", "versions")
# the release named, said to be one end of the line ("Is 1.1.0 the latest version?",
# «Версия 1.1.0 последняя?»): its group `new` or `old` says which end
_NAMED_END = Either("lines", "NAMED_END", re.IGNORECASE)
# the part of the line a listing asks for (words/<lang>/lines.py): `lo` and `hi`, or `v` with
# `closed` where the release named is itself included
_BETWEEN = Either("lines", "BETWEEN", re.IGNORECASE)
_AFTER = Either("lines", "AFTER", re.IGNORECASE)
_BEFORE = Either("lines", "BEFORE", re.IGNORECASE)


@dataclass(frozen=True)
class Bound:
    """One end of the part of a line a listing asks for: the release as written, and whether
    it is itself included."""

    release: str
    included: bool


def _bounds(text: str) -> tuple[Bound | None, Bound | None]:
    between = _BETWEEN.search(text)
    if between and _RELEASE_LIKE.search(between.group("lo")):
        return Bound(between.group("lo"), True), Bound(between.group("hi"), True)
    after, before = _AFTER.search(text), _BEFORE.search(text)
    return _bound(after), _bound(before)


def _bound(found: re.Match[str] | None) -> Bound | None:
    """A bound, where its number reads as a release: dotted ("0.40.0"), written "v18", or after
    a release noun ("after version 18"); a bare number is a year or a count ("after 2024")."""
    if found is None:
        return None
    release = found.group("v")
    if not _RELEASE_LIKE.search(release) and not _RELEASE_NOUN.search(found.group(0)):
        return None
    return Bound(release, bool(found.group("closed")))


_RELEASE_LIKE = re.compile(r"^v|\.")
_RELEASE_NOUN = _any("RELEASE_NOUN")


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
        LineFact.LATEST if end.group("new") else LineFact.OLDEST)
    after, before = _bounds(text)
    return LineWords(
        exists=bool(_EXISTS.search(text)), latest=bool(_LATEST.search(text)),
        oldest=bool(_OLDEST.search(text)), in_order=bool(_IN_ORDER.search(text)),
        newest_first=bool(_NEWEST_FIRST.search(text)),
        order_named=bool(_ORDER_NAMED.search(text)), backward=bool(_BACKWARD.search(text)),
        which_end=bool(_WHICH_END.search(text)), whole=bool(_WHOLE.search(text)),
        named_end=named_end, after=after, before=before)


__all__ = ["Bound", "LineWords", "line_words"]
