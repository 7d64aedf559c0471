"""Which release a question is about (docs/design.md "Releases"): "version 16.20.2", "v5.3.3", "16.x",
"Node 18", "firmware 2.1", «версия 2.1», or a bare "0.23.3" that is one of the index's releases.

Read by rules over the question (a cue word or a `v` before the number, a product name before
it, or a bare number that is a declared release and is not a section, step or date), then the
model's proposal when the rules find none (kept only when its text stands in the question), and
validated in code against the releases the caller may read (`Versions.release_line`): a series
("16.x", "Node 18") is its latest release; a release inside a document's range
(`applies_to_versions`) stands as asked; any other is *unknown*, a fact the answer reports
("version 13.0.0 is not among the versions …"), never silently dropped.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from packaging.version import Version

from situated import releases
from situated.chains.read.dates import quoted_spans
from situated.chains.read.products import ProductMatcher
from situated.chains.read.version_cue import CUE as _CUE
from situated.chains.read.version_cue import NUM as _NUM
from situated.index.text import STOP_WORDS
from situated.words import alt

_CUED = re.compile(rf"(?<!\w){_CUE}\s*(?:№|#|:)?\s*({_NUM})(?![\w.]*\d)", re.IGNORECASE)
_V = re.compile(r"(?<![\w.])v(\d+(?:\.\d+){0,3}(?:\.[xX*])?)(?![\w.]*\d)")
_BARE = re.compile(r"(?<![\w.§/-])(\d+\.\d+(?:\.\d+){0,2}(?:\.[xX*])?|\d+\.[xX*])(?![\w.]*\d)")
_AFTER_NAME = re.compile(rf"\s+({_NUM})(?![\w.]*\d)")
# words before a number that make it something else: "section 4.2", «пункт 3.1», "step 2.1"
_NOT_BEFORE = re.compile(rf"(?:§|{alt('periods', 'NOT_A_RELEASE')})\s*$", re.IGNORECASE)
# the words that govern a version and go with it out of the query: "in version", «в версии»
_GOVERNING = rf"(?:(?:{alt('periods', 'GOVERNING')})\s+)?"
_GOVERNS = re.compile(rf"{_GOVERNING}$", re.IGNORECASE)
# how far before a number those words are looked for (a question of 2,000 characters naming
# hundreds of numbers is read in linear time, not by rescanning its whole head per number)
_LOOKBEHIND = 48


@dataclass(frozen=True)
class Mention:
    span: tuple[int, int]  # of the version and the words that govern it
    asked: releases.Asked
    bare: bool  # a number with no cue: a version only if it is a declared release


def find_mentions(text: str, matcher: ProductMatcher | None = None) -> list[Mention]:
    """Version mentions in `text`, the cued ones first, each in order (a number with no cue is
    only a candidate). A number the asker quotes (`0.14.*`, “2.1”) is what they ask about, not
    the release they run."""
    found: dict[int, Mention] = {}
    quoted = [*quoted_spans(text), *(m.span() for m in re.finditer(r"`[^`]*`", text))]

    def add(m: re.Match, group: int, bare: bool, start: int | None = None) -> None:
        asked = releases.asked(m.group(group))
        if asked is None or m.start(group) in found or any(
                s <= m.start(group) and m.end(group) <= e for s, e in quoted):
            return
        at = start if start is not None else m.start()
        window = max(0, at - _LOOKBEHIND)  # the words just before: linear in the question
        lead = _GOVERNS.search(text[window:at])
        begin = window + lead.start() if lead and lead.group(0) else at
        found[m.start(group)] = Mention((begin, m.end(group)), asked, bare)

    for m in _CUED.finditer(text):
        add(m, 1, False)
    for m in _V.finditer(text):
        add(m, 1, False)
    for product, _, end in (matcher.spans(text) if matcher else []):
        after = _AFTER_NAME.match(text, end)
        if after:
            add(after, 1, False, start=after.start(1))
    for m in _BARE.finditer(text):
        if not _NOT_BEFORE.search(text[max(0, m.start() - _LOOKBEHIND):m.start()]):  # "16.x":
            # a series, cue or not
            add(m, 1, not re.search(r"\.[xX*]$", m.group(1)))
    return sorted(found.values(), key=lambda m: (m.bare, m.span[0]))


@dataclass(frozen=True)
class ReleaseReading:
    """The release a question is about, validated: `version` (None when it names none or an
    unknown one), what the asker wrote, and whether it was a series."""

    version: str | None = None
    said: str | None = None  # the mention as written
    unknown: str | None = None  # a named version no readable document has
    series: bool = False
    others: tuple[str, ...] = ()  # further releases the question names (a change between two)
    # a name the question gives the release's product that is no product the caller may read
    # ("Django version 5.0"): the reply names the products, never another product's line
    unbound: str | None = None


def read_release(mentions: list[Mention], declared: list[Version],
                 ranges: list[tuple[int, int]], proposed: str | None = None,
                 question: str = "", noted: Collection[Version] = ()) -> ReleaseReading:
    """The first mention that is a release of the index (or inside a document's range); a cued
    mention that is neither is `unknown`, and so is a bare number that is a release only
    release notes hold (`noted`: "What's new in 1.0.1?" where the changelog has 1.0.1 and the
    pages do not); any other bare number is not a version."""
    resolved: list[tuple[Mention, Version]] = []
    unknown = None
    for m in mentions:
        v = releases.resolve(m.asked, declared)
        if v is None and not m.asked.series and any(
                lo <= releases.key(m.asked.version) < hi for lo, hi in ranges):
            v = m.asked.version
        if v is not None:
            resolved.append((m, v))
        elif (not m.bare or m.asked.version in noted) and unknown is None:
            unknown = m.asked.text
    if not resolved and unknown is None and proposed and not mentions:
        return _proposed(proposed, question, declared)
    if not resolved:
        return ReleaseReading(unknown=unknown, said=unknown)
    first, version = resolved[0]
    return ReleaseReading(version=str(version), said=first.asked.text,
                          series=str(version) != str(first.asked.version) or first.asked.series,
                          others=tuple(dict.fromkeys(str(v) for _, v in resolved[1:]
                                                     if v != version)))


def _proposed(proposed: str, question: str, declared: list[Version]) -> ReleaseReading:
    """A model's proposed version stands only when its text is in the question and holds a
    number: "latest" (Qwen2.5-Coder-1.5B's for "Which version is the latest?") names an order,
    not a release, and the question's words already ask for it."""
    text = str(proposed).strip()
    written = rf"(?<![\w.]){re.escape(text.lstrip('vV'))}(?![\w.]*\d)"
    if not re.search(r"\d", text) or not re.search(written, question):
        return ReleaseReading()
    return checked_release(text, declared)


def checked_release(text: str, declared: list[Version],
                    ranges: Sequence[tuple[int, int]] = ()) -> ReleaseReading:
    """A release given outside the question's words (a model's proposal found in it, the
    situation a client carries) checked as a named one is: a release of the index, one inside
    a document's range, else `unknown` (reported with the nearest, never read as given)."""
    asked = releases.asked(text)
    if asked is None:
        return ReleaseReading(unknown=text, said=text)
    v = releases.resolve(asked, declared)
    if v is None and not asked.series and any(lo <= releases.key(asked.version) < hi
                                              for lo, hi in ranges):
        v = asked.version
    return ReleaseReading(version=str(v), said=text) if v is not None else ReleaseReading(
        unknown=text, said=text)


# identifiers as a question writes them: in backticks, or dotted / snake_case / CamelCase names
_IDENT = re.compile(r"`([^`\n]{2,80})`|(?<![\w.\[/-])([A-Za-z_]\w*(?:[._][A-Za-z]\w*)+|"
                    r"[a-z]+[A-Z]\w+|[A-Z][a-z]+[A-Z]\w*|[A-Z]{2,}[a-z]\w+)(?![\w\[/-])")


def identifiers(text: str) -> list[str]:
    """The identifiers a question names (`AsyncHTTPTransport`, `trust_env`, `r.aiter_text`)."""
    return list(dict.fromkeys((a or b).strip().rstrip(".") for a, b in _IDENT.findall(text)
                              if len((a or b).strip()) >= 3))


def holds(text: str, ident: str) -> bool:
    """`text` names `ident` as a whole name, qualified or not (`httpx.AsyncHTTPTransport`
    names `AsyncHTTPTransport`), case-sensitive (`Client` is not `client`)."""
    return re.search(rf"(?<!\w){re.escape(ident)}(?!\w)", text) is not None


def strip_versions(query: str, matcher: ProductMatcher | None = None) -> str:
    """The query without its version mentions and the words that govern them (the legs
    compare the version through the filter, not through the number's pieces)."""
    mentions = [m for m in find_mentions(query, matcher) if not m.bare]
    out, last = [], 0
    for m in mentions:
        out.append(query[last:m.span[0]])
        last = m.span[1]
    out.append(query[last:])
    text = re.sub(r"\s{2,}", " ", "".join(out))
    return re.sub(r"\s+([?.!,;:])", r"\1", text).strip(" ,;:") or query


# a name written before the release it asks about ("Django version 5.0", "Django 5.0") or after
# it ("version 5.0 of Django"): a capitalised word, or one with capitals inside ("NodeJs")
_NAME = r"([A-Za-z][\w+-]*(?:\.[A-Za-z]\w*)?)"


def unbound_name(text: str, said: str | None, matcher: ProductMatcher) -> str | None:
    """The name the question gives the product of release `said` (or of the versions it asks
    about, with `said` None) when it is no product `matcher` knows: "Django" in "Does Django
    version 5.0 exist?" or "How many versions of Django are there?"; None when the words around
    the release name none (or name a known product)."""
    num = re.escape(said) if said else _CUE
    before = re.search(rf"{_NAME}\s+(?:{_CUE}\s*)?(?:{num})(?![\w.]*\d)", text, re.IGNORECASE)
    after = re.search(rf"(?:{num})\s+(?:of|for|from)\s+(?:the\s+)?{_NAME}", text,
                      re.IGNORECASE)
    for m in (before, after):
        word = m.group(1) if m else None
        if word and _names_something(word) and not matcher.find(word):
            return word
    return None


def _names_something(word: str) -> bool:
    """A word that can name a product: capitalised (or capitals inside), no function word,
    no word that asks about releases."""
    return (any(c.isupper() for c in word) and word.casefold() not in STOP_WORDS
            and re.fullmatch(_CUE, word, re.IGNORECASE) is None)


__all__ = ["Mention", "ReleaseReading", "checked_release", "find_mentions", "holds",
           "identifiers", "read_release", "strip_versions", "unbound_name"]
