"""The period of a question about change, and the changes inside it: a month, quarter, year or
range (the changes inside it), "since D" / «с D» (from D on), a day (the change that day), a
release (the change to it from the release before), or none (the latest change)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass

from situated import releases
from situated.chains.read.dates import DateMention
from situated.chains.say import wording as w
from situated.chains.say.wording import Lang
from situated.chains.state import Line
from situated.documents import OPEN_END, OPEN_START, DocumentMeta, end_of_day, instant
from situated.index.versions import Versions
from situated.modes import Mode


class WindowKind(Mode):
    PERIOD = "period"  # a month, quarter, year or range: the changes inside it
    SINCE = "since"  # "since D", «с D»: from D on
    ON = "on"  # a day: the change that took effect that day
    RELEASE = "release"  # a release: the change from the release before it to that one
    LATEST = "latest"  # no date: the latest change


@dataclass(frozen=True)
class Window:
    """The period of a change question: changes whose newer version starts in [start, end]."""

    kind: WindowKind
    start: int | None = None
    end: int | None = None
    said: str = ""  # as the answer says it, after the family: " since 1 April 2026"
    release: int | None = None  # RELEASE: the release's key (`releases.key`)


def change_window(periods: Mapping[str, tuple[dt.date, dt.date]], mentions: list[DateMention],
                  since: tuple[bool, ...], tz: str, lang: Lang, version: str | None = None,
                  ) -> Window:
    if version is not None:
        return Window(WindowKind.RELEASE, said=w.fixed("window_release", lang, v=version),
                      release=releases.key_of(version))

    def window(kind: WindowKind, start: int | None = None, end: int | None = None,
               **days: dt.date) -> Window:
        said = w.fixed(f"window_{kind.value}", lang, **{k: w.day_text(d, lang)
                                                         for k, d in days.items()})
        return Window(kind, start, end, said)

    for first, last in periods.values():
        return window(WindowKind.PERIOD, instant(first, tz), end_of_day(last, tz),
                      a=first, b=last)
    for m, since_ in zip(mentions, since, strict=True):
        if m.value is None:
            continue
        if since_:
            return window(WindowKind.SINCE, instant(m.value, tz), a=m.value)
        return window(WindowKind.ON, instant(m.value, tz), end_of_day(m.value, tz), a=m.value)
    return window(WindowKind.LATEST)


Pair = tuple[DocumentMeta | None, DocumentMeta]


def pairs_in(versions: Versions, line: Line, window: Window) -> tuple[list[Pair], int]:
    """The consecutive pairs whose newer version starts inside `window` (the first version with
    no older one is a pair `(None, first)`), and how many other changes the line has."""
    members = line.members
    pairs = [(members[i - 1] if i else None, m) for i, m in enumerate(members)
             if m.valid_from is not None or m.release_scoped]
    if window.kind is WindowKind.RELEASE and window.release is not None:
        release = window.release
        at = [p for p in pairs if versions.covers(p[1], release)]
        return at[:1], len([p for p in pairs if p[0] is not None]) - len(at[:1])
    if window.kind is WindowKind.LATEST:
        real = [p for p in pairs if p[0] is not None]
        return (real[-1:], len(real) - 1) if real else (pairs[-1:], 0)
    lo = window.start if window.start is not None else OPEN_START
    hi = window.end if window.end is not None else OPEN_END
    inside = [p for p in pairs if lo <= versions.start(p[1]) <= hi]
    return inside, len([p for p in pairs if p[0] is not None]) - len(inside)


__all__ = ["Pair", "Window", "WindowKind", "change_window", "pairs_in"]
