"""What a question's words name and how they ask, read once in `prepare` (`reader`): the
releases and version numbers it writes, the identifiers it names, the kind of change it asks
about, the words of a question about a release line, and which of its dates start a "since".

The later steps read these fields; none of them searches the question's text again. Two
readings need what only the index knows (its releases, the products the caller may read) and
are methods here, so the words are still read in this package: the release a question names
among the declared ones (`release`), and a product name it gives that no product is
(`unbound_name`)."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from packaging.version import Version

from situated.chains.read.change_kind import Kind, kind_of
from situated.chains.read.dates import DateMention, find_dates
from situated.chains.read.intent import about_the_line, since_cue
from situated.chains.read.line_words import LineWords, line_words
from situated.chains.read.products import ProductMatcher
from situated.chains.read.release import (
    Mention,
    ReleaseReading,
    find_mentions,
    identifiers,
    read_release,
    unbound_name,
)


@dataclass(frozen=True)
class Said:
    """The question's mentions and asking words (module doc); frozen, tuples throughout."""

    releases: tuple[Mention, ...]  # the releases it names, its products' names read apart
    numbers: tuple[Mention, ...]  # every version-like number, products unknown
    identifiers: tuple[str, ...]  # `AsyncHTTPTransport`, `trust_env`, `r.aiter_text`
    change_kind: Kind  # added (also the default), removed, deprecated
    about_line: bool  # it asks about the release line itself (`intent.about_the_line`)
    line: LineWords  # its words of order, end and whole
    since: tuple[bool, ...]  # per date mention, in order: the words before it say "since"
    _text: str = field(repr=False)  # read only by the two methods below

    def release(self, declared: list[Version], ranges: list[tuple[int, int]],
                proposed: str | None, noted: Collection[Version]) -> ReleaseReading:
        """The release it names among `declared` (`release.read_release`)."""
        return read_release(list(self.releases), declared, ranges, proposed, self._text, noted)

    def unbound_name(self, said: str | None, matcher: ProductMatcher) -> str | None:
        """The name it gives the product of release `said` that no product of `matcher` is."""
        return unbound_name(self._text, said, matcher)


def read_said(text: str, matcher: ProductMatcher | None = None,
              mentions: tuple[DateMention, ...] | None = None) -> Said:
    """`text` (corrected and checked) read once, with the products `matcher` knows (none by
    default) and its dates `mentions` (by default found here, `dates.find_dates`)."""
    matcher = matcher if matcher is not None else ProductMatcher(())
    mentions = mentions if mentions is not None else tuple(find_dates(text))
    return Said(
        releases=tuple(find_mentions(text, matcher)), numbers=tuple(find_mentions(text)),
        identifiers=tuple(identifiers(text)), change_kind=kind_of(text),
        about_line=about_the_line(matcher.strip(text), text), line=line_words(text),
        since=tuple(since_cue(text[m.span[0]:m.start]) for m in mentions), _text=text)


__all__ = ["Said", "read_said"]
