"""The release axis in the ask chain (docs/design.md "Releases"): the question's release read and
validated against the releases the caller may read, an unknown release reported, the latest
release read when the question names none (and said so), and "the version you asked about does
not have it" naming the releases that do. Nothing here calls the model."""

from __future__ import annotations

import dataclasses

from packaging.version import Version

from situated import releases
from situated.chains.extract import Validated
from situated.chains.intent import about_the_line, names_nothing
from situated.chains.release import (
    checked_release,
    elsewhere_text,
    find_mentions,
    holds,
    identifiers,
    read_release,
    strip_versions,
    unknown_text,
)
from situated.chains.release_history import PLURAL_LINE, line_answer
from situated.chains.release_text import ReleaseText
from situated.chains.route import Decision, Route
from situated.chains.state import Question, Reading
from situated.chains.wording import Lang
from situated.documents import DocKind, DocumentMeta
from situated.loaders.axes import line_of
from situated.retrievers.hybrid import SearchResult
from situated.settings import UnnamedRelease
from situated.situation import Situation


class ReleaseSteps:
    """Bound to one chain's steps (`AskSteps`): its snapshot, versions, settings and search."""

    def __init__(self, steps):
        self.steps = steps
        self.versions = steps.versions
        self.text = ReleaseText(steps.versions, self.readable)
        self._lines: dict[tuple, tuple[list[Version], list[tuple]]] = {}  # per scope, product

    def readable(self, q: Question):
        return self.steps.snap.filter(Situation(), q.scope)

    def line(self, q: Question, product: str | None) -> tuple[list[Version], list[tuple]]:
        """The declared releases the caller may read (for `product`) and the ranges of the
        documents that cover several (`applies_to_versions`); kept per scope and product for
        this generation (every question reads them)."""
        key = (q.scope, product)
        if key not in self._lines:
            if len(self._lines) > 1024:
                self._lines.clear()
            self._lines[key] = self._line(q, product)
        return self._lines[key]

    def _line(self, q: Question, product: str | None) -> tuple[list[Version], list[tuple]]:
        readable = self.readable(q)
        declared = self.versions.release_line(readable, product)
        ranges = [(f.release_lo, f.release_hi) for m in self.versions.released(readable, product)
                  if m.applies_to_versions is not None
                  for f in [self.versions.fields_of(m.source_id)]]
        return declared, ranges

    def line_name(self, q: Question, product: str | None) -> str:
        """The line as an answer names it: the product, or the one product of every readable
        release document, else "the documents"."""
        if product:
            return product
        products = {p for m in self.versions.released(self.readable(q)) for p in m.product}
        if len(products) == 1:
            return next(iter(products))
        return "документов" if q.lang is Lang.RU else PLURAL_LINE

    def validate(self, q: Question, v: Validated, proposed: str | None) -> Validated:
        """`v` with the release the question names (or its carried one), the query without it."""
        declared, ranges = self.line(q, v.situation.product)
        if not declared and not ranges:
            return v
        reading = read_release(find_mentions(q.text, q.matcher), declared, ranges, proposed,
                               q.text)
        carried = v.situation.version  # from the client's situation: checked the same way
        if reading.version is None and reading.unknown is None and carried is not None:
            reading = checked_release(carried, declared, ranges)
        situation = v.situation
        if reading.version is not None:
            situation = situation.model_copy(update={"version": reading.version})
        elif reading.unknown is not None:
            situation = situation.model_copy(update={"version": None})
        return dataclasses.replace(v, situation=situation, release=reading,
                                   query=strip_versions(v.query, q.matcher))

    def unknown(self, q: Question, v: Validated) -> Decision | None:
        """A question about a release no readable document has: say so, with the nearest."""
        said = v.release.unknown
        if said is None or v.release.version is not None:
            return None
        declared, _ = self.line(q, v.situation.product)
        return Decision(Route.NO_EVIDENCE, [], unknown_text(
            said, self.line_name(q, v.situation.product), declared, q.lang))

    def redirect(self, reading: Reading, found: SearchResult, decision: Decision) -> Decision:
        """The release axis's say on a search read by release (one named, or the latest):
        nothing relevant → an identifier the release lacks names the releases that have it,
        else whatever other releases hold something relevant (`elsewhere`); an answer →
        the identifiers it needs are checked (`lacking`), and asked which version when the
        setting says so (`ask_unnamed`)."""
        if found.filter.release is None and not found.filter.latest_only:
            return decision
        if decision.route is Route.NO_EVIDENCE:
            named = self.lacking(reading, found, decision)
            return named if named is not decision else self.elsewhere(reading, found, decision)
        if decision.route is Route.ANSWER:
            decision = self.lacking(reading, found, decision)
            if self.steps.settings.unnamed_release is UnnamedRelease.CLARIFY:
                decision = self.text.ask_unnamed(reading, decision)
        return decision

    def elsewhere(self, reading: Reading, found: SearchResult, decision: Decision) -> Decision:
        """Nothing relevant in the asked (or latest) release: when other releases hold
        something relevant, no evidence *for that release*, naming the releases that do (never
        quoting them as the answer)."""
        q, v = reading.question, reading.validated
        if not self.versions.released(self.readable(q), v.situation.product):
            return decision
        every = self.steps.snap.filter(v.situation.model_copy(update={"version": None}),
                                       q.scope)
        other = self.steps.search(reading.query, every, 3 * self.steps.settings.top_blocks)
        found_in = [self.versions.meta(b.source_id) for b in other.blocks]
        holding = [m for m in found_in if m.kind is not DocKind.NOTES] or found_in
        asked = v.situation.version or self._latest(q, holding)
        having = sorted({releases.parse(m.version) for m in holding if m.version is not None}
                        - ({releases.parse(asked)} if asked else set()))
        if asked is None or not having:
            return decision  # the asked release holds what was found: nothing to redirect to
        return Decision(Route.NO_EVIDENCE, [], elsewhere_text(
            asked, v.situation.version is None, having, q.lang))

    def line_listing(self, reading: Reading):
        """A question about the release line itself (which versions, the latest, the oldest,
        does X exist) that names no document family: answered from metadata, or None."""
        q, v = reading.question, reading.validated
        if q.named or not (names_nothing(q.matcher.strip(reading.query))
                           or about_the_line(q.matcher.strip(q.text))):
            return None  # "List the versions of the API reference": that family's listing
        declared, _ = self.line(q, v.situation.product)
        if not declared:
            return None
        return line_answer(q.text, v.release, declared, self.line_name(q, v.situation.product),
                           v.situation, q.lang)

    def lacking(self, reading: Reading, found: SearchResult, decision: Decision) -> Decision:
        """The question names an identifier no release document of the asked (or latest)
        release holds — among the found blocks' families and a search for it — while other
        releases' documents do: no evidence for that release, naming those releases (the
        answer would quote something else). An unversioned document (a changelog written at
        the last release) says nothing of what the asked release has."""
        q, v = reading.question, reading.validated
        names = identifiers(q.text)
        readable = self.readable(q)
        if not names or not self.versions.released(readable, v.situation.product):
            return decision
        families = list(dict.fromkeys(b.family for b in found.blocks))
        every = self.steps.snap.filter(v.situation.model_copy(update={"version": None}),
                                       q.scope)
        for name in names:
            holding = self._holding(name, families, every, readable)
            asked = v.situation.version or self._latest(q, holding)
            having = sorted({releases.parse(m.version) for m in holding
                             if m.version is not None} - ({releases.parse(asked)} if asked
                                                          else set()))
            if asked is None or not having or any(
                    found.filter.admits(self.versions.fields_of(m.source_id))
                    for m in holding):
                continue
            return Decision(Route.NO_EVIDENCE, [], elsewhere_text(
                asked, v.situation.version is None, having, q.lang))
        return decision

    def _holding(self, name: str, families: list[str], every, readable) -> list:
        """The release documents that name `name`: of `families`, and of a search for it."""
        # the ranking alone locates candidates (no relevance decision): each is then checked
        # to name it, word for word, before it counts
        result = self.steps.engine.rank(name, every, top=3 * self.steps.settings.top_blocks)
        families = list(dict.fromkeys([*families, *(b.family for b in result.blocks)]))
        found = [m for f in families for m in self.versions.versions_of(f, readable)
                 if m.release_scoped and any(holds(b.text, name) for b in
                                             self.versions.blocks_of(m.source_id, readable))]
        pages = [m for m in found if m.kind is not DocKind.NOTES]
        return pages or found  # notes name a release where the pages do not say it

    def _latest(self, q: Question, holding: list[DocumentMeta]) -> str | None:
        """The latest release the caller may read of the lines `holding` belong to (a line is
        a family: another family's higher numbers are not this one's latest)."""
        lines = {line_of(m) for m in holding if m.release_scoped}
        declared = [releases.parse(m.version) for m in self.versions.released(self.readable(q))
                    if m.version is not None and line_of(m) in lines]
        return str(max(declared)) if declared else None
